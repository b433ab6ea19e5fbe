"""Differential-test support for the text commands: run a command line through our
implementation (``run_command``) and through the real GNU tool on identical files, and compare.

Loaded by the test_<cmd>.py files of wc, sort, uniq, cut, tr, date, seq, basename, dirname via
``load_support()`` below (the test files are not a package).
"""

from __future__ import annotations

import os
import random
import shlex
import shutil
import subprocess
import tempfile

import pytest

from sandbox.commands.testing import run_command
from sandbox.fs.memory import MemoryFS
from sandbox.fs.vfs import VirtualFS

REF_ENV = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}


def need(tool: str) -> None:
    """Skip the calling test, with a reason, when the reference ``tool`` is missing."""
    if shutil.which(tool) is None:
        pytest.skip(f"reference tool {tool!r} is not installed")


def reference(
    argv: list[str], stdin: bytes = b"", files: dict[str, bytes] | None = None, env: dict | None = None,
    dirs: list[str] | None = None,
) -> tuple[int, bytes, bytes, dict[str, bytes]]:
    """Run the real tool in a fresh temp dir holding ``files``; return (status, out, err,
    the regular files left in the directory)."""
    with tempfile.TemporaryDirectory() as tmp:
        for name in dirs or []:
            os.makedirs(os.path.join(tmp, name), exist_ok=True)
        for name, data in (files or {}).items():
            path = os.path.join(tmp, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
        proc = subprocess.run(
            argv,
            input=stdin,
            cwd=tmp,
            env={**REF_ENV, **(env or {})},
            capture_output=True,
            timeout=60,
        )
        out_files = {}
        for name in os.listdir(tmp):
            path = os.path.join(tmp, name)
            if os.path.isfile(path):
                with open(path, "rb") as f:
                    out_files[name] = f.read()
        return proc.returncode, proc.stdout, proc.stderr, out_files


def repro(argv: list[str], stdin: bytes, files: dict[str, bytes] | None, env: dict | None) -> str:
    """A shell command line that reproduces a case with the reference tool."""
    setup = ""
    for name, data in (files or {}).items():
        setup += f"python3 -c 'import sys;sys.stdout.buffer.write({data!r})' > {shlex.quote(name)}; "
    envs = " ".join(f"{k}={shlex.quote(v)}" for k, v in {**REF_ENV, **(env or {})}.items() if k != "PATH")
    feed = f"python3 -c 'import sys;sys.stdout.buffer.write({stdin!r})' | " if stdin else ""
    return f"cd \"$(mktemp -d)\" && {setup}{feed}env {envs} {shlex.join(argv)}"


def compare(
    argv: list[str],
    stdin: bytes = b"",
    files: dict[str, bytes] | None = None,
    env: dict | None = None,
    check_stderr: bool = True,
    dirs: list[str] | None = None,
) -> None:
    """Assert that our ``argv`` and the reference agree on stdout, exit status, the files left
    behind and (unless ``check_stderr`` is False) stderr; on failure the message holds a
    reproducing command."""
    need(argv[0])
    ref = reference(argv, stdin, files, env, dirs)
    vfs = VirtualFS({"/": MemoryFS(dict(files or {}))})
    for name in dirs or []:
        vfs.mkdir("/" + name)
    ours = run_command(argv, stdin=stdin, fs=vfs, env={"TZ": "UTC", **(env or {})})
    our_files = {
        name: vfs.read_bytes("/" + name)
        for name in vfs.listdir("/")
        if name != "dev" and vfs.stat("/" + name).is_file
    }
    where = repro(argv, stdin, files, env)
    if dirs:
        where = where.replace("&& ", "&& mkdir " + " ".join(shlex.quote(d) for d in dirs) + " && ", 1)
    assert ours[0] == ref[0], f"exit status {ours[0]} != {ref[0]}; stderr={ours[2]!r} ref={ref[2]!r}\n  {where}"
    assert ours[1] == ref[1], f"stdout differs\n ours={ours[1][:2000]!r}\n  ref={ref[1][:2000]!r}\n  {where}"
    if check_stderr:
        assert ours[2] == ref[2], f"stderr differs\n ours={ours[2]!r}\n  ref={ref[2]!r}\n  {where}"
    assert our_files == ref[3], f"files differ\n ours={our_files!r}\n  ref={ref[3]!r}\n  {where}"


# -- generated inputs ------------------------------------------------------------------------

WORDS = [
    b"apple", b"Apple", b"banana", b"b", b"10", b"9", b"-3", b"+4", b"1.5", b"1e3", b"0x1F",
    b"2K", b"1M", b"3G", b"1.2k", b"v1.10", b"v1.9", b"file-2.txt", b"file-10.txt",
    b"\xc3\xa9t\xc3\xa9", b"\xe2\x82\xac", b"\xff\xfe", b"\x00", b"a\x00b", b"Zeta", b"zeta",
    b"", b" ", b"  x", b"\t", b"a,b", b"c:d", b"x;y", b"-", b"--", b"0", b"00", b"-0", b"1,000",
    b"\xf0\x9f\x98\x80", b"ABC", b"abc", b"\r",
]


def gen_line(rng: random.Random, long_ok: bool = True) -> bytes:
    """One random line (no newline) from a mix of words, separators and hostile bytes."""
    if long_ok and rng.random() < 0.02:
        return b"x" * rng.randint(1000, 20000)
    seps = [b" ", b"  ", b"\t", b",", b":", b" \t "]
    n = rng.randint(0, 6)
    parts = [rng.choice(WORDS) for _ in range(n)]
    sep = rng.choice(seps)
    out = b""
    for i, part in enumerate(parts):
        if i:
            out += sep if rng.random() < 0.8 else rng.choice(seps)
        out += part
    if rng.random() < 0.1:
        out = rng.choice([b" ", b"\t", b"  "]) + out
    return out


def gen_input(rng: random.Random, max_lines: int = 30) -> bytes:
    """A random text: sometimes empty, CRLF endings, no final newline, duplicate runs."""
    kind = rng.random()
    if kind < 0.05:
        return b""
    lines: list[bytes] = []
    for _ in range(rng.randint(1, max_lines)):
        if lines and rng.random() < 0.25:
            lines.append(rng.choice(lines))
        else:
            lines.append(gen_line(rng))
    eol = b"\r\n" if rng.random() < 0.1 else b"\n"
    data = eol.join(lines)
    if rng.random() < 0.8:
        data += eol
    return data
