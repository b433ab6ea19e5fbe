"""``test -r -w -x`` and ``find -readable -writable -executable`` say what the sandbox can do
with a file, and agree with each other and with what commands then do: the sandbox reads and
writes with its own rights whatever the permission bits (chmod is refused; the bits are a
host's), so they answer as bash does for root, and the policy's read-only and protected paths
are not writable. Compared with real bash run as root over the same files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import shell_difftools as dt  # noqa: E402

from sandbox import Limits, Policy  # noqa: E402
from sandbox.api import Sandbox  # noqa: E402
from sandbox.fs.local import LocalDir  # noqa: E402

MODES = {"none": 0o000, "ro": 0o444, "wo": 0o200, "own_x": 0o100, "other_x": 0o001, "rw": 0o644}
SCRIPT = ("for f in none ro wo own_x other_x rw dnone d; do "
          "printf '%s ' $f; [ -r $f ] && printf r; [ -w $f ] && printf w; [ -x $f ] && printf x; "
          "[[ -r $f && -w $f ]] && printf ' both'; echo; done; "
          "find . -mindepth 1 -readable -writable | sort; find . -mindepth 1 -executable | sort; "
          "cat none; echo more >> none; cat none")


def _tree(root: Path) -> None:
    root.mkdir()
    for name, mode in MODES.items():
        (root / name).write_text(name + "\n")
        os.chmod(root / name, mode)
    (root / "d").mkdir()
    (root / "dnone").mkdir()
    os.chmod(root / "dnone", 0o000)


@pytest.mark.skipif(os.geteuid() != 0, reason="the reference is bash run as root (as here and in CI)")
def test_access_tests_answer_as_for_root(tmp_path: Path) -> None:
    ref_dir, ours_dir = tmp_path / "ref", tmp_path / "ours"
    _tree(ref_dir)
    _tree(ours_dir)
    ref = subprocess.run([dt.BASH, "-c", SCRIPT], cwd=ref_dir, capture_output=True, env=dt.REF_ENV)
    sb = Sandbox({"/w": LocalDir(str(ours_dir))}, cwd="/w", limits=Limits(),
                 policy=Policy(allow=dt.all_commands()))
    r = sb.run(SCRIPT)
    assert (r.exit_code, r.stdout, r.stderr) == (ref.returncode, ref.stdout, ref.stderr)


def test_read_only_and_protected_paths_are_not_writable(tmp_path: Path) -> None:
    root = tmp_path / "m"
    root.mkdir()
    (root / "log.jsonl").write_text("")
    (root / "notes.md").write_text("")
    script = ("for f in log.jsonl notes.md; do [ -w $f ] && echo $f w; [ -r $f ] && echo $f r; done; "
              "find . -type f -writable")
    protected = Sandbox({"/w": LocalDir(str(root))}, cwd="/w",
                        policy=Policy(allow=dt.all_commands(), protected=frozenset({"/w/log.jsonl"}))).run(script)
    assert protected.stdout == b"log.jsonl r\nnotes.md w\nnotes.md r\n./notes.md\n"
    read_only = Sandbox({"/w": LocalDir(str(root))}, cwd="/w",
                        policy=Policy(allow=dt.all_commands(), read_only=True)).run(script)
    assert read_only.stdout == b"log.jsonl r\nnotes.md r\n"
