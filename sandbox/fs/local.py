"""``LocalDir``: a ``FileSystem`` over a real directory on disk, and a jail.

Every path the backend receives is relative to its root (see ``sandbox.fs.base``). The jail
holds even against a hostile host process that plants things inside the directory:

- **No symlink is ever followed.** Each component is opened relative to its parent's file
  descriptor with ``O_NOFOLLOW`` (``O_DIRECTORY`` for directories), so a symlink in any
  position, planted before or during the call, is refused with ``ELOOP`` and the message
  ``Symbolic link refused (the sandbox never follows links)``. Removing or renaming a link
  itself is allowed (``unlinkat``/``renameat`` never follow it).
- **Only regular files and directories exist.** FIFOs, devices and sockets are refused
  (``EACCES``, ``Special file refused ...``); they are never opened, so a FIFO cannot block.
- **Hard links.** Reading or writing a regular file with more than one hard link is refused
  (``EPERM``): such a file may be shared with a file outside the root.
- ``..``, ``.``, empty components and NUL bytes are refused (``EINVAL``), although
  ``VirtualFS`` never passes them.
- **Atomic writes.** ``write_bytes`` writes a temporary file ``.<16 hex>.tmp`` in the same
  directory, optionally ``fsync``s it (``fsync=True``), and ``os.replace``s it over the
  target: readers see the old or the new content, never a mix, even if the writer is killed.
  An existing file keeps its permission bits; new files are 0600, new directories 0700.
- **Appends** open the file ``O_APPEND`` and write the data with a single ``write`` while
  holding the directory lock (below), so appends from many processes never interleave, even
  for lines far longer than ``PIPE_BUF``.
- **Locking.** ``lock(path)`` takes an exclusive ``flock`` on *the directory that holds
  ``path``* (on the directory itself for ``""``). A directory is never replaced by an atomic
  write, so the lock stays valid across ``write_bytes`` (a lock on the file's own inode would
  not), and no lock file litters the tree. ``write_bytes`` and ``append_bytes`` take the same
  lock, so a read-modify-write under ``lock(path)`` never loses a concurrent append. The lock
  is re-entrant within a thread (writes inside ``with fs.lock(p):`` do not deadlock) and
  exclusive between threads and processes. Its granularity is one directory.
- **No host path** ever appears in an error: ``FSError`` carries the relative path only.
- The root is resolved once (``realpath``) and held open as a descriptor for the object's
  lifetime; every walk starts from it (``close()`` releases it).

``FileStat.version`` is ``(st_mtime_ns, st_size, st_ino, st_ctime_ns)``, which changes on
every write. ``open_read`` returns a real, seekable, buffered file object.
"""

from __future__ import annotations

import errno
import fcntl
import os
import secrets
import stat as stat_mod
import threading
from contextlib import contextmanager
from typing import BinaryIO, Iterator

from sandbox.fs.base import (
    BLOCKDEV, CHARDEV, DIR, FIFO, FILE, LINK, SOCKET, FileStat, FileSystem, FSError, ns_of,
)

SYMLINK_MESSAGE = "Symbolic link refused (the sandbox never follows links)"
SPECIAL_MESSAGE = "Special file refused (only regular files and directories are allowed)"
HARDLINK_MESSAGE = "File has several hard links (refused: it may be shared outside the sandbox)"

#: Read buffer of the file objects ``open_read`` returns.
READ_BUFFER = 1 << 16
#: Largest piece handed to one ``os.write`` by ``write_bytes``.
WRITE_CHUNK = 1 << 20

_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | _O_CLOEXEC

#: Directories (st_dev, st_ino) whose lock the current thread holds, with its depth.
_held = threading.local()


def _held_locks() -> dict[tuple[int, int], int]:
    table = getattr(_held, "table", None)
    if table is None:
        table = _held.table = {}
    return table


class LocalDir(FileSystem):
    """A jailed view of the host directory ``root`` (see the module docstring).

    ``read_only=True`` refuses every write with ``EROFS``. ``fsync=True`` makes
    ``write_bytes``/``append_bytes`` durable across power loss (slower); without it they are
    still atomic against crashes of the writing process.
    """

    def __init__(self, root: str | os.PathLike, read_only: bool = False, fsync: bool = False):
        real = os.path.realpath(os.fspath(root))
        if not os.path.isdir(real):
            raise FSError(errno.ENOTDIR, "", "LocalDir root is not an existing directory")
        try:
            # Held for the object's lifetime: every walk starts here, without re-resolving the
            # host path (faster, and immune to the path being swapped after construction).
            self._root_fd = os.open(real, _DIR_FLAGS)
        except OSError as e:
            raise FSError(e.errno or errno.EIO, "", "LocalDir root is not accessible") from None
        self.read_only = read_only
        self.fsync = fsync

    def close(self) -> None:
        """Release the root directory descriptor (the object is unusable afterwards)."""
        fd, self._root_fd = self._root_fd, -1
        if fd >= 0:
            os.close(fd)

    def __del__(self) -> None:
        try:
            self.close()
        except (AttributeError, OSError):
            pass

    def __repr__(self) -> str:  # no host path: reprs end up in logs and messages
        return f"LocalDir(read_only={self.read_only})"

    # -- path walking -----------------------------------------------------------------------

    @staticmethod
    def _parts(path: str) -> list[str]:
        if path == "":
            return []
        parts = path.split("/")
        for part in parts:
            if part in ("", ".", "..") or "\x00" in part:
                raise FSError(errno.EINVAL, path, "Invalid argument (path component refused)")
        return parts

    def _open_root(self) -> int:
        """A new descriptor of the root directory (the caller closes it). A fresh open, not a
        ``dup``: ``flock`` locks belong to the open file description, which a dup shares."""
        try:
            return os.open(".", _DIR_FLAGS, dir_fd=self._root_fd)
        except OSError as e:
            raise FSError(e.errno or errno.EIO, "", "Sandbox root is not accessible") from None

    def _open_dir(self, parts: list[str], path: str) -> int:
        """Open the directory ``parts`` (relative to the root) without following links; the
        caller closes the returned descriptor."""
        if not parts:
            return self._open_root()
        fd = self._root_fd
        try:
            for part in parts:
                try:
                    child = os.open(part, _DIR_FLAGS, dir_fd=fd)
                except OSError as e:
                    raise self._classify(fd, part, e, path) from None
                if fd != self._root_fd:
                    os.close(fd)
                fd = child
        except BaseException:
            if fd != self._root_fd:
                os.close(fd)
            raise
        return fd

    def _classify(self, dir_fd: int, name: str, err: OSError, path: str) -> FSError:
        """Turn a failed open of ``name`` into a jail error (symlink, special file...)."""
        if err.errno in (errno.ENOTDIR, errno.ELOOP, errno.ENXIO, errno.EACCES):
            try:
                st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
            except OSError:
                st = None
            if st is not None:
                if stat_mod.S_ISLNK(st.st_mode):
                    return FSError(errno.ELOOP, path, SYMLINK_MESSAGE)
                if not (stat_mod.S_ISREG(st.st_mode) or stat_mod.S_ISDIR(st.st_mode)):
                    return FSError(errno.EACCES, path, SPECIAL_MESSAGE)
        return FSError(err.errno or errno.EIO, path)

    def _leaf(self, path: str) -> str:
        """The last component of a non-root path (the root itself: ``EISDIR``)."""
        parts = self._parts(path)
        if not parts:
            raise FSError(errno.EISDIR, path)
        return parts[-1]

    def _parent(self, path: str) -> tuple[int, str]:
        """Open the parent directory of ``path``; return (fd, last component)."""
        parts = self._parts(path)
        if not parts:  # the root itself: a directory that can't be replaced or removed
            raise FSError(errno.EISDIR, path)
        return self._open_dir(parts[:-1], path), parts[-1]

    @staticmethod
    def _lstat(dir_fd: int, name: str, path: str) -> os.stat_result | None:
        try:
            return os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        except OSError as e:
            raise FSError(e.errno or errno.EIO, path) from None

    @staticmethod
    def _check_kind(st: os.stat_result, path: str) -> None:
        """Refuse symlinks and special files."""
        if stat_mod.S_ISLNK(st.st_mode):
            raise FSError(errno.ELOOP, path, SYMLINK_MESSAGE)
        if not (stat_mod.S_ISREG(st.st_mode) or stat_mod.S_ISDIR(st.st_mode)):
            raise FSError(errno.EACCES, path, SPECIAL_MESSAGE)

    def _writable(self, path: str) -> None:
        if self.read_only:
            raise FSError(errno.EROFS, path)

    @staticmethod
    def _to_stat(st: os.stat_result) -> FileStat:
        m = st.st_mode
        kind = (FILE if stat_mod.S_ISREG(m) else DIR if stat_mod.S_ISDIR(m) else
                LINK if stat_mod.S_ISLNK(m) else FIFO if stat_mod.S_ISFIFO(m) else
                SOCKET if stat_mod.S_ISSOCK(m) else CHARDEV if stat_mod.S_ISCHR(m) else
                BLOCKDEV)
        return FileStat(
            kind,
            st.st_size,
            st.st_mtime,
            stat_mod.S_IMODE(st.st_mode),
            st.st_nlink,
            (st.st_mtime_ns, st.st_size, st.st_ino, st.st_ctime_ns),
            st.st_mtime_ns,
        )

    # -- reading ----------------------------------------------------------------------------

    def _entry_stat(self, path: str) -> os.stat_result:
        """The no-follow stat of ``path`` (not the root) from its directory's descriptor."""
        parts = self._parts(path)
        fd = self._open_dir(parts[:-1], path)
        try:
            st = self._lstat(fd, parts[-1], path)
        finally:
            os.close(fd)
        if st is None:
            raise FSError(errno.ENOENT, path)
        return st

    def stat(self, path: str) -> FileStat:
        """Stat ``path`` without following links; symlinks and special files are refused."""
        if path == "":
            fd = self._open_root()
            try:
                return self._to_stat(os.fstat(fd))
            finally:
                os.close(fd)
        st = self._entry_stat(path)
        self._check_kind(st, path)
        return self._to_stat(st)

    def open_read(self, path: str) -> BinaryIO:
        """Open a regular file for reading: a seekable, buffered binary file object."""
        dir_fd, name = self._parent(path)
        try:
            st = self._lstat(dir_fd, name, path)
            if st is None:
                raise FSError(errno.ENOENT, path)
            self._check_kind(st, path)
            if stat_mod.S_ISDIR(st.st_mode):
                raise FSError(errno.EISDIR, path)
            try:
                fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | _O_CLOEXEC, dir_fd=dir_fd)
            except OSError as e:
                raise self._classify(dir_fd, name, e, path) from None
        finally:
            os.close(dir_fd)
        try:
            st = os.fstat(fd)
            if stat_mod.S_ISDIR(st.st_mode):
                raise FSError(errno.EISDIR, path)
            if not stat_mod.S_ISREG(st.st_mode):  # swapped in after the lstat
                raise FSError(errno.EACCES, path, SPECIAL_MESSAGE)
            if st.st_nlink > 1:
                raise FSError(errno.EPERM, path, HARDLINK_MESSAGE)
            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        except BaseException:
            os.close(fd)
            raise
        return os.fdopen(fd, "rb", buffering=READ_BUFFER)

    def listdir(self, path: str) -> list[str]:
        """Names in a directory (no ``.``/``..``), unsorted; ``ENOTDIR`` for a file."""
        parts = self._parts(path)
        try:
            fd = self._open_dir(parts, path)
        except FSError as e:
            if e.errno == errno.ENOTDIR and parts:
                # A regular file: plain ENOTDIR. (Symlinks were classified as ELOOP.)
                raise FSError(errno.ENOTDIR, path) from None
            raise
        try:
            return os.listdir(fd)
        except OSError as e:
            raise FSError(e.errno or errno.EIO, path) from None
        finally:
            os.close(fd)

    def lstat(self, path: str) -> FileStat:
        """Stat ``path`` without following a link, reporting links and special files as
        such (``FileStat.kind``); the directories above it are walked as everywhere."""
        if path == "":
            return self.stat(path)
        return self._to_stat(self._entry_stat(path))

    def readlink(self, path: str) -> str:
        """The link's text, read relative to its directory's descriptor (never followed)."""
        dir_fd, name = self._parent(path)
        try:
            return os.readlink(name, dir_fd=dir_fd)
        except OSError as e:
            raise FSError(e.errno or errno.EIO, path) from None
        finally:
            os.close(dir_fd)

    def readdir_order(self, path: str) -> list[str] | None:
        """``listdir``'s names: ``os.listdir`` keeps the kernel's readdir order."""
        return self.listdir(path)

    def stat_many(self, path: str, names: list[str]) -> dict[str, FileStat]:
        """Stats of ``names`` in the directory ``path``, from one open of it: a name that is
        gone, a link or a special file is left out (``stat`` says why, if asked)."""
        fd = self._open_dir(self._parts(path), path)
        out: dict[str, FileStat] = {}
        try:
            for name in names:
                try:
                    st = os.stat(name, dir_fd=fd, follow_symlinks=False)
                except OSError:
                    continue
                if stat_mod.S_ISREG(st.st_mode) or stat_mod.S_ISDIR(st.st_mode):
                    out[name] = self._to_stat(st)
        finally:
            os.close(fd)
        return out

    def scan_kinds(self, path: str) -> dict[str, str]:
        """Kinds (``DIR``/``FILE``) of the entries of the directory ``path`` as its listing
        tells them (``d_type``; a no-follow stat only where the filesystem doesn't say), from
        one open and no stat per entry. Links and special files are left out (``stat`` says
        why, if asked); callers take the names from ``listdir``, so hidden names stay hidden."""
        handle = ScanHandle(self, self._open_dir(self._parts(path), path), path)
        try:
            return {n: k for n, k in handle.scan() if k is not None}
        finally:
            handle.close()

    def open_scan(self, path: str) -> "ScanHandle | None":
        """The directory ``path`` held open for a walk (see ``ScanHandle``): its listing with
        kinds, and its subdirectories opened relative to it (one open each, not one per
        component). None when a subclass filters ``listdir`` (its hidden names must stay
        hidden): use ``listdir`` and ``scan_kinds``."""
        if type(self).listdir is not LocalDir.listdir:
            return None
        return ScanHandle(self, self._open_dir(self._parts(path), path), path)

    # -- locking ----------------------------------------------------------------------------

    @contextmanager
    def lock(self, path: str) -> Iterator[None]:
        """Exclusive, cross-process lock of the directory holding ``path`` (re-entrant per
        thread); see the module docstring."""
        with self._locked_parent(path):
            yield

    @contextmanager
    def _locked_parent(self, path: str) -> Iterator[int]:
        """Open the directory holding ``path``, hold its lock, yield its descriptor."""
        parts = self._parts(path)
        fd = self._open_dir(parts[:-1], path)
        try:
            st = os.fstat(fd)
            key = (st.st_dev, st.st_ino)
            table = _held_locks()
            depth = table.get(key, 0)
            if depth == 0:
                fcntl.flock(fd, fcntl.LOCK_EX)
            table[key] = depth + 1
            try:
                yield fd
            finally:
                table[key] -= 1
                if table[key] == 0:
                    del table[key]
                    fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    # -- writing ----------------------------------------------------------------------------

    def write_bytes(self, path: str, data: bytes) -> None:
        """Atomically create or replace a regular file (temp file + ``os.replace``)."""
        self._writable(path)
        name = self._leaf(path)
        with self._locked_parent(path) as dir_fd:
            self._replace(dir_fd, name, path, data)

    def _replace(self, dir_fd: int, name: str, path: str, data: bytes) -> None:
        old = self._lstat(dir_fd, name, path)
        mode = 0o600
        if old is not None:
            self._check_kind(old, path)
            if stat_mod.S_ISDIR(old.st_mode):
                raise FSError(errno.EISDIR, path)
            if old.st_nlink > 1:
                raise FSError(errno.EPERM, path, HARDLINK_MESSAGE)
            mode = stat_mod.S_IMODE(old.st_mode)
        tmp = f".{secrets.token_hex(8)}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | _O_CLOEXEC
        try:
            fd = os.open(tmp, flags, 0o600, dir_fd=dir_fd)
        except OSError as e:
            raise FSError(e.errno or errno.EIO, path) from None
        try:
            try:
                view = memoryview(data)
                while view:
                    written = os.write(fd, view[:WRITE_CHUNK])
                    view = view[written:]
                os.fchmod(fd, mode)
                if self.fsync:
                    os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        except BaseException as e:
            try:
                os.unlink(tmp, dir_fd=dir_fd)
            except OSError:
                pass
            if isinstance(e, OSError) and not isinstance(e, FSError):
                raise FSError(e.errno or errno.EIO, path) from None
            raise
        if self.fsync:
            os.fsync(dir_fd)

    def append_bytes(self, path: str, data: bytes) -> None:
        """Append ``data`` with one ``write`` under the directory lock, creating the file."""
        self._writable(path)
        name = self._leaf(path)
        with self._locked_parent(path) as dir_fd:
            flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | _O_CLOEXEC
            try:
                # O_NOFOLLOW refuses a link (ELOOP), O_NONBLOCK keeps a FIFO from blocking; the
                # fstat below refuses anything that is not a regular file.
                fd = os.open(name, flags, 0o600, dir_fd=dir_fd)
            except OSError as e:
                raise self._classify(dir_fd, name, e, path) from None
            try:
                st = os.fstat(fd)
                if stat_mod.S_ISDIR(st.st_mode):
                    raise FSError(errno.EISDIR, path)
                if not stat_mod.S_ISREG(st.st_mode):
                    raise FSError(errno.EACCES, path, SPECIAL_MESSAGE)
                if st.st_nlink > 1:
                    raise FSError(errno.EPERM, path, HARDLINK_MESSAGE)
                view = memoryview(data)
                while view:  # one write for a regular file; the loop covers short writes
                    view = view[os.write(fd, view) :]
                if self.fsync:
                    os.fsync(fd)
            except OSError as e:
                if isinstance(e, FSError):
                    raise
                raise FSError(e.errno or errno.EIO, path) from None
            finally:
                os.close(fd)

    def mkdir(self, path: str) -> None:
        """Create one private (0700) directory."""
        self._writable(path)
        if path == "":
            raise FSError(errno.EEXIST, path)
        dir_fd, name = self._parent(path)
        try:
            os.mkdir(name, 0o700, dir_fd=dir_fd)
        except OSError as e:
            raise FSError(e.errno or errno.EIO, path) from None
        finally:
            os.close(dir_fd)

    def remove(self, path: str) -> None:
        """Remove a file (a planted symlink or special file is removed, never followed)."""
        self._writable(path)
        dir_fd, name = self._parent(path)
        try:
            st = self._lstat(dir_fd, name, path)
            if st is None:
                raise FSError(errno.ENOENT, path)
            if stat_mod.S_ISDIR(st.st_mode):
                raise FSError(errno.EISDIR, path)
            os.unlink(name, dir_fd=dir_fd)
        except OSError as e:
            if isinstance(e, FSError):
                raise
            raise FSError(e.errno or errno.EIO, path) from None
        finally:
            os.close(dir_fd)

    def rmdir(self, path: str) -> None:
        """Remove an empty directory."""
        self._writable(path)
        dir_fd, name = self._parent(path)
        try:
            os.rmdir(name, dir_fd=dir_fd)
        except OSError as e:
            raise FSError(e.errno or errno.EIO, path) from None
        finally:
            os.close(dir_fd)

    def rename(self, src: str, dst: str) -> None:
        """Atomically move ``src`` to ``dst`` (POSIX ``rename`` semantics, links not followed)."""
        self._writable(dst)
        src_fd, src_name = self._parent(src)
        try:
            dst_fd, dst_name = self._parent(dst)
            try:
                if self._lstat(src_fd, src_name, src) is None:
                    raise FSError(errno.ENOENT, src)
                try:
                    os.rename(src_name, dst_name, src_dir_fd=src_fd, dst_dir_fd=dst_fd)
                except OSError as e:
                    raise FSError(e.errno or errno.EIO, dst) from None
            finally:
                os.close(dst_fd)
        finally:
            os.close(src_fd)

    def set_mtime(self, path: str, mtime: float) -> None:
        """Set the access and modification times of a file or directory (never a link)."""
        self._writable(path)
        parts = self._parts(path)
        ns = ns_of(mtime)
        if not parts:
            fd = self._open_root()
            try:
                os.utime(fd, ns=(ns, ns))
            finally:
                os.close(fd)
            return
        dir_fd = self._open_dir(parts[:-1], path)
        try:
            st = self._lstat(dir_fd, parts[-1], path)
            if st is None:
                raise FSError(errno.ENOENT, path)
            self._check_kind(st, path)
            os.utime(parts[-1], ns=(ns, ns), dir_fd=dir_fd, follow_symlinks=False)
        except OSError as e:
            if isinstance(e, FSError):
                raise
            raise FSError(e.errno or errno.EIO, path) from None
        finally:
            os.close(dir_fd)


class ScanHandle:
    """An open directory of a ``LocalDir`` during a walk (``LocalDir.open_scan``).

    ``scan()`` lists it as sorted (name, kind) pairs: ``DIR``/``FILE`` from ``d_type`` (a
    no-follow stat only where the filesystem doesn't say), None for a link or special file
    (``stat`` it to learn why it is refused). ``child(name)`` opens a subdirectory relative to
    this one with ``O_NOFOLLOW | O_DIRECTORY`` (a link there is refused as everywhere).
    ``close()`` releases the descriptor; the caller closes every handle it opened."""

    __slots__ = ("owner", "fd", "path")

    def __init__(self, owner: LocalDir, fd: int, path: str):
        self.owner = owner
        self.fd = fd
        self.path = path

    def scan(self, sort: bool = True) -> list[tuple[str, str | None]]:
        """Sorted (name, kind or None) pairs of the directory's entries (``sort=False``: in
        the kernel's readdir order, as GNU's walks list them)."""
        out: list[tuple[str, str | None]] = []
        try:
            with os.scandir(self.fd) as it:
                for entry in it:
                    try:
                        kind = (DIR if entry.is_dir(follow_symlinks=False) else
                                FILE if entry.is_file(follow_symlinks=False) else None)
                    except OSError:
                        kind = None
                    out.append((entry.name, kind))
        except OSError as e:
            raise FSError(e.errno or errno.EIO, self.path) from None
        if sort:
            out.sort()
        return out

    def scan_stats(self, sort: bool = True) -> list[tuple[str, FileStat | None]]:
        """Sorted (name, FileStat or None) pairs: one no-follow stat per entry relative to
        this directory; None for a link, a special file or a name gone meanwhile
        (``sort=False``: in the kernel's readdir order)."""
        out: list[tuple[str, FileStat | None]] = []
        to_stat = LocalDir._to_stat
        try:
            with os.scandir(self.fd) as it:
                for entry in it:
                    try:
                        st = entry.stat(follow_symlinks=False)
                    except OSError:
                        out.append((entry.name, None))
                        continue
                    mode = st.st_mode
                    ok = stat_mod.S_ISREG(mode) or stat_mod.S_ISDIR(mode)
                    out.append((entry.name, to_stat(st) if ok else None))
        except OSError as e:
            raise FSError(e.errno or errno.EIO, self.path) from None
        if sort:
            out.sort(key=lambda pair: pair[0])
        return out

    def child(self, name: str) -> "ScanHandle":
        """The subdirectory ``name`` opened relative to this directory (never following a
        link); raises ``FSError`` as ``listdir`` would."""
        path = f"{self.path}/{name}" if self.path else name
        if name in ("", ".", "..") or "/" in name or "\x00" in name:
            raise FSError(errno.EINVAL, path, "Invalid argument (path component refused)")
        try:
            fd = os.open(name, _DIR_FLAGS, dir_fd=self.fd)
        except OSError as e:
            err = self.owner._classify(self.fd, name, e, path)
            if err.errno == errno.ENOTDIR:
                raise FSError(errno.ENOTDIR, path) from None
            raise err from None
        return ScanHandle(self.owner, fd, path)

    def close(self) -> None:
        """Release the descriptor (idempotent)."""
        fd, self.fd = self.fd, -1
        if fd >= 0:
            os.close(fd)
