"""mktemp: differential tests against GNU coreutils 9.1. Names are random on both sides, so each
side's output and new tree entries are compared with the random letters masked (every letter
or digit standing where the template had an X becomes ``?``); status and stderr exactly."""

from __future__ import annotations

import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fs  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.fs.local import LocalDir  # noqa: E402
from sandbox.fs.vfs import VirtualFS  # noqa: E402
from sandbox.policy import Policy  # noqa: E402

TREE: fs.Tree = {"d": None, "tmpd": None, "f": b"x", "d/e": None}


def _run(argv: list[str], tmpdir: bool) -> tuple:
    results = []
    for side in ("gnu", "ours"):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            fs.build(root, TREE)
            base = str(root) if side == "gnu" else fs.MOUNT
            env = {"TMPDIR": base + "/tmpd"} if tmpdir else {}
            args = [a.replace("@", base) for a in argv]
            if side == "gnu":
                proc = subprocess.run(args, cwd=root, env={**fs.ENV, **env}, capture_output=True, timeout=30)
                code, out, err = proc.returncode, proc.stdout, proc.stderr
                _remove_made_in_host_tmp(out, tmp)
            else:
                vfs = VirtualFS({fs.MOUNT: LocalDir(root)})
                code, out, err = run_command(args, fs=vfs, cwd=fs.MOUNT, env=env)
            out = out.replace(base.encode() + b"/", b"@/")
            err = err.replace(base.encode() + b"/", b"@/")
            snap = sorted((k, v if isinstance(v, str) else len(v)) for k, v in fs.snapshot(root).items())
            results.append((code, out, err, snap))
    return tuple(results)


def _remove_made_in_host_tmp(out: bytes, scratch: str) -> None:
    """Delete what GNU mktemp made in the host's /tmp (a template without -p/TMPDIR lands
    there), so the tests leave nothing behind; entries under ``scratch`` go with it."""
    for line in out.split(b"\n"):
        name = os.fsdecode(line)
        if not name.startswith("/tmp/") or name.startswith(scratch + "/") or "/" in name[5:]:
            continue
        if os.path.isdir(name) and not os.path.islink(name):
            os.rmdir(name)
        elif os.path.lexists(name):
            os.remove(name)


def _masked(result: tuple, outputs: list[bytes]) -> tuple:
    code, out, err, snap = result
    for name in outputs:
        out = out.replace(name, b"<NAME>")
    rel = [n.split(b"/", 1)[-1].decode("utf-8", "surrogateescape") for n in outputs]
    snap = [(("<NAME>" if any(k.endswith(r.split("/")[-1]) for r in rel if r) else k), v) for k, v in snap]
    return code, out, err, sorted(snap)


def _check(args: str, tmpdir: bool = False) -> None:
    argv = ["mktemp", *shlex.split(args)]
    gnu, ours = _run(argv, tmpdir)
    def names(result: tuple) -> list[bytes]:
        return [line for line in result[1].split(b"\n") if line]
    shape = lambda b: re.sub(rb"[A-Za-z0-9]", b"a", b)  # noqa: E731
    assert [shape(n) for n in names(gnu)] == [shape(n) for n in names(ours)], (argv, gnu, ours)
    assert _masked(gnu, names(gnu)) == _masked(ours, names(ours)), (argv, gnu, ours)


HAND = [
    "-u", "-u foo.XXX", "-u -p @/d fooXXXXXX", "-u -t fooXXX", "-u foo", "-u fooXX", "a b",
    "-u --suffix=.txt fooXXX", "-u --suffix=/x fooXXX", "-u fooXXX.txt --suffix=.c", "-u fooXXXbar",
    "-u -t a/bXXX", "-u -p d a/bXXX", "-u /abs/XXX -p d", "-d -u", "nope/XXX", "-q nope/XXX", "-d nope/XXX",
    "-u nope/XXX", "-u f/XXX", "f/XXX", "d/XXXX", "-d d/XXXXX", "-p d", "-d -p d", "-p d aXXX.sfx",
    "--tmpdir=d bXXX", "-d --tmpdir=d bXXX --suffix=.s", "-x", "--bogus", "-q -d f/XXX", "XXX/aXXX",
    "-t -p d cXXX", "-p '' -u", "--dry-run dXXX", "--directory d/XXX", "--quiet nope/XXX",
]


@pytest.mark.parametrize("args", HAND, ids=repr)
def test_hand_written(args: str) -> None:
    fs_gnu = fs.gnu_available("mktemp")
    if fs_gnu:
        pytest.skip(fs_gnu)
    _check(args)


@pytest.mark.parametrize("args", ["", "-d", "-u", "-t xXXX", "-p d", "-t -p d yXXXX", "--tmpdir"])
def test_tmpdir_env(args: str) -> None:
    _check(args, tmpdir=True)


def test_generated() -> None:
    rng = random.Random("mktemp")
    for _ in range(60):
        template = rng.choice(["", "a", "d/", "nope/", "f/", "d/e/"]) + "X" * rng.randint(0, 6) + rng.choice(["", ".txt", "Xq", "/"])
        flags = rng.sample(["-d", "-u", "-q", "-p d", "--suffix=.s", "-t"], rng.randint(0, 3))
        args = " ".join(flags) + " " + shlex.quote(template) if template else " ".join(flags)
        _check(args, tmpdir=rng.random() < 0.3)


def test_read_only_refused() -> None:
    code, out, err = run_command(["mktemp", "-p", "/", "xXXX"], policy=Policy(read_only=True))
    assert (code, out) == (1, b"") and err == "mktemp: failed to create file via template ‘/xXXX’: Read-only file system\n".encode()
