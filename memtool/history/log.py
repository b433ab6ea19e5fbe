"""The version log: an append-only record of every change to a memory's files.

A version says when (``time``), who (``actor``: ``memory`` / ``bash`` / ``cli`` / ``person`` /
``restore`` / ``app``, with ``detail``: the command or arguments), what (``path``, and the
content ``before`` and ``after`` by SHA-256; ``None`` for absent) and which tool call it
belongs to (``call``: a ``rm -r`` or a directory ``rename`` is one call of many versions).
Ids are consecutive integers, in the order the changes were made.

``LocalVersionLog`` keeps the log in the memory directory, in ``.memtool/versions/``, which the
store hides from both tools (``LocalStore`` reserves the name): ``log.jsonl`` (one JSON object
a line, appended with one ``O_APPEND`` write under an exclusive ``flock`` of ``lock``, so many
processes append in order and a line is never torn; a reader ignores an unfinished last line)
and ``objects.pack`` (each content once, appended; checked against its hash when read).
``MemoryVersionLog`` is the same in memory, for tests and ``MemoryStore``.

Retention (``Retention(count=, age=)``) keeps at most ``count`` versions per path and drops
versions older than ``age`` seconds, but always keeps the newest version of every file that
exists, so the current state stays known; unreferenced contents are then deleted.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import re
import secrets
import threading
import time
from abc import ABC, abstractmethod
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

#: The hidden directory inside a local memory that holds the version log.
HIDDEN_DIR = ".memtool"
VERSIONS_DIR = "versions"
LOG_NAME = "log.jsonl"
PACK_NAME = "objects.pack"

_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_HEX = re.compile(r"[0-9a-f]{64}")


def content_hash(data: bytes) -> str:
    """The SHA-256 of ``data``, hex (the name of a content in the log)."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Version:
    """One change of one file (see the module docstring for the fields)."""

    id: int
    time: float
    actor: str
    detail: str
    path: str
    before: str | None
    after: str | None
    call: str = ""

    @property
    def kind(self) -> str:
        """``created``, ``deleted`` or ``modified``."""
        if self.before is None:
            return "created"
        if self.after is None:
            return "deleted"
        return "modified"

    def to_json(self) -> str:
        """The log line (without its newline): UTF-8 text as it is, or ``\\u`` escapes when a
        name or command holds an undecodable byte (kept as a surrogate), so the line is
        always valid UTF-8 and parses back to the same version."""
        fields = {"id": self.id, "time": self.time, "actor": self.actor, "detail": self.detail,
                  "path": self.path, "before": self.before, "after": self.after, "call": self.call}
        line = json.dumps(fields, ensure_ascii=False, separators=(",", ":"))
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:
            line = json.dumps(fields, separators=(",", ":"))
        return line

    @classmethod
    def from_json(cls, line: str | bytes) -> "Version":
        """Parse one log line; ``ValueError`` (or ``KeyError``/``TypeError``) if it is not one."""
        obj = json.loads(line)
        if not isinstance(obj, dict):
            raise ValueError("not an object")
        before, after = obj.get("before"), obj.get("after")
        for h in (before, after):
            if h is not None and not (isinstance(h, str) and _HEX.fullmatch(h)):
                raise ValueError("bad content hash")
        return cls(int(obj["id"]), float(obj["time"]), str(obj["actor"]), str(obj.get("detail", "")),
                   str(obj["path"]), before, after, str(obj.get("call", "")))


@dataclass(frozen=True)
class Retention:
    """How long versions are kept: at most ``count`` per path, none older than ``age`` seconds
    (``None``: no limit). The newest version of every existing file is always kept."""

    count: int | None = None
    age: float | None = None

    def __post_init__(self) -> None:
        if self.count is not None and self.count < 1:
            raise ValueError("Retention.count must be at least 1")
        if self.age is not None and self.age < 0:
            raise ValueError("Retention.age must not be negative")

    @property
    def unlimited(self) -> bool:
        """True when nothing is ever dropped."""
        return self.count is None and self.age is None


class VersionLogError(OSError):
    """The log could not be opened."""


@dataclass
class PendingVersion:
    """A version not yet numbered: what ``VersionLog.append`` takes."""

    path: str
    before: str | None
    after: str | None
    actor: str
    detail: str = ""
    call: str = ""


class VersionLog(ABC):
    """The log of one store (shared by every ``Memory`` and scope over it).

    Subclasses provide the storage primitives; this class keeps the parsed log in memory
    (caught up, on every locked operation, with what other processes appended), the current
    state (path -> content hash), and retention.
    """

    def __init__(self, retention: Retention | None = None, fsync: bool = False):
        self.retention = retention or Retention()
        self.fsync = fsync
        self._entries: list[Version] = []
        self._state: dict[str, str] = {}
        self._since_prune = 0
        self._thread_lock = threading.RLock()
        self._depth = threading.local()

    # -- storage primitives (subclasses) -----------------------------------------------------

    @abstractmethod
    def _os_lock(self) -> Iterator[None]:
        """Exclusive lock between processes (a context manager; not re-entrant)."""

    @abstractmethod
    def _read_new(self) -> tuple[list[bytes], bool]:
        """Lines appended since the last call, and whether the log was replaced (then every
        line is returned)."""

    @abstractmethod
    def _write_lines(self, lines: list[bytes]) -> bool:
        """Append lines (each ending in a newline) as one piece; False when the log held
        lines this process had not read (then the next catch-up rereads everything)."""

    @abstractmethod
    def _rewrite(self, lines: list[bytes]) -> None:
        """Replace the whole log atomically."""

    @abstractmethod
    def has_blob(self, digest: str) -> bool:
        """True if the content named ``digest`` is stored."""

    @abstractmethod
    def _store_blob(self, digest: str, data: bytes) -> None:
        """Store one content under its hash."""

    @abstractmethod
    def get_blob(self, digest: str) -> bytes:
        """The content named ``digest``; ``KeyError`` if it is not stored (or damaged)."""

    @abstractmethod
    def blob_names(self) -> Iterable[str]:
        """Every stored content hash."""

    @abstractmethod
    def _delete_blob(self, digest: str) -> None:
        """Delete one stored content."""

    @abstractmethod
    def raw_lines(self) -> list[bytes]:
        """The log's lines as stored (for export)."""

    # -- locking and catching up -------------------------------------------------------------

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the log exclusively (re-entrant in a thread); the in-memory copy is current."""
        with self._thread_lock:
            depth = getattr(self._depth, "n", 0)
            if depth:
                self._depth.n = depth + 1
                try:
                    yield
                finally:
                    self._depth.n = depth
                return
            with self._os_lock():
                self._depth.n = 1
                try:
                    self._catch_up()
                    yield
                finally:
                    self._depth.n = 0

    def _add(self, v: Version) -> None:
        self._entries.append(v)
        if v.after is None:
            self._state.pop(v.path, None)
        else:
            self._state[v.path] = v.after

    def _catch_up(self) -> None:
        lines, rewritten = self._read_new()
        if rewritten:
            self._entries = []
            self._state = {}
        for raw in lines:
            try:
                v = Version.from_json(raw)
            except (ValueError, KeyError, TypeError):
                continue  # a damaged line is skipped, never fatal
            self._add(v)

    # -- writing ----------------------------------------------------------------------------

    def put_blob(self, data: bytes) -> str:
        """Store ``data`` (once) and return its hash."""
        digest = content_hash(data)
        if not self.has_blob(digest):
            with self.locked():
                self._store_blob(digest, data)
        return digest

    def append(self, pending: list[PendingVersion], now: float | None = None) -> list[Version]:
        """Number and append versions, in order, as one write; returns them."""
        if not pending:
            return []
        with self.locked():
            stamp = time.time() if now is None else now
            next_id = (self._entries[-1].id if self._entries else 0) + 1
            made = [Version(next_id + i, stamp, p.actor, p.detail, p.path, p.before, p.after, p.call)
                    for i, p in enumerate(pending)]
            in_step = self._write_lines([(v.to_json() + "\n").encode("utf-8") for v in made])
            if in_step:
                for v in made:  # we hold the lock: nothing was appended in between
                    self._add(v)
            else:
                self._catch_up()
            self._since_prune += len(made)
            if not self.retention.unlimited and self._since_prune >= 64:
                self.prune()
            return made

    def import_lines(self, lines: list[bytes]) -> int:
        """Append another log's lines as they are (``import`` into an empty log); returns
        how many versions were added."""
        with self.locked():
            if self._entries:
                raise ValueError("the version log is not empty")
            good = []
            for raw in lines:
                try:
                    Version.from_json(raw)
                except (ValueError, KeyError, TypeError):
                    continue
                good.append(raw.rstrip(b"\n") + b"\n")
            if good:
                self._rewrite(good)
                self._entries, self._state = [], {}
                self._catch_up()
            return len(good)

    def state(self, path: str) -> str | None:
        """The content hash of ``path`` after its newest version (None: absent or unknown)."""
        return self._state.get(path)

    def tracked(self, prefix: str = "") -> dict[str, str]:
        """path -> hash of every file existing after its newest version, under ``prefix``."""
        if not prefix:
            return dict(self._state)
        head = prefix + "/"
        return {p: h for p, h in self._state.items() if p.startswith(head)}

    # -- reading ----------------------------------------------------------------------------

    def entries(self) -> list[Version]:
        """Every version, oldest first (caught up now)."""
        with self.locked():
            return list(self._entries)

    def get(self, version_id: int) -> Version | None:
        """The version with this id, or None."""
        with self.locked():
            for v in reversed(self._entries):
                if v.id == version_id:
                    return v
                if v.id < version_id:
                    break
            return None

    # -- retention --------------------------------------------------------------------------

    def prune(self, retention: Retention | None = None, now: float | None = None) -> int:
        """Drop versions outside ``retention`` (default: the log's own); unreferenced
        contents are deleted. Returns how many versions were dropped."""
        rule = retention or self.retention
        if rule.unlimited:
            return 0
        with self.locked():
            stamp = time.time() if now is None else now
            newest: dict[str, int] = {}
            for v in self._entries:
                newest[v.path] = v.id
            per_path: dict[str, int] = {}
            keep_ids: set[int] = set()
            for v in reversed(self._entries):
                rank = per_path.get(v.path, 0)
                per_path[v.path] = rank + 1
                if newest[v.path] == v.id and v.after is not None:
                    keep_ids.add(v.id)  # the current state of an existing file
                    continue
                if rule.count is not None and rank >= rule.count:
                    continue
                if rule.age is not None and stamp - v.time > rule.age:
                    continue
                keep_ids.add(v.id)
            kept = [v for v in self._entries if v.id in keep_ids]
            dropped = len(self._entries) - len(kept)
            self._since_prune = 0
            if not dropped:
                return 0
            self._rewrite([(v.to_json() + "\n").encode("utf-8") for v in kept])
            self._entries = []
            self._state = {}
            self._catch_up()
            referenced = {h for v in kept for h in (v.before, v.after) if h}
            for digest in list(self.blob_names()):
                if digest not in referenced:
                    self._delete_blob(digest)
            self._after_prune(referenced)
            return dropped

    def _after_prune(self, referenced: set[str]) -> None:
        """Called after unreferenced contents were deleted (a pack is rewritten here)."""


class MemoryVersionLog(VersionLog):
    """A version log in memory (for ``MemoryStore`` and tests)."""

    def __init__(self, retention: Retention | None = None):
        super().__init__(retention)
        self._lines: list[bytes] = []
        self._read = 0
        self._generation = 0
        self._seen_generation = 0
        self._blobs: dict[str, bytes] = {}
        self._guard = threading.Lock()

    @contextmanager
    def _os_lock(self) -> Iterator[None]:
        with self._guard:
            yield

    def _read_new(self) -> tuple[list[bytes], bool]:
        rewritten = self._seen_generation != self._generation
        if rewritten:
            self._read = 0
            self._seen_generation = self._generation
        new = self._lines[self._read:]
        self._read = len(self._lines)
        return new, rewritten

    def _write_lines(self, lines: list[bytes]) -> bool:
        in_step = self._read == len(self._lines)
        self._lines.extend(lines)
        if in_step:
            self._read = len(self._lines)
        return in_step

    def _rewrite(self, lines: list[bytes]) -> None:
        self._lines = list(lines)
        self._generation += 1

    def has_blob(self, digest: str) -> bool:
        return digest in self._blobs

    def _store_blob(self, digest: str, data: bytes) -> None:
        self._blobs[digest] = bytes(data)

    def get_blob(self, digest: str) -> bytes:
        return self._blobs[digest]

    def blob_names(self) -> Iterable[str]:
        return list(self._blobs)

    def _delete_blob(self, digest: str) -> None:
        self._blobs.pop(digest, None)

    def raw_lines(self) -> list[bytes]:
        with self.locked():
            return list(self._lines)


_LOGS: "dict[str, LocalVersionLog]" = {}
_LOGS_GUARD = threading.Lock()


def local_log(root: str, retention: Retention | None = None, fsync: bool = False) -> "LocalVersionLog":
    """The one ``LocalVersionLog`` of this process for the memory directory ``root``."""
    key = os.path.realpath(root)
    with _LOGS_GUARD:
        log = _LOGS.get(key)
        if log is None or (log._lock_fd >= 0 and not os.path.isdir(log.dir)):
            log = _LOGS[key] = LocalVersionLog(key, retention, fsync)
        elif retention is not None and not retention.unlimited:
            log.retention = retention
        return log


class _AppendFile:
    """One append-only file of the log directory, held open per process (reopened after a
    fork or when another process replaced the file)."""

    def __init__(self, path: str):
        self.path = path
        self.fd = -1
        self.pid = -1
        self.ident: tuple[int, int] | None = None

    def current(self, create: bool) -> tuple[int, os.stat_result] | None:
        """(descriptor, stat) of the file now at ``path``; None if missing and not ``create``."""
        try:
            st = os.stat(self.path, follow_symlinks=False)
        except FileNotFoundError:
            st = None
        if self.fd >= 0 and self.pid == os.getpid() and st is not None \
                and (st.st_dev, st.st_ino) == self.ident:
            return self.fd, st
        if st is None and not create:
            return None
        self.close()
        flags = os.O_RDWR | os.O_APPEND | os.O_NOFOLLOW | _O_CLOEXEC | (os.O_CREAT if create else 0)
        self.fd = os.open(self.path, flags, 0o600)
        self.pid = os.getpid()
        st = os.fstat(self.fd)
        self.ident = (st.st_dev, st.st_ino)
        return self.fd, st

    def close(self) -> None:
        """Close the descriptor (if this process opened it)."""
        if self.fd >= 0 and self.pid == os.getpid():
            try:
                os.close(self.fd)
            except OSError:
                pass
        self.fd = -1


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class LocalVersionLog(VersionLog):
    """The version log in ``<root>/.memtool/versions/`` (see the module docstring).

    Contents live in one append-only pack, ``objects.pack``: records ``<sha256> <length>\\n``
    followed by the bytes and a newline, indexed in memory while catching up. Appending to an
    open file costs a few microseconds where creating a file per content costs a
    directory update; a record cut short by a crash is cut off by the next writer (under the
    lock) before it appends.
    """

    def __init__(self, root: str, retention: Retention | None = None, fsync: bool = False):
        super().__init__(retention, fsync)
        self.root = root
        self.dir = os.path.join(root, HIDDEN_DIR, VERSIONS_DIR)
        self.log_path = os.path.join(self.dir, LOG_NAME)
        self.pack_path = os.path.join(self.dir, PACK_NAME)
        self._log = _AppendFile(self.log_path)
        self._pack = _AppendFile(self.pack_path)
        self._lock_fd = -1
        self._lock_pid = -1
        self._offset = 0
        self._inode: tuple[int, int] | None = None
        self._index: dict[str, tuple[int, int]] = {}
        self._pack_end = 0
        self._pack_inode: tuple[int, int] | None = None

    def _make_dirs(self) -> None:
        """Create ``.memtool/versions`` (0700) on first use. Making ``.memtool`` leaves the
        memory directory's modification time as it was (the tools never show the entry, so
        ``ls -l`` of the directory must not change because of it)."""
        hidden = os.path.join(self.root, HIDDEN_DIR)
        before = None if os.path.isdir(hidden) else os.stat(self.root)
        for d in (hidden, self.dir):
            try:
                os.mkdir(d, 0o700)
            except FileExistsError:
                pass
            if os.path.islink(d) or not os.path.isdir(d):
                raise VersionLogError(errno.ENOTDIR, "the version directory is not a directory")
        if before is not None:
            try:
                os.utime(self.root, ns=(before.st_atime_ns, before.st_mtime_ns))
            except OSError:
                pass

    def _lock_descriptor(self) -> int:
        if self._lock_fd < 0 or self._lock_pid != os.getpid():
            self._make_dirs()
            # A forked child opens its own: flock belongs to the open file description.
            self._lock_fd = os.open(os.path.join(self.dir, "lock"),
                                    os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | _O_CLOEXEC, 0o600)
            self._lock_pid = os.getpid()
        return self._lock_fd

    @contextmanager
    def _os_lock(self) -> Iterator[None]:
        fd = self._lock_descriptor()
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)

    # -- the log ----------------------------------------------------------------------------

    def _read_new(self) -> tuple[list[bytes], bool]:
        got = self._log.current(create=False)
        if got is None:
            rewritten = self._inode is not None
            self._inode, self._offset = None, 0
            return [], rewritten
        fd, st = got
        ident = (st.st_dev, st.st_ino)
        rewritten = self._inode is not None and ident != self._inode
        if ident != self._inode:
            self._offset = 0
        self._inode = ident
        if st.st_size <= self._offset:
            return [], rewritten
        data = os.pread(fd, st.st_size - self._offset, self._offset)
        end = data.rfind(b"\n") + 1  # an unfinished last line is read next time
        self._offset += end
        return data[:end].splitlines(), rewritten

    def _write_lines(self, lines: list[bytes]) -> bool:
        fd, st = self._log.current(create=True)  # type: ignore[misc]
        data = b"".join(lines)
        ident = (st.st_dev, st.st_ino)
        # Caught up under the lock, bytes past our offset can only be a line torn by a crash:
        # end it, so it is skipped as one damaged line and ours stay whole.
        torn = ident == self._inode and st.st_size > self._offset
        if torn:
            data = b"\n" + data
        in_step = (ident == self._inode or self._inode is None) and (st.st_size == self._offset or torn)
        _write_all(fd, data)
        if self.fsync:
            os.fsync(fd)
        if in_step:
            self._inode, self._offset = ident, st.st_size + len(data)
        return in_step

    def _rewrite(self, lines: list[bytes]) -> None:
        self._make_dirs()
        tmp = os.path.join(self.dir, f".log.{secrets.token_hex(8)}.tmp")
        with open(tmp, "wb") as f:
            f.write(b"".join(lines))
            if self.fsync:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, self.log_path)

    # -- the pack of contents ---------------------------------------------------------------

    def _catch_up(self) -> None:
        super()._catch_up()
        self._read_pack()

    def _read_pack(self) -> None:
        got = self._pack.current(create=False)
        if got is None:
            self._index, self._pack_end, self._pack_inode = {}, 0, None
            return
        fd, st = got
        ident = (st.st_dev, st.st_ino)
        if ident != self._pack_inode:
            self._index, self._pack_end, self._pack_inode = {}, 0, ident
        pos = self._pack_end
        while pos < st.st_size:
            head = os.pread(fd, 96, pos)
            nl = head.find(b"\n")
            try:
                digest_b, length_b = head[:nl].split(b" ")
                digest, length = digest_b.decode("ascii"), int(length_b)
            except (ValueError, UnicodeDecodeError):
                break  # a torn record: cut off by the next writer
            start = pos + nl + 1
            if nl < 0 or not _HEX.fullmatch(digest) or start + length + 1 > st.st_size:
                break
            self._index.setdefault(digest, (start, length))
            pos = start + length + 1
        self._pack_end = pos

    def has_blob(self, digest: str) -> bool:
        with self.locked():
            return digest in self._index

    def put_blob(self, data: bytes) -> str:
        """Store ``data`` (once) in the pack and return its hash."""
        digest = content_hash(data)
        with self.locked():
            if digest not in self._index:
                self._store_blob(digest, data)
        return digest

    def _store_blob(self, digest: str, data: bytes) -> None:
        fd, st = self._pack.current(create=True)  # type: ignore[misc]
        if (st.st_dev, st.st_ino) != self._pack_inode:
            self._read_pack()
        if st.st_size != self._pack_end:
            os.ftruncate(fd, self._pack_end)  # a record torn by a crash
        head = f"{digest} {len(data)}\n".encode("ascii")
        _write_all(fd, head + data + b"\n")
        if self.fsync:
            os.fsync(fd)
        self._index[digest] = (self._pack_end + len(head), len(data))
        self._pack_end += len(head) + len(data) + 1

    def get_blob(self, digest: str) -> bytes:
        with self.locked():
            where = self._index.get(digest)
            if where is None:
                raise KeyError(digest)
            got = self._pack.current(create=False)
            if got is None:
                raise KeyError(digest)
            data = os.pread(got[0], where[1], where[0])
        if content_hash(data) != digest:
            raise KeyError(digest)
        return data

    def blob_names(self) -> Iterable[str]:
        with self.locked():
            return list(self._index)

    def _delete_blob(self, digest: str) -> None:
        self._index.pop(digest, None)  # dropped from the pack by _compact_pack

    def _after_prune(self, referenced: set[str]) -> None:
        """Rewrite the pack with the referenced contents only."""
        got = self._pack.current(create=False)
        if got is None:
            return
        tmp = os.path.join(self.dir, f".pack.{secrets.token_hex(8)}.tmp")
        with open(tmp, "wb") as f:
            for digest, (start, length) in list(self._index.items()):
                if digest in referenced:
                    f.write(f"{digest} {length}\n".encode("ascii") + os.pread(got[0], length, start) + b"\n")
            if self.fsync:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, self.pack_path)
        self._index, self._pack_end, self._pack_inode = {}, 0, None
        self._read_pack()

    def raw_lines(self) -> list[bytes]:
        with self.locked():
            got = self._log.current(create=False)
            if got is None:
                return []
            data = os.pread(got[0], got[1].st_size, 0)
        end = data.rfind(b"\n") + 1
        return data[:end].splitlines(keepends=True)


class StoreVersionLog(VersionLog):
    """The version log kept inside any store (PostgreSQL, a custom store), under
    ``.memtool/versions/`` of its root: ``log.jsonl`` appended with the store's indivisible
    ``append_bytes`` under its cross-process (for shared stores, cross-machine) ``lock``, and
    one file per content in ``objects/``. ``Memory`` hides the ``.memtool`` entry from both
    tools on such stores (``VersionedStore``). A ``generation`` file changes when retention
    rewrites the log, so other processes reread it."""

    def __init__(self, store: "Any", retention: Retention | None = None):
        super().__init__(retention)
        self.store = store
        self.dir = f"{HIDDEN_DIR}/{VERSIONS_DIR}"
        self.log = f"{self.dir}/{LOG_NAME}"
        self.objects = f"{self.dir}/objects"
        self._gen_path = f"{self.dir}/generation"
        self._offset = 0
        self._generation: bytes | None = None
        self._made = False

    def _make_dirs(self) -> None:
        if self._made:
            return
        from sandbox.fs.base import FSError

        for d in (HIDDEN_DIR, self.dir, self.objects):
            try:
                self.store.mkdir(d)
            except FSError as e:
                if e.errno != errno.EEXIST:
                    raise
        self._made = True

    @contextmanager
    def _os_lock(self) -> Iterator[None]:
        self._make_dirs()
        with self.store.lock(self.log):
            yield

    def _read(self, path: str) -> bytes | None:
        from sandbox.fs.base import FSError

        try:
            return self.store.read_bytes(path)
        except FSError as e:
            if e.errno in (errno.ENOENT, errno.ENOTDIR):
                return None
            raise

    def _read_new(self) -> tuple[list[bytes], bool]:
        generation = self._read(self._gen_path) or b""
        rewritten = self._generation is not None and generation != self._generation
        if rewritten or self._generation is None:
            self._offset = 0
        self._generation = generation
        data = self._read(self.log) or b""
        if len(data) < self._offset:  # replaced behind our back
            self._offset, rewritten = 0, True
        new = data[self._offset:]
        end = new.rfind(b"\n") + 1
        self._offset += end
        return new[:end].splitlines(), rewritten

    def _write_lines(self, lines: list[bytes]) -> bool:
        data = b"".join(lines)
        size = len(self._read(self.log) or b"")
        if size > self._offset:  # a torn line: end it
            data = b"\n" + data
        in_step = size >= self._offset
        self.store.append_bytes(self.log, data)
        if in_step:
            self._offset = size + len(data)
        return in_step

    def _rewrite(self, lines: list[bytes]) -> None:
        self._make_dirs()
        self.store.write_bytes(self.log, b"".join(lines))
        self.store.write_bytes(self._gen_path, secrets.token_hex(8).encode())
        self._generation = None

    def _blob(self, digest: str) -> str:
        if not _HEX.fullmatch(digest):
            raise KeyError(digest)
        return f"{self.objects}/{digest}"

    def has_blob(self, digest: str) -> bool:
        return self.store.exists(self._blob(digest))

    def _store_blob(self, digest: str, data: bytes) -> None:
        self._make_dirs()
        self.store.write_bytes(self._blob(digest), data)

    def get_blob(self, digest: str) -> bytes:
        data = self._read(self._blob(digest))
        if data is None or content_hash(data) != digest:
            raise KeyError(digest)
        return data

    def blob_names(self) -> Iterable[str]:
        from sandbox.fs.base import FSError

        try:
            names = self.store.listdir(self.objects)
        except FSError:
            return []
        return sorted(n for n in names if _HEX.fullmatch(n))

    def _delete_blob(self, digest: str) -> None:
        from sandbox.fs.base import FSError

        try:
            self.store.remove(self._blob(digest))
        except FSError:
            pass

    def raw_lines(self) -> list[bytes]:
        with self.locked():
            data = self._read(self.log) or b""
        end = data.rfind(b"\n") + 1
        return data[:end].splitlines(keepends=True)
