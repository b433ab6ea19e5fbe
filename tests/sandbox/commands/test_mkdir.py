"""mkdir: unit tests and differential tests against GNU mkdir (tree compared after each run)."""

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

SKIP = fsup.gnu_available("mkdir")
needs_gnu = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

TREE: fsup.Tree = {"f": b"file", "d": None, "d/e": None, "d/e/g": b"x"}


def test_creates_and_reports() -> None:
    code, out, err = run_command(["mkdir", "-pv", "a/b"])
    assert (code, out, err) == (0, b"mkdir: created directory 'a'\nmkdir: created directory 'a/b'\n", b"")


def test_read_only_policy_refuses() -> None:
    code, _, err = run_command(["mkdir", "x"], policy=Policy(read_only=True))
    assert code == 1 and b"Read-only file system" in err


def test_mode_is_refused_clearly() -> None:
    code, _, err = run_command(["mkdir", "-m", "755", "x"])
    assert code == 1 and b"not supported" in err


def test_writes() -> None:
    assert get("mkdir").writes(["-p", "a/b", "-v", "c"]) == ["a/b", "c"]


NAMES = ["new", "f", "d", "d/e", "d/new", "f/x", "nope/x", "a//b/", "c/./d", "n1/../n2", "", "d/e/g/h", "é", "a b",
         ".hid", "x/y/z", "d/e/", "--", "-"]


@needs_gnu
@pytest.mark.parametrize("seed", range(4))
def test_random(seed: int) -> None:
    rng = random.Random(seed)
    cases = []
    for _ in range(40):
        opts = rng.sample(["-p", "-v", "--parents", "--verbose"], rng.randint(0, 2))
        operands = rng.sample(NAMES, rng.randint(0, 3))
        cases.append((["mkdir"] + opts + operands, TREE))
    fsup.check_all(cases)


@needs_gnu
def test_fixed_cases() -> None:
    cases = [(["mkdir"] + args, TREE) for args in (
        [], ["-p"], ["f"], ["-p", "f"], ["-p", "f/x/y"], ["d"], ["-p", "d"], ["-pv", "d/e/new/deeper"], ["-z"],
        ["--bogus", "x"], ["-v", "a", "a"], ["-pv", "a", "a/b", "a/b"], ["-p", ""], ["-pv", "///"], ["-pv", "x/"])]
    fsup.check_all(cases)
