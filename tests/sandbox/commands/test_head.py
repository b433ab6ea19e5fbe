"""head: unit tests and differential tests against GNU head."""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fsup  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402

SKIP = fsup.gnu_available("head")
needs_gnu = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")


def test_first_lines_and_headers() -> None:
    files = {"a": b"1\n2\n3\n", "b": b"x"}
    assert run_command(["head", "-n", "2", "a"]) [0] == 1  # not in the default MemoryFS
    code, out, err = run_command(["head", "-n2", "a", "b"], files=files)
    assert (code, out, err) == (0, b"==> a <==\n1\n2\n\n==> b <==\nx", b"")


def test_invalid_number() -> None:
    code, out, err = run_command(["head", "-n", "x"])
    assert code == 1 and err == "head: invalid number of lines: \u2018x\u2019\n".encode()


def test_stops_reading_after_n_lines() -> None:
    """head -n 1 on an endless-looking stream reads only what it needs."""

    class Endless(io.RawIOBase):
        reads = 0

        def readable(self) -> bool:
            return True

        def readinto(self, b) -> int:
            Endless.reads += 1
            assert Endless.reads < 100, "head read far past the first line"
            b[: len(b)] = b"line\n" * (len(b) // 5) + b"x" * (len(b) % 5)
            return len(b)

    from sandbox.commands.base import CommandContext
    from sandbox.commands import head
    from sandbox.fs.memory import MemoryFS
    from sandbox.fs.vfs import VirtualFS

    out = io.BytesIO()
    ctx = CommandContext(["head", "-n", "1"], io.BufferedReader(Endless()), out, io.BytesIO(),
                         VirtualFS({"/": MemoryFS()}))
    assert head.run(ctx) == 0
    assert out.getvalue() == b"line\n"


COUNTS = ["0", "1", "2", "3", "7", "100", "-0", "-1", "-2", "-5", "-100", "1k", "1b", "2K", "1KiB", "1kB",
          "+3", " 2", "k", "x", "", "1x", "-x", "0x10", "010", "99999999999999999999999", "1Ki", "18446744073709551615",
          "18446744073709551616", "2E", "1Q", "1Y", "1Z", "15E", "16E", "--1", "1bB"]


@needs_gnu
def test_counts_and_suffixes() -> None:
    tree = {"f": b"".join(b"line %d\n" % i for i in range(3000)), "g": b"a\nb"}
    cases = []
    for n in COUNTS:
        cases.append((["head", "-n", n, "f", "g"], tree))
        cases.append((["head", "-c", n, "g", "f"], tree))
    fsup.check_all(cases)


@needs_gnu
def test_obsolete_and_option_forms() -> None:
    tree = {"f": b"".join(b"%d\n" % i for i in range(50)), "e": b""}
    forms = [["-3"], ["-3c"], ["-3l"], ["-1b"], ["-1k"], ["-2q"], ["-2v"], ["-2z"], ["-2x"], ["-2cl"], ["-0"],
             ["-n", "3", "-5"], ["-5", "-n", "2"], ["-q"], ["-v"], ["-qv"], ["-vq"], ["--lines=4"], ["--bytes=-10"],
             ["--li", "2"], ["--quiet"], ["--silent"], ["--verbose"], ["-n"], ["-c"], ["--bogus"], ["-y"],
             ["-n", "1", "-c", "3"], ["-c", "3", "-n", "1"], ["-z", "-n", "1"], ["-999999999999999999999999l"]]
    cases = []
    for form in forms:
        cases.append((["head"] + form + ["f"], tree))
        cases.append((["head"] + form + ["f", "e", "-", "missing", "."], tree, b"in1\nin2\n"))
    fsup.check_all(cases)


@needs_gnu
@pytest.mark.parametrize("seed", range(8))
def test_random(seed: int) -> None:
    rng = random.Random(seed)
    cases = []
    for _ in range(30):
        tree = fsup.random_files(rng, rng.randint(1, 3))
        opts = []
        for _ in range(rng.randint(0, 3)):
            kind = rng.choice(["-n", "-c", "-q", "-v", "-z"])
            if kind in ("-n", "-c"):
                opts += [kind, rng.choice(["", "-"]) + str(rng.choice([0, 1, 2, 5, 10, 50, 1000, 70001]))]
            else:
                opts.append(kind)
        operands = rng.sample(sorted(tree) + ["-"], rng.randint(0, len(tree)))
        cases.append((["head"] + opts + operands, tree, fsup.random_content(rng)))
    fsup.check_all(cases)
