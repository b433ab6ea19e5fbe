"""``memtool demo``: in-process, as a module subprocess, and from a fresh venv install."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from rich.console import Console

from memtool.demo import run_demo

REPO = Path(__file__).resolve().parents[2]


def test_demo_in_process(tmp_path):
    console = Console(record=True, width=120, force_terminal=False)
    assert run_demo(console=console, keep=str(tmp_path)) == 0
    out = console.export_text()
    assert "model call 1: system prompt" in out and "tool call: memory" in out and "tool result: memory" in out
    assert "✓ The preference stored in conversation 1 is in the system prompt" in out
    core = (tmp_path / ".memory" / "core.md").read_text()
    assert "Prefers metric units" in core
    notes = (tmp_path / ".memory" / "notes.md").read_text()
    assert "metric units" in notes
    # the example itself is untouched
    assert "metric" not in (REPO / ".memory.example" / "core.md").read_text()


def test_example_memory_is_realistic():
    import json
    ex = REPO / ".memory.example"
    turns = [json.loads(line) for line in (ex / "conversations.jsonl").read_text().splitlines()]
    assert 45 <= len(turns) <= 60
    assert {t["role"] for t in turns} == {"user", "assistant"}
    assert len({t["timestamp"][:10] for t in turns}) >= 3
    assert (ex / "core.md").read_text().startswith("# Core Memory\n")
    assert (ex / "notes.md").read_text().count("- 2026-") >= 4


def test_cli_demo_subprocess(tmp_path):
    env = dict(os.environ, COLUMNS="100")
    r = subprocess.run([sys.executable, "-m", "memtool", "demo", "--keep", str(tmp_path)], cwd=REPO,
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "conversation 2: a new agent, the same memory" in r.stdout
    assert "Traceback" not in r.stderr


def test_demo_from_a_fresh_venv_install(tmp_path):
    """``pip install .`` (not editable) into a new venv, then ``memtool demo`` from elsewhere."""
    if shutil.which("git") is None and not (REPO / "pyproject.toml").exists():
        pytest.skip("no project to install")
    env_dir = tmp_path / "venv"
    # An isolated venv, as a user makes one: it sees nothing of the base interpreter's
    # site-packages, so memtool's dependencies must come from its own metadata.
    venv.EnvBuilder(system_site_packages=False, with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    # Build from a copy of the tree, so build artefacts never land in the checkout.
    src = tmp_path / "src"
    shutil.copytree(REPO, src, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", "bench", "tests", "*.egg-info", "build", "dist", "__pycache__", ".pytest_cache",
        ".memory", ".venv"))
    r = subprocess.run([str(py), "-m", "pip", "install", "-q", str(src)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    env["COLUMNS"] = "100"
    memtool_bin = env_dir / "bin" / "memtool"
    r = subprocess.run([str(memtool_bin), "demo", "--keep", str(elsewhere / "work")], cwd=elsewhere,
                       capture_output=True, text=True, env=env, timeout=180)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "✓ The preference stored in conversation 1" in r.stdout
    copied = elsewhere / "work" / ".memory"
    example = REPO / ".memory.example"
    for name in ("core.md", "notes.md"):
        assert (copied / name).read_text().startswith((example / name).read_text())
    turns = (copied / "conversations.jsonl").read_text().splitlines()
    assert len(turns) == len((example / "conversations.jsonl").read_text().splitlines()) + 4
    where = subprocess.run([str(py), "-c", "import memtool, os; print(os.path.realpath(memtool.__file__))"],
                           cwd=elsewhere, capture_output=True, text=True, env=env).stdout.strip()
    assert where.startswith(str(env_dir.resolve())), where  # the installed copy, not the checkout
