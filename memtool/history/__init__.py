"""Versions of a memory's files: every change recorded, restorable, diffable, exportable.

``VersionLog`` (local: ``.memtool/versions/`` inside the memory directory, hidden from the
tools; in memory for tests) records ``Version``s; ``VersionedStore`` is the store the tools
write through; ``History`` answers history / diff / restore; ``archive`` exports and imports a
whole memory with its history.
"""

from __future__ import annotations

import os

from sandbox.fs.base import FileSystem

from memtool.history.api import History, HistoryEntry, HistoryError, parse_id, unified
from memtool.history.log import (
    LocalVersionLog, MemoryVersionLog, Retention, StoreVersionLog, Version, VersionLog, content_hash,
    local_log,
)
from memtool.history.store import Actor, VersionedStore, acting, current_actor

__all__ = [
    "Actor", "History", "HistoryEntry", "HistoryError", "LocalVersionLog", "MemoryVersionLog",
    "Retention", "StoreVersionLog", "Version", "VersionLog", "VersionedStore", "acting", "content_hash",
    "current_actor", "local_log", "open_log", "parse_id", "unified",
]


def open_log(base: FileSystem, versions: "bool | VersionLog", retention: Retention | None = None,
             fsync: bool = False) -> VersionLog | None:
    """The version log of store ``base``: ``versions`` itself if it is a log; for True, the
    local directory's log (a read-only directory only if it already has one), the in-memory
    store's, or a PostgreSQL namespace's (its ``versions`` table); None when off or for other
    stores (pass ``versions=StoreVersionLog(store)`` to keep a log inside any store)."""
    if isinstance(versions, VersionLog):
        return versions
    if not versions:
        return None
    from memtool.stores.local import LocalStore
    from memtool.stores.memory import MemoryStore
    from memtool.stores.postgres.store import PostgresStore

    if isinstance(base, LocalStore):
        if base.read_only and not os.path.isdir(os.path.join(base.path, ".memtool", "versions")):
            return None
        return local_log(base.path, retention, fsync)
    if isinstance(base, MemoryStore):
        log = getattr(base, "_memtool_versions", None)
        if log is None:
            log = MemoryVersionLog(retention)
            base._memtool_versions = log  # type: ignore[attr-defined]
        return log
    if isinstance(base, PostgresStore):
        from memtool.stores.postgres.versions import postgres_log

        return postgres_log(base, retention)
    return None
