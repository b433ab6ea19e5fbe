"""comm: differential tests against GNU coreutils 9.1."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import text_cmds_support as tcs  # noqa: E402

FILES = {"c1": b"a\nb\nd\n", "c2": b"b\nc\nd\ne", "u1": b"b\na\n", "u2": b"z\ny\nx\n", "e": b"",
         "h": b"\x00a\nA\r\nb\xff\n\xc3\xa9\n", "n": b"a\x00b\na\x00c\n"}

ARGS = [
    "c1 c2", "-1 c1 c2", "-2 c1 c2", "-12 c1 c2", "-3 c1 c2", "-13 c1 c2", "-123 c1 c2", "-23 c1 c2",
    "--output-delimiter='' c1 c2", "--output-delimiter=x --output-delimiter=y c1 c2",
    "--output-delimiter=x --output-delimiter=x c1 c2", "--output-delimiter=:: --total c1 c2", "c1", "",
    "a b c", "u1 c2", "--check-order u1 c2", "u1 u1", "--check-order u1 u1", "--nocheck-order u1 c2",
    "u1 u2", "u2 u1", "c2 u1", "-z --total c1 c2", "-z c1 n", "nonexist c1", "c1 nonexist", "e c1", "- c1",
    "c1 -", "--total -3 e e", "h c1", "n c2", "-x c1 c2", "--foo c1 c2", "--tot c1 c2", "--check c1 c2",
    "-1 --total --output-delimiter=, c1 c2",
]


@pytest.mark.parametrize("args", ARGS, ids=repr)
def test_matches_gnu(args: str) -> None:
    tcs.line(f"comm {args}", stdin=b"a\nc\n", files=FILES)


VOCAB = [b"", b"a", b"b", b"ab", b"B", b"a b", b"\xc3\xa9", b"\xff", b"a\x00", b"x\r", b"10", b"9", b"z"]


def test_generated() -> None:
    def make(rng: random.Random):
        files = {}
        for name in ("f1", "f2"):
            lines = sorted(rng.choice(VOCAB) for _ in range(rng.randint(0, 10)))
            if rng.random() < 0.2 and len(lines) > 1:
                k = rng.randrange(len(lines) - 1)
                lines[k], lines[k + 1] = lines[k + 1], lines[k]
            data = b"\n".join(lines) + (b"\n" if lines and rng.random() < 0.8 else b"")
            files[name] = data
        argv = ["comm"] + rng.sample(["-1", "-2", "-3", "--total", "--check-order", "--nocheck-order",
                                      "--output-delimiter=|"], rng.randint(0, 3))
        return argv + ["f1", "f2"], b"", files

    tcs.sweep(make, seed=66)
