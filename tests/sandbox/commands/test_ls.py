"""ls: unit tests and differential tests against GNU ls (owner/group columns normalised)."""

from __future__ import annotations

import random
import re
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fsup  # noqa: E402

from sandbox.commands.ls import human_size  # noqa: E402
from sandbox.commands.testing import run_command  # noqa: E402

SKIP = fsup.gnu_available("ls")
needs_gnu = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")
OWNER_RE = re.compile(rb"^([-d][rwxsStT-]{9}[.+]? +\d+ )\S+ \S+ ", re.M)


def normalize_owner(out: bytes) -> bytes:
    """The only normalisation: GNU's owner and group names become the jail's ``user user``."""
    return OWNER_RE.sub(rb"\1user user ", out)


def test_names_one_per_line() -> None:
    code, out, err = run_command(["ls", "w"], files={"w/b": b"", "w/a": b"", "w/.h": b"", "w/d/x": b""})
    assert (code, out, err) == (0, b"a\nb\nd\n", b"")


def test_missing_operand_is_exit_2() -> None:
    code, out, err = run_command(["ls", "nope"])
    assert code == 2 and err == b"ls: cannot access 'nope': No such file or directory\n"


def test_human_size() -> None:
    assert [human_size(n) for n in (0, 1023, 1024, 1025, 1536, 4096, 10239, 10240, 1048575, 1048576, 1048577,
                                    5 << 30)] == \
        ["0", "1023", "1.0K", "1.1K", "1.5K", "4.0K", "10K", "10K", "1.0M", "1.0M", "1.1M", "5.0G"]


NOW = int(time.time())


def sample_tree(rng: random.Random) -> fsup.Tree:
    names = ["a", "B", "b.txt", ".hidden", "é", "Z", "a b", "-dash", "x\ny", "\udcff", "_u", "10", "9", "a.b.c"]
    tree: fsup.Tree = {}
    for name in rng.sample(names, rng.randint(1, len(names))):
        body = rng.choice([b"", b"x", b"y" * rng.randint(1, 20000), b"z" * rng.choice([1023, 1024, 4096, 4097, 1048577])])
        mtime = rng.choice([fsup.BASE_MTIME, NOW - 3600, NOW - 86400 * 200, NOW - 86400 * 170,
                            NOW + 86400 * 30, 946684800, fsup.BASE_MTIME + rng.randint(0, 10**7)])
        tree[name] = (body, mtime)
    for d in rng.sample(["d1", "d2", ".hd", "d1/sub", "d1/sub/deep", "empty"], rng.randint(0, 6)):
        if "/" in d and d.rsplit("/", 1)[0] not in tree:
            continue
        tree[d] = (None, rng.choice([fsup.BASE_MTIME, NOW - 100]))
        for name in rng.sample(["f", "g", ".dot", "h.txt"], rng.randint(0, 3)):
            tree[f"{d}/{name}"] = (b"q" * rng.randint(0, 9000), rng.choice([fsup.BASE_MTIME, NOW - 500]))
    return tree


FLAGS = ["-a", "-A", "-1", "-l", "-h", "-R", "-t", "-r", "-S", "-d"]


@needs_gnu
@pytest.mark.parametrize("seed", range(10))
def test_random_trees_and_flags(seed: int) -> None:
    rng = random.Random(seed)
    cases = []
    for _ in range(20):
        tree = sample_tree(rng)
        flags = rng.sample(FLAGS, rng.randint(0, 5))
        if rng.random() < 0.3:
            flags = ["-" + "".join(f[1] for f in flags)] if flags else flags
        top = sorted({k.split("/")[0] for k in tree})
        operands = rng.sample(top + ["nope", "."], rng.randint(0, 3))
        if rng.random() < 0.8:
            operands = ["--"] + operands
        else:
            operands = [o for o in operands if not o.startswith("-")]
        argv = ["ls"] + flags + operands
        # One level down, so that .. is inside the compared tree.
        nested = {"t/" + name: spec for name, spec in tree.items()}
        nested["t"] = (None, rng.choice([fsup.BASE_MTIME, NOW - 10]))
        cases.append((argv, nested, b"", normalize_owner, "t"))
    fsup.check_all(cases)


@needs_gnu
def test_dot_and_dotdot_from_a_subdirectory() -> None:
    tree = {"top": (None, fsup.BASE_MTIME), "top/a": (b"a", fsup.BASE_MTIME), "top/.b": (b"bb", NOW - 60),
            "top/sub": (None, NOW - 7200), "other": (b"x" * 5000, fsup.BASE_MTIME)}
    cases = [(["ls"] + flags, tree, b"", normalize_owner, "top")
             for flags in (["-a"], ["-la"], ["-lA"], ["-laR"], ["-lat"], ["-laS"], ["-lar"], ["-ld", ".", ".."],
                           ["-l", ".."], ["-aR", ".."], ["-lh", ".."], ["-a1"], ["-Aa"], ["-aA"], ["-l1"], ["-1l"])]
    fsup.check_all(cases)


@needs_gnu
def test_bad_options() -> None:
    cases = [(["ls", flag], {"a": b""}) for flag in ("-y", "--nope", "--al", "--reverse=x", "-lz")]
    fsup.check_all(cases)
