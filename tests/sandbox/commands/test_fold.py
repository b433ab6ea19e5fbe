"""fold: differential tests against GNU coreutils 9.1."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import text_cmds_support as tcs  # noqa: E402

TEXT = (b"ab\tcd\bef\rgh ij  kl\tmnop qrstu\n" + b"x" * 30 + b" " + b"y" * 7 + b"\n\xc3\xa9\xc3\xa9\xc3\xa9\n"
        b"  \n\t\t\t\n\b\b\bback\n\x00nul\x00 bytes \xff\xfe here\r\n" + b"word " * 40 + b"\nno newline at end")

ARGS = [
    "", "-w 5", "-w 5 -s", "-b -w 5", "-b -s -w 3", "-s20", "-3", "-w2 -3", "-w 1", "-s -w 1", "-b -w 1",
    "-w 8 -s", "-w 9", "-w 7 -b -s", "-w 0", "-w x", "-w -1", "-w ' 5'", "-w +5", "-w 5k",
    "-w 18446744073709551606", "-w 18446744073709551607", "-w 99999999999999999999999", "-x", "--foo",
    "--width=10 --spaces", "--bytes --width 4", "-w", "nonexist -", "- nonexist", "-- -3", "--help", "--he", "--version",
]


@pytest.mark.parametrize("args", ARGS, ids=repr)
def test_matches_gnu(args: str) -> None:
    tcs.line(f"fold {args}", stdin=TEXT)


def test_directory_and_files() -> None:
    files = {"a": b"abcdefghij\nk", "b": b"1 2 3 4 5 6\n"}
    tcs.compare(["fold", "-w", "3", "a", "d", "b"], files=files, dirs=["d"])


def test_generated() -> None:
    def make(rng: random.Random):
        data = tcs.gen_text(rng)
        argv = ["fold", "-w", str(rng.choice([1, 2, 3, 5, 8, 10, 20, 40]))]
        if rng.random() < 0.5:
            argv.append("-s")
        if rng.random() < 0.3:
            argv.append("-b")
        return argv, data, None

    tcs.sweep(make, seed=55)
