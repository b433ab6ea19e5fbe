"""``MemoryFS``: an in-memory backend for tests and throw-away sandboxes."""

from __future__ import annotations

import errno
import threading
from typing import BinaryIO

from sandbox.fs.base import (DIR, FILE, FileContent, FileStat, FileSystem, FSError, Timestamp, enoent,
                              file_time_ns)


class _Node:
    __slots__ = ("kind", "data", "children", "mtime", "mtime_ns", "mode")

    def __init__(self, kind: str, mode: int):
        self.kind = kind
        self.data = bytearray()
        self.children: dict[str, _Node] = {}
        self.mtime_ns: int | None = file_time_ns()
        self.mtime = self.mtime_ns / 1e9
        self.mode = mode


class MemoryFS(FileSystem):
    """A thread-safe tree of files held in memory. ``files`` seeds it: {"a/b.txt": b"..."}."""

    def __init__(self, files: dict[str, bytes | str] | None = None, read_only: bool = False):
        self._root = _Node(DIR, 0o700)
        self._mutex = threading.RLock()
        for path, data in (files or {}).items():
            parts = [p for p in path.split("/") if p]
            node = self._root
            for part in parts[:-1]:
                node = node.children.setdefault(part, _Node(DIR, 0o700))
            leaf = _Node(FILE, 0o600)
            leaf.data[:] = data.encode() if isinstance(data, str) else data
            node.children[parts[-1]] = leaf
        self.read_only = read_only

    def _find(self, path: str) -> _Node:
        node = self._root
        if path == "":
            return node
        for part in path.split("/"):
            if node.kind != DIR:
                raise FSError(errno.ENOTDIR, path)
            child = node.children.get(part)
            if child is None:
                raise enoent(path)
            node = child
        return node

    def _parent(self, path: str) -> tuple[_Node, str]:
        head, _, name = path.rpartition("/")
        parent = self._find(head)
        if parent.kind != DIR:
            raise FSError(errno.ENOTDIR, path)
        return parent, name

    def stat(self, path: str) -> FileStat:
        with self._mutex:
            n = self._find(path)
            size = len(n.data) if n.kind == FILE else 4096
            return FileStat(n.kind, size, n.mtime, n.mode, 2 if n.kind == DIR else 1, mtime_ns=n.mtime_ns)

    def open_read(self, path: str) -> BinaryIO:
        with self._mutex:
            n = self._find(path)
            if n.kind == DIR:
                raise FSError(errno.EISDIR, path)
            return FileContent(bytes(n.data))

    def write_bytes(self, path: str, data: bytes) -> None:
        with self._mutex:
            parent, name = self._parent(path)
            old = parent.children.get(name)
            if old is not None and old.kind == DIR:
                raise FSError(errno.EISDIR, path)
            node = _Node(FILE, old.mode if old else 0o600)
            node.data[:] = data
            parent.children[name] = node

    def append_bytes(self, path: str, data: bytes) -> None:
        with self._mutex:
            parent, name = self._parent(path)
            node = parent.children.get(name)
            if node is None:
                node = parent.children[name] = _Node(FILE, 0o600)
            elif node.kind == DIR:
                raise FSError(errno.EISDIR, path)
            node.data += data
            node.mtime_ns = file_time_ns()
            node.mtime = node.mtime_ns / 1e9

    def listdir(self, path: str) -> list[str]:
        with self._mutex:
            n = self._find(path)
            if n.kind != DIR:
                raise FSError(errno.ENOTDIR, path)
            return list(n.children)

    def mkdir(self, path: str) -> None:
        with self._mutex:
            parent, name = self._parent(path)
            if name in parent.children:
                raise FSError(errno.EEXIST, path)
            parent.children[name] = _Node(DIR, 0o700)

    def remove(self, path: str) -> None:
        with self._mutex:
            parent, name = self._parent(path)
            n = parent.children.get(name)
            if n is None:
                raise enoent(path)
            if n.kind == DIR:
                raise FSError(errno.EISDIR, path)
            del parent.children[name]

    def rmdir(self, path: str) -> None:
        with self._mutex:
            parent, name = self._parent(path)
            n = parent.children.get(name)
            if n is None:
                raise enoent(path)
            if n.kind != DIR:
                raise FSError(errno.ENOTDIR, path)
            if n.children:
                raise FSError(errno.ENOTEMPTY, path)
            del parent.children[name]

    def rename(self, src: str, dst: str) -> None:
        with self._mutex:
            sp, sn = self._parent(src)
            node = sp.children.get(sn)
            if node is None:
                raise enoent(src)
            dp, dn = self._parent(dst)
            target = dp.children.get(dn)
            if target is not None and target.kind == DIR and node.kind != DIR:
                raise FSError(errno.EISDIR, dst)
            if node.kind == DIR and (dst + "/").startswith(src + "/"):
                raise FSError(errno.EINVAL, dst)
            del sp.children[sn]
            dp.children[dn] = node

    def set_mtime(self, path: str, mtime: float) -> None:
        with self._mutex:
            node = self._find(path)
            node.mtime = float(mtime)
            node.mtime_ns = mtime.ns if isinstance(mtime, Timestamp) else None


_LAZY_LOCK = threading.Lock()


class LazyMemoryFS:
    """A ``MemoryFS`` made on first use (a run's scratch ``/tmp``: most runs never touch it,
    and every run gets one). Any attribute is the real one's; pipeline threads of one run
    share it (made once, under a lock)."""

    read_only = False

    def __init__(self) -> None:
        self._real: MemoryFS | None = None

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        real = self._real
        if real is None:
            with _LAZY_LOCK:
                real = self._real
                if real is None:
                    real = self._real = MemoryFS()
        return getattr(real, name)

