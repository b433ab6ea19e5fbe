"""``PostgresVersionLog``: the version log of a PostgreSQL namespace, kept in tables.

    versions            (ns, id) -> at, actor, detail, path, before, after, call
    version_contents    (ns, digest) -> data          each content once, by SHA-256
    version_generation  ns -> generation              bumped when the log is rewritten

A person can read the history with SQL (``SELECT id, actor, detail, convert_from(path,
'UTF8') FROM memtool.versions WHERE ns = 'user:42' ORDER BY id``).

Order and atomicity: the log's lock is the store's advisory lock of the reserved path
``.memtool/versions`` (``PostgresStore.lock``), taken after the lock of the file being
changed. Both locks pin one connection in one transaction, so the change to the file and the
row of its version commit together or not at all; ids are numbered under the lock, so every
process's versions land in order, none lost (the primary key refuses a duplicate id). A
transaction rolled back after this process counted its versions is noticed at the next
catch-up (the newest version it knows is not in the table as it knows it) and the log is
reread.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from memtool.history.log import Retention, Version, VersionLog, content_hash

if TYPE_CHECKING:  # pragma: no cover
    import psycopg

    from memtool.stores.postgres.store import PostgresStore

#: The path whose advisory lock is the log's lock (reserved: the tools never see ``.memtool``).
LOCK_PATH = ".memtool/versions"

_COLUMNS = "id, at, actor, detail, path, before, after, call"


def _text(value: str) -> str:
    """``value`` as PostgreSQL text (undecodable bytes kept as surrogates become U+FFFD)."""
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace").replace("\x00", "\ufffd")


def _version(row: Any) -> Version:
    vid, at, actor, detail, path, before, after, call = row
    return Version(int(vid), float(at), actor, detail, bytes(path).decode("utf-8", "surrogateescape"),
                   before, after, call)


def _line(v: Version) -> bytes:
    return (v.to_json() + "\n").encode("utf-8", "surrogateescape")


class PostgresVersionLog(VersionLog):
    """The version log of ``store``'s namespace, in the ``versions`` tables of its schema
    (see the module docstring). Use ``postgres_log(store)`` for the one shared log of a
    namespace in this process."""

    def __init__(self, store: "PostgresStore", retention: Retention | None = None):
        super().__init__(retention)
        self.store = store
        self.ns = store.namespace
        self.s = store.schema
        self._generation: int | None = None
        self._last: Version | None = None  # the newest version this process knows

    def __repr__(self) -> str:
        return f"PostgresVersionLog(namespace={self.ns!r}, schema={self.s!r})"

    def _run(self, fn: Any) -> Any:
        return self.store._run(LOCK_PATH, fn)

    @contextmanager
    def _os_lock(self) -> Iterator[None]:
        with self.store.lock(LOCK_PATH):
            yield

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the log exclusively: the advisory lock (and a connection) first, then this
        process's thread lock. In this order a thread never waits for the thread lock while
        the thread holding it waits for a connection that the waiting threads hold (every
        thread changing a file holds one: its file's lock)."""
        if getattr(self._depth, "n", 0):
            with super().locked():
                yield
            return
        with self._os_lock(), self._thread_lock:
            self._depth.n = 1
            try:
                self._catch_up()
                yield
            finally:
                self._depth.n = 0

    # -- the log ----------------------------------------------------------------------------

    def _read_new(self) -> tuple[list[bytes], bool]:
        last = self._last

        def go(conn: "psycopg.Connection") -> tuple[int, list[Any]]:
            row = conn.execute(f"SELECT generation FROM {self.s}.version_generation WHERE ns = %s",
                               [self.ns]).fetchone()
            rows = conn.execute(f"SELECT {_COLUMNS} FROM {self.s}.versions WHERE ns = %s AND id >= %s "
                                f"ORDER BY id", [self.ns, last.id if last else 0]).fetchall()
            return (row[0] if row else 0), rows

        generation, rows = self._run(go)
        versions = [_version(r) for r in rows]
        rewritten = self._generation is not None and generation != self._generation
        if last is not None and not rewritten:
            if versions and versions[0] == last:
                versions = versions[1:]
            else:  # our newest version was rolled back, or replaced: start again
                rewritten = True
        if rewritten:
            versions = self._all()
        self._generation = generation
        if versions:
            self._last = versions[-1]
        elif rewritten:
            self._last = None
        return [_line(v) for v in versions], rewritten

    def _all(self) -> list[Version]:
        rows = self._run(lambda conn: conn.execute(
            f"SELECT {_COLUMNS} FROM {self.s}.versions WHERE ns = %s ORDER BY id", [self.ns]).fetchall())
        return [_version(r) for r in rows]

    def _insert(self, conn: "psycopg.Connection", versions: list[Version]) -> None:
        with conn.cursor() as cur:
            cur.executemany(
                f"INSERT INTO {self.s}.versions (ns, {_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [[self.ns, v.id, v.time, _text(v.actor), _text(v.detail), v.path.encode("utf-8", "surrogateescape"),
                  v.before, v.after, _text(v.call)] for v in versions])

    def _write_lines(self, lines: list[bytes]) -> bool:
        versions = [Version.from_json(line) for line in lines]
        self._run(lambda conn: self._insert(conn, versions))
        self._last = versions[-1]
        return True  # caught up under the lock: nothing else can have been appended

    def _rewrite(self, lines: list[bytes]) -> None:
        versions = []
        for line in lines:
            try:
                versions.append(Version.from_json(line))
            except (ValueError, KeyError, TypeError):
                continue

        def go(conn: "psycopg.Connection") -> None:
            with conn.transaction():
                conn.execute(f"DELETE FROM {self.s}.versions WHERE ns = %s", [self.ns])
                self._insert(conn, versions)
                conn.execute(
                    f"INSERT INTO {self.s}.version_generation (ns, generation) VALUES (%s, 1) "
                    f"ON CONFLICT (ns) DO UPDATE SET generation = {self.s}.version_generation.generation + 1",
                    [self.ns])

        self._run(go)
        self._generation = None  # reread at the next catch-up
        self._last = None

    def raw_lines(self) -> list[bytes]:
        """Every version as a log line, oldest first (for export)."""
        with self.locked():
            return [_line(v) for v in self._entries]

    # -- contents ---------------------------------------------------------------------------

    def has_blob(self, digest: str) -> bool:
        return self._run(lambda conn: conn.execute(
            f"SELECT 1 FROM {self.s}.version_contents WHERE ns = %s AND digest = %s",
            [self.ns, digest]).fetchone()) is not None

    def put_blob(self, data: bytes) -> str:
        """Store ``data`` (once) and return its hash: one statement."""
        digest = content_hash(data)
        self._store_blob(digest, data)
        return digest

    def _store_blob(self, digest: str, data: bytes) -> None:
        self._run(lambda conn: conn.execute(
            f"INSERT INTO {self.s}.version_contents (ns, digest, data) VALUES (%s, %s, %s) "
            f"ON CONFLICT DO NOTHING", [self.ns, digest, bytes(data)]))

    def get_blob(self, digest: str) -> bytes:
        row = self._run(lambda conn: conn.execute(
            f"SELECT data FROM {self.s}.version_contents WHERE ns = %s AND digest = %s",
            [self.ns, digest]).fetchone())
        if row is None or content_hash(bytes(row[0])) != digest:
            raise KeyError(digest)
        return bytes(row[0])

    def blob_names(self) -> Iterable[str]:
        rows = self._run(lambda conn: conn.execute(
            f"SELECT digest FROM {self.s}.version_contents WHERE ns = %s ORDER BY digest",
            [self.ns]).fetchall())
        return [r[0] for r in rows]

    def _delete_blob(self, digest: str) -> None:
        self._run(lambda conn: conn.execute(
            f"DELETE FROM {self.s}.version_contents WHERE ns = %s AND digest = %s", [self.ns, digest]))


_LOGS: "dict[tuple[str, str, str, int], PostgresVersionLog]" = {}
_LOGS_GUARD = threading.Lock()


def postgres_log(store: "PostgresStore", retention: Retention | None = None) -> PostgresVersionLog:
    """The one ``PostgresVersionLog`` of this process for ``store``'s namespace."""
    import os

    key = (store.dsn, store.schema, store.namespace, os.getpid())
    with _LOGS_GUARD:
        log = _LOGS.get(key)
        if log is None:
            log = _LOGS[key] = PostgresVersionLog(store, retention)
        elif retention is not None and not retention.unlimited:
            log.retention = retention
        return log
