"""The store contract and the helpers shared by every store.

A *store* is a ``sandbox.fs.base.FileSystem`` (relative, normalised paths; atomic
``write_bytes``; indivisible ``append_bytes``; ``FileStat.version`` changing on every write)
whose ``lock(path)`` excludes every other holder of the same path, across threads, processes
and, for shared stores, machines. Nothing else is required, so the sandboxed bash tool runs on
any store unchanged.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import BinaryIO, Iterator, Union

from sandbox.fs.base import FileStat, FileSystem, FSError

#: A store is a sandbox filesystem with cross-process locking.
Store = FileSystem

#: What ``Memory`` accepts as its first argument: a directory path or a store.
PathOrStore = Union[str, "os.PathLike[str]", FileSystem]


def open_store(target: PathOrStore) -> FileSystem:
    """Return ``target`` if it is a store, else a ``LocalStore`` over that directory."""
    if isinstance(target, FileSystem):
        return target
    if isinstance(target, (str, os.PathLike)):
        from memtool.stores.local import LocalStore

        return LocalStore(os.fspath(target))
    raise TypeError(f"expected a directory path or a store, not {type(target).__name__}")


def _join(prefix: str, path: str) -> str:
    return f"{prefix}/{path}" if path else prefix


class SubStore(FileSystem):
    """A view of one sub-directory of another store (used for scopes).

    Paths are relative to ``prefix`` inside ``base``; errors name the path as this view sees
    it, so a scope never learns where it lives inside the shared tree.
    """

    def __init__(self, base: FileSystem, prefix: str):
        if not prefix or prefix.startswith("/") or ".." in prefix.split("/"):
            raise ValueError("prefix must be a relative, normalised path")
        self.base = base
        self.prefix = prefix
        self.read_only = base.read_only
        if callable(getattr(base, "append_line", None)):
            #: Offered only when the base store has it (the conversation log's lock-free
            #: append; callers look for it with ``getattr``).
            self.append_line = self._append_line
        if callable(getattr(base, "remove_prefix", None)):
            #: Offered only when the base store has it (rotation, ``memtool.rotation``).
            self.remove_prefix = self._remove_prefix

    def _p(self, path: str) -> str:
        return _join(self.prefix, path)

    @staticmethod
    def _rename_error(err: FSError, path: str) -> FSError:
        return FSError(err.errno or 0, path, err.strerror)

    def _call(self, fn, path: str, *args):
        try:
            return fn(self._p(path), *args)
        except FSError as e:
            raise self._rename_error(e, path) from None

    def stat(self, path: str) -> FileStat:
        """Stat ``path`` inside the view."""
        return self._call(self.base.stat, path)

    def open_read(self, path: str) -> BinaryIO:
        """Open ``path`` inside the view for streaming reads."""
        return self._call(self.base.open_read, path)

    def read_bytes(self, path: str) -> bytes:
        """The whole content of ``path`` inside the view (the base store's own whole-file read,
        which may be cheaper or more robust than streaming)."""
        return self._call(self.base.read_bytes, path)

    def write_bytes(self, path: str, data: bytes) -> None:
        """Atomically replace ``path`` inside the view."""
        self._call(self.base.write_bytes, path, data)

    def append_bytes(self, path: str, data: bytes) -> None:
        """Append indivisibly to ``path`` inside the view."""
        self._call(self.base.append_bytes, path, data)

    def _append_line(self, path: str, line: bytes) -> None:
        """The base store's ``append_line`` of ``path`` inside the view."""
        self._call(self.base.append_line, path, line)

    def _remove_prefix(self, path: str, prefix: bytes) -> bool:
        """The base store's ``remove_prefix`` of ``path`` inside the view."""
        return self._call(self.base.remove_prefix, path, prefix)

    def listdir(self, path: str) -> list[str]:
        """Names in a directory of the view."""
        return self._call(self.base.listdir, path)

    def readdir_order(self, path: str) -> list[str] | None:
        """The base store's readdir order of a directory of the view."""
        return self._call(self.base.readdir_order, path)

    def mkdir(self, path: str) -> None:
        """Create one directory inside the view."""
        self._call(self.base.mkdir, path)

    def remove(self, path: str) -> None:
        """Remove a file inside the view."""
        self._call(self.base.remove, path)

    def rmdir(self, path: str) -> None:
        """Remove an empty directory inside the view (never the view's root)."""
        if path == "":
            raise FSError(16, path)  # EBUSY
        self._call(self.base.rmdir, path)

    def rename(self, src: str, dst: str) -> None:
        """Move ``src`` to ``dst``, both inside the view."""
        try:
            self.base.rename(self._p(src), self._p(dst))
        except FSError as e:
            raise self._rename_error(e, src) from None

    def set_mtime(self, path: str, mtime: float) -> None:
        """Set a file's modification time."""
        self._call(self.base.set_mtime, path, mtime)

    @contextmanager
    def lock(self, path: str) -> Iterator[None]:
        """Lock ``path`` inside the view (the base store's lock on the full path)."""
        with self.base.lock(self._p(path)):
            yield

    def makedirs(self) -> None:
        """Create the view's directory (and its parents) in the base store if missing."""
        parts = self.prefix.split("/")
        for i in range(1, len(parts) + 1):
            sub = "/".join(parts[:i])
            try:
                self.base.mkdir(sub)
            except FSError as e:
                if e.errno != 17:  # EEXIST: made by us before, or by another process now
                    raise
