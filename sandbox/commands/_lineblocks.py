"""Blocks of whole lines for the streaming text commands (nl, rev, fold, expand...).

Not a command (the leading underscore keeps it out of the registry).
"""

from __future__ import annotations

from typing import BinaryIO, Iterator

from sandbox.commands._records import iter_blocks
from sandbox.commands.base import CommandContext

#: Read size: large enough that per-block Python overhead vanishes.
BLOCK = 1 << 20


def line_blocks(ctx: CommandContext, stream: BinaryIO, eol: bytes = b"\n") -> Iterator[tuple[bytes, bool]]:
    """Yield ``(block, whole)``: blocks of whole lines each ending with ``eol`` (``whole``
    True), then at most one unterminated last line (``whole`` False). A line longer than a
    read is gathered in pieces, so the cost stays linear."""
    pending: list[bytes] = []
    for chunk in iter_blocks(stream, ctx.budget, BLOCK):
        cut = chunk.rfind(eol) + 1
        if not cut:
            pending.append(chunk)
            continue
        head = chunk[:cut]
        if pending:
            pending.append(head)
            head = b"".join(pending)
            pending.clear()
        yield head, True
        if cut < len(chunk):
            pending.append(chunk[cut:])
    if pending:
        yield b"".join(pending), False
