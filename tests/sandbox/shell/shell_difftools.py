"""Helpers of the shell's differential tests: run a script with real bash and with our
sandbox over identical temporary directories, and compare stdout, status and files."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
import sys
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parents[3])
if _ROOT not in sys.path:  # run as a script from the repository root
    sys.path.insert(0, _ROOT)

from sandbox import Limits, Policy  # noqa: E402
from sandbox import commands as registry  # noqa: E402
from sandbox.api import Sandbox  # noqa: E402
from sandbox.guard import FORBIDDEN  # noqa: E402
from sandbox.interpreter.core import BUILTINS  # noqa: E402

BASH = shutil.which("bash")
#: Where the sandbox mounts the temporary directory (not / : the sandbox's / also has /dev).
MOUNT = "/work"
REF_ENV = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}

#: The directory every differential script starts in (identical for bash and for us).
SEED_FILES: dict[str, bytes] = {
    "a.txt": b"alpha\nbeta\ngamma\n",
    "b.txt": b"one two three\nfour  five\n\nsix\n",
    "nums.txt": b"10\n2\n33\n4\n",
    "notes.md": b"# Notes\n- project alpha started\n- budget review\n- project beta\n",
    "dir/x.txt": b"x\n",
    "dir/sub/y.txt": b"y\n",
    "dir/.hidden": b"h\n",
    "empty.txt": b"",
    "sp ace.txt": b"has space\n",
    "data.jsonl": b'{"role":"user","content":"hi"}\n{"role":"assistant","content":"hello"}\n',
}

_WORD_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")


def seed(root: Path, files: dict[str, bytes] | None = None) -> None:
    """Write the seed files under ``root``."""
    for rel, data in (files if files is not None else SEED_FILES).items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)


def snapshot(root: Path) -> dict[str, bytes | None]:
    """{relative path: content} of every file (None for directories)."""
    out: dict[str, bytes | None] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        if rel != ".":
            out[rel + "/"] = None
        for f in filenames:
            p = Path(dirpath) / f
            out[os.path.relpath(p, root)] = p.read_bytes()
    return out


@dataclass
class Outcome:
    """What one run produced."""

    stdout: bytes
    stderr: bytes
    status: int
    files: dict[str, bytes | None]


def run_bash(script: str, stdin: bytes = b"", files: dict[str, bytes] | None = None) -> Outcome:
    """Run ``script`` with real bash in a fresh seeded directory (cwd there)."""
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        seed(root, files)
        # invoked as "bash" (its $0), as the sandbox names itself
        p = subprocess.run(["bash", "-c", script], executable=BASH, cwd=root, env=REF_ENV,
                           input=stdin, capture_output=True, timeout=30)
        return Outcome(p.stdout, p.stderr, p.returncode, snapshot(root))


def all_commands() -> frozenset[str]:
    """Every registered command (the differential tests allow them all)."""
    return registry.names()


def run_ours(script: str, stdin: bytes = b"", files: dict[str, bytes] | None = None,
             limits: Limits | None = None) -> Outcome:
    """Run ``script`` with the sandbox over a fresh seeded directory mounted at /."""
    from sandbox.fs.local import LocalDir
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        seed(root, files)
        sb = Sandbox({MOUNT: LocalDir(root)}, cwd=MOUNT, policy=Policy(allow=all_commands()),
                     limits=limits or Limits())
        r = sb.run(script, stdin)
        return Outcome(r.stdout, r.stderr, r.exit_code, snapshot(root))


def missing_commands(script: str) -> list[str]:
    """Command-like words of the script that the registry does not have yet (rough)."""
    known = all_commands() | BUILTINS | set(FORBIDDEN)
    wanted = {"cat", "head", "tail", "ls", "mkdir", "touch", "rm", "mv", "cp", "tee", "wc",
              "sort", "uniq", "cut", "tr", "date", "seq", "basename", "dirname", "grep", "sed",
              "jq"}
    words = set(_WORD_RE.findall(script))
    return sorted(w for w in words & wanted if w not in known)


def repro(script: str, stdin: bytes) -> str:
    """A command line reproducing one case by hand."""
    cmd = f"python3 tests/sandbox/shell/shell_difftools.py {shlex.quote(script)}"
    if stdin:
        cmd = f"printf %s {shlex.quote(stdin.decode('utf-8', 'replace'))} | " + cmd
    return cmd


def compare(script: str, stdin: bytes = b"", files: dict[str, bytes] | None = None) -> str | None:
    """None if bash and the sandbox agree on stdout, status and files, else a report."""
    ref = run_bash(script, stdin, files)
    ours = run_ours(script, stdin, files)
    problems = []
    if ref.stdout != ours.stdout:
        problems.append(f"stdout differs:\n  bash: {ref.stdout!r}\n  ours: {ours.stdout!r}")
    if ref.status != ours.status:
        problems.append(f"status differs: bash {ref.status}, ours {ours.status}")
    if ref.files != ours.files:
        keys = sorted(set(ref.files) | set(ours.files))
        diff = [f"  {k}: bash {ref.files.get(k, '<missing>')!r} ours {ours.files.get(k, '<missing>')!r}"
                for k in keys if ref.files.get(k, "<missing>") != ours.files.get(k, "<missing>")]
        problems.append("files differ:\n" + "\n".join(diff[:10]))
    if not problems:
        return None
    return (f"script: {script!r}\n" + "\n".join(problems) +
            f"\n  bash stderr: {ref.stderr!r}\n  ours stderr: {ours.stderr!r}"
            f"\nreproduce: {repro(script, stdin)}")


if __name__ == "__main__":  # python3 tests/sandbox/shell/shell_difftools.py SCRIPT
    data = b"" if sys.stdin.isatty() else sys.stdin.buffer.read()
    print(compare(sys.argv[1], data) or "same")


def check(script: str, stderr: bool = True, files: dict[str, bytes] | None = None) -> None:
    """Assert bash and the sandbox agree on stdout, status and files (and on stderr, byte for
    byte, if asked)."""
    ref = run_bash(script, files=files)
    ours = run_ours(script, files=files)
    where = f"\nscript:\n{script}\nbash stderr: {ref.stderr!r}\nours stderr: {ours.stderr!r}"
    assert ours.stdout == ref.stdout, f"stdout: bash {ref.stdout!r} ours {ours.stdout!r}{where}"
    assert ours.status == ref.status, f"status: bash {ref.status} ours {ours.status}{where}"
    assert ours.files == ref.files, where
    if stderr:
        assert ours.stderr == ref.stderr, where

