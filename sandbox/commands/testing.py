"""Run one command directly, without the shell: for unit tests of commands.

    from sandbox.commands.testing import run_command
    code, out, err = run_command(["grep", "-n", "x"], stdin=b"x\n", files={"a.txt": b"x\n"})

``files`` seed a ``MemoryFS`` mounted at ``/`` (cwd ``/``) unless ``fs`` is given.
"""

from __future__ import annotations

import io

from sandbox import commands
from sandbox.commands.base import CommandContext
from sandbox.errors import BrokenPipe
from sandbox.fs.memory import MemoryFS
from sandbox.fs.vfs import VirtualFS
from sandbox.limits import Budget, Limits
from sandbox.policy import Policy


def run_command(
    argv: list[str],
    stdin: bytes = b"",
    files: dict[str, bytes | str] | None = None,
    fs: VirtualFS | None = None,
    cwd: str = "/",
    policy: Policy | None = None,
    limits: Limits | None = None,
    env: dict[str, str] | None = None,
) -> tuple[int, bytes, bytes]:
    """Run ``argv`` through the registry; return (exit status, stdout, stderr)."""
    cmd = commands.get(argv[0])
    if cmd is None:
        raise KeyError(f"no command {argv[0]!r}")
    vfs = fs if fs is not None else VirtualFS({"/": MemoryFS(files or {})})
    out, err = io.BytesIO(), io.BytesIO()
    ctx = CommandContext(
        argv=list(argv),
        stdin=io.BytesIO(stdin),
        stdout=out,
        stderr=err,
        fs=vfs,
        cwd=cwd,
        env=dict(env or {}),
        budget=Budget(limits or Limits()),
        policy=policy or Policy(),
    )
    try:
        code = cmd.run(ctx)
    except BrokenPipe:
        code = 141
    return code, out.getvalue(), err.getvalue()
