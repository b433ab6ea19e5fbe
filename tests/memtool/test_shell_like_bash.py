"""memtool's bash tool prints what bash prints where the store reads a file whole into memory
(the dry-run overlay every call runs on, ``MemoryFS``): ``wc < file`` pads its columns as for a
regular file, not as for a pipe (``sandbox.fs.base.FileContent``). Each script runs under real
bash + GNU in the memory directory and through ``Memory.shell``; stdout and status compared."""

from __future__ import annotations

import os
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


TIME_SCRIPTS = [
    "touch -d '2026-01-01 00:00' core.md && ls -l --time-style=long-iso core.md | cut -d' ' -f6-",
    "touch -t 202601011200 notes.md && stat -c %y notes.md",
    "touch -d @1700000000 core.md; touch -r core.md notes.md && stat -c '%Y %n' core.md notes.md",
    "cp -p core.md c2 && stat -c %Y core.md c2 | uniq | wc -l",
    "touch -d '2025-06-01' core.md && find . -newer core.md -name '*.md' | sort",
    "touch -m -d '2026-09-30 10:00' notes.md && ls -t *.md | head -1",
]


@pytest.mark.parametrize("script", TIME_SCRIPTS)
def test_times_set_by_the_tool_are_kept(tmp_path: Path, script: str) -> None:
    """``touch -d``, ``touch -r``, ``cp -p`` through the bash tool set the time as GNU does,
    and the time is on the file afterwards (it was dropped by the dry-run layer)."""
    mem = tmp_path / "mem"
    ref_dir = tmp_path / "ref"
    for d in (mem, ref_dir):
        d.mkdir()
        (d / "core.md").write_text("# Core\n- likes tea\n")
        (d / "notes.md").write_text("- a note\n")
        for name in ("core.md", "notes.md"):
            os.utime(d / name, (1780000000, 1780000000))
    ref = subprocess.run(["bash", "-c", script], cwd=ref_dir, capture_output=True,
                         env={"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"})
    out, err, status = Memory(mem).shell(script)
    assert (status, out) == (ref.returncode, ref.stdout.decode()), err
    for name in ("core.md", "notes.md"):
        assert os.stat(mem / name).st_mtime_ns == os.stat(ref_dir / name).st_mtime_ns, name


def test_the_hidden_version_directory_leaves_no_trace(tmp_path: Path) -> None:
    """memtool's own ``.memtool`` entry (made on the first change) changes neither the memory
    directory's time nor its link count as the tools show them."""
    mem, ref_dir = tmp_path / "mem", tmp_path / "ref"
    for d in (mem, ref_dir):
        d.mkdir()
        (d / "core.md").write_text("# Core\n")
        (d / "notes.md").write_text("- a\n")
        (d / "conversations.jsonl").write_text("")
    script = "echo '- b' >> notes.md; stat -c '%h %Y %n' . core.md"
    for d in (mem, ref_dir):
        os.utime(d, (1780000000, 1780000000))
    ref = subprocess.run(["bash", "-c", script], cwd=ref_dir, capture_output=True,
                         env={"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"})
    for d in (mem, ref_dir):  # notes.md was appended to, not created: . keeps its time
        os.utime(d, (1780000000, 1780000000))
    out, err, status = Memory(mem).shell(script)
    assert (status, out) == (ref.returncode, ref.stdout.decode()), err
    assert (mem / ".memtool").is_dir() and os.stat(mem).st_mtime == 1780000000


def _twin_dirs(mem: Path, ref_dir: Path, dir_time: int | None = None) -> None:
    """The same small memory directory at ``mem`` (for memtool) and ``ref_dir`` (for bash):
    core.md dated 1780000000, notes.md, an empty conversations.jsonl (else memtool bootstraps
    it and the directory changes), the directory itself dated ``dir_time`` when given."""
    for d in (mem, ref_dir):
        d.mkdir(parents=True)
        (d / "core.md").write_text("# Core\n")
        (d / "notes.md").write_text("- a\n")
        (d / "conversations.jsonl").write_text("")
        os.utime(d / "core.md", (1780000000, 1780000000))
        if dir_time is not None:
            os.utime(d, (dir_time, dir_time))


def _bash(script: str, cwd: Path) -> subprocess.CompletedProcess:
    """``script`` run by real bash in ``cwd`` (UTC, C.UTF-8, no input)."""
    return subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, input=b"",
                          env={"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"})


DIR_SCRIPTS = [
    "mkdir -p archive/2026; stat -c '%h %n' . archive archive/2026",
    "mkdir a b; rmdir a; stat -c '%h %s' . b; ls -la | head -2 | cut -c1-12",
    "mkdir -p x/y; mv x z; stat -c '%h %n' . z z/y",
    "mkdir t && echo hi > t/f && rm -r t; stat -c %h .",
    "echo new > n.md; find . -maxdepth 0 -newer core.md | wc -l",
    "rm notes.md; find . -maxdepth 0 -newer core.md | wc -l",
    "echo more >> notes.md; find . -maxdepth 0 -newer core.md | wc -l",
]


@pytest.mark.parametrize("script", DIR_SCRIPTS)
def test_directories_count_links_and_change_times_as_the_kernel(tmp_path: Path, script: str) -> None:
    """A directory made or removed through the tool counts in its parent's links (each ``..``
    is one), and adding or removing an entry makes the directory's time now, in the dry-run
    layer as on disk; appending to a file does not."""
    mem, ref_dir = tmp_path / "mem", tmp_path / "ref"
    _twin_dirs(mem, ref_dir, dir_time=1770000000)
    ref = _bash(script, ref_dir)
    out, err, status = Memory(mem).shell(script)
    assert (status, out) == (ref.returncode, ref.stdout.decode()), err


def test_the_parent_of_the_memory_directory_lists_as_a_directory_holding_just_it(tmp_path: Path) -> None:
    """``ls -la`` in /.memory shows ``..`` as bash shows the parent of a memory directory that
    is alone in its parent (links 3); ``ls -la /`` counts the jail root's own subdirectories."""
    mem, ref_dir = tmp_path / "a" / "mem", tmp_path / "b" / "ref"
    _twin_dirs(mem, ref_dir)
    script = "ls -la | sed -n 3p | cut -c1-12"
    ref = _bash(script, ref_dir)
    out, err, status = Memory(mem).shell(script)
    assert (status, out) == (ref.returncode, ref.stdout.decode()) == (0, "drwxr-xr-x 3\n"), err
    out, err, status = Memory(mem).shell("ls -a / | grep -vcxE '[.]|[.][.]'; stat -c %h /")
    count = int(out.split()[0])
    assert out == f"{count}\n{count + 2}\n" and status == 0, err


MOVE_SCRIPTS = [
    "mkdir -p a/b && echo x > a/b/f && mv a c && stat -c '%Y %n' c/b/f core.md",
    "mv core.md c2.md && stat -c '%Y %n' c2.md",
    "touch -d @1700000000 notes.md && echo more >> notes.md && find . -name notes.md -newer core.md",
    "touch -d @1700000000 . && echo x > new.md && find . -maxdepth 0 -newer core.md",
    "mkdir z && ls -ld --time-style=+%Y z | cut -c1-11",
    "echo > f; mkdir d; a=$(stat -c %y f d); sleep 0.02; b=$(stat -c %y f d); [ \"$a\" = \"$b\" ] && echo same",
]


@pytest.mark.parametrize("script", MOVE_SCRIPTS)
def test_times_through_moves_and_writes_as_the_kernel(tmp_path: Path, script: str) -> None:
    """``mv`` keeps a file's time; a write or a new entry makes it now, also after ``touch -d``."""
    mem, ref_dir = tmp_path / "mem", tmp_path / "ref"
    _twin_dirs(mem, ref_dir)
    ref = _bash(script, ref_dir)
    ref_out = ref.stdout.decode().replace("drwxr-xr-x", "drwx------")  # new directories are 0700
    out, err, status = Memory(mem).shell(script)
    assert (status, out) == (ref.returncode, ref_out), err
    assert not (mem / "core.md").exists() or os.stat(mem / "core.md").st_mtime == 1780000000
    if "c2.md" in script:  # the moved file keeps its time on disk too
        assert os.stat(mem / "c2.md").st_mtime_ns == os.stat(ref_dir / "c2.md").st_mtime_ns
