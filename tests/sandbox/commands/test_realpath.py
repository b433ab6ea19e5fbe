"""realpath: differential tests against GNU coreutils 9.1 (modes -e -m -s, --relative-to and
--relative-base inside the mounted tree, generated names)."""

from __future__ import annotations

import random
import shlex
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import paths_support as ps  # noqa: E402

HAND = [
    "f", "d", ".", "nope", "nope/x", "-s nope/x", "-s nope/../f", "-s f/x", "nope/", "-e d/ f",
    "--relative-to=d f d/e .", "--relative-base=d f d/e d", "--relative-to=d/e --relative-base=d f d/e d",
    "--relative-to=nope f", "-e --relative-to=f f", "-m --relative-to=nope/x f", "-q nope/x", "", "-z f",
    "''", "-e nope", "-m nope/../x", "-m f/x", "-L d/../f", "-P d/../f", "--relative-to=d/e/g d",
    "--relative-to=. d/e/g", "--relative-base=. d/e/g /", "--relative-base=d/e d/e/g f", "-x", "--bogus",
    "--relative-to", "--strip d/./e", "--no-symlinks .", "-qe nope", "--relative-to=d -e d/h",
]


@pytest.mark.parametrize("args", HAND, ids=repr)
def test_hand_written(args: str) -> None:
    ps.check_all([(["realpath", *shlex.split(args)], ps.TREE)])


def test_generated() -> None:
    rng = random.Random("realpath")
    cases = []
    for _ in range(150):
        flags = rng.choice([[], ["-e"], ["-m"], ["-q"], ["-z"], ["-em"]])
        if rng.random() < 0.3:
            flags.append("--relative-to=" + rng.choice(["d", "d/e", ".", "empty", "f", "nope"]))
        if rng.random() < 0.2:
            flags.append("--relative-base=" + rng.choice(["d", "d/e", "."]))
        cwd = rng.choice(["", "d", "d/e"])
        names = [ps.random_operand(rng, cwd) for _ in range(rng.randint(1, 3))]
        cases.append((["realpath", *flags, *names], ps.TREE, cwd))
    ps.check_all(cases)


def test_generated_no_symlinks() -> None:
    rng = random.Random("realpath-s")
    cases = []
    for _ in range(60):
        cwd = rng.choice(["", "d", "d/e"])
        names = [ps.random_operand(rng, cwd) for _ in range(rng.randint(1, 3))]
        cases.append((["realpath", "-s", *names], ps.TREE, cwd))
    ps.check_all(cases)
