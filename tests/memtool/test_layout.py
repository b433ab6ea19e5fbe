"""Bootstrap: missing files from templates, existing ones untouched, .gitignore handling."""

from __future__ import annotations

import multiprocessing as mp
import os
import subprocess

import pytest

from memtool import Memory
from memtool.layout import FILES, bootstrap, ensure_gitignored, load_template


def test_bootstrap_creates_only_missing(store):
    store.write_bytes("notes.md", b"mine\n")
    created = bootstrap(store)
    assert created == ["core.md", "conversations.jsonl"]
    assert store.read_bytes("notes.md") == b"mine\n"
    assert store.read_bytes("core.md").decode() == load_template("core.md")
    assert bootstrap(store) == []


def test_memory_twice_is_harmless(tmp_path):
    d = tmp_path / "m"
    Memory(str(d), gitignore=False).store.write_bytes("core.md", b"edited\n")
    Memory(str(d), gitignore=False)
    assert (d / "core.md").read_bytes() == b"edited\n"
    assert sorted(os.listdir(d)) == sorted(FILES)
    assert oct(os.stat(d).st_mode & 0o777) == oct(0o700)
    for name in FILES:
        assert oct(os.stat(d / name).st_mode & 0o777) == oct(0o600)


def _boot(path: str, barrier) -> None:
    barrier.wait()
    Memory(path)


def test_two_processes_bootstrap_at_once(tmp_path):
    (tmp_path / ".git").mkdir()
    for round_ in range(5):
        path = str(tmp_path / f"m{round_}")
        ctx = mp.get_context("fork")
        barrier = ctx.Barrier(4)
        procs = [ctx.Process(target=_boot, args=(path, barrier)) for _ in range(4)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(30)
            assert p.exitcode == 0
        assert sorted(os.listdir(path)) == sorted(FILES)
        assert open(os.path.join(path, "core.md")).read() == load_template("core.md")
    lines = (tmp_path / ".gitignore").read_text().splitlines()
    assert sorted(lines) == [f"m{i}/" for i in range(5)]


def test_gitignore_in_worktree(tmp_path):
    if not _has_git():
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("*.pyc")  # no final newline
    Memory(str(tmp_path / ".memory"))
    assert (tmp_path / ".gitignore").read_text() == "*.pyc\n.memory/\n"
    Memory(str(tmp_path / ".memory"))
    assert (tmp_path / ".gitignore").read_text() == "*.pyc\n.memory/\n"
    (tmp_path / "sub").mkdir()
    Memory(str(tmp_path / "sub" / ".memory"))
    assert (tmp_path / ".gitignore").read_text() == "*.pyc\n.memory/\n/sub/.memory/\n"
    (tmp_path / ".memory" / "core.md").write_text("x")
    status = subprocess.run(["git", "-C", str(tmp_path), "status", "--porcelain", "--untracked-files=all"],
                            capture_output=True, text=True, check=True).stdout
    assert ".memory" not in status  # git itself agrees the directories are ignored


def test_existing_entries_recognised(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("/.memory\n")
    assert ensure_gitignored(str(tmp_path / ".memory")) is False
    assert (tmp_path / ".gitignore").read_text() == "/.memory\n"


def test_no_gitignore_outside_a_worktree(tmp_path):
    Memory(str(tmp_path / ".memory"))
    assert not (tmp_path / ".gitignore").exists()


def test_gitignore_option_off(tmp_path):
    (tmp_path / ".git").mkdir()
    Memory(str(tmp_path / ".memory"), gitignore=False)
    assert not (tmp_path / ".gitignore").exists()


def _has_git() -> bool:
    from shutil import which
    return which("git") is not None
