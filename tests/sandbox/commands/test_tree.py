"""tree: differential tests against tree 2.1 on random trees (names with spaces, newlines,
unicode, invalid UTF-8, hidden names), every supported option and its errors."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fsup  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.fs.local import LocalDir  # noqa: E402
from sandbox.fs.vfs import VirtualFS  # noqa: E402


def _tree_version() -> str | None:
    path = shutil.which("tree")
    if path is None:
        return "reference tool 'tree' is not installed"
    out = subprocess.run([path, "--version"], capture_output=True).stdout
    return None if out.startswith(b"tree v2.") else "reference tool 'tree' is not tree 2.x"


SKIP = _tree_version()
needs_tree = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")
NAMES = ["a", "B", "b c", ".hidden", "é", "x\ny", "\udcff", "10", "9", "a.txt", "b.md", "-dash", "e\u0301\u0085",
         "tab\there", "z"]
DIRS = ["d", "D2", ".hd", "d/sub", "d/sub/deep", "empty", "sp ace"]


def random_tree(rng: random.Random) -> fsup.Tree:
    """Directories and files with hostile names, under the working directory ``t``."""
    tree: fsup.Tree = {"t": None}
    dirs = [d for d in rng.sample(DIRS, rng.randint(0, len(DIRS)))]
    times = [fsup.BASE_MTIME, fsup.BASE_MTIME - 100, fsup.BASE_MTIME + 5000]
    for d in sorted(dirs):
        if "/" in d and d.rsplit("/", 1)[0] not in dirs:
            continue
        tree["t/" + d] = (None, rng.choice(times))
    parents = [""] + [k[2:] + "/" for k in tree if k != "t"]
    for _ in range(rng.randint(0, 12)):
        tree["t/" + rng.choice(parents) + rng.choice(NAMES)] = (b"x", rng.choice(times))
    # a name may be both a file and a directory prefix: keep directories
    return {k: v for k, v in tree.items()
            if not (isinstance(v, tuple) and v[0] is not None and any(o.startswith(k + "/") for o in tree))}


FLAGS = [["-a"], ["-d"], ["-L", "1"], ["-L", "2"], ["-L", "3"], ["-f"], ["-i"], ["-F"], ["--dirsfirst"],
         ["--noreport"], ["-I", "d"], ["-I", "*.txt|b*"], ["-P", "*.txt"], ["-P", "[a-c]*"], ["-P", "?"],
         ["-I", "[^a]"], ["-P", "*e*|z"], ["-af"], ["-di"], ["-fi"], ["-aF"], ["-L", "0x2"], ["-L", "1x"],
         ["-r"], ["-t"], ["-tr"], ["--filesfirst"], ["-n"], ["-rn"]]


@needs_tree
@pytest.mark.parametrize("seed", range(3))
def test_generated(seed: int) -> None:
    rng = random.Random(seed)
    cases = []
    for _ in range(20):
        tree = random_tree(rng)
        argv = ["tree"]
        for flags in rng.sample(FLAGS, rng.randint(0, 4)):
            argv += flags
        top = sorted({k.split("/")[1] for k in tree if k.count("/") >= 1})
        if rng.random() < 0.3:
            argv += rng.sample(top + [".", "nope", "./"], rng.randint(1, 2))
        cases.append((argv, tree, b"", None, "t"))
    fsup.check_all(cases)


HAND = [[], ["-a"], ["-d"], ["-L", "1"], ["-f"], ["-i"], ["-F"], ["--dirsfirst"], ["--noreport"],
        ["-I", "d|a"], ["-P", "*.txt"], ["-P", "b*|[a-c]", "-I", "x*"], ["-P", "[^a]"], ["-P", "[!a]"],
        ["-P", "a\\.txt"], ["-I", "su?", "-I", "e"], [".", "d"], ["nope"], ["--noreport", "nope"], ["--", "-a"],
        ["-f", "."], ["-f", "./"], ["-f", ".//"], ["-fi", "d"], ["-L", "0"], ["-L", "x"], ["-L", "-1"],
        ["-L", "4294967297"], ["-L"], ["-I"], ["-P"], ["-L1"], ["-Z"], ["--foo"], ["-aZ"], ["a.txt"],
        ["-F", "d"], ["-ad"], ["--dirsfirst", "-d"], ["-d", "-P", "x"], ["-a", "-I", ".*"], ["-", "d"],
        ["-t"], ["-r"], ["-tr"], ["--filesfirst"], ["--dirsfirst", "-r"], ["--filesfirst", "-t"], ["-n"],
        # --du totals: an operand's own size only when it lists nothing; a file operand's fields
        ["--du", "empty", "d"], ["--du", "-s", "d", "a.txt"], ["-s", "a.txt"], ["-p", "-h", "a.txt", "d"],
        ["--du", "-d", "empty", "d"], ["-F", "a.txt"], ["--du", "-h", "empty"]]


@needs_tree
def test_hand_written() -> None:
    rng = random.Random(42)
    cases = []
    for argv in HAND:
        for _ in range(2):
            tree = random_tree(rng)
            tree.update({"t/d": None, "t/d/sub": None, "t/d/sub/g": b"", "t/a.txt": b"x", "t/empty": None})
            cases.append((["tree", *argv], tree, b"", None, "t"))
    fsup.check_all(cases)


@needs_tree
def test_executables_get_a_star_with_F() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name, mode in (("run.sh", 0o755), ("plain", 0o644), ("x", 0o700)):
            Path(tmp, name).write_bytes(b"")
            os.chmod(Path(tmp, name), mode)
        Path(tmp, "dir").mkdir()
        for flags in (["-F"], ["-F", "-f"], ["-F", "--dirsfirst"]):
            ref = subprocess.run(["tree", *flags], cwd=tmp, capture_output=True, env=fsup.ENV)
            ours = run_command(["tree", *flags], fs=VirtualFS({"/w": LocalDir(tmp)}), cwd="/w")
            assert ours == (ref.returncode, ref.stdout, ref.stderr), flags


def test_help_and_version() -> None:
    code, out, _ = run_command(["tree", "--help"])
    assert code == 0 and out.startswith(b"usage: tree")
    assert run_command(["tree", "--version"])[1].startswith(b"tree v2.1.0")


XML_FLAGS = [[], ["-s", "-p"], ["-d"], ["-L", "1"], ["-f"], ["-i"], ["--noreport"], ["--du", "-s"], ["-J", "--du"], ["--du", "-d"], ["-J", "-X"],
             ["-X", "-J"], ["-P", "*.txt", "--prune"], ["-a", "-F"], ["-D", "--timefmt=%F"], ["-h"], ["-i", "-d"]]


@needs_tree
@pytest.mark.parametrize("flags", XML_FLAGS, ids=" ".join)
def test_xml_output(flags: list[str]) -> None:
    """``-X`` (the corpus's ``tree -X``): tree 2.1's XML, names escaped, the root counted as
    ``-J`` counts it, a file operand's ``<error>``, ``-i``'s few hard newlines."""
    rng = random.Random(" ".join(flags))
    cases = []
    for operands in ([], ["."], ["d", "a.txt"], ["empty", "d"]):
        tree = random_tree(rng)
        tree.update({"t/d": None, "t/d/sub": None, "t/d/sub/g": b"", "t/a.txt": b"x", "t/empty": None,
                     "t/q&<>\"'.md": b"q"})
        if flags[-1:] != ["-X"] and "-J" in flags:  # (-J over a file operand is refused)
            operands = [o for o in operands if o != "a.txt"]
        argv = ["tree", "-X", *flags, *operands] if "-J" not in flags else ["tree", *flags, *operands]
        cases.append((argv, tree, b"", None, "t"))
    fsup.check_all(cases)
