"""rm: unit tests and differential tests against GNU rm (tree compared after each run)."""

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

SKIP = fsup.gnu_available("rm")
needs_gnu = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

TREE: fsup.Tree = {"f": b"file", "g": b"", "d": None, "d/e": None, "d/e/x": b"x", "d/y": b"y", "empty": None,
                   "a b": b"s", "é": b"u"}


def test_removes_files() -> None:
    code, out, err = run_command(["rm", "-v", "a"], files={"a": b"x", "b": b"y"})
    assert (code, out, err) == (0, b"removed 'a'\n", b"")


def test_protected_path_is_refused() -> None:
    code, _, err = run_command(["rm", "log"], files={"log": b"x"}, policy=Policy(protected=frozenset({"/log"})))
    assert code == 1 and b"cannot remove 'log'" in err


def test_interactive_refused() -> None:
    code, _, err = run_command(["rm", "-i", "a"], files={"a": b""})
    assert code == 1 and b"not available" in err


def test_writes() -> None:
    assert get("rm").writes(["-rf", "a", "b"]) == ["a", "b"]


OPERANDS = ["f", "g", "d", "d/e", "d/e/x", "empty", "nope", ".", "..", "d/..", "f/", "d/", "a b", "é", "d/e/", "", "/"]


@needs_gnu
@pytest.mark.parametrize("seed", range(4))
def test_random(seed: int) -> None:
    rng = random.Random(seed)
    cases = []
    for _ in range(40):
        opts = rng.sample(["-f", "-r", "-R", "-d", "-v", "--force", "--recursive", "--dir"], rng.randint(0, 3))
        operands = rng.sample(OPERANDS[:-1], rng.randint(0, 3))
        cases.append((["rm"] + opts + ["--"] + operands, TREE))
    fsup.check_all(cases)


@needs_gnu
def test_fixed_cases() -> None:
    cases = [(["rm"] + args, TREE) for args in (
        [], ["-f"], ["-r"], ["-z"], ["--bogus"], ["-rv", "d"], ["-dv", "empty", "d"], ["-rf", "nope", "d/e"],
        ["-r", "."], ["-rf", ".."], ["-r", "d/."], ["f", "f"], ["-fr", "d", "d"], ["-v", "f", "d/y", "g"])]
    fsup.check_all(cases)


def test_planted_symlink_is_unlinked_not_followed(tmp_path: Path) -> None:
    from sandbox.fs.local import LocalDir
    from sandbox.fs.vfs import VirtualFS

    (tmp_path / "jail").mkdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "keep").write_bytes(b"k")
    (tmp_path / "jail" / "d").mkdir()
    (tmp_path / "jail" / "d" / "link").symlink_to(tmp_path / "outside")
    vfs = VirtualFS({"/m": LocalDir(tmp_path / "jail")})
    assert run_command(["rm", "-r", "d"], fs=vfs, cwd="/m") == (0, b"", b"")
    assert (tmp_path / "outside" / "keep").read_bytes() == b"k"
    assert not (tmp_path / "jail" / "d").exists()


def test_unknown_option_names_the_file_that_looks_like_one() -> None:
    """GNU's diagnose_leading_hyphen: after an unknown option, ``Try 'rm ./-x' to remove the
    file '-x'.`` for the first argument that is an existing file starting with ``-``."""
    tree = {"-x": b"", "-v": b"", "-a b": b"", "--foo": b"", "f": b""}
    fsup.check_all([(["rm", *args], tree) for args in (
        ["-x"], ["-f", "-x"], ["-rf", "-z", "-x"], ["-q", "-v"], ["-z", "-a b"], ["--foo"], ["-z", "f"],
        ["-q", "-nosuch"], ["-v", "-x", "-q"])])
