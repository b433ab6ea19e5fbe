"""basename: unit tests and differential tests against GNU coreutils."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402


def test_strips_directory_and_suffix() -> None:
    assert run_command(["basename", "/a/b/c.txt", ".txt"]) == (0, b"c\n", b"")


def test_multiple_with_zero() -> None:
    assert run_command(["basename", "-z", "-s", ".x", "a/b.x", "c.x"]) == (0, b"b\0c\0", b"")


def test_missing_operand() -> None:
    code, out, err = run_command(["basename"])
    assert (code, out) == (1, b"")
    assert err == b"basename: missing operand\nTry 'basename --help' for more information.\n"


NAMES = ["/", "//", "///", "//a", "a/", "a//b/", "", ".", "..", "/a/b/", "a", "a/b//", "x.txt",
         ".txt", "a.txt/", "/usr/lib/", "a b/c d", "\u00e9/\u00e8.t", "a\udcff/b", "-", "--x"]

CASES = [[n] for n in NAMES] + [
    ["a.txt", ".txt"], [".txt", ".txt"], ["a/b.c/", ".c"], ["abc", "c"], ["abc", "abc"],
    ["a", "b", "c"], ["-a", "x/y", "z/"], ["-s", ".c", "a.c", "b.c", "c"], ["--suffix=.c", "a.c"],
    ["-z", "a/b"], ["-az", "a/b", "c/"], ["-x"], ["--foo"], ["-s"], [], ["-a"], ["--", "-a"],
    ["--multiple", "a/b", "/"], ["a.x", "-a"], ["a", "-s"], ["-a", "x/y", "-s", ".z"], ["--zero", "x"], ["--su", ".c", "a.c"], ["-s", "", "a"],
]


@pytest.mark.parametrize("args", CASES, ids=repr)
def test_matches_gnu(args: list[str]) -> None:
    gts.compare(["basename", *args])


def test_matches_gnu_generated() -> None:
    rng = random.Random(2)
    parts = ["a", "b.c", ".c", "", "..", ".", "x y", "\u00e9"]
    for _ in range(60):
        name = "/".join(rng.choice(parts) for _ in range(rng.randint(1, 4)))
        args = [name] if rng.random() < 0.5 else ["-a", name, rng.choice(parts)]
        if rng.random() < 0.3:
            args = ["-s", rng.choice([".c", "c", "b.c"]), *args]
        gts.compare(["basename", "--", *args] if args[0] != "-s" else ["basename", *args])


@pytest.mark.parametrize("name", ["basename", "dirname", "wc", "sort", "uniq", "cut", "tr", "date", "seq"])
def test_help_prints_a_usage_summary(name: str) -> None:
    code, out, err = run_command([name, "--help"])
    assert (code, err) == (0, b"")
    assert out.startswith(f"Usage: {name} ".encode())
