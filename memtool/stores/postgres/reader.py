"""``_ChunkReader``: a seekable streaming reader of one PostgreSQL store file."""

from __future__ import annotations

import errno
import io
from typing import TYPE_CHECKING, Any

from memtool.stores.postgres.common import READ_WINDOW

if TYPE_CHECKING:  # pragma: no cover
    from memtool.stores.postgres.store import PostgresStore


class _ChunkReader(io.RawIOBase):
    """Seekable raw reader over one content id of a ``PostgresStore`` file, fetched by
    windows; fails with ``ESTALE`` if the content is replaced while it is being read."""

    def __init__(self, store: PostgresStore, path: str, cid: int, sealed: int, tail: bytes = b""):
        super().__init__()
        self._store = store
        self._path = path
        self._cid = cid
        self._sealed = sealed
        self._tail = tail
        self._size = sealed + len(tail)
        self._pos = 0
        self._win_start = 0
        self._win = b""

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if whence == io.SEEK_SET:
            pos = offset
        elif whence == io.SEEK_CUR:
            pos = self._pos + offset
        elif whence == io.SEEK_END:
            pos = self._size + offset
        else:
            raise ValueError(f"invalid whence ({whence})")
        if pos < 0:
            raise OSError(errno.EINVAL, "Invalid argument")
        self._pos = pos
        return pos

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        want = min(len(view), self._size - self._pos)
        if want <= 0:
            return 0
        start, end = self._pos, self._pos + want
        w_start, w_end = self._win_start, self._win_start + len(self._win)
        if not (w_start <= start and end <= w_end):
            if start < w_start and end > w_start - READ_WINDOW:
                # Moving backwards (tail): fetch the window that ends where this read ends.
                f_end = min(self._size, max(end, w_start))
                f_start = max(0, min(start, f_end - READ_WINDOW))
            else:
                f_start = start
                f_end = min(self._size, max(end, start + READ_WINDOW))
            self._win = self._fetch(f_start, f_end)
            self._win_start = f_start
            w_start = f_start
        piece = self._win[start - w_start : end - w_start]
        view[: len(piece)] = piece
        self._pos += len(piece)
        return len(piece)

    def _fetch(self, start: int, end: int) -> bytes:
        """Bytes ``[start, end)``: sealed chunks from the database, then the pending tail
        captured at open."""
        head = b""
        if start < self._sealed:
            head = self._store._read_range(self._path, self._cid, start, min(end, self._sealed))
        if end <= self._sealed:
            return head
        return head + self._tail[max(start, self._sealed) - self._sealed : end - self._sealed]
