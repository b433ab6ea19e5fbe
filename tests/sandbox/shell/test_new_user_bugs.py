"""Bugs a new user hit (issue 12, section 4), each against the real bash / tool."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from sandbox import Policy, Sandbox
from sandbox.commands import names

PRINTF_SCRIPTS = [
    "printf -- '- %s\\n' x",
    "printf -- -x",
    "printf -- '%s|' a b --",
    "printf -- --",
    "printf '%s' -- x",
    "printf -- '-v %d\\n' 3",
    "printf -x; echo $?",
    "printf --; echo $?",
]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@pytest.mark.parametrize("script", PRINTF_SCRIPTS)
def test_printf_double_dash_as_bash(script: str, tmp_path: Path) -> None:
    ref = subprocess.run(["bash", "-c", script], capture_output=True, cwd=tmp_path)
    r = Sandbox(mounts={"/": tmp_path}, policy=Policy(allow=names())).run(script)
    assert (r.exit_code, r.stdout) == (ref.returncode, ref.stdout), script


def test_jq_version_is_the_one_we_implement(tmp_path: Path) -> None:
    r = Sandbox(mounts={"/": tmp_path}).run("jq --version")
    assert r.stdout == b"jq-1.8.1\n" and r.exit_code == 0
