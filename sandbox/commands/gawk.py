"""``gawk``: the sandbox's awk under its GNU name. gawk names itself by ``argv[0]``, so its
messages read ``gawk: cmd. line:1: ...`` and its usage ``Usage: gawk ...``: the same program
as ``awk`` with those line starts renamed (``--help``/``--usage`` text on stdout too; a
program's own output is never touched)."""

from __future__ import annotations

import dataclasses
from typing import Any

from sandbox.commands import awk
from sandbox.commands.base import CommandContext

_RENAMES = ((b"awk: ", b"gawk: "), (b"Usage: awk ", b"Usage: gawk "), (b"\tawk ", b"\tgawk "))


class _Renaming:
    """A byte stream that renames awk to gawk at the start of each line it passes on."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.at_line_start = True

    def write(self, data: bytes) -> int:
        """Pass ``data`` on with the line starts renamed."""
        out = bytearray()
        for piece in data.splitlines(keepends=True):
            if self.at_line_start:
                for old, new in _RENAMES:
                    if piece.startswith(old):
                        piece = new + piece[len(old):]
                        break
            out += piece
            self.at_line_start = piece.endswith(b"\n")
        self.inner.write(bytes(out))
        return len(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def run(ctx: CommandContext) -> int:
    """Run awk as ``gawk``."""
    changes: dict[str, Any] = {"stderr": _Renaming(ctx.stderr)}
    if any(a in ("--help", "-h", "--usage", "-W", "-Whelp", "-Wusage") for a in ctx.args):
        changes["stdout"] = _Renaming(ctx.stdout)
    return awk.run(dataclasses.replace(ctx, **changes))


def writes(args: list[str]) -> list[str]:
    """As awk's: the literal output redirection targets (and -i inplace's files)."""
    return awk.writes(args)
