"""Running another command from a command (env, timeout, xargs, find -exec): one helper.

``spawn`` calls ``ctx.run_command`` (the interpreter re-checks the allowlist there) and turns
its ``FSError`` into the tool's own message: GNU's tools exit 127 when the command is not found
and 126 when it cannot be run (here: not allowed by the sandbox policy).
"""

from __future__ import annotations

import errno
from typing import BinaryIO, Callable

from sandbox.commands.base import CommandContext, Writer
from sandbox.fs.base import FSError
from sandbox.limits import Budget


def spawn(ctx: CommandContext, argv: list[str], message: Callable[[str, str], str], *,
          stdin: BinaryIO | None = None, stdout: Writer | None = None,
          env: dict[str, str] | None = None, budget: Budget | None = None,
          cwd: str | None = None) -> int:
    """Run ``argv``; on failure to start it print ``message(name, strerror)`` (without the
    program prefix) and return 127 (no such command) or 126 (not allowed)."""
    try:
        return ctx.run_command(argv, stdin if stdin is not None else ctx.stdin,
                               stdout if stdout is not None else ctx.stdout, ctx.stderr,
                               env=env, budget=budget, cwd=cwd)
    except FSError as exc:
        if exc.path != (argv[0] if argv else "") and exc.errno != errno.EACCES:
            raise  # an error of the command itself, not of starting it
        code = exc.errno
        text = "Permission denied" if code == errno.EACCES else "No such file or directory"
        ctx.error(message(argv[0] if argv else "", text))
        return 126 if code == errno.EACCES else 127
