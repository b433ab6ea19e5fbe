"""pushd, popd and dirs against bash 5.2: the sandbox mounts the test directory at its own
host path and HOME is that directory in both shells, so full paths and ``~`` forms compare
byte for byte (stdout, stderr, status)."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from sandbox import Sandbox

BASH = shutil.which("bash")
needs_bash = pytest.mark.skipif(BASH is None, reason="reference bash not installed")

SCRIPTS = [
    "pushd a; pushd b; dirs; dirs -v; dirs -p; dirs -l; dirs +1; dirs -0; dirs +9; echo $?",
    "pushd a >/dev/null; pushd b >/dev/null; pushd; pushd +2; popd; popd +1; popd -n; dirs; popd; echo $?",
    "pushd nope; echo $?; pushd -n c; dirs; pushd a b; echo $?; dirs -x; echo $?",
    "popd; echo $?; popd +7; echo $?; pushd +x; echo $?; pushd; echo $?; dirs -c; dirs",
    "pushd a >/dev/null; dirs -9; dirs +9; pushd +9; pushd -9; popd -9; popd +9; dirs -v -l",
    "dirs -lp; dirs -vp; pushd -n; echo $?; popd -x; echo $?; popd a; echo $?; dirs a; echo $?",
    "pushd a; pushd -- b; pushd - ; echo $?; pushd ..; dirs -l; pushd /; popd; dirs -v +1",
    "(pushd a; dirs); dirs; pushd a/b | cat; dirs; echo \"$PWD\"",
    "pushd a; pushd b; pushd /tmp; pushd +1; pushd -1; pushd -0; popd -1; popd +0; dirs -v",
    "pushd -n /x; pushd -n +1; dirs; popd -n +1; dirs; echo $?",
    "f() { pushd \"$1\" > /dev/null || return; ls; popd > /dev/null; }; f a; f nope; pwd",
    "pushd a/b >/dev/null && echo in $PWD; popd >/dev/null; echo back $PWD; cd a; dirs",
    "pushd a/x; echo $?; HOME=/; pushd a; dirs; unset HOME; dirs",
]


def _tree(root: Path) -> None:
    (root / "a" / "b").mkdir(parents=True)
    (root / "c").mkdir()
    (root / "a" / "x").write_text("x\n")
    (root / "a" / "note.md").write_text("n\n")


def _compare(root: Path, script: str) -> None:
    _tree(root)
    ref = subprocess.run(["bash", "-c", script], executable=BASH, cwd=root, capture_output=True,
                         env={"HOME": str(root), "LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"})
    sb = Sandbox({str(root): root}, cwd=str(root), env={"HOME": str(root)})
    r = sb.run(script)
    want = (ref.returncode, ref.stdout, ref.stderr)
    assert (r.exit_code, r.stdout, r.stderr) == want, script


@needs_bash
@pytest.mark.parametrize("script", SCRIPTS)
def test_dirstack_matches_bash(tmp_path: Path, script: str) -> None:
    _compare(tmp_path, script)


_STEPS = ["pushd a", "pushd b", "pushd c", "pushd ..", "pushd /", "pushd", "pushd +1",
          "pushd -1", "pushd +2", "pushd -n x", "pushd -n +1", "popd", "popd +1", "popd -1",
          "popd -n", "popd +2", "dirs", "dirs -v", "dirs -l -p", "dirs +1", "dirs -1",
          "cd a", "cd ..", "echo $?", "dirs -c", "pushd nope", "popd +5"]


@needs_bash
@pytest.mark.parametrize("seed", range(200))
def test_generated_dirstack_sequences(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    steps = [rng.choice(_STEPS) for _ in range(rng.randint(3, 14))]
    _compare(tmp_path, "; ".join(steps) + "; dirs -v; echo $?")
