"""The command line: ``python -m sandbox`` (run as a real subprocess)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def cli(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "sandbox", *args], input=stdin,
                          capture_output=True, env=env, timeout=60, cwd=ROOT)


def test_root_and_script(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello\n")
    p = cli("--root", str(tmp_path), "-c", "cat a.txt; echo x > b.txt; exit 3")
    assert (p.returncode, p.stdout) == (3, b"hello\n")
    assert (tmp_path / "b.txt").read_text() == "x\n"


def test_stdin_is_passed(tmp_path: Path) -> None:
    p = cli("--root", str(tmp_path), "-c", "cat; echo done", stdin=b"piped\n")
    assert p.stdout == b"piped\ndone\n"


def test_mount_and_cwd(tmp_path: Path) -> None:
    (tmp_path / "core.md").write_text("core\n")
    p = cli("--mount", f"/.memory={tmp_path}", "--cwd", "/.memory", "-c", "cat core.md; ls /")
    assert p.stdout.startswith(b"core\n")


def test_guard_rejection_126(tmp_path: Path) -> None:
    p = cli("--root", str(tmp_path), "-c", "eval x; rm y")
    assert p.returncode == 126
    assert b"eval" in p.stderr and b"rm" in p.stderr and p.stdout == b""


def test_allow_and_read_only(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a\n")
    p = cli("--root", str(tmp_path), "--allow", "cat", "-c", "head -n 1 a.txt")
    assert p.returncode == 126 and b"head" in p.stderr
    p = cli("--root", str(tmp_path), "--read-only", "-c", "echo x > a.txt")
    assert p.returncode == 126 and b"read-only" in p.stderr
    assert (tmp_path / "a.txt").read_text() == "a\n"


def test_interactive(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    p = cli("--root", str(tmp_path), stdin=b"echo one\ncat a.txt\neval x\n")
    assert b"one\nalpha\n" in p.stdout
    assert b"refused" in p.stderr


def test_bad_arguments(tmp_path: Path) -> None:
    assert cli("-c", "echo").returncode == 2
    assert cli("--mount", "nodir", "-c", "echo").returncode == 2
    p = cli("--root", str(tmp_path / "missing"), "-c", "echo")
    assert p.returncode == 2 and str(tmp_path) not in p.stderr.decode()
