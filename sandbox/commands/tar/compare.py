"""``tar -d``/``--diff``/``--compare``: GNU's ``diff_archive`` over the jail. Each member is
compared with the file of its name (relative to the ``-C`` directory): type, mode, owner
(the sandbox's virtual identity), whole-second mtime, size, then contents; differences go
to the listing stream as ``NAME: What differs`` and leave exit status 1."""

from __future__ import annotations

import errno

from sandbox.commands._identity import GID, UID
from sandbox.commands._writing import join
from sandbox.commands.tar.buffer import Reader
from sandbox.commands.tar.common import Tar
from sandbox.commands.tar.format import (AREGTYPE, BLKTYPE, CHRTYPE, CONTTYPE, DIRTYPE,
                                         FIFOTYPE, LNKTYPE, REGTYPE, SYMTYPE)
from sandbox.commands.tar.names import quote
from sandbox.commands.tar.reading import Member, read_and
from sandbox.fs.base import FileStat, FSError, mtime_ns_of

MODE_ALL = 0o7777


class Comparer:
    """State of one ``-d`` run."""

    def __init__(self, tar: Tar, reader: Reader, base: str):
        self.tar = tar
        self.ctx = tar.ctx
        self.reader = reader
        self.base = base

    def path(self, name: bytes) -> str:
        """The operand for a member name inside the ``-C`` directory."""
        text = name.decode("utf-8", "surrogateescape")
        return join(self.base, text) if self.base and not text.startswith("/") else text

    def differ(self, m: Member, what: str | None) -> None:
        """GNU ``report_difference``: ``NAME: WHAT`` on the listing stream (nothing when
        ``what`` is None); the run ends with status 1."""
        if what is not None:
            self.tar.list_line(f"{quote(m.name, True)}: {what}")
        self.tar.differs = True

    def stat(self, m: Member, name: bytes) -> FileStat | None:
        """GNU ``get_stat_data``: a missing file is a warning, any other failure an error;
        both are differences."""
        shown = quote(name, True)
        try:
            return self.ctx.stat(self.path(name))
        except FSError as err:
            if err.errno == errno.ENOENT:
                self.tar.warn(f"{shown}: Warning: Cannot stat: {err.strerror}")
            else:
                self.tar.error(f"{shown}: Cannot stat: {err.strerror}")
            self.differ(m, None)
            return None

    def member(self, m: Member) -> None:
        """GNU ``diff_archive`` for one member."""
        tar, h = self.tar, m.header
        self.ctx.budget.check_time()
        self.reader.advance()
        if tar.opts.verbose:
            tar.print_header(h, m.shown, tar.opts.verbose > 1, m.link)
        kind = h.typeflag
        if kind in (REGTYPE, AREGTYPE, CONTTYPE, b"S") and not m.had_slash:
            self._file(m)
            return
        if kind in (REGTYPE, AREGTYPE, CONTTYPE, b"S"):
            self._dir(m)
        elif kind == LNKTYPE:
            self._link(m)
        elif kind == SYMTYPE:
            self._symlink(m)
        elif kind in (CHRTYPE, BLKTYPE, FIFOTYPE):
            st = self.stat(m, m.name)
            if st is not None:
                self.differ(m, "File type differs")  # (the jail has no such files)
        elif kind in (DIRTYPE, b"D"):
            self._dir(m)
        elif kind != b"V":
            flag = kind.decode("latin-1") or "\\0"
            tar.error(f"{quote(m.name, True)}: Unknown file type '{flag}', diffed as normal "
                      "file")
            self._file(m)
            return
        self.reader.skip(m.data_size)

    def _dir(self, m: Member) -> None:
        st = self.stat(m, m.name)
        if st is None:
            return
        if not st.is_dir:
            self.differ(m, "File type differs")
        elif (m.header.mode & MODE_ALL) != (st.mode & MODE_ALL):
            self.differ(m, "Mode differs")

    def _file(self, m: Member) -> None:
        h = m.header
        st = self.stat(m, m.name)
        if st is None or not st.is_file:
            if st is not None:
                self.differ(m, "File type differs")
            self.reader.skip(m.data_size)
            return
        if (h.mode & MODE_ALL) != (st.mode & MODE_ALL):
            self.differ(m, "Mode differs")
        if h.uid != UID:
            self.differ(m, "Uid differs")
        if h.gid != GID:
            self.differ(m, "Gid differs")
        if mtime_ns_of(st) // 1_000_000_000 != h.mtime:
            self.differ(m, "Mod time differs")
        if st.size != h.size:
            self.differ(m, "Size differs")
            self.reader.skip(m.data_size)
            return
        try:
            stream = self.ctx.open_read(self.path(m.name))
        except FSError as err:
            self.tar.error(f"{quote(m.name, True)}: Cannot open: {err.strerror}")
            self.reader.skip(m.data_size)
            self.differ(m, None)
            return
        with stream:
            self._contents(m, stream)

    def _contents(self, m: Member, stream: object) -> None:
        """GNU ``process_rawdata``: the data against the file, "Contents differ" once."""
        left = m.data_size
        same = True
        while left > 0:
            chunk = self.reader.chunk(left)
            if chunk is None:
                self.tar.error("Unexpected EOF in archive")
                return
            left -= len(chunk)
            if same:
                got = stream.read(len(chunk))  # type: ignore[attr-defined]
                if got != chunk:
                    self.differ(m, "Contents differ")
                    same = False

    def _link(self, m: Member) -> None:
        first = self.stat(m, m.name)
        if first is None:
            return
        target = self.stat(m, m.link)
        if target is None:
            return
        try:
            same = self.ctx.path(self.path(m.name)) == self.ctx.path(self.path(m.link))
        except FSError:
            same = False
        if not same:  # (the jail has no hard links: only a name and itself are linked)
            self.differ(m, f"Not linked to {quote(m.link, True)}")

    def _symlink(self, m: Member) -> None:
        shown = quote(m.name, True)
        try:
            self.ctx.stat(self.path(m.name))
        except FSError as err:
            if err.errno == errno.ENOENT:
                self.tar.warn(f"{shown}: Warning: Cannot readlink: {err.strerror}")
            else:
                self.tar.error(f"{shown}: Cannot readlink: {err.strerror}")
            self.differ(m, None)
            return
        # Whatever is there is no symbolic link (the jail has none): readlink's EINVAL.
        self.tar.error(f"{shown}: Cannot readlink: Invalid argument")
        self.differ(m, None)


def compare(tar: Tar, reader: Reader, base: str) -> None:
    """Run ``-d``."""
    read_and(tar, reader, Comparer(tar, reader, base).member)
