"""Differential-test support for awk: run a program through our awk (``run_command``) and
through gawk (as ``awk``, so messages match) on identical files; compare stdout, exit status,
files written and, where asked, stderr."""

from __future__ import annotations

import atexit
import os
import shlex
import shutil
import subprocess
import tempfile

import pytest

from sandbox.commands.testing import run_command
from sandbox.fs.memory import MemoryFS
from sandbox.fs.vfs import VirtualFS
from sandbox.limits import Limits

REF_ENV = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
_GAWK = shutil.which("gawk")
_BIN_DIR: str | None = None


def gawk_available() -> bool:
    return _GAWK is not None


def need_gawk() -> None:
    if _GAWK is None:
        pytest.skip("reference tool gawk is not installed")


def _awk_link() -> str:
    """A directory holding ``awk`` -> gawk, so gawk names itself ``awk`` in messages."""
    global _BIN_DIR
    if _BIN_DIR is None:
        _BIN_DIR = tempfile.mkdtemp(prefix="gawk-as-awk-")
        atexit.register(shutil.rmtree, _BIN_DIR, True)
        os.symlink(_GAWK, os.path.join(_BIN_DIR, "awk"))
    return os.path.join(_BIN_DIR, "awk")


def _scratch_dir() -> str:
    """An empty directory shared by the runs that bring no files (emptied after each)."""
    global _SCRATCH
    if _SCRATCH is None:
        _SCRATCH = tempfile.mkdtemp(prefix="gawk-scratch-")
        atexit.register(shutil.rmtree, _SCRATCH, True)
    return _SCRATCH


_SCRATCH: str | None = None


def _take_files(tmp: str) -> dict[str, bytes]:
    """The regular files gawk left in ``tmp``, which is emptied."""
    out_files = {}
    for name in sorted(os.listdir(tmp)):
        path = os.path.join(tmp, name)
        if os.path.isfile(path) and not os.path.islink(path):
            with open(path, "rb") as f:
                out_files[name] = f.read()
            os.unlink(path)
        elif os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)
    return out_files


def reference(args: list[str], stdin: bytes = b"", files: dict[str, bytes] | None = None,
              env: dict | None = None, timeout: float = 20):
    """(status, stdout, stderr, files left) of gawk run as ``awk args`` in an empty dir
    holding ``files`` (a shared scratch dir when there are none: cheaper per case)."""
    need_gawk()
    if not files:
        tmp = _scratch_dir()
        try:
            proc = subprocess.run([_awk_link(), *args], input=stdin, cwd=tmp,
                                  env={**REF_ENV, **(env or {})}, capture_output=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            _take_files(tmp)
            return None
        return proc.returncode, proc.stdout, proc.stderr, _take_files(tmp)
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in (files or {}).items():
            path = os.path.join(tmp, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
        try:
            proc = subprocess.run([_awk_link(), *args], input=stdin, cwd=tmp,
                                  env={**REF_ENV, **(env or {})}, capture_output=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            return None
        out_files = {}
        for name in sorted(os.listdir(tmp)):
            path = os.path.join(tmp, name)
            if os.path.isfile(path):
                with open(path, "rb") as f:
                    out_files[name] = f.read()
        return proc.returncode, proc.stdout, proc.stderr, out_files


def ours(args: list[str], stdin: bytes = b"", files: dict[str, bytes] | None = None,
         env: dict | None = None, limits: Limits | None = None):
    vfs = VirtualFS({"/": MemoryFS(dict(files or {}))})
    code, out, err = run_command(["awk", *args], stdin=stdin, fs=vfs,
                                 env={**{"TZ": "UTC"}, **(env or {})}, limits=limits)
    our_files = {name: vfs.read_bytes("/" + name) for name in sorted(vfs.listdir("/"))
                 if name != "dev" and vfs.stat("/" + name).is_file}
    return code, out, err, our_files


def repro(args, stdin, files, env) -> str:
    setup = ""
    used = {name: data for name, data in (files or {}).items()
            if any(name in a for a in args)}
    for name, data in used.items():
        setup += f"printf %s {shlex.quote(data.decode('latin-1'))} > {shlex.quote(name)}; "
    envs = " ".join(f"{k}={shlex.quote(v)}" for k, v in {**REF_ENV, **(env or {})}.items()
                    if k != "PATH")
    feed = f"printf %s {shlex.quote(stdin.decode('latin-1'))} | " if stdin else ""
    return f"cd \"$(mktemp -d)\" && {setup}{feed}env {envs} gawk {shlex.join(args)}"


def compare(args: list[str], stdin: bytes = b"", files: dict[str, bytes] | None = None,
            env: dict | None = None, check_stderr: bool = False) -> None:
    ref = reference(args, stdin, files, env)
    if ref is None:
        pytest.skip("gawk timed out")
    got = ours(args, stdin, files, env)
    where = repro(args, stdin, files, env)
    assert got[1] == ref[1], (f"stdout differs\n ours={got[1][:3000]!r}\n  ref={ref[1][:3000]!r}"
                              f"\n ours stderr={got[2][:500]!r}\n  {where}")
    assert got[0] == ref[0], (f"exit status {got[0]} != {ref[0]}; stderr={got[2]!r} "
                              f"ref={ref[2]!r}\n  {where}")
    assert got[3] == ref[3], f"files differ\n ours={got[3]!r}\n  ref={ref[3]!r}\n  {where}"
    if check_stderr:
        assert got[2] == ref[2], f"stderr differs\n ours={got[2]!r}\n  ref={ref[2]!r}\n  {where}"
