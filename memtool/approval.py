"""Approval of writes: ``Memory(approve=callback)`` asks before either tool changes a file.

A call runs first against an ``OverlayStore``: reads see the memory, writes land in a layer
in memory and the store is not touched. A call that changed nothing (every read) is answered
at once and never asks. Otherwise the callback gets an ``ApprovalRequest`` (the tool, its
command or arguments, every path the call would change and a unified diff of each) and
answers ``True`` to allow, ``False`` or a string (the reason, shown to the model) to deny.
Allowed, the layer's changes are applied to the memory (each a version); denied, nothing was
ever written. A file changed by someone else while the request waited is not overwritten:
the call is refused and nothing is applied.
"""

from __future__ import annotations

import errno
import itertools
import random
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, BinaryIO, Callable, Iterator, Union

from sandbox.fs.base import DIR, FILE, FileContent, FileStat, FileSystem, FSError, file_time_ns, ns_of

from memtool.history.api import unified
from memtool.history.store import lock_order


@dataclass(frozen=True)
class FileChange:
    """One file a call would change: its content before and after (None: absent)."""

    path: str
    before: bytes | None
    after: bytes | None

    @property
    def kind(self) -> str:
        """created, deleted or modified."""
        return "created" if self.before is None else ("deleted" if self.after is None else "modified")


@dataclass(frozen=True)
class ApprovalRequest:
    """What the approval callback sees about one tool call."""

    tool: str
    arguments: dict[str, Any]
    command: str
    changes: list[FileChange] = field(default_factory=list)
    #: Directories the call would create or remove (not versioned: no content).
    dirs: list[str] = field(default_factory=list)

    @property
    def paths(self) -> list[str]:
        """Every path (relative to the memory) the call would change."""
        return [c.path for c in self.changes] + [d for d in self.dirs if d not in
                                                 {c.path for c in self.changes}]

    @property
    def diff(self) -> str:
        """A unified diff of every change (the preview a person reads)."""
        return "".join(unified(c.path, c.before, c.after, "now", "proposed") for c in self.changes)

    def describe(self) -> str:
        """A few lines for a prompt: the tool, the command and the diff."""
        return f"{self.tool}: {self.command}\n{self.diff}"


#: ``callback(request) -> True | False | "reason"``.
Approver = Callable[[ApprovalRequest], Union[bool, str]]


def denial(answer: object) -> str | None:
    """None if ``answer`` allows the call, else the reason for the model."""
    if answer is True:
        return None
    if isinstance(answer, str) and answer.strip():
        return answer.strip()[:500]
    return "the user did not approve it"


_clock = itertools.count(1)

#: Files up to this size are read whole from the base (see ``OverlayStore.open_read``).
WHOLE_READ = 1 << 20

#: ``OverlayStore.seen`` of a path that did not exist in the base.
ABSENT = object()


def file_time() -> float:
    """Now, as the kernel dates a file it writes (``sandbox.fs.base.file_time_ns``)."""
    return file_time_ns() / 1e9


def _parent(path: str) -> str:
    return path.rpartition("/")[0]


class OverlayStore(FileSystem):
    """``base`` seen through a layer of changes kept in memory (see the module docstring)."""

    def __init__(self, base: FileSystem):
        self.base = base
        self.read_only = base.read_only
        self.files: dict[str, bytes | None] = {}  # None: removed
        self.dirs: dict[str, bool] = {}  # True: created here, False: removed
        #: path -> the modification time the layer set (``touch -d``, ``cp -p``): applied
        #: after the content changes, never asked for approval
        self.mtimes: dict[str, float] = {}
        self._versions: dict[str, int] = {}
        #: path -> the permission bits a file the layer changed shows (the base file's)
        self._modes: dict[str, int] = {}
        self._order: list[str] = []
        #: directory -> when the layer last added or removed an entry in it (its mtime then)
        self._entries_changed: dict[str, float] = {}
        #: directory -> subdirectories the layer made less those it removed (its links follow)
        self._subdirs: dict[str, int] = {}
        #: path -> when the layer last wrote the file or made the directory (its mtime)
        self._written: dict[str, float] = {}
        #: path -> the base's ``stat().version`` when the layer first read or wrote it
        #: (``ABSENT``: it did not exist), so ``apply`` can tell a change made meanwhile.
        self.seen: dict[str, object] = {}

    def _note(self, path: str) -> None:
        """Remember the base's version of ``path`` the first time the layer touches it (taken
        before the read, so a change racing the read shows as a change, never the reverse)."""
        if path in self.seen or path in self.files:
            return
        try:
            self.seen[path] = self.base.stat(path).version
        except FSError:
            self.seen[path] = ABSENT

    # -- the view -------------------------------------------------------------------------

    def _gone(self, path: str) -> bool:
        """True if ``path`` or a directory above it was removed in the layer."""
        p = path
        while p:
            if self.files.get(p, b"") is None and p == path:
                return True
            if self.dirs.get(p) is False:
                return True
            p = _parent(p)
        return False

    def stat(self, path: str) -> FileStat:
        """Stat through the layer (a time the layer set shows as the file's)."""
        st = self._stat(path)
        when = self.mtimes.get(path)
        return st if when is None else replace(st, mtime=float(when), mtime_ns=ns_of(when))

    def _stat(self, path: str) -> FileStat:
        if path in self.files and self.files[path] is not None:
            data = self.files[path]
            when = self._written[path]
            return FileStat(FILE, len(data), when, self._modes[path], 1,
                            ("overlay", self._versions[path]), ns_of(when))
        if self.dirs.get(path) is True:
            when = self._written.get(path, 0.0)
            return self._dir_stat(path, FileStat(DIR, 4096, when, 0o700, 2, None, ns_of(when)))
        if self._gone(path):
            raise FSError(errno.ENOENT, path)
        st = self.base.stat(path)
        return self._dir_stat(path, st) if st.is_dir else st

    def _dir_stat(self, path: str, st: FileStat) -> FileStat:
        """A directory's stat with the layer's subdirectories counted in its links (each
        ``..`` is one) and the time the layer last added or removed an entry in it."""
        nlink = st.nlink + self._subdirs.get(path, 0)
        changed = self._entries_changed.get(path)
        if nlink == st.nlink and changed is None:
            return st
        if changed is None:
            return replace(st, nlink=nlink)
        return replace(st, nlink=nlink, mtime=changed, mtime_ns=ns_of(changed))

    def open_read(self, path: str) -> BinaryIO:
        """Open through the layer."""
        if path in self.files and self.files[path] is not None:
            return FileContent(self.files[path])  # type: ignore[arg-type]
        if self.dirs.get(path) is True:
            raise FSError(errno.EISDIR, path)
        if self._gone(path):
            raise FSError(errno.ENOENT, path)
        self._note(path)
        st = self.base.stat(path)
        if not st.is_dir and st.size <= WHOLE_READ:
            # whole: a store retries a read that a concurrent replace interrupted (ESTALE)
            return FileContent(self.base.read_bytes(path))
        return self.base.open_read(path)

    def read_bytes(self, path: str) -> bytes:
        """The content through the layer."""
        with self.open_read(path) as f:
            return f.read()

    def listdir(self, path: str) -> list[str]:
        """Names through the layer."""
        st = self.stat(path)
        if not st.is_dir:
            raise FSError(errno.ENOTDIR, path)
        try:
            names = set(self.base.listdir(path))
        except FSError:
            names = set()
        for table in (self.files, self.dirs):
            for p in table:
                if _parent(p) == path and p:
                    names.add(p.rpartition("/")[2])
        return sorted(n for n in names if self.exists(f"{path}/{n}" if path else n))

    def readdir_order(self, path: str) -> list[str] | None:
        """The base's readdir order (names only in the layer have none: they sort last)."""
        return self.base.readdir_order(path)

    # -- changes in the layer -------------------------------------------------------------

    def _need_dir(self, path: str) -> None:
        parent = _parent(path)
        st = self.stat(parent)  # ENOENT when missing
        if not st.is_dir:
            raise FSError(errno.ENOTDIR, path)

    def _entry_changed(self, path: str) -> None:
        """``path`` was added or removed: its directory's modification time is now."""
        parent = _parent(path)
        self._entries_changed[parent] = file_time()
        self.mtimes.pop(parent, None)  # a time set before is gone, as on disk

    def _mark_dir(self, path: str, made: bool) -> None:
        """Record a directory made (``made``) or removed in the layer; its parent's link count
        follows when the directory comes or goes (each ``..`` is one link)."""
        if self.exists(path) != made:
            parent = _parent(path)
            self._subdirs[parent] = self._subdirs.get(parent, 0) + (1 if made else -1)
        self.dirs[path] = made

    def _set(self, path: str, data: bytes | None) -> None:
        if data is None or not self.exists(path):
            self._entry_changed(path)
        self._note(path)
        if path not in self._order:
            self._order.append(path)
            try:  # a file changed in the layer keeps its permission bits, as write_bytes does
                self._modes[path] = self.base.stat(path).mode
            except FSError:
                self._modes[path] = 0o600
        self.files[path] = data
        self._versions[path] = next(_clock)
        self._written[path] = file_time()
        self.mtimes.pop(path, None)  # written now: a time set before is gone

    def write_bytes(self, path: str, data: bytes) -> None:
        """Replace a file in the layer."""
        self.base_writable(path)
        self._need_dir(path)
        try:
            if self.stat(path).is_dir:
                raise FSError(errno.EISDIR, path)
        except FSError as e:
            if e.errno != errno.ENOENT:
                raise
        self._set(path, bytes(data))

    def base_writable(self, path: str) -> None:
        """EROFS for a read-only base."""
        if self.read_only:
            raise FSError(errno.EROFS, path)

    def append_bytes(self, path: str, data: bytes) -> None:
        """Append in the layer."""
        self.base_writable(path)
        try:
            old = self.read_bytes(path)
        except FSError as e:
            if e.errno != errno.ENOENT:
                raise
            old = b""
        self.write_bytes(path, old + bytes(data))

    def mkdir(self, path: str) -> None:
        """Create a directory in the layer."""
        self.base_writable(path)
        if self.exists(path):
            raise FSError(errno.EEXIST, path)
        self._need_dir(path)
        self._mark_dir(path, True)
        self._written[path] = file_time()
        self._entry_changed(path)

    def remove(self, path: str) -> None:
        """Remove a file in the layer."""
        self.base_writable(path)
        if self.stat(path).is_dir:
            raise FSError(errno.EISDIR, path)
        self._set(path, None)

    def rmdir(self, path: str) -> None:
        """Remove an empty directory in the layer."""
        self.base_writable(path)
        if path == "":
            raise FSError(errno.EBUSY, path)
        if not self.stat(path).is_dir:
            raise FSError(errno.ENOTDIR, path)
        if self.listdir(path):
            raise FSError(errno.ENOTEMPTY, path)
        self._mark_dir(path, False)
        self._entry_changed(path)

    def rename(self, src: str, dst: str) -> None:
        """Move a file or a directory tree in the layer."""
        self.base_writable(dst)
        st = self.stat(src)
        self._need_dir(dst)
        if not st.is_dir:  # a moved file keeps its time, as rename(2) keeps it
            data = self.read_bytes(src)
            self._set(src, None)
            self._set(dst, data)
            self.mtimes[dst] = st.mtime
            self.mtimes.pop(src, None)
            return
        if dst == src or dst.startswith(src + "/"):
            raise FSError(errno.EINVAL, src)
        if self.exists(dst):
            if not self.stat(dst).is_dir or self.listdir(dst):
                raise FSError(errno.ENOTEMPTY if self.stat(dst).is_dir else errno.ENOTDIR, dst)
        stack = [src]
        moves: list[tuple[str, bytes]] = []
        subdirs: list[str] = []
        while stack:
            d = stack.pop()
            subdirs.append(d)
            for name in self.listdir(d):
                child = f"{d}/{name}"
                if self.stat(child).is_dir:
                    stack.append(child)
                else:
                    moves.append((child, self.read_bytes(child)))
        self._entry_changed(src)
        self._entry_changed(dst)
        for d in subdirs:
            self._written[dst + d[len(src):]] = self.stat(d).mtime
            self._mark_dir(dst + d[len(src):], True)
        for child, data in moves:
            when = self.stat(child).mtime
            self._set(child, None)
            self._set(dst + child[len(src):], data)
            self.mtimes[dst + child[len(src):]] = when
            self.mtimes.pop(child, None)
        for d in sorted(subdirs, key=len, reverse=True):
            self._mark_dir(d, False)

    def set_mtime(self, path: str, mtime: float) -> None:
        """Kept in the layer and applied with it (``apply_times``); times are not part of a
        change (nothing to approve)."""
        self.stat(path)
        self.mtimes[path] = mtime

    # -- the result -----------------------------------------------------------------------

    def changes(self) -> list[FileChange]:
        """Every file whose content would change, in the order first touched."""
        out = []
        for path in self._order:
            after = self.files[path]
            try:
                before = self.base.read_bytes(path)
            except FSError:
                before = None
            if before != after:
                out.append(FileChange(path, before, after))
        return out

    def created_dirs(self) -> list[str]:
        """Directories the layer created (shallowest first)."""
        return sorted((d for d, made in self.dirs.items() if made and not self.base.exists(d)),
                      key=lambda d: d.count("/"))

    def removed_dirs(self) -> list[str]:
        """Directories the layer removed (deepest first)."""
        return sorted((d for d, made in self.dirs.items() if not made and self.base.exists(d)),
                      key=lambda d: -d.count("/"))


class ApprovalConflict(Exception):
    """A file changed while its change waited for approval."""


@contextmanager
def locked_paths(target: FileSystem, paths: "list[str]") -> Iterator[None]:
    """Hold ``target``'s lock of every path (a path whose directory does not exist yet is not
    lockable and needs none: nobody else can have written it through a lock either)."""
    with ExitStack() as stack:
        for path in sorted(set(paths), key=lock_order):
            try:
                stack.enter_context(target.lock(path))
            except FSError:
                continue
        yield


def _unchanged(overlay: OverlayStore, target: FileSystem, c: FileChange) -> bool:
    """Whether ``c.path`` in ``target`` is as the layer found it: same version when the store
    has versions, else same content as ``before``."""
    seen = overlay.seen.get(c.path)
    try:
        st = target.stat(c.path)
    except FSError:
        st = None
    if seen is ABSENT:
        return st is None
    if seen is not None and st is not None and st.version is not None:
        return st.version == seen
    try:
        now = target.read_bytes(c.path)
    except FSError:
        now = None
    return now == c.before


def apply(overlay: OverlayStore, target: FileSystem, changes: list[FileChange]) -> None:
    """Apply ``changes`` (and the layer's new and removed directories) to ``target``, holding
    the lock of every changed file; ``ApprovalConflict`` (nothing applied) when a file was
    changed by someone else since the layer first read or wrote it."""
    with locked_paths(target, [c.path for c in changes]):
        for c in changes:
            if not _unchanged(overlay, target, c):
                raise ApprovalConflict(c.path)
        for d in overlay.created_dirs():
            try:
                target.mkdir(d)
            except FSError as e:
                if e.errno != errno.EEXIST:
                    raise
        for c in changes:
            if c.after is None:
                target.remove(c.path)
            elif c.before and c.after.startswith(c.before):
                target.append_bytes(c.path, c.after[len(c.before):])  # `>>`: an append, as it was
            else:
                target.write_bytes(c.path, c.after)
        for d in overlay.removed_dirs():
            try:
                target.rmdir(d)
            except FSError:
                pass
    apply_times(overlay, target)


def apply_times(overlay: OverlayStore, target: FileSystem) -> None:
    """Set on ``target`` the modification times the layer set (``touch``, ``cp -p``), on the
    files and directories that still exist."""
    for path, when in overlay.mtimes.items():
        try:
            target.set_mtime(path, when)
        except FSError:
            pass


#: How many times ``run_atomically`` runs a call whose files keep changing under it.
ATTEMPTS = 8
#: ... of which the first ones hold no lock while the call runs (optimistic).
OPTIMISTIC = 2


def run_atomically(dry_run: Callable[[], tuple[OverlayStore, Any, "ApprovalRequest | None"]],
                   target: FileSystem, failed: Callable[[str], Any] = str) -> Any:
    """Run a call on an overlay (``dry_run()``) and apply what it changed to ``target`` under
    the changed files' locks, only if none of them changed since the call read or wrote it;
    otherwise run the call again (it changed nothing: its writes were in the layer). After
    ``OPTIMISTIC`` tries the call runs holding the locks of the files it changed last time,
    so a busy file cannot starve it. A ``sed -i`` racing an append so never drops the
    appended line, and every change of the call is a version. Returns the applied run's
    result, or ``failed(message)`` when the files kept changing for ``ATTEMPTS`` tries or a
    change could not be made (``path: reason``; the files changed before it stay changed,
    each with its version)."""
    conflict = ""
    paths: list[str] = []
    for attempt in range(ATTEMPTS):
        with locked_paths(target, paths if attempt >= OPTIMISTIC else []):
            overlay, result, request = dry_run()
            if request is None:  # a read, a refused write, or only times (`touch -d`)
                apply_times(overlay, target)
                return result
            try:
                apply(overlay, target, request.changes)
                return result
            except ApprovalConflict as e:
                conflict = str(e)
                paths = sorted(set(paths) | {c.path for c in request.changes})
            except FSError as e:
                return failed(f"{e.filename or ''}: {e.strerror or 'Input/output error'}".lstrip(": "))
        time.sleep(random.uniform(0, 0.001 * (attempt + 1)))
    return failed(f"{conflict}: kept changing while this command ran ({ATTEMPTS} tries); nothing "
                  f"was changed. Run it again.")
