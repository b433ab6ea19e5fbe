"""The virtual tree around the mounts: each run's scratch ``/tmp`` and the listing of a
directory mounted as the root."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sandbox import Limits
from sandbox.api import Sandbox
from sandbox.fs.memory import MemoryFS
from sandbox.fs.vfs import VirtualFS

ROOT = Path(__file__).resolve().parents[3]


def test_each_run_has_its_own_empty_tmp(tmp_path: Path) -> None:
    sb = Sandbox({"/.memory": str(tmp_path)}, cwd="/.memory")
    r = sb.run('t=$(mktemp); echo hi > "$t"; cat "$t"; sort /dev/null > /tmp/s; ls /tmp | wc -l; ls /')
    assert (r.exit_code, r.stdout, r.stderr) == (0, b"hi\n2\ndev\ntmp\n", b"")
    again = sb.run("ls -A /tmp | wc -l")
    assert again.stdout == b"0\n"  # the first run's files are gone
    assert list(tmp_path.iterdir()) == []  # nothing reached the memory directory


def test_tmp_writes_count_against_the_write_limit(tmp_path: Path) -> None:
    sb = Sandbox({"/.memory": str(tmp_path)}, cwd="/.memory", limits=Limits(written_bytes=1000))
    r = sb.run("seq 1000 > /tmp/big; echo after")
    assert r.exit_code != 0 and b"limit" in r.stderr and b"after" not in r.stdout


def test_no_scratch_when_asked_or_when_a_mount_holds_tmp(tmp_path: Path) -> None:
    (tmp_path / "tmp").mkdir()
    (tmp_path / "tmp" / "keep").write_text("k\n")
    assert Sandbox({"/": str(tmp_path)}).run("cat /tmp/keep").stdout == b"k\n"
    off = Sandbox({"/.memory": str(tmp_path)}, cwd="/.memory", scratch=None).run("mktemp")
    assert off.exit_code == 1 and b"No such file or directory" in off.stderr
    mounted = Sandbox({"/tmp": MemoryFS({"x": b"mine\n"})}).run("cat /tmp/x")
    assert mounted.stdout == b"mine\n"


def test_a_directory_mounted_as_the_root_lists_as_itself(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("")
    assert VirtualFS({"/": MemoryFS({"a": b""})}).listdir("/") == ["a"]
    assert VirtualFS({"/m": MemoryFS()}).listdir("/") == ["dev", "m"]
    r = Sandbox({"/": str(tmp_path)}).run("ls; ls /; ls /dev | grep -x null; test -c /dev/null && echo c")
    assert r.stdout == b"a\na\nnull\nc\n"


def test_the_command_line_runs_dynamic_code_with_dynamic(tmp_path: Path) -> None:
    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "sandbox", "--root", str(tmp_path), *args],
                              capture_output=True, cwd=ROOT, timeout=60)

    script = 'C=$(echo echo); $C hi; eval "echo ev"'
    assert cli("--dynamic", "-c", script).stdout == b"hi\nev\n"
    refused = cli("-c", script)
    assert refused.returncode == 126 and b"not a literal word" in refused.stderr
