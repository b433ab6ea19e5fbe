"""``tar -x`` and ``tar -t``: list members, or write them into the jail (files atomically, with
their mtimes; directories with theirs once everything is written). Symbolic links, hard links
and device or FIFO members are refused, one message each, as the jail has none."""

from __future__ import annotations

import errno
import time

from sandbox.commands._writing import join
from sandbox.commands.tar.common import Tar
from sandbox.commands.tar.format import (BLKTYPE, CHRTYPE, DIRTYPE, FIFOTYPE, LNKTYPE,
                                         SYMTYPE)
from sandbox.commands.tar.names import contains_dot_dot, quote
from sandbox.commands.tar.reading import Member, read_and
from sandbox.commands.tar.buffer import Reader
from sandbox.fs.base import FSError, Timestamp

_REFUSED = "Operation not permitted (the sandbox has no links or device files)"


def list_members(tar: Tar, reader: Reader) -> None:
    """Run ``-t``."""
    long = tar.opts.verbose >= 1

    def action(m: Member) -> None:
        """GNU ``list_archive`` for one member."""
        tar.print_header(m.header, m.shown, long, m.link)
        reader.advance()
        reader.skip(m.data_size)

    read_and(tar, reader, action)


class Extractor:
    """State of one ``-x`` run: where to write and which directories get their times last."""

    def __init__(self, tar: Tar, reader: Reader, base: str):
        self.tar = tar
        self.ctx = tar.ctx
        self.reader = reader
        self.base = base
        self.dir_times: list[tuple[str, bytes, int]] = []

    def path(self, name: bytes) -> str:
        """The operand for a member name inside the extraction directory."""
        text = name.decode("utf-8", "surrogateescape")
        return join(self.base, text) if self.base and not text.startswith("/") else text

    def member(self, m: Member) -> None:
        """GNU ``extract_archive`` for one member."""
        tar, reader, h = self.tar, self.reader, m.header
        self.ctx.budget.check_time()
        stripped = m.name + (b"/" if m.had_slash else b"")
        reader.advance()
        if not tar.opts.absolute and contains_dot_dot(m.orig_name):
            tar.error(f"{quote(m.orig_name, True)}: Member name contains '..'")
            reader.skip(m.data_size)
            return
        if not m.name:
            reader.skip(m.data_size)
            return
        if tar.opts.verbose:
            tar.print_header(h, m.shown, tar.opts.verbose > 1, m.link)
        self._apply_nonancestors(m.name)
        if tar.opts.to_stdout:
            if h.typeflag in (DIRTYPE, SYMTYPE, LNKTYPE, CHRTYPE, BLKTYPE, FIFOTYPE):
                reader.skip(m.data_size)
                return
            self.reader.skip(self._copy_data(m, None))
            return
        shown = quote(m.name, True)
        if h.typeflag == DIRTYPE or (h.typeflag in (b"0", b"\0") and stripped.endswith(b"/")):
            self._directory(stripped, h.mtime, shown)
            reader.skip(m.data_size if h.typeflag != DIRTYPE else 0)
            return
        if h.typeflag == SYMTYPE:
            tar.error(f"{shown}: Cannot create symlink to ‘{quote(m.link)}’: {_REFUSED}")
        elif h.typeflag == LNKTYPE:
            if not self._same_file(m):
                tar.error(f"{shown}: Cannot hard link to ‘{quote(m.link)}’: {_REFUSED}")
        elif h.typeflag in (CHRTYPE, BLKTYPE):
            tar.error(f"{shown}: Cannot mknod: {_REFUSED}")
        elif h.typeflag == FIFOTYPE:
            tar.error(f"{shown}: Cannot mkfifo: {_REFUSED}")
        else:
            self._file(m, stripped, shown)
            return
        reader.skip(m.data_size)

    def _same_file(self, m: Member) -> bool:
        """A hard link of an existing file to itself (GNU's ``link`` fails with EEXIST and
        finds the same file: nothing to do)."""
        try:
            p = self.ctx.path(self.path(m.name))
            return p == self.ctx.path(self.path(m.link)) and self.ctx.exists(p)
        except FSError:
            return False

    def _apply_nonancestors(self, name: bytes) -> None:
        """GNU ``apply_nonancestor_delayed_set_stat``: the directories made last whose
        names are no ancestor of ``name`` get their times now (files made in them later
        give them the time of that)."""
        while self.dir_times:
            p, dname, mtime = self.dir_times[-1]
            if (len(dname) < len(name) and name.startswith(dname)
                    and (name[len(dname)] == 0x2F or dname.endswith(b"/"))):
                break
            self.dir_times.pop()
            self._set_time(p, dname, mtime)

    def _make_parents(self, name: bytes) -> None:
        parts = name.rstrip(b"/").split(b"/")[:-1]
        prefix = b""
        for part in parts:
            if not part or part == b".":
                prefix += part + b"/"
                continue
            prefix += part
            p = self.path(prefix)
            try:
                if not self.ctx.stat(p).is_dir:
                    raise FSError(errno.ENOTDIR, p)
            except FSError as err:
                if err.errno != errno.ENOENT:
                    raise
                self.ctx.mkdir(p)
            prefix += b"/"

    def _skipping(self, name: bytes) -> None:
        """``--skip-old-files``: GNU's warning (the name unquoted), with ``-v`` only."""
        if self.tar.opts.verbose:
            self.tar.warn(f"{name.rstrip(b'/').decode('utf-8', 'surrogateescape')}: skipping "
                          "existing file")

    def _directory(self, name: bytes, mtime: int, shown: str) -> None:
        p = self.path(name.rstrip(b"/") or name)
        o = self.tar.opts
        try:
            self._make_parents(name)
            try:
                st = self.ctx.stat(p)
                if o.skip_old:
                    self._skipping(name)
                    return
                if not st.is_dir:
                    if o.keep_old:
                        return  # GNU -k leaves the file, silently
                    self.ctx.remove(p)
                    self.ctx.mkdir(p)
                elif o.keep_old:
                    return  # (and leaves the directory's time)
            except FSError as err:
                if err.errno != errno.ENOENT:
                    raise
                self.ctx.mkdir(p)
        except FSError as err:
            self.tar.error(f"{shown}: Cannot mkdir: {err.strerror}")
            return
        if not self.tar.opts.touch:
            self.dir_times.append((p, name.rstrip(b"/") or name, mtime))

    def _copy_data(self, m: Member, sink: list[bytes] | None) -> int:
        """Read the member's data into ``sink`` (or to stdout when None); the bytes still
        unread after an early end of the archive (GNU's "Unexpected EOF")."""
        left = m.data_size
        budget = self.ctx.budget
        held = 0
        while left > 0:
            chunk = self.reader.chunk(left)
            if chunk is None:
                self.tar.error("Unexpected EOF in archive")
                return left
            left -= len(chunk)
            if sink is None:
                self.ctx.stdout.write(chunk)
            else:
                held += len(chunk)
                if budget.written + held > budget.limits.written_bytes:
                    budget.charge_write(held)  # raises: the run's write limit
                sink.append(chunk)
        return 0

    def _file(self, m: Member, name: bytes, shown: str) -> None:
        tar, ctx = self.tar, self.ctx
        p = self.path(name)
        try:
            self._make_parents(name)
            try:
                st = ctx.stat(p)
            except FSError as err:
                if err.errno != errno.ENOENT:
                    raise
                st = None
            if st is not None and tar.opts.skip_old:
                self._skipping(name)
                self.reader.skip(m.data_size)
                return
            if st is not None and tar.opts.keep_old:
                raise FSError(errno.EEXIST, p)
            if st is not None and st.is_dir and tar.opts.overwrite:
                raise FSError(errno.EISDIR, p)
            if st is not None and st.is_dir:
                if name.rsplit(b"/", 1)[-1] == b"." or ctx.listdir(p):
                    raise FSError(errno.EEXIST, p)
                ctx.rmdir(p)  # GNU removes an empty directory in the way
        except FSError as err:
            tar.error(f"{shown}: Cannot open: {err.strerror}")
            self.reader.skip(m.data_size)
            return
        sink: list[bytes] = []
        left = self._copy_data(m, sink)
        try:
            ctx.write_bytes(p, b"".join(sink))
        except FSError as err:
            tar.error(f"{shown}: Cannot open: {err.strerror}")
            self.reader.skip(left)
            return
        self.reader.skip(left)  # an early end is fatal here: the time stays unrestored
        if not tar.opts.touch:
            self._set_time(p, name, m.header.mtime)

    def _set_time(self, p: str, name: bytes, mtime: int) -> None:
        """Restore a time, with GNU's ``check_time`` warnings for implausible ones."""
        shown = name.decode("utf-8", "surrogateescape")
        if mtime < 0:
            self.tar.warn(f"{shown}: implausibly old time stamp {self.tar.full_time(mtime)}")
        elif mtime > time.time():
            diff = mtime * 1_000_000_000 - time.time_ns()
            self.tar.warn(f"{shown}: time stamp {self.tar.full_time(mtime)} is "
                          f"{diff // 10**9}.{diff % 10**9:09d} s in the future")
        try:
            self.ctx.set_mtime(p, Timestamp(mtime * 1_000_000_000))
        except FSError:
            pass

    def finish(self) -> None:
        """Give the extracted directories their times, deepest last-made first."""
        for p, name, mtime in reversed(self.dir_times):
            self._set_time(p, name, mtime)


def extract(tar: Tar, reader: Reader, base: str) -> None:
    """Run ``-x``."""
    ex = Extractor(tar, reader, base)
    try:
        read_and(tar, reader, ex.member)
    finally:
        ex.finish()
