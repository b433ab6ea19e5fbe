"""``tar -c``: walk the operands (each relative to the ``-C`` directories before it, with the
exclusions and recursion in force where it appeared), each directory in the host's readdir
order as GNU's default ``--sort=none`` does (name order with ``--sort=name`` or where the
backend has no such order), write GNU-format headers and data (names made safe unless ``-P``,
then ``--transform``ed), pad to the record, compress, and write the archive in one atomic
piece (or to stdout for ``-f -``); ``--remove-files`` removes what was archived after that."""

from __future__ import annotations

import errno
import time

from sandbox.commands._dirorder import in_directory_order
from sandbox.commands._writing import join
from sandbox.commands.tar.buffer import Fatal, child_fatal, compress, records
from sandbox.commands.tar.cli import CliError, Operand
from sandbox.commands.tar.common import Tar
from sandbox.commands.tar.format import (DIRTYPE, LNKTYPE, LONGLINK, RECORD, REGTYPE, Header,
                                         long_name_blocks, member_blocks, padded)
from sandbox.commands.tar.namelist import NameWalker
from sandbox.commands.tar.names import excluded, quote, safer_name
from sandbox.commands.tar.transform import LINK, REGFILE
from sandbox.fs.base import FSError, mtime_ns_of
from sandbox.fs.vfs import DEVICES


class Creator:
    """Collects the archive's blocks for one ``-c`` run."""

    def __init__(self, tar: Tar, mtime: int | None, track_links: bool):
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
        self.track_links = track_links
        self.seen: dict[str, bytes] = {}
        #: Blocks of an existing archive (``-r``/``-u``) before its end: not counted as
        #: written, except the record GNU rewrites.
        self.old_size = 0
        #: ``--remove-files``: GNU's queue of deferred unlinks, (virtual path, is a
        #: directory, name for messages, records written when queued).
        self.removals: list[tuple[str, bool, str, int]] = []
        #: What GNU would have removed by now (the walk no longer sees it); the jail's
        #: files go only once the archive is written, in this order.
        self.gone: set[str] = set()
        self.to_remove: list[tuple[str, bool, str]] = []
        #: Directories an emulated removal changed, and when.
        self.emptied: dict[str, int] = {}

    def _add(self, data: bytes) -> None:
        if self.to_file:
            budget = self.ctx.budget
            if budget.written + self.size + len(data) > budget.limits.written_bytes:
                budget.charge_write(self.size + len(data))  # raises: the write limit
        self.parts.append(data)
        self.size += len(data)

    def dump(self, display: str, raw: bytes, path: str, top: bool, op: Operand) -> None:
        """GNU ``dump_file``: one file or directory tree (``path`` as the context takes it;
        ``raw`` the member name before ``--transform``)."""
        tar = self.tar
        ctx = self.ctx
        ctx.budget.check_time()
        if excluded(op.excludes, raw.decode("utf-8", "surrogateescape")):
            return
        xform = tar.transformer
        stored = xform.apply(raw, REGFILE) if xform else raw
        try:
            vpath = ctx.path(path)
        except FSError as err:
            tar.error(f"{quote(display, True)}: Cannot stat: {err.strerror}")
            return
        if vpath == self.archive_path:
            tar.warn(f"{quote(display, True)}: file is the archive; not dumped")
            return
        if self.gone and self._is_gone(vpath):
            if top:
                tar.error(f"{quote(display, True)}: Cannot stat: No such file or directory")
            else:  # listed with its directory, removed (``--remove-files``) since
                tar.warn(f"{quote(display, True)}: File removed before we read it")
                tar.differs = True
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
        if vpath in self.emptied:  # GNU removed an entry of it already: its time is now
            file_mtime = self.emptied[vpath]
        mtime = self.mtime if self.mtime is not None else file_mtime
        uname, gname = o.owner[0].encode(), o.group[0].encode()
        if o.numeric_owner:
            uname = gname = b""
        if st.is_dir:
            name = stored if stored.endswith(b"/") else stored + b"/"
            shown_dir = display + ("" if display.endswith("/") else "/")
            if o.show_transformed:
                shown_dir = name.decode("utf-8", "surrogateescape")
            head = Header(name, st.mode & 0o7777, o.owner[1], o.group[1], 0, mtime, DIRTYPE,
                          b"", uname, gname, 0, 0)
            try:
                entries = ctx.listdir(path)
            except FSError as err:
                self._emit(head, shown_dir, file_mtime)
                tar.error(f"{quote(display, True)}: Cannot open: {err.strerror}")
                return
            parent, _, base = (self.archive_path or "").rpartition("/")
            if self.archive_path is not None and (parent or "/") == vpath:
                if base not in entries:  # GNU made the archive before walking
                    entries = sorted(entries + [base])
            if o.sort == "none":  # (a new archive has no place in the host's order yet: last)
                entries = in_directory_order(ctx.fs, vpath, entries)
            if self.gone:
                entries = [e for e in entries if join(vpath, e) not in self.gone]
            self._emit(head, shown_dir, file_mtime)
            if op.recursion:
                for entry in entries:
                    piece = entry.encode("utf-8", "surrogateescape")
                    child = raw + piece if raw.endswith(b"/") else raw + b"/" + piece
                    self.dump(join(display, entry), child, join(path, entry), False, op)
            if o.remove_files:
                self._queue(vpath, True, display.rstrip("/") or display)
            return
        shown = stored.decode("utf-8", "surrogateescape") if o.show_transformed else display
        if vpath in self.seen:
            target = self.seen[vpath]
            if xform:
                target = xform.apply(target, LINK)
            head = Header(stored, st.mode & 0o7777, o.owner[1], o.group[1], 0, mtime, LNKTYPE,
                          target, uname, gname, 0, 0)
            self._emit(head, shown, file_mtime)
            if o.remove_files:
                self._queue(vpath, False, display)
            return
        try:
            data = ctx.read_bytes(path)
        except FSError as err:
            tar.error(f"{quote(display, True)}: Cannot open: {err.strerror}")
            return
        head = Header(stored, st.mode & 0o7777, o.owner[1], o.group[1], len(data), mtime,
                      REGTYPE, b"", uname, gname, 0, 0)
        self._emit(head, shown, file_mtime)
        self._add(padded(data))
        if self.track_links:  # GNU's file_count_links: the name made safe as a link target
            self.seen[vpath] = safer_name(display.encode("utf-8", "surrogateescape"),
                                          tar.warned, tar.warn, link_target=True,
                                          absolute=o.absolute)
        if o.remove_files:
            self._queue(vpath, False, display)

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
        """Pad, compress and write the archive, then run the ``--remove-files`` removals."""
        plain = records(b"".join(self.parts))
        self.tar.bytes_written += len(plain) - (self.old_size // RECORD) * RECORD
        self._write(compress(plain, kind), kind)
        self._remove()

    def abort(self, kind: str | None) -> None:
        """A fatal error mid-run: the archive holds the records GNU had flushed by then."""
        blocks = b"".join(self.parts)
        self._write(compress(blocks[: len(blocks) // RECORD * RECORD], kind), kind)

    def _write(self, data: bytes, kind: str | None) -> None:
        ctx = self.ctx
        if self.to_file:
            try:
                ctx.write_bytes(self.tar.opts.archive, data)
            except FSError as err:
                line = f"{quote(self.tar.opts.archive, True)}: Cannot open: {err.strerror}"
                if kind is not None:  # the child tar opens the file behind the filter
                    raise child_fatal(kind, line) from None
                raise Fatal(line) from None
        else:
            ctx.stdout.write(data)

    def _is_gone(self, vpath: str) -> bool:
        while vpath not in ("", "/"):
            if vpath in self.gone:
                return True
            vpath = vpath.rpartition("/")[0]
        return False

    def _records_written(self) -> int:
        """GNU's ``records_written``: a record goes out when a block past it is needed."""
        return max(self.size - 1, 0) // RECORD

    def _queue(self, vpath: str, is_dir: bool, shown: str) -> None:
        """GNU ``queue_deferred_unlink``, then the unlinks whose records are written."""
        self.removals.append((vpath, is_dir, shown, self._records_written()))
        self._flush(False)

    def _flush(self, force: bool) -> None:
        """GNU ``flush_deferred_unlinks``: each queued name whose member's record has been
        written (all when ``force``) is removed; a directory not yet empty waits (and is an
        error when forced)."""
        written = self._records_written()
        keep: list[tuple[str, bool, str, int]] = []
        for entry in self.removals:
            vpath, is_dir, shown, rec = entry
            if not force and written <= rec:
                keep.append(entry)
                continue
            if vpath in self.gone:
                continue
            if is_dir:
                try:
                    left = [e for e in self.ctx.listdir(vpath) if join(vpath, e) not in self.gone]
                except FSError:
                    continue
                if left:
                    if not force:
                        keep.append(entry)
                    else:
                        self.tar.error(f"{quote(shown, True)}: Cannot rmdir: Directory not empty")
                    continue
            self.gone.add(vpath)
            self.to_remove.append((vpath, is_dir, shown))
            self.emptied[vpath.rpartition("/")[0] or "/"] = int(time.time())
        self.removals = keep

    def _remove(self) -> None:
        """The removals, once the archive is written: files and emptied directories."""
        self._flush(True)
        for vpath, is_dir, shown in self.to_remove:
            try:
                if is_dir:
                    self.ctx.rmdir(vpath)
                else:
                    self.ctx.remove(vpath)
            except FSError as err:
                if err.errno == errno.ENOENT:
                    continue
                what = "rmdir" if is_dir else "unlink"
                self.tar.error(f"{quote(shown, True)}: Cannot {what}: {err.strerror}")


def chdir_path(dirs: tuple[str, ...]) -> str:
    """The directory that ``-C`` options leave (each relative to the one before)."""
    base = ""
    for d in dirs:
        base = d if d.startswith("/") or not base else join(base, d)
    return base


def create(tar: Tar, kind: str | None, mtime: int | None, old: bytes | None = None,
           names: list[Operand] | None = None) -> None:
    """Run ``-c``; with ``old`` (``-r``/``-u``), the new members follow those blocks and
    ``names`` are the operands left to append."""
    o = tar.opts
    ctx = tar.ctx
    if not any(e.key in ("", "T") for e in o.elements) and old is None:
        raise EmptyArchive()
    operands = sum(1 for e in o.elements if e.key == "")
    track = operands > 1 or any(e.key == "T" for e in o.elements)
    creator = Creator(tar, mtime, track)
    if old:
        creator.parts.append(old)
        creator.size = creator.old_size = len(old)
    if o.archive != "-":
        try:
            if ctx.stat(o.archive).is_dir:
                raise Fatal(f"{quote(o.archive, True)}: Cannot open: Is a directory")
        except FSError:
            pass
        if old is None:  # GNU opens (creates, truncates) the archive before the walk
            creator._write(b"", kind)
    checked: set[tuple[str, ...]] = set()
    walk = iter(names) if names is not None else NameWalker(tar).walk(o.elements)
    try:
        for op in walk:
            if op.dirs not in checked:
                for i in range(1, len(op.dirs) + 1):
                    d = chdir_path(op.dirs[:i])
                    try:
                        if not ctx.stat(d).is_dir:
                            raise FSError(20, d)
                    except FSError as err:
                        shown = quote(op.dirs[i - 1], True)
                        raise Fatal(f"{shown}: Cannot open: {err.strerror}") from None
                checked.add(op.dirs)
            name = op.name.rstrip("/") or op.name
            base = chdir_path(op.dirs)
            path = name if not base or name.startswith("/") else join(base, name)
            raw = safer_name(name.encode("utf-8", "surrogateescape"), tar.warned, tar.warn,
                             absolute=o.absolute)
            creator.dump(name, raw, path, True, op)
    except (Fatal, CliError):
        if old is None:  # GNU made the archive before this (``-r``/``-u`` read all first)
            creator.abort(kind)
        raise
    creator.finish(kind)


class EmptyArchive(Exception):
    """``-c`` with no operands."""
