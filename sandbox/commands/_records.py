"""Streaming helpers shared by head and tail: records (lines) and blocks of a binary stream."""

from __future__ import annotations

import io
from typing import BinaryIO, Iterator

from sandbox.limits import Budget

BLOCK = 1 << 16


def iter_blocks(stream: BinaryIO, budget: Budget, size: int = BLOCK) -> Iterator[bytes]:
    """Blocks of at most ``size`` bytes until EOF, checking the time budget."""
    read = getattr(stream, "read1", None) or stream.read
    while True:
        block = read(size)
        if not block:
            return
        yield block
        budget.check_time()


def iter_records(stream: BinaryIO, delim: bytes, budget: Budget) -> Iterator[bytes]:
    """Whole records ending with ``delim`` (the last one may lack it), streamed."""
    if delim == b"\n" and hasattr(stream, "readline"):
        count = 0
        pending: list[bytes] = []
        while True:
            piece = stream.readline(BLOCK)
            if not piece:
                break
            count += 1
            if count & 1023 == 0:
                budget.check_time()
            if piece.endswith(b"\n"):
                if pending:
                    pending.append(piece)
                    piece = b"".join(pending)
                    pending.clear()
                yield piece
            else:
                pending.append(piece)
        if pending:
            yield b"".join(pending)
        return
    pending: list[bytes] = []  # pieces of a record longer than one block
    for block in iter_blocks(stream, budget):
        start = 0
        while True:
            end = block.find(delim, start)
            if end < 0:
                break
            piece = block[start : end + 1]
            if pending:
                pending.append(piece)
                piece = b"".join(pending)
                pending.clear()
            yield piece
            start = end + 1
        if start < len(block):
            pending.append(block[start:])
    if pending:
        yield b"".join(pending)


def seekable_size(stream: BinaryIO) -> int | None:
    """The size of a seekable regular stream (restoring its position), else None."""
    try:
        if not stream.seekable():
            return None
        here = stream.tell()
        size = stream.seek(0, io.SEEK_END)
        stream.seek(here)
        return size - here
    except (OSError, ValueError, AttributeError):
        return None
