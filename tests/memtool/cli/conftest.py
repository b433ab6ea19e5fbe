"""Fixtures of the CLI tests: a copy of the example memory, and subprocess helpers."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
EXAMPLE = os.path.join(REPO, ".memory.example")


@pytest.fixture
def memdir(tmp_path):
    """A private copy of ``.memory.example`` (0700 directory, 0600 files)."""
    target = tmp_path / "mem"
    shutil.copytree(EXAMPLE, target)
    os.chmod(target, 0o700)
    for p in target.iterdir():
        os.chmod(p, 0o600)
    return target


def cli_env() -> dict[str, str]:
    """Environment for a ``python -m memtool`` subprocess running this checkout."""
    env = dict(os.environ)
    env["PYTHONPATH"] = REPO + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONUNBUFFERED"] = "1"
    env.pop("MEMTOOL_PATH", None)
    env["LC_ALL"] = "C.UTF-8"
    return env


@pytest.fixture
def run_cli():
    """Run ``python -m memtool ARGS`` as a real process; returns the CompletedProcess."""

    def run(*args: str, input: str | None = None, cwd: str | None = None) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "memtool", *args], input=input, capture_output=True,
                              text=True, env=cli_env(), cwd=cwd, timeout=60)

    return run


@pytest.fixture
def cli_environ() -> dict[str, str]:
    """The environment for memtool subprocesses (this checkout on PYTHONPATH)."""
    return cli_env()
