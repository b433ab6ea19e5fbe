"""``tar -c``: walk the operands (each relative to the ``-C`` directories before it), each
directory in the host's readdir order as GNU's default ``--sort=none`` does (name order with
``--sort=name`` or where the backend has no such order), write GNU-format headers and data, pad to the record, compress,
and write the archive in one atomic piece (or to stdout for ``-f -``)."""

from __future__ import annotations

from sandbox.commands._dirorder import in_directory_order
from sandbox.commands._writing import join
from sandbox.commands.tar.buffer import Fatal, compress, records
from sandbox.commands.tar.common import Tar
from sandbox.commands.tar.format import (DIRTYPE, LNKTYPE, LONGLINK, REGTYPE, Header,
                                         long_name_blocks, member_blocks, padded)
from sandbox.commands.tar.names import excluded, quote, safer_name
from sandbox.fs.base import FSError, mtime_ns_of
from sandbox.fs.vfs import DEVICES


class Creator:
    """Collects the archive's blocks for one ``-c`` run."""

    def __init__(self, tar: Tar, mtime: int | None):
        self.tar = tar
        self.ctx = tar.ctx
        self.parts: list[bytes] = []
        self.size = 0
        self.mtime = mtime
        o = tar.opts
        self.archive_path: str | None = None
        if o.archive != "-":
            try:
                self.archive_path = self.ctx.path(o.archive)
            except FSError:
                self.archive_path = None
        self.to_file = o.archive != "-"
        #: With more than one operand, GNU stores a file met again as a hard link to the
        #: first name it was archived under (``dump_hard_link``): virtual path -> that name.
        self.track_links = len(o.operands) > 1
        self.seen: dict[str, bytes] = {}

    def _add(self, data: bytes) -> None:
        if self.to_file:
            budget = self.ctx.budget
            if budget.written + self.size + len(data) > budget.limits.written_bytes:
                budget.charge_write(self.size + len(data))  # raises: the write limit
        self.parts.append(data)
        self.size += len(data)

    def dump(self, display: str, stored: bytes, path: str, top: bool) -> None:
        """GNU ``dump_file``: one file or directory tree (``path`` as the context takes it)."""
        tar = self.tar
        ctx = self.ctx
        ctx.budget.check_time()
        if excluded(tar.opts.excludes, stored.decode("utf-8", "surrogateescape")):
            return
        try:
            vpath = ctx.path(path)
        except FSError as err:
            tar.error(f"{quote(display, True)}: Cannot stat: {err.strerror}")
            return
        if vpath == self.archive_path:
            tar.warn(f"{quote(display, True)}: file is the archive; not dumped")
            return
        if vpath in DEVICES:
            tar.error(f"{quote(display, True)}: Cannot open: Operation not permitted "
                      "(the sandbox archives no device files)")
            return
        try:
            st = ctx.stat(path)
        except FSError as err:
            tar.error(f"{quote(display, True)}: Cannot stat: {err.strerror}")
            return
        o = tar.opts
        file_mtime = mtime_ns_of(st) // 1_000_000_000
        mtime = self.mtime if self.mtime is not None else file_mtime
        uname, gname = o.owner[0].encode(), o.group[0].encode()
        if o.numeric_owner:
            uname = gname = b""
        if st.is_dir:
            name = stored if stored.endswith(b"/") else stored + b"/"
            head = Header(name, st.mode & 0o7777, o.owner[1], o.group[1], 0, mtime, DIRTYPE,
                          b"", uname, gname, 0, 0)
            try:
                entries = ctx.listdir(path)
            except FSError as err:
                self._emit(head, display + ("" if display.endswith("/") else "/"), file_mtime)
                tar.error(f"{quote(display, True)}: Cannot open: {err.strerror}")
                return
            parent, _, base = (self.archive_path or "").rpartition("/")
            if self.archive_path is not None and (parent or "/") == vpath:
                if base not in entries:  # GNU made the archive before walking
                    entries = sorted(entries + [base])
            if o.sort == "none":  # (a new archive has no place in the host's order yet: last)
                entries = in_directory_order(ctx.fs, vpath, entries)
            self._emit(head, display + ("" if display.endswith("/") else "/"), file_mtime)
            for entry in entries:
                raw = entry.encode("utf-8", "surrogateescape")
                child_stored = stored + raw if stored.endswith(b"/") else stored + b"/" + raw
                self.dump(join(display, entry), child_stored, join(path, entry), False)
            return
        if vpath in self.seen:
            target = safer_name(self.seen[vpath], tar.warned, tar.warn, link_target=True)
            head = Header(stored, st.mode & 0o7777, o.owner[1], o.group[1], 0, mtime, LNKTYPE,
                          target, uname, gname, 0, 0)
            self._emit(head, display, file_mtime)
            return
        try:
            data = ctx.read_bytes(path)
        except FSError as err:
            tar.error(f"{quote(display, True)}: Cannot open: {err.strerror}")
            return
        head = Header(stored, st.mode & 0o7777, o.owner[1], o.group[1], len(data), mtime,
                      REGTYPE, b"", uname, gname, 0, 0)
        self._emit(head, display, file_mtime)
        self._add(padded(data))
        if self.track_links:
            self.seen[vpath] = display.encode("utf-8", "surrogateescape")

    def _emit(self, h: Header, display: str, file_mtime: int) -> None:
        """Add a member's header blocks and list it (with the file's own time, as GNU: the
        ``--mtime`` value goes into the header only)."""
        if len(h.linkname) > 100:
            self._add(long_name_blocks(h.linkname, LONGLINK))
        self._add(member_blocks(h.name, h.mode, h.uid, h.gid, h.size, h.mtime, h.typeflag,
                                h.uname, h.gname, h.linkname))
        o = self.tar.opts
        if o.verbose:
            shown = Header(**{**h.__dict__, "mtime": file_mtime})
            self.tar.print_header(shown, display.encode("utf-8", "surrogateescape"), o.verbose > 1)

    def finish(self, kind: str | None) -> None:
        """Pad, compress and write the archive."""
        data = compress(records(b"".join(self.parts)), kind)
        ctx = self.ctx
        if self.to_file:
            try:
                ctx.write_bytes(self.tar.opts.archive, data)
            except FSError as err:
                shown = quote(self.tar.opts.archive, True)
                raise Fatal(f"{shown}: Cannot open: {err.strerror}") from None
        else:
            ctx.stdout.write(data)


def chdir_path(dirs: tuple[str, ...]) -> str:
    """The directory that ``-C`` options leave (each relative to the one before)."""
    base = ""
    for d in dirs:
        base = d if d.startswith("/") or not base else join(base, d)
    return base


def create(tar: Tar, kind: str | None, mtime: int | None, old: bytes | None = None) -> None:
    """Run ``-c``; with ``old`` (``-r``), the new members follow those blocks."""
    o = tar.opts
    ctx = tar.ctx
    if not o.operands and old is None:
        raise EmptyArchive()
    creator = Creator(tar, mtime)
    if old:
        creator.parts.append(old)
        creator.size = len(old)
    if o.archive != "-":
        try:
            if ctx.stat(o.archive).is_dir:
                raise Fatal(f"{quote(o.archive, True)}: Cannot open: Is a directory")
        except FSError:
            pass
    checked: set[tuple[str, ...]] = set()
    for op in o.operands:
        if op.dirs not in checked:
            for i in range(1, len(op.dirs) + 1):
                d = chdir_path(op.dirs[:i])
                try:
                    if not ctx.stat(d).is_dir:
                        raise FSError(20, d)
                except FSError as err:
                    if creator.to_file:  # GNU made the (empty) archive before this
                        ctx.write_bytes(o.archive, b"")
                    shown = quote(op.dirs[i - 1], True)
                    raise Fatal(f"{shown}: Cannot open: {err.strerror}") from None
            checked.add(op.dirs)
        name = op.name.rstrip("/") or op.name
        base = chdir_path(op.dirs)
        path = name if not base or name.startswith("/") else join(base, name)
        stored = safer_name(name.encode("utf-8", "surrogateescape"), tar.warned, tar.warn)
        creator.dump(name, stored, path, True)
    creator.finish(kind)


class EmptyArchive(Exception):
    """``-c`` with no operands."""
