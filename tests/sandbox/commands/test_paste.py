"""paste: differential tests against GNU coreutils 9.1."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import text_cmds_support as tcs  # noqa: E402

FILES = {"a": b"a\nb\nc", "b": b"1\n2\n", "e": b"", "c": b"x\r\ny\x00z\n\xff\n\xc3\xa9\n4\n5\n"}

ARGS = [
    "a b", "a b c", "b a c e", "-s a b c e", "-s a", "- -", "- a -", "-d , a b c", "-d '\\\\' a b",
    "-d 'x\\0y\\\\t' a b a b", "-s -d ',\\n' a b", "-d '' a b", "-s -d '' c", "-d 'a\\' a", "-d '\\' a",
    "-d 'a b\\' a", "-d 'a\"\\' a", "-d 'é' a b c", "-d '\\q\\n' a b a", "-d '\\b\\f\\r\\v' a b c a",
    "-z a b", "-z -s c", "e e", "-s e", "a nonexist", "nonexist", "-x", "--foo", "--serial --delimiters=: a c",
    "-s - -", "-s - a", "-d", "a - - -", "--zero-terminated - -",
]


@pytest.mark.parametrize("args", ARGS, ids=repr)
def test_matches_gnu(args: str) -> None:
    tcs.line(f"paste {args}", stdin=b"s1\ns2\ns3\ns4\ns5", files=FILES)


def test_directory_reads_empty_with_error() -> None:
    tcs.compare(["paste", "d", "a"], files=FILES, dirs=["d"])


def test_generated() -> None:
    def make(rng: random.Random):
        files = {f"f{i}": tcs.gen_text(rng, 12) for i in range(3)}
        argv = ["paste"]
        if rng.random() < 0.3:
            argv.append("-s")
        if rng.random() < 0.5:
            argv += ["-d", rng.choice([",", ":;", "\\t\\0", "ab\\n", "", "\\\\"])]
        if rng.random() < 0.1:
            argv.append("-z")
        ops = [rng.choice(["f0", "f1", "f2", "-"]) for _ in range(rng.randint(1, 4))]
        return argv + ops, tcs.gen_text(rng, 10), files

    tcs.sweep(make, seed=44)
