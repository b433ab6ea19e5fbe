"""mv: unit tests and differential tests against GNU mv (tree compared after each run)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fsup  # noqa: E402

from sandbox.commands import get  # noqa: E402
from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.fs.memory import MemoryFS  # noqa: E402
from sandbox.fs.vfs import VirtualFS  # noqa: E402

SKIP = fsup.gnu_available("mv")
needs_gnu = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

TREE: fsup.Tree = {"f": b"file", "g": b"gee", "d": None, "d/e": None, "d/e/x": b"x", "d/f": b"df", "empty": None,
                   "t": None, "t/d": None, "t/d/z": b"z", "a b": b"s"}


def test_rename_and_into_directory() -> None:
    code, out, err = run_command(["mv", "-v", "a", "b", "d"], files={"a": b"1", "b": b"2", "d/x": b""})
    assert (code, err) == (0, b"")
    assert out == b"renamed 'a' -> 'd/a'\nrenamed 'b' -> 'd/b'\n"


def test_across_mounts_copies_then_removes() -> None:
    vfs = VirtualFS({"/a": MemoryFS({"d/x": b"1", "d/y/z": b"2"}), "/b": MemoryFS({})})
    assert run_command(["mv", "/a/d", "/b/d"], fs=vfs) == (0, b"", b"")
    assert vfs.read_bytes("/b/d/y/z") == b"2"
    assert not vfs.exists("/a/d")


def test_writes() -> None:
    assert get("mv").writes(["-f", "a", "b"]) == ["a", "b"]
    assert get("mv").writes(["-t", "d", "a"]) == ["a", "d"]


OPERANDS = ["f", "g", "d", "d/e", "d/f", "empty", "t", "t/d", "nope", "new", "f/", "d/", "a b", "d/e/x", "new/x"]


@needs_gnu
@pytest.mark.parametrize("seed", range(5))
def test_random(seed: int) -> None:
    rng = random.Random(seed)
    cases = []
    for _ in range(40):
        opts = rng.sample(["-f", "-n", "-v", "-T", "--verbose", "--no-clobber"], rng.randint(0, 2))
        if rng.random() < 0.15:
            opts += ["-t", rng.choice(["d", "t", "nope", "f"])]
        operands = rng.sample(OPERANDS, rng.randint(0, 3))
        cases.append((["mv"] + opts + ["--"] + operands, TREE))
    fsup.check_all(cases)


@needs_gnu
def test_fixed_cases() -> None:
    cases = [(["mv"] + args, TREE) for args in (
        [], ["f"], ["f", "f"], ["d", "d/e"], ["d", "d"], ["f", "d"], ["d/f", "d"], ["-v", "f", "g", "d"],
        ["f", "g", "nope"], ["f", "g", "a b"], ["d", "t"], ["-n", "f", "g"], ["-v", "empty", "t/d"], ["f", "empty"],
        ["empty", "f"], ["-t", "d", "f", "g"], ["-T", "f", "d"], ["-T", "empty", "t"], ["-z"], ["-t"],
        ["-t", "nope", "f"], ["-vT", "f", "g", "d"], ["f", "g", "f"], ["-t", "d", "-T", "f"])]
    fsup.check_all(cases)


def test_new_slash_target_under_a_missing_directory_is_enoent() -> None:
    """``mv core.md missing/dir/``: resolving the parent fails first (ENOENT, not ENOTDIR);
    cp creates the same way."""
    tree = {"core.md": b"c\n", "notes.md": b"n\n", "d/x": b"x\n", "e": None}
    fsup.check_all([([tool, *args], tree) for tool in ("mv", "cp") for args in (
        ["core.md", "missing/dir/"], ["core.md", "missing/"], ["core.md", "notes.md/x/"],
        ["core.md", "e/new/"], ["core.md", "/nonexistent/a/"], ["core.md", "notes.md", "missing/d/"])])
