"""cp: unit tests and differential tests against GNU cp (tree compared after each run)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fsup  # noqa: E402

from sandbox.commands import get  # noqa: E402
from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.limits import Limits  # noqa: E402
from sandbox.errors import LimitExceeded  # noqa: E402

SKIP = fsup.gnu_available("cp")
needs_gnu = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

TREE: fsup.Tree = {"f": b"file", "g": b"gee", "big": b"B" * 1_500_000, "d": None, "d/e": None, "d/e/x": b"x",
                   "d/f": b"df", "empty": None, "t": None, "t/d": None, "t/d/z": b"z", "a b": b"s"}


def test_copy_file_and_tree() -> None:
    code, out, err = run_command(["cp", "-rv", "d", "c"], files={"d/x": b"1", "d/y/z": b"2"})
    assert (code, err) == (0, b"")
    assert b"'d' -> 'c'\n" in out and b"'d/y/z' -> 'c/y/z'\n" in out


def test_write_budget_applies() -> None:
    with pytest.raises(LimitExceeded):
        run_command(["cp", "a", "b"], files={"a": b"x" * 1000}, limits=Limits(written_bytes=100))


def test_writes() -> None:
    assert get("cp").writes(["-r", "a", "b", "dest"]) == ["dest"]
    assert get("cp").writes(["-t", "d", "a"]) == ["d"]


def into_itself(opts: list[str], operands: list[str]) -> bool:
    """True when a directory source would be copied below itself."""
    dest = opts[opts.index("-t") + 1] if "-t" in opts else (operands[-1] if operands else "")
    sources = operands if "-t" in opts else operands[:-1]
    norm = dest.rstrip("/") + "/"
    return any(TREE.get(src.rstrip("/"), b"") is None and norm.startswith(src.rstrip("/") + "/") for src in sources)


def test_copy_into_itself_stops() -> None:
    code, out, err = run_command(["cp", "-r", "d", "d/e"], files={"d/e/x": b"1"})
    assert code == 1 and err == b"cp: cannot copy a directory, 'd', into itself, 'd/e/d'\n"


OPERANDS = ["f", "g", "big", "d", "d/e", "d/f", "empty", "t", "t/d", "nope", "new", "f/", "d/", "a b", "new/x"]


@needs_gnu
@pytest.mark.parametrize("seed", range(5))
def test_random(seed: int) -> None:
    rng = random.Random(seed)
    cases = []
    for _ in range(40):
        opts = rng.sample(["-r", "-R", "-f", "-n", "-v", "-T", "--recursive", "--verbose"], rng.randint(0, 3))
        if rng.random() < 0.15:
            opts += ["-t", rng.choice(["d", "t", "nope", "f"])]
        operands = rng.sample(OPERANDS, rng.randint(0, 3))
        if into_itself(opts, operands):
            continue  # documented deviation (partial copy order), pinned by a unit test
        cases.append((["cp"] + opts + ["--"] + operands, TREE))
    fsup.check_all(cases)


@needs_gnu
def test_fixed_cases() -> None:
    cases = [(["cp"] + args, TREE) for args in (
        [], ["f"], ["f", "f"], ["f", "d"], ["d/f", "d"], ["-v", "f", "g", "d"],
        ["f", "g", "nope"], ["d", "x"], ["-rv", "d", "t"], ["-n", "f", "g"], ["-rv", "empty", "t/d"], ["f", "empty"],
        ["-r", "empty", "f"], ["-t", "d", "f", "g"], ["-T", "f", "d"], ["-rT", "d", "t"], ["-z"], ["big", "copy"],
        ["-v", "big", "f"], ["-r", "d/", "n2"], ["f/", "x"])]
    fsup.check_all(cases)
