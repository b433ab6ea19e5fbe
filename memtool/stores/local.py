"""``LocalStore``: memory files in a directory on disk.

Built on the sandbox's jailed ``LocalDir`` (``sandbox.fs.local``): no symbolic link is ever
followed, hard-linked and special files are refused, writes are atomic (temporary file and
rename: a writer killed mid-write leaves the old file or the new one), files are private
(0600, directories 0700), appends never interleave whatever their size, ``lock(path)`` is an
``flock`` on the directory holding ``path`` (re-entrant per thread, exclusive between threads
and processes), and no error message carries a host path.

``LocalStore`` adds what a memory needs on top: the directory is created (0700) if missing,
``stat``/``append_bytes`` of files directly in the root (core.md, conversations.jsonl: the
calls made before every model call and for every turn) reuse one descriptor of the root per
process instead of opening it on every call (keeping ``LocalDir``'s checks and its lock), and
``append_line`` appends to the append-only conversation log without the directory lock.

The name ``.memtool`` at the root is reserved for memtool's own data (the version history,
``memtool.history``): it is never listed, reading or statting anything under it is "No such
file or directory" and creating, changing or moving anything there is refused, so neither tool
(nor ``ls -a``, ``find`` or ``grep -r`` in the bash tool) can see or reach it.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat as stat_mod
import weakref
from contextlib import contextmanager
from dataclasses import replace
from typing import BinaryIO, Iterator

from sandbox.fs.base import FileStat, FSError
from sandbox.fs.local import HARDLINK_MESSAGE, SPECIAL_MESSAGE, LocalDir

_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | _O_CLOEXEC
_LINE_FLAGS = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | _O_CLOEXEC
_APPEND_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | _O_CLOEXEC


_STORES: "weakref.WeakSet[LocalStore]" = weakref.WeakSet()


def _after_fork_in_child() -> None:
    # A forked child must not share the parent's root descriptor: flock() locks belong to the
    # open file description, so sharing it would let parent and child hold "exclusive" locks
    # at once. The child opens its own on first use.
    for store in list(_STORES):
        store._fd = -1


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


#: The root entry reserved for memtool's own data (the version history).
RESERVED = ".memtool"
RESERVED_MESSAGE = "Permission denied (reserved for memtool's version history)"


def _reserved(path: str) -> bool:
    return path == RESERVED or path.startswith(RESERVED + "/")


def _hide(path: str) -> None:
    """ENOENT for a path under the reserved entry (it does not exist for the tools)."""
    if _reserved(path):
        raise FSError(errno.ENOENT, path)


def _refuse(path: str) -> None:
    """EACCES for a change under the reserved entry."""
    if _reserved(path):
        raise FSError(errno.EACCES, path, RESERVED_MESSAGE)


def _top_level(path: str) -> bool:
    return bool(path) and "/" not in path and path not in (".", "..") and "\x00" not in path


class LocalStore(LocalDir):
    """A directory on disk as a store, created (private) if missing.

    ``fsync=True`` flushes every write and append to stable storage before returning
    (slower; survives power loss, not only a killed process).
    """

    def __init__(self, root: str | os.PathLike, *, fsync: bool = False, read_only: bool = False):
        path = os.path.abspath(os.fspath(root))
        if not read_only:
            os.makedirs(path, mode=0o700, exist_ok=True)
        super().__init__(path, read_only=read_only, fsync=fsync)
        self._root = os.path.realpath(path)  # this process's own root descriptor opens it
        #: The host directory, for the application (never shown to the model).
        self.path = path
        self._fd = -1
        _STORES.add(self)

    def __repr__(self) -> str:
        return f"LocalStore(read_only={self.read_only}, fsync={self.fsync})"

    def __del__(self) -> None:
        if getattr(self, "_fd", -1) >= 0:
            try:
                os.close(self._fd)
            except OSError:
                pass

    def _store_root_fd(self) -> int:
        """A descriptor of the root, opened once per process (reset in a forked child)."""
        if self._fd < 0:
            try:
                fd = os.open(self._root, _DIR_FLAGS)
            except OSError as e:
                raise FSError(e.errno or errno.EIO, "", "Sandbox root is not accessible") from None
            self._fd = fd
        return self._fd

    def lstat(self, path: str) -> FileStat:
        """``LocalDir.lstat`` (the reserved entry does not exist)."""
        _hide(path)
        return super().lstat(path)

    def readlink(self, path: str) -> str:
        """``LocalDir.readlink`` (the reserved entry does not exist)."""
        _hide(path)
        return super().readlink(path)

    def stat(self, path: str) -> FileStat:
        """Stat ``path`` without following links (symlinks and special files refused). The
        root's link count leaves out the reserved directory, which the tools never list."""
        _hide(path)
        if path == "":
            st = super().stat(path)
            try:
                hidden = os.stat(RESERVED, dir_fd=self._store_root_fd(), follow_symlinks=False)
            except OSError:
                return st
            return replace(st, nlink=st.nlink - 1) if stat_mod.S_ISDIR(hidden.st_mode) else st
        if not _top_level(path):
            return super().stat(path)
        try:
            st = os.stat(path, dir_fd=self._store_root_fd(), follow_symlinks=False)
        except FileNotFoundError:
            raise FSError(errno.ENOENT, path) from None
        except OSError as e:
            raise FSError(e.errno or errno.EIO, path) from None
        self._check_kind(st, path)
        return self._to_stat(st)

    def append_bytes(self, path: str, data: bytes) -> None:
        """Append ``data`` with one ``write`` under the directory lock, creating the file."""
        _refuse(path)
        if not _top_level(path):
            return super().append_bytes(path, data)
        with self.lock(path):
            self._append_top_level(path, data)

    def append_line(self, path: str, line: bytes) -> None:
        """Append one newline-terminated ``line`` to an *append-only* log, adding a newline
        first if the file does not end with one (a hand edit).

        Lock-free for the directory: each call holds a *shared* ``flock`` on the file while it
        checks the last byte and writes the line with one ``O_APPEND`` ``write`` (concurrent
        appenders never interleave: the kernel serialises writes to one inode). Only when the
        last byte is not a newline does it take the *exclusive* lock, which waits for every
        append in flight, and look again, so a line being written by another process is never
        mistaken for a missing newline. Only for files nobody rewrites (the conversation log,
        which both tools refuse to change): a concurrent read-modify-write of the same file
        under ``lock()`` could drop the line. A nested path (a scope's log) is reached by the
        jail's link-refusing walk.
        """
        _refuse(path)
        self._writable(path)
        if _top_level(path):
            dir_fd, name, own_dir = self._store_root_fd(), path, False
        else:
            parts = self._parts(path)
            dir_fd, name, own_dir = self._open_dir(parts[:-1], path), parts[-1], True
        try:
            for _attempt in range(1000):
                fd = self._open_file(dir_fd, name, _LINE_FLAGS, path)
                try:
                    self._check_open_file(fd, path)
                    fcntl.flock(fd, fcntl.LOCK_SH)
                except BaseException:
                    os.close(fd)
                    raise
                if os.fstat(fd).st_nlink:
                    break
                os.close(fd)  # replaced while we waited (a rotation): append to the new file
            else:
                raise FSError(errno.EAGAIN, path, "the log keeps being replaced; try again")
        finally:
            if own_dir:
                os.close(dir_fd)
        try:
            if self._lacks_final_newline(fd):
                fcntl.flock(fd, fcntl.LOCK_EX)  # waits for appends in flight
                if self._lacks_final_newline(fd):
                    line = b"\n" + line
            self._write_all(fd, line)
        except OSError as e:
            if isinstance(e, FSError):
                raise
            raise FSError(e.errno or errno.EIO, path) from None
        finally:
            os.close(fd)  # releases the flock

    def remove_prefix(self, path: str, prefix: bytes) -> bool:
        """Remove the first ``len(prefix)`` bytes of a log if it starts with ``prefix``
        (False, nothing changed, if not): under the directory lock and the file's exclusive
        ``flock`` (waiting for ``append_line`` calls in flight), the rest is written to a new
        file renamed over the log; an ``append_line`` that was waiting for the old file sees
        it replaced and appends to the new one (rotation, ``memtool.rotation``)."""
        _refuse(path)
        self._writable(path)
        with self.lock(path):
            if _top_level(path):
                dir_fd, name, own_dir = self._store_root_fd(), path, False
            else:
                parts = self._parts(path)
                dir_fd, name, own_dir = self._open_dir(parts[:-1], path), parts[-1], True
            try:
                fd = self._open_file(dir_fd, name, os.O_RDONLY | os.O_NOFOLLOW | _O_CLOEXEC, path)
            finally:
                if own_dir:
                    os.close(dir_fd)
            try:
                self._check_open_file(fd, path)
                fcntl.flock(fd, fcntl.LOCK_EX)
                size = os.fstat(fd).st_size
                chunks, pos = [], 0
                while pos < size:
                    chunk = os.pread(fd, min(size - pos, 1 << 24), pos)
                    if not chunk:
                        break
                    chunks.append(chunk)
                    pos += len(chunk)
                data = b"".join(chunks)
                if not data.startswith(prefix):
                    return False
                self.write_bytes(path, data[len(prefix):])
                return True
            except OSError as e:
                if isinstance(e, FSError):
                    raise
                raise FSError(e.errno or errno.EIO, path) from None
            finally:
                os.close(fd)  # releases the flock: waiting appenders find the new file

    # -- the reserved entry: hidden from reads, refused for changes ------------------------

    def open_read(self, path: str) -> BinaryIO:
        """Open a file for reading (nothing under the reserved entry exists)."""
        _hide(path)
        return super().open_read(path)

    def listdir(self, path: str) -> list[str]:
        """Names in a directory; the reserved entry is never listed."""
        _hide(path)
        names = super().listdir(path)
        if path == "" and RESERVED in names:
            names.remove(RESERVED)
        return names

    def write_bytes(self, path: str, data: bytes) -> None:
        """Atomically replace a file (refused under the reserved entry)."""
        _refuse(path)
        super().write_bytes(path, data)

    def mkdir(self, path: str) -> None:
        """Create a directory (refused for the reserved entry)."""
        _refuse(path)
        super().mkdir(path)

    def remove(self, path: str) -> None:
        """Remove a file (nothing under the reserved entry exists)."""
        _hide(path)
        super().remove(path)

    def rmdir(self, path: str) -> None:
        """Remove an empty directory (nothing under the reserved entry exists)."""
        _hide(path)
        super().rmdir(path)

    def rename(self, src: str, dst: str) -> None:
        """Move ``src`` to ``dst``; neither may be under the reserved entry."""
        _hide(src)
        _refuse(dst)
        super().rename(src, dst)

    def set_mtime(self, path: str, mtime: float) -> None:
        """Set a modification time (nothing under the reserved entry exists)."""
        _hide(path)
        super().set_mtime(path, mtime)

    @contextmanager
    def lock(self, path: str) -> Iterator[None]:
        """The directory lock of ``path`` (nothing under the reserved entry exists)."""
        _hide(path)
        with super().lock(path):
            yield

    @staticmethod
    def _lacks_final_newline(fd: int) -> bool:
        size = os.fstat(fd).st_size
        return size > 0 and os.pread(fd, 1, size - 1) != b"\n"

    @staticmethod
    def _check_open_file(fd: int, path: str) -> None:
        st = os.fstat(fd)
        if stat_mod.S_ISDIR(st.st_mode):
            raise FSError(errno.EISDIR, path)
        if not stat_mod.S_ISREG(st.st_mode):
            raise FSError(errno.EACCES, path, SPECIAL_MESSAGE)
        if st.st_nlink > 1:
            raise FSError(errno.EPERM, path, HARDLINK_MESSAGE)

    def _write_all(self, fd: int, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if self.fsync:
            os.fsync(fd)

    def _open_file(self, dir_fd: int, name: str, flags: int, path: str) -> int:
        """Open (creating, 0600) file ``name`` of directory ``dir_fd`` with ``flags``; a
        directory, link or special file there becomes the jail's error for ``path``."""
        try:
            return os.open(name, flags, 0o600, dir_fd=dir_fd)
        except OSError as e:
            if e.errno == errno.EISDIR:
                raise FSError(errno.EISDIR, path) from None
            raise self._classify(dir_fd, name, e, path) from None

    def _append_top_level(self, path: str, data: bytes) -> None:
        self._writable(path)
        fd = self._open_file(self._store_root_fd(), path, _APPEND_FLAGS, path)
        try:
            self._check_open_file(fd, path)
            self._write_all(fd, data)
        except OSError as e:
            if isinstance(e, FSError):
                raise
            raise FSError(e.errno or errno.EIO, path) from None
        finally:
            os.close(fd)
