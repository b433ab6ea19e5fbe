"""readlink: differential tests against GNU coreutils 9.1 (the jail has no links: plain readlink
always fails; -f -e -m canonicalise, checked on generated names)."""

from __future__ import annotations

import random
import shlex
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import paths_support as ps  # noqa: E402

HAND = [
    "f", "-v f", "-f d/../f", "-f nope", "-f nope/x", "-v -f nope/x", "-e nope", "-ev nope", "-m nope/../x/y",
    "-n -f f f", "-fn f", "-f f/x", "-vf f/x", "", "-f ''", "-vf ''", "-vm ''", "-v -f d/", "-f f/", "-vm f/x",
    "-ve f/", "-z -f f d", "-e d/e/g", "-e d/e/g/", "-f nope/", "-m nope/", "-vf nope/..", "-vf d/e/../../f",
    "-f /", "-m ../..", "-x f", "--bogus", "-qf nope/x", "-sv nope", "-vq nope",
    "-f . d 'sp ace' é", "--canonicalize f", "--canonicalize-existing d", "--canonicalize-missing q",
    "--no-newline -f f", "--zero -f f", "--verbose d", "-e .", "-fe nope", "-ef nope",
]


@pytest.mark.parametrize("args", HAND, ids=repr)
def test_hand_written(args: str) -> None:
    ps.check_all([(["readlink", *shlex.split(args)], ps.TREE)])


def test_generated() -> None:
    rng = random.Random("readlink")
    cases = []
    for _ in range(150):
        flags = rng.choice([["-f"], ["-e"], ["-m"], ["-fv"], ["-ev"], ["-mv"], ["-v"], ["-fz"], []])
        cwd = rng.choice(["", "d", "d/e"])
        names = [ps.random_operand(rng, cwd) for _ in range(rng.randint(1, 3))]
        cases.append((["readlink", *flags, *names], ps.TREE, cwd))
    ps.check_all(cases)
