"""Rotation: old turns of ``conversations.jsonl`` move to ``archive/conversations-YYYY-MM.jsonl``.

``rotate(store, older_than=..., max_bytes=...)`` moves the oldest turns (a prefix of the log:
the turns older than ``older_than`` seconds, then more while the log is larger than
``max_bytes``) into one archive file per month of their timestamps, in order. A line without
a readable timestamp goes with the turn before it (or, first in the log, the one after it).

Nothing is lost or duplicated, and appenders are never blocked for more than the rewrite:

1. Under the store's lock on the log (other rotations and locked writers wait), the log is
   read and the prefix to move chosen (whole lines only).
2. Each month's lines are appended to its archive file unless the file already ends with
   exactly those lines (a rotation that crashed after this step and before the next one is
   finished by the next run instead of copying the lines twice).
3. The store removes the prefix only if the log still starts with it
   (``remove_prefix``): a local store takes the log's exclusive ``flock`` (waiting for appends
   in flight), writes the rest to a new file and renames it over the log; an append that was
   waiting on the old file sees it replaced and appends to the new one
   (``LocalStore.append_line``). An in-memory store does it under its own lock. PostgreSQL
   (``PostgresStore.remove_prefix``) does it in the transaction of the log's ``lock()``, so
   the archive's appends and the log's new start commit together; appends wait for that
   transaction and then go to the new content.

``recent()``, search and recall read through the archive (``Conversations.recent`` goes on to
the newest archive files when the log has fewer turns; search covers every file); the bash
tool sees the archive as files (``grep -r budget /.memory/archive``). ``memtool archive`` runs
it by hand; ``Memory(rotation=Rotation(...))`` runs it from ``record()``.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone

from sandbox.fs.base import FileSystem, FSError

from memtool.layout import CONVERSATIONS

ARCHIVE_DIR = "archive"
_STAMP = re.compile(rb'"timestamp"\s*:\s*"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})')


class RotationError(Exception):
    """The store cannot rotate its log (it has no atomic ``remove_prefix``)."""


@dataclass
class Rotation:
    """When ``record()`` rotates: turns older than ``older_than`` seconds, or beyond
    ``max_bytes`` of log; checked every ``check_every`` records of this process."""

    older_than: float | None = 90 * 86400
    max_bytes: int | None = None
    check_every: int = 500


@dataclass
class RotationResult:
    """What a rotation moved: turns (lines), bytes, and the archive files written."""

    turns: int = 0
    bytes: int = 0
    files: list[str] = field(default_factory=list)


def archive_path(year: int, month: int, log: str = CONVERSATIONS) -> str:
    """``archive/conversations-YYYY-MM.jsonl`` for a log named ``conversations.jsonl``."""
    stem = log.rsplit("/", 1)[-1].removesuffix(".jsonl")
    return f"{ARCHIVE_DIR}/{stem}-{year:04d}-{month:02d}.jsonl"


def _stamp_of(line: bytes) -> tuple[int, int, float] | None:
    """(year, month, epoch seconds) of a turn's ``timestamp``, or None."""
    m = _STAMP.search(line)
    if m is None:
        try:  # an escaped or unusual layout: parse the line
            obj = json.loads(line)
            stamp = obj.get("timestamp") if isinstance(obj, dict) else None
            m = _STAMP.search(b'"timestamp": "' + stamp.encode() + b'"') if isinstance(stamp, str) else None
        except (ValueError, UnicodeEncodeError):
            m = None
        if m is None:
            return None
    y, mo, d, h, mi, s = (int(g) for g in m.groups())
    try:
        epoch = datetime(y, mo, d, h, mi, s, tzinfo=timezone.utc).timestamp()
    except ValueError:
        return None
    return y, mo, epoch


def plan(data: bytes, older_than: float | None, max_bytes: int | None,
         now: float) -> list[tuple[int, int, bytes]]:
    """The prefix of ``data`` to move, as (year, month, lines) groups in order."""
    end = data.rfind(b"\n") + 1
    lines = data[:end].split(b"\n")[:-1] if end else []
    stamps = [_stamp_of(line) for line in lines]
    cut = 0
    if older_than is not None:
        cutoff = now - older_than
        for i, st in enumerate(stamps):
            if st is not None:
                if st[2] >= cutoff:
                    break
                cut = i + 1  # an undated line before it moves with it
    if max_bytes is not None:
        size = len(data) - sum(len(line) + 1 for line in lines[:cut])
        while cut < len(lines) and size > max_bytes:
            size -= len(lines[cut]) + 1
            cut += 1
    # undated lines at the cut: only move those followed by a moved turn
    while cut and stamps[cut - 1] is None:
        cut -= 1
    groups: list[tuple[int, int, bytes]] = []
    month: tuple[int, int] | None = next(((s[0], s[1]) for s in stamps[:cut] if s), None)
    chunk: list[bytes] = []
    for line, st in zip(lines[:cut], stamps[:cut]):
        if st is not None and (st[0], st[1]) != month:
            if chunk and month is not None:
                groups.append((month[0], month[1], b"".join(chunk)))
            month, chunk = (st[0], st[1]), []
        chunk.append(line + b"\n")
    if chunk and month is not None:
        groups.append((month[0], month[1], b"".join(chunk)))
    return groups


def _ends_with(store: FileSystem, path: str, data: bytes) -> bool:
    try:
        st = store.stat(path)
    except FSError:
        return False
    if st.size < len(data):
        return False
    with store.open_read(path) as f:
        f.seek(st.size - len(data))
        return f.read(len(data)) == data


def _append_once(store: FileSystem, path: str, data: bytes) -> None:
    """Append ``data`` to ``path`` unless it already ends with it (after a newline)."""
    if _ends_with(store, path, data):
        return
    if not store.exists(ARCHIVE_DIR):
        try:
            store.mkdir(ARCHIVE_DIR)
        except FSError as e:
            if not store.exists(ARCHIVE_DIR):
                raise e
    if store.exists(path) and not _ends_with(store, path, b"\n") and store.stat(path).size:
        data = b"\n" + data  # a hand edit left no final newline
    store.append_bytes(path, data)


def rotate(store: FileSystem, *, older_than: float | None = None, max_bytes: int | None = None,
           log: str = CONVERSATIONS, now: float | None = None) -> RotationResult:
    """Move the log's oldest turns to the archive (see the module docstring)."""
    remove_prefix = getattr(store, "remove_prefix", None)
    if remove_prefix is None:
        raise RotationError("this store cannot rotate its log (no atomic remove_prefix)")
    result = RotationResult()
    if older_than is None and max_bytes is None:
        return result
    with store.lock(log):
        try:
            data = store.read_bytes(log)
        except FSError as e:
            if e.errno == 2:
                return result
            raise
        groups = plan(data, older_than, max_bytes, time.time() if now is None else now)
        if not groups:
            return result
        prefix = b"".join(chunk for _y, _m, chunk in groups)
        for year, month, chunk in groups:
            path = archive_path(year, month, log)
            _append_once(store, path, chunk)
            if path not in result.files:
                result.files.append(path)
        if not remove_prefix(log, prefix):
            raise RotationError("the log changed while it was rotated; run it again")
        result.turns = prefix.count(b"\n")
        result.bytes = len(prefix)
    return result


def archives(store: FileSystem, log: str = CONVERSATIONS) -> list[str]:
    """The archive files of ``log``, oldest first."""
    stem = log.rsplit("/", 1)[-1].removesuffix(".jsonl")
    try:
        names = store.listdir(ARCHIVE_DIR)
    except FSError:
        return []
    pat = re.compile(re.escape(stem) + r"-\d{4}-\d{2}\.jsonl")
    return [f"{ARCHIVE_DIR}/{n}" for n in sorted(names) if pat.fullmatch(n)]
