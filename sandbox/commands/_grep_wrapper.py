"""What GNU grep 3.8's ``egrep`` and ``fgrep`` scripts do: warn that they are obsolescent, then
run ``grep -E`` / ``grep -F`` with the same arguments (messages then come from ``grep``)."""

from __future__ import annotations

import dataclasses

from sandbox.commands.base import CommandContext
from sandbox.commands.grep import run as grep_run


def run_as(ctx: CommandContext, flag: str) -> int:
    """Print ``NAME: warning: NAME is obsolescent`` and run ``grep FLAG ARGS...``."""
    name = ctx.prog.rsplit("/", 1)[-1]
    ctx.stderr.write(f"{name}: warning: {name} is obsolescent\n".encode("utf-8", "surrogateescape"))
    return grep_run(dataclasses.replace(ctx, argv=["grep", flag, *ctx.args]))
