"""Differential harness: run a sed case through GNU sed and through ours, compare everything.

A case is (args, stdin, files). GNU sed runs in a fresh temporary directory holding ``files``
(env ``LC_ALL=C.UTF-8 TZ=UTC``); ours runs over a ``MemoryFS`` holding the same files with
cwd ``/``. Compared: exit status, stdout, stderr and every file afterwards (``-i``, ``w``).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from sandbox.commands.testing import run_command
from sandbox.fs.memory import MemoryFS
from sandbox.fs.vfs import VirtualFS
from sandbox.limits import Limits

GNU_SED = shutil.which("sed")
ENV = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}


def gnu_sed_version() -> str | None:
    """The version line of the reference sed, or None when it is missing."""
    if GNU_SED is None:
        return None
    out = subprocess.run([GNU_SED, "--version"], capture_output=True, env=ENV).stdout
    return out.decode(errors="replace").splitlines()[0] if out else None


SKIP_REASON = "GNU sed 4.9 (the reference) is not installed"


def reference_available() -> bool:
    """True when GNU sed 4.9 is on PATH."""
    v = gnu_sed_version()
    return v is not None and "GNU sed" in v and "4.9" in v


@dataclass
class Case:
    """One sed invocation: arguments (without ``sed``), stdin and the files present."""

    args: list[str]
    stdin: bytes = b""
    files: dict[str, bytes] = field(default_factory=dict)

    def command(self) -> str:
        """A shell command that recreates this case in an empty directory and runs it."""
        parts = []
        for name, data in sorted(self.files.items()):
            parts.append(f"printf %s {shlex.quote(_printf_escape(data))} > {shlex.quote(name)}")
        run = "sed " + " ".join(shlex.quote(a) for a in self.args)
        parts.append(f"printf %b {shlex.quote(_printf_escape(self.stdin))} | {run}")
        return "LC_ALL=C.UTF-8 sh -c " + shlex.quote("; ".join(parts))


def _printf_escape(data: bytes) -> str:
    out = []
    for b in data:
        if b == 0x5C:
            out.append("\\\\")
        elif 0x20 <= b < 0x7F:
            out.append(chr(b))
        else:
            out.append("\\0%03o" % b)
    return "".join(out)


@dataclass
class Result:
    """What one implementation did."""

    status: int
    stdout: bytes
    stderr: bytes
    files: dict[str, bytes]


def run_gnu(case: Case, timeout: float = 30.0) -> Result:
    """Run GNU sed on ``case`` in a temporary directory (status < 0: killed by a signal)."""
    assert GNU_SED is not None
    with tempfile.TemporaryDirectory(prefix="sedcase") as tmp:
        for name, data in case.files.items():
            with open(os.path.join(tmp, name), "wb") as f:
                f.write(data)
        args = [a.encode("utf-8", "surrogateescape") for a in case.args]
        proc = subprocess.run([b"sed", *args], executable=GNU_SED, input=case.stdin,
                              capture_output=True, cwd=tmp, env=ENV, timeout=timeout)
        files = {}
        for name in sorted(os.listdir(tmp)):
            path = os.path.join(tmp, name)
            if os.path.isfile(path):
                with open(path, "rb") as f:
                    files[name] = f.read()
        return Result(proc.returncode, proc.stdout, proc.stderr, files)


def run_ours(case: Case, limits: Limits | None = None) -> Result:
    """Run our sed on ``case`` over a MemoryFS."""
    fs = VirtualFS({"/": MemoryFS(dict(case.files))})
    status, out, err = run_command(["sed", *case.args], stdin=case.stdin, fs=fs,
                                   limits=limits or Limits(seconds=20))
    files = {}
    for name in sorted(fs.listdir("/")):
        if name == "dev":
            continue
        st = fs.stat("/" + name)
        if st.is_file:
            files[name] = fs.read_bytes("/" + name)
    return Result(status, out, err, files)


def compare(case: Case, gnu: Result, ours: Result, check_stderr: bool = True) -> str | None:
    """None if the results agree, else a report with the command to reproduce."""
    problems = []
    if gnu.status != ours.status:
        problems.append(f"status: gnu {gnu.status} ours {ours.status}")
    if gnu.stdout != ours.stdout:
        problems.append(f"stdout:\n  gnu  {gnu.stdout[:400]!r}\n  ours {ours.stdout[:400]!r}")
    if check_stderr and gnu.stderr != ours.stderr:
        problems.append(f"stderr:\n  gnu  {gnu.stderr[:400]!r}\n  ours {ours.stderr[:400]!r}")
    if gnu.files != ours.files:
        problems.append(f"files:\n  gnu  {_short(gnu.files)}\n  ours {_short(ours.files)}")
    if not problems:
        return None
    return f"{case.command()}\n  args={case.args!r}\n  " + "\n  ".join(problems)


def _short(files: dict[str, bytes]) -> str:
    return repr({k: v[:200] for k, v in files.items()})


def check_cases(cases: list[Case], workers: int = 4, check_stderr: bool = True,
                max_report: int = 20) -> tuple[int, list[str]]:
    """Run every case both ways (GNU concurrently); return (number run, failure reports)."""
    failures: list[str] = []
    with ThreadPoolExecutor(max_workers=workers) as pool:
        gnu_results = pool.map(run_gnu, cases)
        for case, gnu in zip(cases, gnu_results):
            if gnu.status < 0:
                continue  # GNU sed itself crashed (it segfaults on a few patterns): no reference
            try:
                ours = run_ours(case)
            except Exception as exc:  # a traceback is itself a failure
                failures.append(f"{case.command()}\n  args={case.args!r}\n  raised {exc!r}")
                continue
            report = compare(case, gnu, ours, check_stderr)
            if report is not None:
                failures.append(report)
    return len(cases), failures[:max_report] + (
        [f"... and {len(failures) - max_report} more"] if len(failures) > max_report else [])
