"""dirname: unit tests and differential tests against GNU coreutils."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402


def test_several_operands() -> None:
    assert run_command(["dirname", "/a/b", "c", "/"]) == (0, b"/a\n.\n/\n", b"")


def test_zero_terminated() -> None:
    assert run_command(["dirname", "-z", "a/b/c"]) == (0, b"a/b\0", b"")


def test_missing_operand() -> None:
    assert run_command(["dirname"]) == (
        1, b"", b"dirname: missing operand\nTry 'dirname --help' for more information.\n")


NAMES = ["/", "//", "///", "//a", "a/", "a//b/", "", ".", "..", "/a/b/", "a", "a/b//", "x.txt",
         "/usr/lib/", "a b/c d", "\u00e9/\u00e8.t", "a\udcff/b", "-", "//a//b//", "a/./b", "/a"]

CASES = [[n] for n in NAMES] + [
    ["a/b", "c/d", "e"], ["-z", "a/b", "/"], ["--zero", "x/y"], ["-x"], ["--foo"], [],
    ["--", "-z"], ["-z"], ["--z", "a/b"],
]


@pytest.mark.parametrize("args", CASES, ids=repr)
def test_matches_gnu(args: list[str]) -> None:
    gts.compare(["dirname", *args])


def test_matches_gnu_generated() -> None:
    rng = random.Random(3)
    parts = ["a", "b.c", "", "..", ".", "x y", "\u00e9"]
    for _ in range(60):
        names = ["/".join(rng.choice(parts) for _ in range(rng.randint(1, 5))) for _ in range(rng.randint(1, 3))]
        gts.compare(["dirname", "--", *names])
