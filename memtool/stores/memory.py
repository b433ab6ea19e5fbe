"""``MemoryStore``: an in-process store for tests and throw-away agents.

A ``sandbox.fs.memory.MemoryFS`` that also keeps a version per path, so caches such as the
core-memory cache can validate themselves exactly as they do on disk.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import replace

from sandbox.fs.base import FileStat
from sandbox.fs.memory import MemoryFS


class MemoryStore(MemoryFS):
    """A thread-safe in-memory store whose ``FileStat.version`` changes on every write."""

    def __init__(self, files: dict[str, bytes | str] | None = None, read_only: bool = False):
        super().__init__(files, read_only=read_only)
        self._counter = itertools.count(1)
        self._versions: dict[str, int] = {}
        self._version_guard = threading.Lock()

    def _bump(self, *paths: str) -> None:
        with self._version_guard:
            for path in paths:
                self._versions[path] = next(self._counter)

    def stat(self, path: str) -> FileStat:
        """Stat ``path``; ``version`` is a counter bumped by every change to it."""
        st = super().stat(path)
        return replace(st, version=self._versions.get(path, 0))

    def write_bytes(self, path: str, data: bytes) -> None:
        """Atomically replace a file."""
        super().write_bytes(path, data)
        self._bump(path)

    def append_bytes(self, path: str, data: bytes) -> None:
        """Append as one piece."""
        super().append_bytes(path, data)
        self._bump(path)

    def remove_prefix(self, path: str, prefix: bytes) -> bool:
        """Remove the first ``len(prefix)`` bytes of ``path`` if it starts with ``prefix``
        (False, nothing changed, if not), as one step for every other caller (rotation)."""
        with self._mutex:
            data = self.read_bytes(path)
            if not data.startswith(prefix):
                return False
            self.write_bytes(path, data[len(prefix):])
            return True

    def remove(self, path: str) -> None:
        """Remove a file."""
        super().remove(path)
        self._bump(path)

    def rename(self, src: str, dst: str) -> None:
        """Move a file or directory (every path below either end counts as changed)."""
        super().rename(src, dst)
        with self._version_guard:
            stale = [p for p in self._versions if p == src or p.startswith(src + "/")]
            stale += [p for p in self._versions if p == dst or p.startswith(dst + "/")]
            for p in stale:
                self._versions[p] = next(self._counter)
            self._versions[src] = next(self._counter)
            self._versions[dst] = next(self._counter)

    def set_mtime(self, path: str, mtime: float) -> None:
        """Set a modification time."""
        super().set_mtime(path, mtime)
        self._bump(path)
