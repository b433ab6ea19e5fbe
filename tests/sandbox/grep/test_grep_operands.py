"""grep operands against GNU grep 3.8 on real directories: ``-f -`` (patterns from stdin),
``-r`` with one file operand (no name prefix), and ``-r`` over directories holding symbolic
links and FIFOs (skipped silently while recursing; a link named on the command line is refused
in one line, as the jail never follows links).

Our side runs over a ``LocalDir`` mount of an identical temporary tree.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import grep_support as gs  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.fs.local import LocalDir  # noqa: E402
from sandbox.fs.vfs import VirtualFS  # noqa: E402


def _build(root: Path, with_specials: bool) -> None:
    (root / "d" / "sub").mkdir(parents=True)
    (root / "f").write_bytes(b"x1\nother\n")
    (root / "g").write_bytes(b"nothing\n")
    (root / "d" / "a").write_bytes(b"x2\n")
    (root / "d" / "sub" / "b").write_bytes(b"x3\ny\n")
    if with_specials:
        os.symlink("../f", root / "d" / "link")
        os.symlink("sub", root / "d" / "dirlink")
        os.mkfifo(root / "d" / "fifo")
        os.mkfifo(root / "d" / "sub" / "fifo2")


def _run_both(args: list[str], stdin: bytes, with_specials: bool, cwd: str = ""
              ) -> tuple[tuple, tuple]:
    grep = gs.need_grep()
    with tempfile.TemporaryDirectory() as ref, tempfile.TemporaryDirectory() as ours:
        _build(Path(ref), with_specials)
        _build(Path(ours), with_specials)
        proc = subprocess.run(["grep"] + args, executable=grep, input=stdin, capture_output=True,
                              cwd=os.path.join(ref, cwd), env=gs.REF_ENV, timeout=30)
        vfs = VirtualFS({"/w": LocalDir(ours)})
        mine = run_command(["grep"] + args, stdin=stdin, fs=vfs,
                           cwd="/w" + ("/" + cwd if cwd else ""))
        return (proc.returncode, proc.stdout, proc.stderr), mine


def _sorted(out: bytes) -> bytes:
    """GNU walks in directory (hash) order, ours in sorted order: compare the set of lines."""
    return b"".join(sorted(out.splitlines(keepends=True)))


CASES = [
    (["-f", "-", "f"], b"x1\n", ""),
    (["-f", "-", "f", "g"], b"x\nnothing\n", ""),
    (["-f", "-"], b"x\n", ""),  # patterns take stdin; the input is then empty
    (["-c", "-f", "-", "f"], b"", ""),  # no pattern at all: GNU exits 1 before reading
    (["-c", "-f", "-", "f", "missing"], b"", ""),
    (["-L", "-f", "-", "f", "g"], b"", ""),
    (["-vc", "-f", "-", "f", "g"], b"", ""),
    (["-vx", "-f", "-", "f"], b"", ""),
    (["-v", "-e", "", "f", "missing"], b"", ""),  # -v with only the empty pattern: exit 1 early
    (["-v", "-e", "", "-e", "", "f", "missing"], b"", ""),
    (["-vc", "-f", "-", "f"], b"\n", ""),
    (["-vL", "-e", "", "f", "g"], b"", ""),
    (["-vx", "-e", "", "f"], b"", ""),
    (["-v", "-e", "", "-e", "zz", "f", "missing"], b"", ""),
    (["-f", "-", "f"], b"\n", ""),  # one empty pattern matches every line
    (["-e", "zz", "-f", "-", "f"], b"oth\n", ""),
    (["-r", "x", "f"], b"", ""),
    (["-r", "-n", "x", "f"], b"", ""),
    (["-r", "-c", "x", "f"], b"", ""),
    (["-r", "-l", "x", "f"], b"", ""),
    (["-r", "x", "-"], b"x\n", ""),
    (["-r", "x", "f", "g"], b"", ""),
    (["-r", "-h", "x", "d"], b"", ""),
    (["-r", "-H", "x", "f"], b"", ""),
    (["-r", "x", "d"], b"", ""),
    (["-r", "-c", "x", "d"], b"", ""),
    (["-r", "x"], b"", "d"),
    (["-r", "zzz", "d"], b"", ""),
    (["-R", "x", "f"], b"", ""),
    (["--directories=recurse", "x", "f"], b"", ""),
]


@pytest.mark.parametrize("with_specials", [False, True])
@pytest.mark.parametrize("args,stdin,cwd", CASES)
def test_operands_like_gnu(args: list[str], stdin: bytes, cwd: str, with_specials: bool) -> None:
    gnu, ours = _run_both(args, stdin, with_specials, cwd)
    assert (ours[0], _sorted(ours[1]), ours[2]) == (gnu[0], _sorted(gnu[1]), gnu[2]), (
        args, stdin, gnu, ours)


def test_command_line_link_is_refused_in_one_line() -> None:
    """GNU -r follows a symbolic link named on the command line; the jail never does: one
    line on stderr, status 2 (nothing else matched)."""
    with tempfile.TemporaryDirectory() as ours:
        _build(Path(ours), True)
        vfs = VirtualFS({"/w": LocalDir(ours)})
        code, out, err = run_command(["grep", "-r", "x", "d/link"], fs=vfs, cwd="/w")
        assert (code, out) == (2, b"")
        assert err.count(b"\n") == 1 and err.startswith(b"grep: d/link: ")
        assert ours.encode() not in err
