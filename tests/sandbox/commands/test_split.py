"""split: differential tests against GNU coreutils 9.1 (the files left behind are compared)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import text_cmds_support as tcs  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.policy import Policy  # noqa: E402
from sandbox.commands import split  # noqa: E402

LI = b"a\nbb\nccc\ndddd\ne\n"
FILES = {"li": LI, "in": b"0123456789", "nt": b"a\nb\nc", "em": b"", "z": b"a\0b\0c\0d"}

ARGS = [
    "li", "-l 2 li", "-l 1 li", "-2 li", "-l 0 li", "-l x li", "-b 3 li", "-b 0 li", "-b 1x li", "-b 1K li",
    "-b 1KB li", "-b 2b li", "-C 4 li", "-C 1 li", "-C 0 li", "-C 6 nt", "-n 3 in", "-n 3 li", "-n 4 li",
    "-n 20 li", "-n 20 -e li", "-n l/3 li", "-n l/8 li", "-n l/8 -e li", "-n l/1 li", "-n l/20 li",
    "-n 3/5 li", "-n r/3 li", "-n r/2/3 li", "-n l/2/3 li", "-n r/8 -e li", "-n 0 li", "-n 5/3 li",
    "-n 0/3 li", "-n x/3 li", "-n l/x li", "-n r/2/0 li", "-n 200 -a 1 li", "-a 0 li", "-a x li", "-a 1 -l 1 li",
    "-l 2 -b 3 li", "-n 2 -l 3 li", "-d -l 1 li", "-x -l 1 li", "--numeric-suffixes=a li",
    "--numeric-suffixes=5 -l 1 li", "--numeric-suffixes=123 -a 2 li", "--numeric-suffixes=07 -l 2 li",
    "--hex-suffixes=9 -l 1 li", "--hex-suffixes=g li", "-t ab li", "-t '\\0' -l 2 z", "-t : -l 1 li",
    "-e -l 2 li", "--additional-suffix=a/b li", "--additional-suffix=.txt -l 2 li", "--verbose -l 3 li",
    "-l 99999999999999999999999 li", "-l 2 li pre", "-l 2 li pre.", "-l 2 - p", "-l 1 nt", "em", "-n 3 em",
    "-n l/2 em", "li a b", "nonexist", "--foo", "-z", "-u -n r/2 li", "-n 2 -d --additional-suffix=s in",
    "-b 4 -a 3 -d in",
]


@pytest.mark.parametrize("args", ARGS, ids=repr)
def test_matches_gnu(args: str) -> None:
    tcs.line(f"split {args}", stdin=LI, files=FILES)


def test_suffixes_widen_as_gnu() -> None:
    data = b"".join(b"%d\n" % i for i in range(700))
    tcs.compare(["split", "-l", "1", "big"], files={"big": data})
    tcs.compare(["split", "-l", "1", "-d", "big"], files={"big": data[:800]})


def test_read_only_refused_and_declared() -> None:
    assert split.writes(["-l", "2", "in", "pre"]) == ["preaa"]
    code, _, err = run_command(["split", "li"], files={"li": LI}, policy=Policy(read_only=True))
    assert code == 1 and b"Read-only file system" in err


def test_generated() -> None:
    def make(rng: random.Random):
        data = tcs.gen_text(rng, 20)[:1500]  # long generated lines would make thousands of files
        roll = rng.random()
        if roll < 0.3:
            argv = ["split", "-l", str(rng.randint(1, 6))]
        elif roll < 0.5:
            argv = ["split", "-b", str(rng.randint(1, 40))]
        elif roll < 0.6:
            argv = ["split", "-C", str(rng.randint(1, 40))]
        else:
            argv = ["split", "-n", rng.choice(["", "l/", "r/"]) + str(rng.randint(1, 9))]
        if rng.random() < 0.2:
            argv.append("-e")
        if rng.random() < 0.2:
            argv.append("-d")
        return argv + ["f"], b"", {"f": data}

    tcs.sweep(make, seed=133)
