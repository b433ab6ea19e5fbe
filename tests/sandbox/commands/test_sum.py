"""sum: differential tests against GNU coreutils 9.1 (-r BSD, -s System V, names, stdin, errors)."""

from __future__ import annotations

import random
import shlex
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

FILES = {"a": b"abc", "empty": b"", "nul": b"\0\0x\0", "bad": b"\xff\xfe\xc3\n\x80", "big": bytes(range(256)) * 300,
         "z": b"\0" * 5000}

HAND = ["a", "", "a empty nul bad", "-", "-s a", "-r a", "-r -s a", "-s -r a", "--sysv big", "big", "z", "-s z",
        "missing", "a missing", "-x", "--bogus", "- a", "-s -", "sub", "-s sub"]


@pytest.mark.parametrize("args", HAND, ids=repr)
def test_hand_written(args: str) -> None:
    gts.compare(["sum", *shlex.split(args)], stdin=b"stdin\n", files=FILES, dirs=["sub"])


def test_generated() -> None:
    gts.need("sum")
    rng = random.Random("sum")
    for _ in range(60):
        data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 4000))) if rng.random() < 0.5 else gts.gen_input(rng)
        flag = rng.choice([[], ["-r"], ["-s"]])
        gts.compare(["sum", *flag, "f"], files={"f": data})
        gts.compare(["sum", *flag], stdin=data)
