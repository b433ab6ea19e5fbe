"""tsort: differential tests against GNU coreutils 9.1."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import text_cmds_support as tcs  # noqa: E402

INPUTS = [
    b"a b\nb c\nc d\n", b"a b b a\n", b"a b\nb c\nc a\nc d\nd e\ne d\nx y", b"a", b"", b"a a\nb b\n",
    b"x y z w\ny w\n", b"3 1\n1 2\n2 3\n4 2\n5 4\n4 5\n", b"a\tb\r c\n", b"\xc3\xa9 \xff\n\xff z\n",
    b"  lead   trail  \n", b"a b\na b\na b\n", b"1 2 2 3 3 1 1 3\n",
]


@pytest.mark.parametrize("data", INPUTS, ids=repr)
def test_matches_gnu(data: bytes) -> None:
    tcs.compare(["tsort"], stdin=data)


@pytest.mark.parametrize("args", ["nonexist", "f g", "--foo", "-x", "f", "-", "-- f", "--help"])
def test_operands(args: str) -> None:
    tcs.line(f"tsort {args}", stdin=b"s t\n", files={"f": b"q r\nr q\n", "g": b""})


def test_generated() -> None:
    def make(rng: random.Random):
        names = [b"n%d" % i for i in range(rng.randint(1, 12))]
        pairs = []
        for _ in range(rng.randint(0, 25)):
            a, b = rng.choice(names), rng.choice(names)
            if rng.random() < 0.8 and a > b:  # mostly acyclic, some loops
                a, b = b, a
            pairs.append(a + rng.choice([b" ", b"\t", b"\n"]) + b)
        data = b"\n".join(pairs)
        if rng.random() < 0.05:
            data += b" odd"
        return ["tsort"], data, None

    tcs.sweep(make, seed=122)
