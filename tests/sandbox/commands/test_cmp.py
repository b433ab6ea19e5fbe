"""cmp: differential tests against GNU diffutils 3.8."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import text_cmds_support as tcs  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402

FILES = {"m1": b"abc\ndef\n", "m2": b"abc\ndxf\nz", "m3": b"abc\n", "m0": b"", "n1": b"abc", "n2": b"abcd",
         "n3": b"a\nb\nc", "n4": b"a\nb\ncd", "q1": b"\x00\x01\x7f\x80\xff\xa0 \t", "q2": b"ABCDEFGH",
         "u1": "h\u00e9llo\r\n".encode(), "u2": "h\u00e8llo\r\n".encode()}

ARGS = [
    "m1 m2", "-b m1 m2", "-l m1 m2", "-lb m1 m2", "m1 m3", "m3 m1", "-l m1 m3", "-l m3 m1", "m0 m1", "m1 m0",
    "-l m0 m1", "-s m1 m3", "-s m1 m2", "-s m1 m1", "-n 5 m1 m2", "-n 0 m1 m2", "-i 1 m1 m2", "-i 1:2 m1 m2",
    "m1 m2 1 2", "m1 m2 1", "m1", "", "a b c d e", "m1 m2 1 2 3", "-x", "--foo", "-i x m1 m2", "-n x m1 m2",
    "nonexist m1", "m1 nonexist", "m1 -", "- m2", "-l m1 -", "n1 n2", "n3 n4", "-lb q1 q2", "-b q1 q2",
    "-l q1 q2", "-i 1k m1 m2", "-i 1KB m1 m2", "-i 1kB m1 m2", "-i 1K:0 m1 m2", "-n 1K m1 m2", "-n -1 m1 m2",
    "--ignore-initial=1:x m1 m2", "-l -s m1 m2", "-s -l m1 m2", "-c m1 m2", "--print-chars m1 m2",
    "--print-bytes --verbose m1 m2", "--quiet m1 m2", "--silent m1 m0", "--bytes=3 m1 m2", "-i :1 m1 m2",
    "-i 1: m1 m2", "-i 0x1 m1 m2", "-i 010 m1 m2", "-n 99999999999999999999999 m1 m2", "-i 2 m1 m2 1",
    "- -", "m1 m1", "m1 ./m1", "-v", "--version", "-b u1 u2", "-l u1 u2", "-lb u1 u2", "-i", "-n",
    "-s m1 nonexist", "-s nonexist m1", "--quiet nonexist nonexist2", "-s nonexist",
]


@pytest.mark.parametrize("args", ARGS, ids=repr)
def test_matches_gnu(args: str) -> None:
    tcs.line(f"cmp {args}", stdin=b"abc\ndxf\nz", files=FILES)


def test_directory() -> None:
    tcs.compare(["cmp", "d", "m1"], files=FILES, dirs=["d"])
    tcs.compare(["cmp", "m1", "d"], files=FILES, dirs=["d"])


def test_generated() -> None:
    def make(rng: random.Random):
        a = tcs.gen_text(rng, 15)
        b = bytearray(a)
        for _ in range(rng.randint(0, 4)):
            roll = rng.random()
            if roll < 0.4 and b:
                b[rng.randrange(len(b))] = rng.randrange(256)
            elif roll < 0.6 and b:
                del b[rng.randrange(len(b)):]
            else:
                b += bytes(rng.randrange(256) for _ in range(rng.randint(1, 5)))
        argv = ["cmp"] + rng.sample(["-b", "-l", "-n 20", "-i 3", "-i 2:4", "-s"], rng.randint(0, 2))
        argv = " ".join(argv).split()
        if "-l" in argv and "-s" in argv:
            argv.remove("-s")
        return argv + ["a", "b"], b"", {"a": a, "b": bytes(b)}

    tcs.sweep(make, seed=77)


def test_large_equal_prefix_is_fast() -> None:
    a = b"x" * (8 << 20)
    b = a[:-1] + b"y"
    code, out, _ = run_command(["cmp", "a", "b"], files={"a": a, "b": b})
    assert code == 1 and out == b"a b differ: byte 8388608, line 1\n"
