"""touch: unit tests and differential tests against GNU touch (trees and mtimes compared)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fsup  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.commands.touch import parse_date, parse_stamp  # noqa: E402
from sandbox.fs.local import LocalDir  # noqa: E402
from sandbox.fs.vfs import VirtualFS  # noqa: E402

SKIP = fsup.gnu_available("touch")
needs_gnu = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

TREE: fsup.Tree = {"f": b"file", "d": None, "d/g": b"x"}


def test_creates_empty_private_file(tmp_path: Path) -> None:
    vfs = VirtualFS({"/": LocalDir(tmp_path)})
    assert run_command(["touch", "new"], fs=vfs) == (0, b"", b"")
    assert (tmp_path / "new").read_bytes() == b""
    assert os.stat(tmp_path / "new").st_mode & 0o777 == 0o600


def test_no_create() -> None:
    assert run_command(["touch", "-c", "nope"]) == (0, b"", b"")


def test_parsers() -> None:
    assert parse_stamp("202101011200.30") == 1609502430
    assert parse_stamp("2101011200") == 1609502400
    assert parse_date("2021-01-02 03:04:05", 0) == 1609556645
    assert parse_date("@100", 0) == 100


def mtimes(root: Path, names: list[str]) -> dict[str, int]:
    """Modification times (seconds) of the operands that exist."""
    return {n: (root / n).stat().st_mtime_ns // 10**9 for n in names if n and (root / n).exists()}


DATES = [["-d", "2021-01-02 03:04:05"], ["-d", "@100"], ["-d", "2021-01-02"], ["-d", "2021-01-02T03:04:05Z"],
         ["-d", "2020-02-30"], ["-d", "bogus date"], ["-t", "2101011200"], ["-t", "202101011200.30"],
         ["-t", "1x"], ["-t", "01011200"], ["-t", "209912312359.59"], ["-r", "f"], ["-r", "nope"], ["-c"], ["-m"],
         ["-a"], ["-d", "@1e3"]]
OPERANDS = [["f"], ["new"], ["d"], ["d/new"], ["nope/x"], ["f/x"], ["-c", "new2"], ["new", "new"], [], ["a b", "é"]]


@needs_gnu
def test_dates_and_operands_against_gnu() -> None:
    """Compare stdout, stderr, status, contents and the resulting mtimes (for explicit dates)."""
    failures = []
    for date in DATES:
        for operands in OPERANDS:
            argv = ["touch"] + date + operands
            with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
                ra, rb = Path(a), Path(b)
                fsup.build(ra, TREE)
                fsup.build(rb, TREE)
                ref = subprocess.run(argv, cwd=ra, capture_output=True, env=fsup.ENV)
                ours = run_command(argv, fs=VirtualFS({"/w": LocalDir(rb)}), cwd="/w")
                same = (ref.returncode, ref.stdout, ref.stderr) == ours and fsup.snapshot(ra) == fsup.snapshot(rb)
                if same and date[0] in ("-d", "-t", "-r"):
                    same = mtimes(ra, operands) == mtimes(rb, operands)
                if not same:
                    failures.append(f"reproduce: {fsup.reproduce(argv, TREE, b'')}\n  GNU {ref.returncode, ref.stdout, ref.stderr} {mtimes(ra, operands)}\n  ours {ours} {mtimes(rb, operands)}")
    assert not failures, f"{len(failures)} differ:\n" + "\n".join(failures[:5])
