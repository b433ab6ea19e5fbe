"""``tar --delete``: GNU's ``delete_archive_members`` on an uncompressed archive (a file, or
stdin to stdout with ``-f -``). Members matching the operands go; GNU rewrites the archive
from the record holding the first deleted member (or the first member with extended
headers), ends it with zero blocks to the record and truncates it there; an archive
without such a member is left as it was."""

from __future__ import annotations

import errno
import io

from sandbox.commands.tar.buffer import Fatal, Reader, detect
from sandbox.commands.tar.common import Tar
from sandbox.commands.tar.format import BLOCK, RECORD
from sandbox.commands.tar.names import quote
from sandbox.commands.tar.reading import NameList, read_header
from sandbox.fs.base import FSError

_BLOCKS = RECORD // BLOCK


def _archive_bytes(tar: Tar) -> bytes:
    """The archive's bytes (a missing file is created empty, as GNU's open for update)."""
    o = tar.opts
    ctx = tar.ctx
    if o.archive == "-":
        return ctx.stdin.read()
    try:
        if ctx.stat(o.archive).is_dir:
            raise Fatal(f"{quote(o.archive, True)}: Cannot read: Bad file descriptor",
                        "At beginning of tape, quitting now")
        return ctx.read_bytes(o.archive)
    except FSError as err:
        if err.errno != errno.ENOENT:
            raise Fatal(f"{quote(o.archive, True)}: Cannot open: {err.strerror}") from None
    try:
        ctx.write_bytes(o.archive, b"")
    except FSError as err:
        raise Fatal(f"{quote(o.archive, True)}: Cannot open: {err.strerror}") from None
    return b""


def delete(tar: Tar) -> None:
    """Run ``--delete``."""
    o = tar.opts
    data = _archive_bytes(tar)
    if detect(data[:BLOCK]) is not None:
        raise Fatal("Cannot update compressed archives")
    reader = Reader(io.BytesIO(data), False, tar.ctx.budget)  # type: ignore[arg-type]
    names = NameList(tar)
    kept: list[bytes] = []
    #: Block where GNU starts rewriting (None: nothing to rewrite).
    rewrite: int | None = None
    prev = "unread"
    while True:
        start = reader.ordinal()
        status, member = read_header(tar, reader)
        if status == "ok":
            assert member is not None
            head = reader.ordinal()
            reader.advance()
            reader.skip(member.data_size)
            end = reader.ordinal()
            extended = head > start
            matched = names.match(member.orig_name) if names.names else False
            if rewrite is None and (matched or extended):
                rewrite = start
            if rewrite is not None and not matched:
                kept.append(data[start * BLOCK : end * BLOCK])
            prev = status
            continue
        if status in ("zero", "eof"):
            stop = reader.ordinal()
            break
        reader.advance()
        if rewrite is not None:
            tar.error("Deleting non-header from archive")
        else:
            if prev == "unread":
                tar.warn("This does not look like a tar archive")
            if prev in ("unread", "zero", "ok"):
                tar.error("Skipping to next header")
        prev = "bad"
    last_record = min(stop, max(len(data) // BLOCK - 1, 0)) // _BLOCKS
    records_read = last_record + 1 if data else 0
    if rewrite is None:
        skipped = max(records_read - 1, 0)
        written = b""
        out = data
    else:
        skipped = rewrite // _BLOCKS
        prefix = data[skipped * RECORD : rewrite * BLOCK]
        written = _padded(prefix + b"".join(kept))
        out = data[: skipped * RECORD] + written
    tar.bytes_read += records_read * RECORD
    tar.bytes_written += len(written)
    tar.bytes_deleted = (records_read - skipped) * RECORD - len(written)
    if o.archive == "-":
        tar.ctx.stdout.write(out)
    elif rewrite is not None:
        try:
            tar.ctx.write_bytes(o.archive, out)
        except FSError as err:
            raise Fatal(f"{quote(o.archive, True)}: Cannot write: {err.strerror}") from None
    names.report()


def _padded(blocks: bytes) -> bytes:
    """GNU's end of a rewritten archive: zeros to the end of the record, and a whole zero
    record more when that left fewer than two zero blocks."""
    rest = -len(blocks) % RECORD
    if rest < 2 * BLOCK:
        rest += RECORD
    return blocks + bytes(rest)
