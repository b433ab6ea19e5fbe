"""Limits, messages and path helpers shared by the PostgreSQL store's modules."""

from __future__ import annotations

import errno
import hashlib
import os
import re
from typing import TypeVar

from sandbox.fs.base import FSError

#: An append seals its file's pending rows into chunks with probability 1/SEAL_EVERY.
SEAL_EVERY = 1024
#: A sealed chunk smaller than this is rewritten with the next seal's bytes (see ``seal``).
SMALL_CHUNK = 64 << 10
#: Largest chunk written by ``write_bytes`` (big files are split).
CHUNK_BYTES = 1 << 20
#: Files up to this size are fetched whole by ``open_read`` in the lookup's round trip.
INLINE_READ = 256 << 10
#: Bytes fetched per query by a streaming reader.
READ_WINDOW = 256 << 10
#: Size of a directory as ``stat`` reports it (as on ext4).
DIR_SIZE = 4096

#: What a tool or command shows when the database connection failed during an operation.
DB_LOST = (
    "Input/output error (lost the connection to the memory database; a write is applied "
    "whole or not at all: check the file, then retry)"
)
#: ... when the database cannot be reached at all.
DB_DOWN = "Input/output error (memory database unavailable; retry in a moment)"
#: ... when a lock could not be had in time (another writer holds it) or a deadlock was broken.
DB_BUSY = "Resource temporarily unavailable (another writer holds this file; retry)"
#: ... when the content a streaming reader was reading was replaced by a write.
#: How often ``read_bytes`` starts again when the file is replaced while it reads it.
STALE_RETRIES = 5
STALE = "Stale file handle (the file was replaced while it was being read; retry)"


_IDENT = re.compile(r"^[a-z_][a-z0-9_]{0,47}$")

T = TypeVar("T")


def _key(*parts: bytes) -> int:
    """A signed 64-bit advisory-lock key for ``parts``."""
    digest = hashlib.blake2b(b"\x00".join(parts), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def _encode_path(path: str) -> bytes:
    """Bytes of a relative, normalised path; refuse anything else with ``EINVAL``."""
    if not isinstance(path, str):
        raise FSError(errno.EINVAL, "", "Invalid argument (path must be a string)")
    if path == "":
        return b""
    parts = path.split("/")
    if "\x00" in path or path.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise FSError(errno.EINVAL, path)
    return path.encode("utf-8", "surrogateescape")


def _parent(raw: bytes) -> bytes:
    return raw.rpartition(b"/")[0]


def _ancestors(raw: bytes) -> list[bytes]:
    """Proper ancestors of a path, nearest last (``a``, ``a/b`` for ``a/b/c``)."""
    parts = raw.split(b"/")
    return [b"/".join(parts[:i]) for i in range(1, len(parts))]


def _decode(raw: bytes) -> str:
    return bytes(raw).decode("utf-8", "surrogateescape")


def _dsn_from_env(dsn: str | None) -> str:
    dsn = dsn or os.environ.get("MEMTOOL_DSN", "")
    if not dsn:
        raise ValueError("no PostgreSQL DSN: pass dsn=... or set MEMTOOL_DSN")
    return dsn


def _open_chunk(size: int) -> tuple[int, int]:
    """(``tail_off``, ``tail_count``) of content of ``size`` bytes written in CHUNK_BYTES
    pieces: its last piece stays open for the next seal to rewrite (count 1) while it is
    smaller than SMALL_CHUNK; else nothing is open (the offset is the end, count 0)."""
    last = size - (size - 1) // CHUNK_BYTES * CHUNK_BYTES if size else 0
    if 0 < last < SMALL_CHUNK:
        return size - last, 1
    return size, 0


def _ends_line(data: bytes) -> bool:
    """Whether content ``data`` needs no newline before a line is appended to it."""
    return not data or data[-1:] == b"\n"


def _seal_due(seq: int) -> bool:
    """Whether the append that took ``seq`` should seal its file: a pseudo-random 1 in
    ``SEAL_EVERY`` (Fibonacci hashing of ``seq``: no pattern of interleaved files can dodge
    it, and for one file's consecutive seqs the gap between seals stays under ~1.5x
    ``SEAL_EVERY``), which bounds a file's pending rows without the appender counting them
    (counting meant reading index entries that concurrent appenders were inserting)."""
    return ((seq * 0x9E3779B97F4A7C15) & _MASK64) * SEAL_EVERY >> 64 == 0


_MASK64 = (1 << 64) - 1
