"""Differential tests of ``env`` and ``printenv`` against GNU coreutils 9.1, run through the
whole sandbox with ``env -i`` (the environment is the sandbox's, never the host's, so only an
environment both sides build from nothing can be compared)."""

from __future__ import annotations

import os
import random
import shlex
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from exec_support import check_all, missing  # noqa: E402

pytestmark = pytest.mark.skipif(missing("env") is not None, reason=str(missing("env")))

HAND = [
    "env -i A=1 B=2",
    "env -i B=1 A=1 B=2",
    "env -i A= =x",
    "env -i -0 A=1 B=2 | cat -A",
    "env -i A=1 env",
    "env -i A=1 B=2 env -u A",
    "env -i A=1 env --unset=A B=3",
    "env -u 'a=b' true; echo $?",
    "env -i -0 true; echo $?",
    "env -i -C /; echo $?",
    "env -C nope true; echo $?",
    "env -C d cat x",
    "env -i - A=1",
    "env -i A=1 - B=2",
    "env -z; echo $?",
    "env --bogus; echo $?",
    "env -u; echo $?",
    "env -i A=1 printenv A B; echo $?",
    "env -i A=1 printenv -0 A | cat -A",
    "env -i A=1 B=2 printenv",
    "env -i A=1 B=2 printenv --null",
    "env -i A=1 printenv A=1; echo $?",
    "printenv -x; echo $?",
    "env -i X=é printenv X",
    "env -i 'X=a b' cat f1",
    "env -i -- A=1",
    "env -i A=1 true; echo $?",
    "env -i A=1 false; echo $?",
    "env -i A=1 echo hi",
]


@pytest.mark.parametrize("script", HAND)
def test_hand_written(script: str) -> None:
    check_all([(script, {"f1": b"one\n", "d/x": b"x"})])


def test_generated() -> None:
    rng = random.Random(151)
    cases = []
    for _ in range(int(os.environ.get("ENV_CASES", "60"))):
        words = ["env", "-i"]
        names = ["A", "B", "C_1", "x"]
        for _ in range(rng.randint(0, 2)):
            words += rng.choice([["-u", rng.choice(names)], [f"--unset={rng.choice(names)}"]])
        for _ in range(rng.randint(0, 5)):
            words.append(f"{rng.choice(names)}={rng.choice(['', '1', 'a b', 'é', '=', 'x=y'])}")
        tail = rng.choice([[], ["printenv"], ["printenv", rng.choice(names)], ["env", "-u", "A"],
                           ["printenv", "-0"]])
        cases.append((shlex.join(words + tail) + " | cat -A; echo $?", {}))
    check_all(cases)
