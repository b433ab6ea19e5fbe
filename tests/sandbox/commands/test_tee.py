"""tee: unit tests and differential tests against GNU tee."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fsup  # noqa: E402

from sandbox.commands import get  # noqa: E402
from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.policy import Policy  # noqa: E402

SKIP = fsup.gnu_available("tee")
needs_gnu = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

TREE: fsup.Tree = {"f": b"old\n", "d": None}


def test_passes_stdin_through_and_writes() -> None:
    code, out, err = run_command(["tee", "a", "b"], stdin=b"data\n")
    assert (code, out, err) == (0, b"data\n", b"")


def test_read_only() -> None:
    code, out, err = run_command(["tee", "a"], stdin=b"x", policy=Policy(read_only=True))
    assert code == 1 and out == b"x" and b"Read-only" in err


def test_writes() -> None:
    assert get("tee").writes(["-a", "x", "-"]) == ["x", "-"]


@needs_gnu
@pytest.mark.parametrize("seed", range(3))
def test_random(seed: int) -> None:
    rng = random.Random(seed)
    cases = []
    for _ in range(25):
        opts = rng.sample(["-a", "-i", "-p", "--append"], rng.randint(0, 2))
        operands = rng.sample(["f", "new", "d", "nope/x", "-", "f", "a b"], rng.randint(0, 3))
        cases.append((["tee"] + opts + operands, TREE, fsup.random_content(rng)))
    cases.append((["tee", "-z"], TREE, b"x"))
    fsup.check_all(cases)
