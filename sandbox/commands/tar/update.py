"""``-r`` and ``-u``: read the existing archive up to its end-of-archive marker; for ``-u``,
GNU's ``update_archive`` drops every operand whose file is not newer than a member it matches
(a directory operand is replaced by its entries), and the rest are appended. Times compare
in whole seconds, as GNU's ``tar_timespec_cmp`` for its own format."""

from __future__ import annotations

import dataclasses
import errno
import io

from sandbox.commands._dirorder import in_directory_order
from sandbox.commands._writing import join
from sandbox.commands.tar.buffer import Fatal, Reader, detect
from sandbox.commands.tar.cli import Operand
from sandbox.commands.tar.common import Tar
from sandbox.commands.tar.create import chdir_path
from sandbox.commands.tar.format import BLOCK
from sandbox.commands.tar.names import name_match, quote
from sandbox.commands.tar.reading import Member, read_header
from sandbox.fs.base import FSError, mtime_ns_of


def _update_names(tar: Tar, member: Member, names: list[Operand]) -> None:
    """GNU ``update_archive`` for one member: the first operand matching it is dropped when
    the file is not newer, or replaced by its entries when it is a directory."""
    text = member.orig_name.decode("utf-8", "surrogateescape").rstrip("/")
    for i, op in enumerate(names):
        pattern = op.name.rstrip("/") or op.name
        if not pattern or not name_match(pattern, text, op.wildcards, op.recursion):
            continue
        base = chdir_path(op.dirs)
        path = join(base, text) if base else text
        try:
            st = tar.ctx.stat(path)
        except FSError:
            return
        if st.is_dir:
            try:
                where = join(base, pattern) if base else pattern
                entries = tar.ctx.listdir(where)
                if tar.opts.sort == "none":  # GNU's tar_savedir: readdir order
                    entries = in_directory_order(tar.ctx.fs, tar.ctx.path(where), entries)
            except FSError:
                return
            del names[i]
            names.extend(dataclasses.replace(op, name=join(pattern, e), wildcards=False)
                         for e in entries)
        elif mtime_ns_of(st) // 1_000_000_000 <= member.header.mtime:
            del names[i]  # (GNU's tar_timespec_cmp: whole seconds outside the POSIX format)
        return


def existing_blocks(tar: Tar, update: bool) -> bytes:
    """The existing archive's blocks before its end-of-archive marker (b"" when there is no
    archive yet); for ``-u``, ``tar.opts.operands`` loses what is not newer."""
    o = tar.opts
    ctx = tar.ctx
    if o.compress is not None:
        raise Fatal("Cannot update compressed archives")
    try:
        if ctx.stat(o.archive).is_dir:
            raise Fatal(f"{quote(o.archive, True)}: Cannot read: Bad file descriptor",
                        "At beginning of tape, quitting now")
        data = ctx.read_bytes(o.archive)
    except FSError as err:
        if err.errno == errno.ENOENT:
            return b""
        raise Fatal(f"{quote(o.archive, True)}: Cannot open: {err.strerror}") from None
    if detect(data[:BLOCK]) is not None:
        raise Fatal("Cannot update compressed archives")
    reader = Reader(io.BytesIO(data), False, ctx.budget)  # type: ignore[arg-type]
    bad = False
    names = o.operands
    while True:
        status, member = read_header(tar, reader)
        if status == "ok":
            assert member is not None
            if update:
                _update_names(tar, member, names)
            reader.advance()
            reader.skip(member.data_size)
            continue
        if status != "bad":
            return data[: min(reader.ordinal(), len(data) // BLOCK) * BLOCK]
        reader.advance()
        if not bad:
            tar.error("This does not look like a tar archive")
            tar.error("Skipping to next header")
            bad = True
