"""The mount table: one virtual tree made of backends mounted at absolute virtual paths.

``VirtualFS`` takes absolute, normalised virtual paths (see ``sandbox.fs.paths.normalize``),
finds the backend whose mount point is the longest prefix, and calls it with the relative
path. Directories above mount points exist virtually (``/`` when only ``/.memory`` is
mounted) and are read-only. ``/dev/null`` is built in; ``/dev/stdin``, ``/dev/stdout`` and
``/dev/stderr`` are per-command and are handled by ``CommandContext``. ``/dev/zero``,
``/dev/random`` and ``/dev/urandom`` exist as devices (``test -c``, ``ls /dev``) and take
writes (discarded); ``/dev/full`` refuses every write with ENOSPC ("No space left on device")
and reads as ``/dev/zero``. They read as NUL bytes and as the host's random bytes, charged to the run's
budget of bytes read from endless devices (``Limits.endless_read_bytes``): ``head -c 16
/dev/urandom`` works, and a whole-input reader (``tail -n1``, ``sort``, ``jq``) given an
endless input ends with the limit's one-line error instead of growing until the memory runs
out. A mount table with no run's budget attached (``for_run``) refuses to read them. Nothing
else exists.
"""

from __future__ import annotations

import errno
import io
import os
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, BinaryIO, Iterator

from sandbox.fs.base import DIR, FILE, FileStat, FileSystem, FSError, enoent

if TYPE_CHECKING:
    from sandbox.limits import Budget

DEV_NULL = "/dev/null"
#: Devices that never end: they exist, writes vanish, reads are charged to the run (see above).
ENDLESS = ("/dev/zero", "/dev/random", "/dev/urandom", "/dev/full")
DEVICES = ("/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", *ENDLESS)
#: The device every write to fails with ENOSPC (it reads as ``/dev/zero``).
DEV_FULL = "/dev/full"


def _endless(path: str) -> FSError:
    return FSError(errno.EPERM, path, "Operation not permitted (an endless device: the sandbox "
                   "does not read it)")


class EndlessDevice(io.RawIOBase):
    """A read-only stream of ``/dev/zero`` (NUL bytes) or ``/dev/random``/``/dev/urandom``
    (``os.urandom``), each read charged to ``budget.charge_endless_read``, which raises
    ``LimitExceeded`` once the run has read its allowance."""

    def __init__(self, path: str, budget: "Budget"):
        super().__init__()
        self._zero = path in ("/dev/zero", DEV_FULL)
        self._budget = budget

    def readable(self) -> bool:
        """Always readable."""
        return True

    def readinto(self, buffer: Any) -> int:
        """Fill up to ``len(buffer)`` bytes (at most 1 MiB a call)."""
        view = memoryview(buffer).cast("B")
        n = self._budget.charge_endless_read(min(len(view), 1 << 20))
        view[:n] = bytes(n) if self._zero else os.urandom(n)
        return n


class VirtualFS:
    """A set of ``FileSystem`` backends mounted at virtual paths, addressed by absolute path."""

    #: The run whose allowance reads of the endless devices are charged to (None: refused).
    budget: "Budget | None" = None

    def __init__(self, mounts: dict[str, FileSystem]):
        self.mounts: dict[str, FileSystem] = {}
        for point, backend in mounts.items():
            point = "/" + "/".join(p for p in point.split("/") if p)
            self.mounts[point] = backend
        # Longest mount point first, so the deepest mount wins.
        self._order = sorted(self.mounts, key=len, reverse=True)

    def with_mount(self, point: str, backend: FileSystem) -> "VirtualFS":
        """A copy of this mount table with ``backend`` mounted at ``point`` (normalised) as
        well; made for every run, so it skips ``__init__``'s normalising."""
        new = VirtualFS.__new__(VirtualFS)
        new.mounts = {**self.mounts, point: backend}
        new._order = sorted(new.mounts, key=len, reverse=True)
        new.budget = self.budget
        return new

    def for_run(self, budget: "Budget", scratch: str | None = None,
                backend: FileSystem | None = None) -> "VirtualFS":
        """The mount table one run uses: this one, reading the endless devices against
        ``budget``, with ``backend`` mounted at ``scratch`` when both are given."""
        if scratch is not None and backend is not None:
            new = self.with_mount(scratch, backend)
        else:
            new = VirtualFS.__new__(VirtualFS)
            new.mounts, new._order = self.mounts, self._order
        new.budget = budget
        return new

    def is_free(self, point: str) -> bool:
        """True when no mount holds ``point`` or anything below it (a mount may go there)."""
        return self.resolve(point) is None and not self._virtual_children(point)

    # -- resolution -----------------------------------------------------------------------

    def resolve(self, path: str) -> tuple[FileSystem, str] | None:
        """Return (backend, relative path) for ``path``, or None if no mount holds it."""
        for point in self._order:
            if point == "/":
                return self.mounts[point], path[1:]
            if path == point:
                return self.mounts[point], ""
            if path.startswith(point + "/"):
                return self.mounts[point], path[len(point) + 1 :]
        return None

    def _virtual_children(self, path: str) -> set[str]:
        """Names of mount points (or their ancestors) directly below ``path``."""
        prefix = path.rstrip("/") + "/"
        names = set()
        for point in self.mounts:
            if point != path and point.startswith(prefix):
                names.add(point[len(prefix) :].split("/", 1)[0])
        if path == "/" and "/" not in self.mounts:
            # /dev is listed in a root made of mounts; a directory mounted as the root (``--root
            # DIR``) lists as itself (its /dev still resolves: /dev/null, ``ls /dev``)
            names.add("dev")
        return names

    def _backend(self, path: str) -> tuple[FileSystem, str]:
        found = self.resolve(path)
        if found is None:
            if self._virtual_children(path):
                raise FSError(errno.EROFS, path)
            raise enoent(path)
        return found

    def _writable(self, path: str) -> tuple[FileSystem, str]:
        backend, rel = self._backend(path)
        if backend.read_only:
            raise FSError(errno.EROFS, path)
        return backend, rel

    # -- the protocol, on absolute virtual paths ---------------------------------------------

    def stat(self, path: str) -> FileStat:
        """Stat a virtual path (mount points' ancestors and ``/dev`` are directories)."""
        return self._stat(path, False)

    def lstat(self, path: str) -> FileStat:
        """``stat``, but a link or special file a backend holds is reported as such
        (``FileSystem.lstat``)."""
        return self._stat(path, True)

    def _stat(self, path: str, own: bool) -> FileStat:
        if path == DEV_NULL or path in DEVICES:
            return FileStat(FILE, 0, 0.0, 0o666)
        if path == "/dev":
            return FileStat(DIR, 4096, 0.0, 0o755, 2)
        found = self.resolve(path)
        if found is not None:
            try:
                return found[0].lstat(found[1]) if own else found[0].stat(found[1])
            except FSError as e:
                if e.errno != errno.ENOENT or not self._virtual_children(path):
                    raise
        children = self._virtual_children(path)
        if children:
            # every child is a directory (a mount point or an ancestor of one): each ``..``
            # links back here, as a kernel counts a directory's links
            return FileStat(DIR, 4096, 0.0, 0o755, 2 + len(children))
        raise enoent(path)

    def readlink(self, path: str) -> str:
        """The text of the symbolic link ``path`` (``EINVAL``: not a link)."""
        found = None if path in DEVICES or path == "/dev" else self.resolve(path)
        if found is None or found[1] == "":  # a mount point is a directory
            self.stat(path)
            raise FSError(errno.EINVAL, path)
        return found[0].readlink(found[1])

    def exists(self, path: str) -> bool:
        """True if the virtual path names something."""
        try:
            self.stat(path)
        except FSError:
            return False
        return True

    def listdir(self, path: str) -> list[str]:
        """Names in a virtual directory, sorted bytewise, mount points included."""
        if path == "/dev":
            return sorted(p[len("/dev/"):] for p in DEVICES)
        names = set(self._virtual_children(path))
        found = self.resolve(path)
        if found is not None:
            try:
                names.update(found[0].listdir(found[1]))
            except FSError as e:
                if e.errno != errno.ENOENT or not names:
                    raise
        elif not names:
            raise enoent(path)
        return sorted(names)

    def scandir(self, path: str) -> list[tuple[str, FileStat | None]]:
        """``listdir`` with each name's stat where the backend can give them all at once
        (``stat_many``); None where it can't (a mount point, a link, a backend without it):
        ``stat`` that name."""
        names = self.listdir(path)
        found = self.resolve(path) if path != "/dev" else None
        stats: dict[str, FileStat] = {}
        many = getattr(found[0], "stat_many", None) if found is not None else None
        if many is not None:
            virtual = self._virtual_children(path)
            try:
                stats = many(found[1], [n for n in names if n not in virtual])  # type: ignore[index]
            except FSError:
                stats = {}
        return [(name, stats.get(name)) for name in names]

    def scan_kinds(self, path: str) -> list[tuple[str, str | None]]:
        """``listdir`` with each name's kind (``DIR``/``FILE``) where the backend tells it from
        the listing itself (``scan_kinds``: no stat per entry); None where it can't (a mount
        point, a link, a backend without it): ``stat`` that name."""
        names = self.listdir(path)
        found = self.resolve(path) if path != "/dev" else None
        kinds: dict[str, str] = {}
        scan = getattr(found[0], "scan_kinds", None) if found is not None else None
        if scan is not None:
            try:
                kinds = scan(found[1])  # type: ignore[index]
            except FSError:
                kinds = {}
            virtual = self._virtual_children(path)
            if virtual:
                kinds = {n: k for n, k in kinds.items() if n not in virtual}
        return [(name, kinds.get(name)) for name in names]

    def open_scan(self, path: str, parent: Any = None, name: str = "") -> Any:
        """A backend's open directory for a walk (``scan()`` -> sorted (name, kind or None)
        pairs, ``child(name)``, ``close()``; see ``LocalDir.open_scan``), opened relative to
        ``parent`` (the handle of the directory holding ``name``) when it is the same
        backend's; None where the backend has none, ``path`` holds mount points or is
        ``/dev``: use ``scan_kinds``. Raises ``FSError`` as ``listdir`` would."""
        if path == "/dev" or self._virtual_children(path):
            return None
        found = self.resolve(path)
        if found is None:
            return None
        backend, rel = found
        if (parent is not None and getattr(parent, "owner", None) is backend
                and rel == (f"{parent.path}/{name}" if parent.path else name)):
            return parent.child(name)
        opener = getattr(backend, "open_scan", None)
        return opener(rel) if opener is not None else None

    def open_read(self, path: str) -> BinaryIO:
        """Open a file for streaming reads (``/dev/null`` reads empty)."""
        if path == DEV_NULL:
            return io.BytesIO(b"")
        if path in ENDLESS:
            if self.budget is None:
                raise _endless(path)
            return io.BufferedReader(EndlessDevice(path, self.budget), 1 << 16)
        backend, rel = self._backend(path)
        return backend.open_read(rel)

    def read_bytes(self, path: str) -> bytes:
        """Whole content of a file."""
        with self.open_read(path) as f:
            return f.read()

    def write_bytes(self, path: str, data: bytes) -> None:
        """Atomically replace a file (``/dev/null`` and the endless devices discard)."""
        if path == DEV_FULL and data:  # opening (and truncating) it succeeds
            raise FSError(errno.ENOSPC, path)
        if path == DEV_NULL or path in ENDLESS:
            return
        backend, rel = self._writable(path)
        backend.write_bytes(rel, data)

    def append_bytes(self, path: str, data: bytes) -> None:
        """Append indivisibly (``/dev/null`` and the endless devices discard)."""
        if path == DEV_FULL and data:
            raise FSError(errno.ENOSPC, path)
        if path == DEV_NULL or path in ENDLESS:
            return
        backend, rel = self._writable(path)
        backend.append_bytes(rel, data)

    def mkdir(self, path: str) -> None:
        """Create one directory."""
        if self.exists(path):
            raise FSError(errno.EEXIST, path)
        backend, rel = self._writable(path)
        backend.mkdir(rel)

    def remove(self, path: str) -> None:
        """Remove a file."""
        if path in DEVICES:
            raise FSError(errno.EACCES, path)
        backend, rel = self._writable(path)
        if rel == "":
            raise FSError(errno.EBUSY, path)
        backend.remove(rel)

    def rmdir(self, path: str) -> None:
        """Remove an empty directory (never a mount point)."""
        backend, rel = self._writable(path)
        if rel == "":
            raise FSError(errno.EBUSY, path)
        backend.rmdir(rel)

    def rename(self, src: str, dst: str) -> None:
        """Move within one backend; across backends ``EXDEV`` (callers copy then remove)."""
        b1, r1 = self._writable(src)
        b2, r2 = self._writable(dst)
        if r1 == "" or r2 == "":
            raise FSError(errno.EBUSY, src if r1 == "" else dst)
        if b1 is not b2:
            raise FSError(errno.EXDEV, dst)
        b1.rename(r1, r2)

    def set_mtime(self, path: str, mtime: float) -> None:
        """Set a file's modification time."""
        if path in DEVICES:
            return
        backend, rel = self._writable(path)
        backend.set_mtime(rel, mtime)

    @contextmanager
    def lock(self, path: str) -> Iterator[None]:
        """Exclusive lock on a virtual path (delegates to its backend)."""
        backend, rel = self._backend(path)
        with backend.lock(rel):
            yield
