"""The virtual filesystem protocol that every command and every memory store speaks.

A *backend* (``FileSystem``) is mounted at a virtual path by ``sandbox.fs.vfs.VirtualFS``.
Backends receive **relative, normalised** POSIX paths: no leading slash, no ``.`` or ``..``
components, no empty components, no NUL bytes; ``""`` is the backend's root. Backends must
still refuse anything that could leave their root (defence in depth).

Errors are ``FSError``: an ``errno`` code and the *virtual* path. ``str(err)`` is the
strerror text GNU tools print (``No such file or directory``), so a command prints
``f"{prog}: {operand}: {err.strerror}"`` exactly as coreutils does. A host path must never
appear in an ``FSError``.
"""

from __future__ import annotations

import errno as _errno
import io
import os
import sys as _sys
import threading
import time
from abc import ABC, abstractmethod
from contextlib import contextmanager
from dataclasses import dataclass
from typing import BinaryIO, Iterator

FILE = "file"
DIR = "dir"
#: Kinds only ``lstat`` reports, of what a host directory may hold besides files and
#: directories: seen (``find -type l``, ``ls -l``, ``test -h``), never followed or opened.
LINK = "link"
FIFO = "fifo"
SOCKET = "socket"
CHARDEV = "chardev"
BLOCKDEV = "blockdev"
#: Each kind's letter as ``find -type`` and ``ls -l`` (``-`` for a file there) spell it.
TYPE_LETTER = {FILE: "f", DIR: "d", LINK: "l", FIFO: "p", SOCKET: "s", CHARDEV: "c",
               BLOCKDEV: "b"}


class FileContent(io.BytesIO):
    """What a backend's ``open_read`` returns when it reads a regular file whole into memory
    (``MemoryFS``, memtool's stores): seekable like the file, and told apart from captured input
    (a script's stdin, a here-string), which is a plain ``BytesIO`` and counts as a pipe."""


@dataclass(frozen=True)
class FileStat:
    """What ``stat`` reports about a virtual file or directory."""

    kind: str  # FILE or DIR (backends never expose symlinks, devices or sockets)
    size: int
    mtime: float  # seconds since the epoch
    mode: int = 0o600  # permission bits only (no file-type bits)
    nlink: int = 1
    #: Changes on every write to the file (local: mtime_ns/size/inode/ctime_ns; shared stores:
    #: a version counter). Caches compare it to know whether their copy is stale.
    version: object = None
    #: The exact modification time in nanoseconds, where the backend keeps one (local: the
    #: host's st_mtime_ns; memory: what was set or written); None: only ``mtime`` is known.
    #: Commands that print nanoseconds read it through ``mtime_ns_of``.
    mtime_ns: int | None = None

    @property
    def is_dir(self) -> bool:
        """True for a directory."""
        return self.kind == DIR

    @property
    def is_file(self) -> bool:
        """True for a regular file."""
        return self.kind == FILE


class FSError(OSError):
    """A filesystem error about a virtual path; ``strerror`` is GNU's wording."""

    def __init__(self, code: int, path: str = "", message: str | None = None):
        super().__init__(code, message or os.strerror(code))
        self.path = path

    def __str__(self) -> str:  # the bare strerror, as GNU tools print after the operand
        return self.strerror or ""


class Timestamp(float):
    """A time in seconds, usable as the float every ``set_mtime`` takes, that also carries the
    exact nanoseconds (``.ns``) for the backends that can store them (``touch -d
    2012-01-23T12:34:56.123456789`` keeps all nine digits)."""

    ns: int

    def __new__(cls, ns: int) -> "Timestamp":
        self = super().__new__(cls, ns / 1e9)
        self.ns = int(ns)
        return self


def mtime_ns_of(st: FileStat) -> int:
    """A file's modification time in nanoseconds: exact where the backend keeps it, else from
    the float."""
    return st.mtime_ns if st.mtime_ns is not None else int(round(st.mtime * 1e9))


#: Linux's CLOCK_REALTIME_COARSE, the clock the kernel dates files from (Python names it nowhere).
_COARSE_CLOCK = 5 if _sys.platform.startswith("linux") else None


def file_time_ns() -> int:
    """Now in nanoseconds, as the kernel dates a file it writes or ``touch`` sets: its coarse
    clock (one tick, a few ms), so files written together share a time, as on disk."""
    if _COARSE_CLOCK is not None:
        try:
            return time.clock_gettime_ns(_COARSE_CLOCK)
        except OSError:
            pass
    return time.time_ns()


def ns_of(mtime: float) -> int:
    """The nanoseconds a ``set_mtime`` argument names (exact for a ``Timestamp``)."""
    return mtime.ns if isinstance(mtime, Timestamp) else int(round(mtime * 1e9))


def enoent(path: str) -> FSError:
    """``No such file or directory`` for ``path``."""
    return FSError(_errno.ENOENT, path)


class FileSystem(ABC):
    """A mountable tree of files and directories (see the module docstring for path rules).

    Writes are atomic: ``write_bytes`` replaces the whole file or leaves the old one;
    ``append_bytes`` adds its data as one piece that concurrent appenders (other threads,
    other processes, other machines for shared stores) never split or interleave.
    """

    #: A read-only backend refuses every write with ``EROFS``.
    read_only: bool = False

    @abstractmethod
    def stat(self, path: str) -> FileStat:
        """Return the ``FileStat`` of ``path``; ``ENOENT`` if it does not exist."""

    @abstractmethod
    def open_read(self, path: str) -> BinaryIO:
        """Open a file for streaming reads (``read``, ``readline``, iteration, ``seek``/``tell``
        where the backend can). ``EISDIR`` for a directory, ``ENOENT`` if missing."""

    @abstractmethod
    def write_bytes(self, path: str, data: bytes) -> None:
        """Atomically create or replace a file with ``data`` (the parent must exist).
        An existing file keeps its permission bits; a new one is private (0600)."""

    @abstractmethod
    def append_bytes(self, path: str, data: bytes) -> None:
        """Append ``data`` as one indivisible piece, creating the file if missing."""

    @abstractmethod
    def listdir(self, path: str) -> list[str]:
        """Names in a directory (no ``.``/``..``), in any order; ``ENOTDIR`` for a file."""

    @abstractmethod
    def mkdir(self, path: str) -> None:
        """Create one directory (private, 0700); ``EEXIST`` if it exists, ``ENOENT`` if the
        parent is missing."""

    @abstractmethod
    def remove(self, path: str) -> None:
        """Remove a file; ``EISDIR`` for a directory."""

    @abstractmethod
    def rmdir(self, path: str) -> None:
        """Remove an empty directory; ``ENOTEMPTY`` otherwise."""

    @abstractmethod
    def rename(self, src: str, dst: str) -> None:
        """Atomically move ``src`` to ``dst`` within this backend, replacing a file at ``dst``
        as POSIX ``rename`` does."""

    def set_mtime(self, path: str, mtime: float) -> None:
        """Set a file's modification time (``touch``). Backends may ignore it. A ``Timestamp``
        carries exact nanoseconds (``ns_of``)."""

    def lstat(self, path: str) -> FileStat:
        """``stat``, except that a symbolic link or a special file the backend holds is
        reported as what it is (kind ``LINK``, ``FIFO``, ``SOCKET``, ``CHARDEV``,
        ``BLOCKDEV``) instead of refused. Nothing is followed or opened. Backends that hold
        none keep this default: ``stat``."""
        return self.stat(path)

    def readlink(self, path: str) -> str:
        """The text of the symbolic link ``path`` (``EINVAL`` when it is not one)."""
        self.stat(path)
        raise FSError(_errno.EINVAL, path)

    def readdir_order(self, path: str) -> list[str] | None:
        """The directory's names in the order the host's ``readdir`` returns them, where the
        backend is (or wraps) a host directory: GNU ``find``, ``du``, ``grep -r`` and ``ls -U``
        print that order. None where there is no such order (the default)."""
        return None

    def read_bytes(self, path: str) -> bytes:
        """The whole content of a file."""
        with self.open_read(path) as f:
            return f.read()

    def exists(self, path: str) -> bool:
        """True if ``path`` names a file or directory."""
        try:
            self.stat(path)
        except FSError:
            return False
        return True

    @contextmanager
    def lock(self, path: str) -> Iterator[None]:
        """Hold an exclusive lock on ``path`` for a read-modify-write.

        The default serialises threads of this process only; backends shared between
        processes or machines override it (``flock``, PostgreSQL advisory locks...).
        """
        with _process_lock(self, path):
            yield


_locks_guard = threading.Lock()
_locks: dict[tuple[int, str], threading.RLock] = {}


def _process_lock(fs: FileSystem, path: str) -> threading.RLock:
    with _locks_guard:
        return _locks.setdefault((id(fs), path), threading.RLock())
