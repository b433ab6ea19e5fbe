"""memtool's bash tool prints what bash prints where the store reads a file whole into memory
(the dry-run overlay every call runs on, ``MemoryFS``): ``wc < file`` pads its columns as for a
regular file, not as for a pipe (``sandbox.fs.base.FileContent``). Each script runs under real
bash + GNU in the memory directory and through ``Memory.shell``; stdout and status compared."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from memtool import Memory
from sandbox import Sandbox
from sandbox.fs.memory import MemoryFS

SCRIPTS = ["wc -lw < notes.md", "wc < core.md", "wc -c < notes.md", "wc -lc < core.md; echo x | wc -lc",
           "cat notes.md | wc -lw", "wc -l < notes.md < core.md", "wc -m -l < notes.md",
           "wc -lw notes.md - < core.md", "wc -L < notes.md"]


@pytest.mark.parametrize("script", SCRIPTS)
def test_whole_file_reads_are_files(tmp_path: Path, script: str) -> None:
    mem = tmp_path / "mem"
    mem.mkdir()
    (mem / "core.md").write_text("# Core\n- likes tea\n- lives in Köln\n")
    (mem / "notes.md").write_text("".join(f"- note {i} about something\n" for i in range(40)))
    ref = subprocess.run(["bash", "-c", script], cwd=mem, capture_output=True,
                         env={"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"})
    out, err, status = Memory(mem).shell(script)
    assert (status, out) == (ref.returncode, ref.stdout.decode()), err
    files = {"core.md": (mem / "core.md").read_bytes(), "notes.md": (mem / "notes.md").read_bytes()}
    r = Sandbox({"/m": MemoryFS(files)}, cwd="/m").run(script)
    assert (r.exit_code, r.stdout) == (ref.returncode, ref.stdout)
