"""``PostgresStore``: the store itself (see the package docstring for the design)."""

from __future__ import annotations

import errno
import io
import os
import threading
import time
from contextlib import contextmanager
from typing import TYPE_CHECKING, BinaryIO, Callable, Iterator

from sandbox.fs.base import DIR, FILE, FileContent, FileStat, FileSystem, FSError

from memtool.stores.postgres import common as _tune
from memtool.stores.postgres import pool as _pool
from memtool.stores.postgres.combiner import _AppendRequest, _AppendTarget
from memtool.stores.postgres.common import (
    _IDENT, DB_BUSY, DB_DOWN, DB_LOST, DIR_SIZE, INLINE_READ, READ_WINDOW, STALE,
    STALE_RETRIES, T, _ancestors, _decode, _dsn_from_env, _encode_path, _ends_line, _key, _open_chunk, _parent,
    _seal_due,
)
from memtool.stores.postgres.pool import _Appender, _get_pool, _PoolEntry, _pools, _pools_guard, _raise_for
from memtool.stores.postgres.reader import _ChunkReader
from memtool.stores.postgres.schema import SCHEMA_VERSION, SchemaTooNew, migrate

if TYPE_CHECKING:  # pragma: no cover
    import psycopg


class PostgresStore(FileSystem):
    """A memtool store in PostgreSQL (see the module docstring for the design).

    ``dsn`` is a libpq connection string or URL (default: ``$MEMTOOL_DSN``); ``namespace``
    selects an isolated tree (one per agent, user or scope); ``schema`` is the PostgreSQL
    schema holding the tables (created on first use); ``pool_size`` caps the connections this
    process opens to the DSN (stores on one DSN share one pool); ``lock_timeout`` is how long a
    write waits for another writer's lock before failing with ``EAGAIN``. ``durable=False`` acknowledges an append
    before its WAL reaches the disk (faster from one process; a *server* crash can then lose
    the last fraction of a second of appends, never tear one). Refuses an empty namespace or
    one with a NUL.
    """

    def __init__(
        self,
        dsn: str | None = None,
        namespace: str = "default",
        *,
        schema: str = "memtool",
        pool_size: int = 8,
        lock_timeout: float = 30.0,
        connect_timeout: float = 10.0,
        durable: bool = True,
        read_only: bool = False,
    ):
        self.dsn = _dsn_from_env(dsn)
        if not isinstance(namespace, str) or not namespace or "\x00" in namespace:
            raise ValueError("namespace must be a non-empty string without NUL bytes")
        try:
            namespace.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("namespace must be valid UTF-8 text") from None
        if len(namespace) > 1000:
            raise ValueError("namespace is longer than 1000 characters")
        if not _IDENT.match(schema):
            raise ValueError("schema must be a lower-case SQL identifier ([a-z_][a-z0-9_]*)")
        self.namespace = namespace
        self.schema = schema
        self.pool_size = pool_size
        self.lock_timeout = lock_timeout
        self.connect_timeout = connect_timeout
        self.durable = durable
        self.read_only = read_only
        self._ns_key = namespace.encode()
        self._tree_key = _key(schema.encode(), self._ns_key, b"\x01tree")
        self._pinned = threading.local()
        #: path -> what the append fast path needs to know of it.
        self._append_targets: dict[str, _AppendTarget] = {}
        self._entry_cache: _PoolEntry | None = None
        self._append_statement = f"memtool_append_{schema}_{'d' if durable else 'a'}".encode()
        #: Appended to an append's statement: with ``durable=False``, do not wait for the flush.
        self._sync = "" if durable else ", set_config('synchronous_commit', 'off', true)"

    def __repr__(self) -> str:
        return f"PostgresStore(namespace={self.namespace!r}, schema={self.schema!r})"

    def close(self) -> None:
        """Close this DSN's connection pool in this process (shared by every store on the DSN;
        the next call opens a new one)."""
        with _pools_guard:
            entry = _pools.pop((self.dsn, os.getpid()), None)
        if entry is not None:
            entry.close()

    # -- scopes ---------------------------------------------------------------------------------

    def scoped(self, namespace: str) -> "PostgresStore":
        """The same database (and connection pool) seen through another namespace."""
        return PostgresStore(
            self.dsn,
            namespace,
            schema=self.schema,
            pool_size=self.pool_size,
            lock_timeout=self.lock_timeout,
            connect_timeout=self.connect_timeout,
            durable=self.durable,
            read_only=self.read_only,
        )

    # -- connections ----------------------------------------------------------------------------

    def _entry(self) -> _PoolEntry:
        """This process's pool entry for the DSN (remembered; looked up again after a fork
        or once the entry was closed)."""
        entry = self._entry_cache
        if entry is None or entry.closed or entry.pid != _pool._pid:
            entry = self._entry_cache = _get_pool(self.dsn, self.pool_size,
                                                  self.connect_timeout, self.lock_timeout)
        return entry

    def init_schema(self) -> int:
        """Create or upgrade the tables now (idempotent); return the schema version."""
        with self._errors(""):
            entry = self._entry()
            with entry.pool.connection() as conn:
                self._migrate(conn)
                entry.schemas_ready.add(self.schema)
        return SCHEMA_VERSION

    def _ensure_schema(self, entry: _PoolEntry, conn: "psycopg.Connection") -> None:
        """Create or upgrade the tables on first use in this process."""
        if self.schema not in entry.schemas_ready:
            self._migrate(conn)
            entry.schemas_ready.add(self.schema)

    def _migrate(self, conn: "psycopg.Connection") -> None:
        migrate(conn, self.schema)

    @contextmanager
    def _conn(self) -> Iterator["psycopg.Connection"]:
        """A connection: the one pinned by ``lock()`` in this thread, else one from the pool."""
        pinned = getattr(self._pinned, "conn", None)
        if pinned is not None:
            yield pinned
            return
        entry = self._entry()
        with entry.pool.connection() as conn:
            self._ensure_schema(entry, conn)
            yield conn

    def _run(self, path: str, fn: Callable[["psycopg.Connection"], T], *, retry: bool = False) -> T:
        """Run ``fn(conn)``, mapping database failures to ``FSError``. ``retry`` (reads only):
        one more try on a fresh connection after a connection failure."""
        attempts = 2 if retry and getattr(self._pinned, "conn", None) is None else 1
        for attempt in range(attempts):
            try:
                with self._errors(path):
                    with self._conn() as conn:
                        return fn(conn)
            except FSError as e:
                if attempt + 1 < attempts and e.strerror in (DB_LOST, DB_DOWN):
                    continue
                raise
        raise AssertionError("unreachable")  # pragma: no cover

    @contextmanager
    def _errors(self, path: str) -> Iterator[None]:
        """Turn database exceptions into one-line ``FSError``s that say what to do."""
        import psycopg
        from psycopg_pool import PoolTimeout

        try:
            yield
        except FSError:
            raise
        except SchemaTooNew as e:
            raise FSError(errno.EIO, path, f"Input/output error ({e})") from None
        except (psycopg.errors.LockNotAvailable, psycopg.errors.DeadlockDetected,
                psycopg.errors.QueryCanceled, psycopg.errors.SerializationFailure):
            raise FSError(errno.EAGAIN, path, DB_BUSY) from None
        except PoolTimeout:
            self._discard_broken()
            raise FSError(errno.EIO, path, DB_DOWN) from None
        except (psycopg.OperationalError, psycopg.InterfaceError):
            self._discard_broken()
            raise FSError(errno.EIO, path, DB_LOST) from None
        except psycopg.DatabaseError as e:
            # Not expected in normal operation: report the class of error, never SQL or values.
            raise FSError(errno.EIO, path, f"Input/output error (memory database error "
                                           f"{type(e).__name__}; retry)") from None

    def _discard_broken(self) -> None:
        entry = _pools.get((self.dsn, os.getpid()))
        if entry is not None:
            try:
                entry.pool.check()
            except Exception:  # noqa: BLE001 - best effort: the next checkout checks again
                pass

    def _lock_path(self, conn: "psycopg.Connection", raw: bytes) -> None:
        conn.execute("SELECT pg_advisory_xact_lock(%s)", [self._path_key(raw)])

    def _path_key(self, raw: bytes) -> int:
        return _key(self.schema.encode(), self._ns_key, raw)

    def _check_writable(self, path: str) -> None:
        if self.read_only:
            raise FSError(errno.EROFS, path)

    # -- lookups ---------------------------------------------------------------------------------

    def _missing(self, conn: "psycopg.Connection", path: str, raw: bytes) -> FSError:
        """``ENOTDIR`` if an ancestor of ``raw`` is a file, else ``ENOENT``."""
        ancestors = _ancestors(raw)
        if ancestors:
            row = conn.execute(
                f"SELECT 1 FROM {self.schema}.nodes WHERE ns = %s AND path = ANY(%s) AND kind = 'f'",
                [self.namespace, ancestors],
            ).fetchone()
            if row:
                return FSError(errno.ENOTDIR, path)
        return FSError(errno.ENOENT, path)

    def _check_parent(self, conn: "psycopg.Connection", path: str, raw: bytes) -> None:
        """Refuse to create ``raw`` unless its parent is a directory (locked against removal)."""
        parent = _parent(raw)
        if parent == b"" and b"/" not in raw:
            return
        row = conn.execute(
            f"SELECT kind FROM {self.schema}.nodes WHERE ns = %s AND path = %s FOR SHARE",
            [self.namespace, parent],
        ).fetchone()
        if row is None:
            raise self._missing(conn, path, parent)
        if row[0] != "d":
            raise FSError(errno.ENOTDIR, path)

    def stat(self, path: str) -> FileStat:
        """Stat ``path`` (one indexed lookup; ``version`` is the row's write counter)."""
        raw = _encode_path(path)
        if raw == b"":
            return FileStat(DIR, DIR_SIZE, 0.0, 0o700, 2, version=("root", self.namespace))

        def go(conn: "psycopg.Connection") -> FileStat:
            s = self.schema
            row = conn.execute(
                f"SELECT n.kind, n.size + coalesce(p.bytes, 0), greatest(n.mtime, p.at), n.mode, "
                f"greatest(n.version, p.seq) FROM {s}.nodes n LEFT JOIN LATERAL "
                f"(SELECT sum(octet_length(data)) AS bytes, max(at) AS at, max(seq) AS seq "
                f"FROM {s}.pending WHERE cid = n.cid) p ON true WHERE n.ns = %s AND n.path = %s",
                [self.namespace, raw],
            ).fetchone()
            if row is None:
                raise self._missing(conn, path, raw)
            kind, size, mtime, mode, version = row
            if kind == "d":
                return FileStat(DIR, DIR_SIZE, mtime, mode, 2, version=version)
            return FileStat(FILE, size, mtime, mode, 1, version=version)

        return self._run(path, go, retry=True)

    def open_read(self, path: str) -> BinaryIO:
        """Open a file for streaming reads. Small files come whole in one round trip; larger
        ones are read window by window (seekable; ``tail`` reads only the end)."""
        raw = _encode_path(path)
        if raw == b"":
            raise FSError(errno.EISDIR, path)
        s = self.schema

        def go(conn: "psycopg.Connection") -> tuple[str, int, int, bytes | None, bytes]:
            # One round trip (the function ``open``): with appends not sealed yet, it takes
            # the exclusive lock for a moment (waiting for the appends in flight; nothing is
            # written), so sealed + pending in seq order is a prefix that never changes.
            row = conn.execute(
                f"SELECT * FROM {s}.open(%s, %s, %s, %s)",
                [self.namespace, raw, self._path_key(raw), INLINE_READ],
            ).fetchone()
            if row is None:
                raise self._missing(conn, path, raw)
            return row[0], row[1], row[2], row[3], bytes(row[4] or b"")

        kind, cid, size, inline, tail = self._run(path, go, retry=True)
        if kind == "d":
            raise FSError(errno.EISDIR, path)
        if size <= INLINE_READ:
            data = bytes(inline or b"")
            if len(data) != size:  # replaced between the two reads of one statement: never
                raise FSError(errno.ESTALE, path, STALE)
            return FileContent(data + tail)
        return io.BufferedReader(_ChunkReader(self, path, cid, size, tail), buffer_size=READ_WINDOW)

    def read_bytes(self, path: str) -> bytes:
        """The whole content of a file, as one version. A whole-file read that meets a
        concurrent replacement (``ESTALE``) simply starts again, up to ``STALE_RETRIES`` times;
        only a streaming reader, which has already handed out bytes, must fail."""
        for attempt in range(STALE_RETRIES):
            try:
                with self.open_read(path) as f:
                    return f.read()
            except FSError as e:
                if e.errno != errno.ESTALE or attempt + 1 == STALE_RETRIES:
                    raise
        raise FSError(errno.ESTALE, path, STALE)  # not reached: the loop returns or raises

    def _read_range(self, path: str, cid: int, start: int, end: int) -> bytes:
        """Bytes ``[start, end)`` of content ``cid``; ``ESTALE`` if that content is gone."""
        s = self.schema

        def go(conn: "psycopg.Connection") -> list[tuple[int, bytes]]:
            return conn.execute(
                f"SELECT c.off, substring(c.data FROM (greatest(%(s)s - c.off, 0) + 1)::integer "
                f"FOR (least(c.off + octet_length(c.data), %(e)s) - greatest(c.off, %(s)s))::integer) "
                f"FROM {s}.chunks c WHERE c.cid = %(cid)s AND c.off < %(e)s AND c.off >= "
                f"coalesce((SELECT max(off) FROM {s}.chunks WHERE cid = %(cid)s AND off <= %(s)s), 0) "
                f"ORDER BY c.off",
                {"s": start, "e": end, "cid": cid},
            ).fetchall()

        rows = self._run(path, go, retry=True)
        if not rows or rows[0][0] > start:
            raise FSError(errno.ESTALE, path, STALE)
        data = b"".join(bytes(r[1]) for r in rows)
        if len(data) != end - start:
            raise FSError(errno.ESTALE, path, STALE)
        return data

    def listdir(self, path: str) -> list[str]:
        """Names in a directory, sorted bytewise."""
        raw = _encode_path(path)

        def go(conn: "psycopg.Connection") -> list[str]:
            if raw != b"":
                row = conn.execute(
                    f"SELECT kind FROM {self.schema}.nodes WHERE ns = %s AND path = %s",
                    [self.namespace, raw],
                ).fetchone()
                if row is None:
                    raise self._missing(conn, path, raw)
                if row[0] != "d":
                    raise FSError(errno.ENOTDIR, path)
            rows = conn.execute(
                f"SELECT path FROM {self.schema}.nodes WHERE ns = %s AND parent = %s ORDER BY path",
                [self.namespace, raw],
            ).fetchall()
            cut = len(raw) + 1 if raw else 0
            return [_decode(bytes(r[0])[cut:]) for r in rows]

        return self._run(path, go, retry=True)

    # -- writes ----------------------------------------------------------------------------------

    def _insert_chunks(self, conn: "psycopg.Connection", cid: int, data: bytes, base: int = 0) -> None:
        s = self.schema
        for off in range(0, len(data), _tune.CHUNK_BYTES):
            conn.execute(
                f"INSERT INTO {s}.chunks (cid, off, data) VALUES (%s, %s, %s)",
                [cid, base + off, data[off : off + _tune.CHUNK_BYTES]],
            )

    def _create_file(self, conn: "psycopg.Connection", path: str, raw: bytes, data: bytes) -> None:
        """Create a new file row with ``data`` (path lock held, inside a transaction)."""
        s = self.schema
        conn.execute("SELECT pg_advisory_xact_lock_shared(%s)", [self._tree_key])
        self._check_parent(conn, path, raw)
        row = conn.execute(
            f"INSERT INTO {s}.nodes (ns, path, parent, kind, mode, mtime, version, cid, size, "
            f"tail_off, tail_count, nl) VALUES (%s, %s, %s, 'f', 384, %s, "
            f"nextval('{s}.version_seq'), nextval('{s}.content_seq'), %s, %s, %s, %s) "
            f"ON CONFLICT DO NOTHING RETURNING cid",
            [self.namespace, raw, _parent(raw), time.time(), len(data), *_open_chunk(len(data)),
             _ends_line(data)],
        ).fetchone()
        if row is None:  # cannot happen under the path lock, unless a directory is there
            raise FSError(errno.EISDIR, path)
        self._insert_chunks(conn, row[0], data)

    def write_bytes(self, path: str, data: bytes) -> None:
        """Atomically create or replace a file: one transaction under the path's lock."""
        self._check_writable(path)
        raw = _encode_path(path)
        if raw == b"":
            raise FSError(errno.EISDIR, path)
        data = bytes(data)
        s = self.schema

        def go(conn: "psycopg.Connection") -> None:
            with conn.transaction():
                self._lock_path(conn, raw)
                row = conn.execute(
                    f"SELECT kind, cid FROM {s}.nodes WHERE ns = %s AND path = %s FOR UPDATE",
                    [self.namespace, raw],
                ).fetchone()
                if row is None:
                    self._create_file(conn, path, raw, data)
                elif row[0] == "d":
                    raise FSError(errno.EISDIR, path)
                else:
                    self._replace_content(conn, raw, row[1], data)

        self._run(path, go)

    def _locked_file(self, conn: "psycopg.Connection", path: str, raw: bytes) -> int:
        """Take ``path``'s exclusive lock (in the caller's transaction) and return its file's
        content id: ``ENOENT`` if missing, ``EISDIR`` for a directory."""
        self._lock_path(conn, raw)
        row = conn.execute(
            f"SELECT kind, cid FROM {self.schema}.nodes WHERE ns = %s AND path = %s FOR UPDATE",
            [self.namespace, raw],
        ).fetchone()
        if row is None:
            raise self._missing(conn, path, raw)
        if row[0] == "d":
            raise FSError(errno.EISDIR, path)
        return row[1]

    def _replace_content(self, conn: "psycopg.Connection", raw: bytes, old_cid: int, data: bytes) -> None:
        """Give an existing file ``data`` as a new content id (path lock held, in a
        transaction): readers of the old content see ``ESTALE``, appends that waited for
        the lock go to the new content."""
        s = self.schema
        conn.execute(f"DELETE FROM {s}.chunks WHERE cid = %s", [old_cid])
        conn.execute(f"DELETE FROM {s}.pending WHERE cid = %s", [old_cid])
        cid = conn.execute(
            f"UPDATE {s}.nodes SET cid = nextval('{s}.content_seq'), size = %s, "
            f"tail_off = %s, tail_count = %s, mtime = %s, nl = %s, "
            f"version = nextval('{s}.version_seq') WHERE ns = %s AND path = %s "
            f"RETURNING cid",
            [len(data), *_open_chunk(len(data)), time.time(), _ends_line(data),
             self.namespace, raw],
        ).fetchone()[0]
        self._insert_chunks(conn, cid, data)

    def remove_prefix(self, path: str, prefix: bytes) -> bool:
        """Remove the first ``len(prefix)`` bytes of a file if it starts with ``prefix``
        (False, nothing changed, if not), in one transaction under the path's exclusive lock
        (which waits for appends in flight; appends that wait for it go to the new content).
        Rotation (``memtool.rotation``) calls it inside ``lock()``, so the archive's appends
        and this commit together: a crash leaves both or neither."""
        self._check_writable(path)
        raw = _encode_path(path)
        if raw == b"":
            raise FSError(errno.EISDIR, path)
        s = self.schema

        def go(conn: "psycopg.Connection") -> bool:
            with conn.transaction():
                cid = self._locked_file(conn, path, raw)
                sealed = conn.execute(f"SELECT data FROM {s}.chunks WHERE cid = %s ORDER BY off",
                                      [cid]).fetchall()
                pending = conn.execute(f"SELECT data FROM {s}.pending WHERE cid = %s ORDER BY seq",
                                       [cid]).fetchall()
                data = b"".join(bytes(r[0]) for r in sealed) + b"".join(bytes(r[0]) for r in pending)
                if not data.startswith(prefix):
                    return False
                self._replace_content(conn, raw, cid, data[len(prefix):])
                return True

        return self._run(path, go)

    def append_bytes(self, path: str, data: bytes) -> None:
        """Append ``data`` as one piece: a single ``INSERT`` into ``pending`` under the path's
        *shared* advisory lock, so concurrent appenders never wait for each other (their
        commits are flushed together) and only a read-modify-write (exclusive) excludes them.
        The file is created if missing."""
        self._append(path, data, line=False)

    def append_line(self, path: str, line: bytes) -> None:
        """Append one newline-terminated ``line`` (the conversation log's fast path), adding a
        newline first if the file does not end with one (a hand edit): checked in the same
        round trip as the append; only when a newline is missing does it take the exclusive
        lock (waiting for the appends in flight) and look again."""
        self._append(path, line, line=True)

    def _append(self, path: str, data: bytes, line: bool) -> None:
        if type(data) is not bytes:
            data = bytes(data)
        n = len(data)
        pinned = getattr(self._pinned, "conn", None) is not None
        if n and data[-1] == 10 and not pinned:  # ends with a newline: the fast path
            target = self._append_targets.get(path)
            if target is None:
                target = self._append_target(path)
            try:
                entry = self._entry()
                seq = entry.combiner(target.combiner_key).append(self, entry, target, data)
            except BaseException:
                with self._errors(path):
                    raise
            if seq is not None:
                if _seal_due(seq):
                    self._seal_quietly(path, target.raw)
                return
        self._check_writable(path)
        raw = _encode_path(path)
        if raw == b"":
            raise FSError(errno.EISDIR, path)
        s = self.schema

        def go(conn: "psycopg.Connection") -> int | None:
            # The exclusive path: the file is missing, a directory, does not end with a
            # newline, or this piece does not end with one (``nl`` changes), or we are inside
            # ``lock()`` (which already holds the exclusive lock).
            with conn.transaction():
                self._lock_path(conn, raw)
                row = conn.execute(
                    f"SELECT kind, cid, nl FROM {s}.nodes WHERE ns = %s AND path = %s FOR UPDATE",
                    [self.namespace, raw],
                ).fetchone()
                if row is None:
                    self._create_file(conn, path, raw, data)
                    return None
                kind, cid, nl = row
                if kind == "d":
                    raise FSError(errno.EISDIR, path)
                if not n:
                    return None
                piece = data if nl or not line else b"\n" + data
                seq = conn.execute(
                    f"INSERT INTO {s}.pending (cid, seq, at, data) "
                    f"VALUES (%s, nextval('{s}.version_seq'), %s, %s) RETURNING seq",
                    [cid, time.time(), piece],
                ).fetchone()[0]
                if _ends_line(piece) != nl:
                    conn.execute(
                        f"UPDATE {s}.nodes SET nl = %s WHERE ns = %s AND path = %s",
                        [_ends_line(piece), self.namespace, raw],
                    )
                return seq

        seq = self._run(path, go)
        if seq is not None and not pinned and _seal_due(seq):
            self._seal_quietly(path, raw)

    def _seal_quietly(self, path: str, raw: bytes) -> None:
        """Seal the file's pending appends now; a failure is left for the next reader or
        appender (the appends themselves are committed)."""
        try:
            self._run(path, lambda conn: self._seal(conn, raw))
        except FSError:
            pass

    def _append_target(self, path: str) -> _AppendTarget:
        """What the fast path needs to know of ``path`` (checked and remembered)."""
        self._check_writable(path)
        raw = _encode_path(path)
        if raw == b"":
            raise FSError(errno.EISDIR, path)
        if len(self._append_targets) >= 256:
            self._append_targets.clear()
        target = self._append_targets[path] = _AppendTarget(
            raw, b"%d" % self._path_key(raw), (self.schema, self.durable, self._ns_key, raw))
        return target

    def _append_fast(self, entry: _PoolEntry, target: _AppendTarget, data: bytes) -> int | None:
        """The common append (a newline-terminated piece to a file that ends with a newline)
        in one round trip, through libpq directly: the ``append_nl`` function as a statement
        prepared once per connection, the two ``bytea`` parameters in binary. (psycopg's
        cursor machinery costs several times the CPU of the call itself, and with many
        processes on a busy machine, client CPU is what limits the rate: this path is kept
        short on purpose.) Returns the ``seq`` taken, or ``None`` when the exclusive path
        must do it (file missing, a directory, or content not ending with a newline).
        Raises psycopg's exceptions (the caller maps them)."""
        app = entry.appender()
        try:
            self._ensure_schema(entry, app.conn)
            name = self._append_statement
            params = [self._ns_key, target.raw, target.key, repr(time.time()).encode(), data]
            for attempt in range(2):
                if name not in app.prepared:
                    self._prepare_append(app)
                result = app.pgconn.exec_prepared(name, params, _pool._APPEND_FORMATS)
                if result.status == _pool._TUPLES_OK:
                    value = result.get_value(0, 0)
                    return None if value is None else int(value)
                app.prepared.discard(name)
                # psycopg deallocates every prepared statement of a connection after a
                # ROLLBACK or DROP it ran (its own cache must start again): prepare ours again
                # and retry; it did not run.
                if attempt or result.error_field(_pool._SQLSTATE) != b"26000":
                    _raise_for(result, app.conn, _pool._TUPLES_OK)
            raise AssertionError("unreachable")  # pragma: no cover
        finally:
            entry.give_back(app)

    def _prepare_append(self, app: _Appender) -> None:
        """Prepare this store's ``append_nl`` statement on ``app``'s connection."""
        result = app.pgconn.prepare(
            self._append_statement,
            f"SELECT {self.schema}.append_nl($1, $2, $3, $4, $5){self._sync}".encode(),
            _pool._APPEND_TYPES,
        )
        _raise_for(result, app.conn, _pool._COMMAND_OK)
        app.prepared.add(self._append_statement)

    def _append_many(self, entry: _PoolEntry, batch: list[_AppendRequest]) -> list[int | None]:
        """Several fast-path appends to one file (this store's; ``batch`` comes from the
        file's combiner) in one transaction: the function ``append_batch``. Returns each
        one's ``seq`` (``None``: the exclusive path)."""
        app = entry.appender()
        try:
            conn = app.conn
            self._ensure_schema(entry, conn)
            target = batch[0].target
            row = conn.execute(
                f"SELECT {self.schema}.append_batch(%s, %s, %s, %s, %s::bytea[]){self._sync}",
                [self.namespace, target.raw, int(target.key), time.time(), [r.data for r in batch]],
                prepare=True,
            ).fetchone()
            return [None] * len(batch) if row[0] is None else list(row[0])
        finally:
            entry.give_back(app)

    def _seal(self, conn: "psycopg.Connection", raw: bytes) -> None:
        """Move the file's pending appends, in the order they were made, to the end of its
        chunks (rewriting a last chunk still under SMALL_CHUNK bytes): the function ``seal``, one
        transaction under the path's exclusive lock (which waits for appends in flight).
        Offsets already read never change: only sealed bytes are ever read. Sealing changes
        no byte of the file (if a crash lost its commit, the rows would simply still be
        pending), so it does not wait for the WAL flush."""
        conn.execute(
            f"SELECT {self.schema}.seal(%s, %s, %s, %s, %s), "
            f"set_config('synchronous_commit', 'off', true)",
            [self.namespace, raw, self._path_key(raw), _tune.CHUNK_BYTES, _tune.SMALL_CHUNK],
            prepare=True,
        )

    def mkdir(self, path: str) -> None:
        """Create one directory (0700)."""
        self._check_writable(path)
        raw = _encode_path(path)
        if raw == b"":
            raise FSError(errno.EEXIST, path)
        s = self.schema

        def go(conn: "psycopg.Connection") -> None:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock_shared(%s)", [self._tree_key])
                self._lock_path(conn, raw)
                exists = conn.execute(
                    f"SELECT 1 FROM {s}.nodes WHERE ns = %s AND path = %s", [self.namespace, raw]
                ).fetchone()
                if exists:
                    raise FSError(errno.EEXIST, path)
                self._check_parent(conn, path, raw)
                row = conn.execute(
                    f"INSERT INTO {s}.nodes (ns, path, parent, kind, mode, mtime, version) "
                    f"VALUES (%s, %s, %s, 'd', 448, %s, nextval('{s}.version_seq')) "
                    f"ON CONFLICT DO NOTHING RETURNING 1",
                    [self.namespace, raw, _parent(raw), time.time()],
                ).fetchone()
                if row is None:
                    raise FSError(errno.EEXIST, path)

        self._run(path, go)

    def remove(self, path: str) -> None:
        """Remove a file (``EISDIR`` for a directory)."""
        self._check_writable(path)
        raw = _encode_path(path)
        if raw == b"":
            raise FSError(errno.EISDIR, path)
        s = self.schema

        def go(conn: "psycopg.Connection") -> None:
            with conn.transaction():
                cid = self._locked_file(conn, path, raw)
                conn.execute(f"DELETE FROM {s}.nodes WHERE ns = %s AND path = %s", [self.namespace, raw])
                conn.execute(f"DELETE FROM {s}.chunks WHERE cid = %s", [cid])
                conn.execute(f"DELETE FROM {s}.pending WHERE cid = %s", [cid])

        self._run(path, go)

    def rmdir(self, path: str) -> None:
        """Remove an empty directory (``ENOTEMPTY`` otherwise)."""
        self._check_writable(path)
        raw = _encode_path(path)
        if raw == b"":
            raise FSError(errno.EBUSY, path)
        s = self.schema

        def go(conn: "psycopg.Connection") -> None:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", [self._tree_key])
                row = conn.execute(
                    f"SELECT kind FROM {s}.nodes WHERE ns = %s AND path = %s", [self.namespace, raw]
                ).fetchone()
                if row is None:
                    raise self._missing(conn, path, raw)
                if row[0] != "d":
                    raise FSError(errno.ENOTDIR, path)
                child = conn.execute(
                    f"SELECT 1 FROM {s}.nodes WHERE ns = %s AND parent = %s LIMIT 1",
                    [self.namespace, raw],
                ).fetchone()
                if child:
                    raise FSError(errno.ENOTEMPTY, path)
                conn.execute(f"DELETE FROM {s}.nodes WHERE ns = %s AND path = %s", [self.namespace, raw])

        self._run(path, go)

    def rename(self, src: str, dst: str) -> None:
        """Atomically move a file or directory, replacing a file (or an empty directory, for a
        directory) at ``dst`` as POSIX ``rename`` does."""
        self._check_writable(src)
        rs, rd = _encode_path(src), _encode_path(dst)
        if rs == b"" or rd == b"":
            raise FSError(errno.EBUSY, src if rs == b"" else dst)
        s = self.schema
        ns = self.namespace

        def go(conn: "psycopg.Connection") -> None:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", [self._tree_key])
                self._lock_path(conn, rs)
                if rd != rs:
                    self._lock_path(conn, rd)
                # The order of Linux's checks: both parents, the source, the ancestry traps.
                if b"/" in rs:
                    self._check_parent(conn, src, rs)
                self._check_parent(conn, dst, rd)
                row = conn.execute(
                    f"SELECT kind FROM {s}.nodes WHERE ns = %s AND path = %s", [ns, rs]
                ).fetchone()
                if row is None:
                    raise self._missing(conn, src, rs)
                src_kind = row[0]
                if rd == rs:
                    return
                if rd.startswith(rs + b"/"):
                    raise FSError(errno.EINVAL, dst)
                if rs.startswith(rd + b"/"):
                    raise FSError(errno.ENOTEMPTY, dst)
                target = conn.execute(
                    f"SELECT kind, cid FROM {s}.nodes WHERE ns = %s AND path = %s", [ns, rd]
                ).fetchone()
                if target is not None:
                    t_kind, t_cid = target
                    if src_kind == "f" and t_kind == "d":
                        raise FSError(errno.EISDIR, dst)
                    if src_kind == "d" and t_kind == "f":
                        raise FSError(errno.ENOTDIR, dst)
                    if t_kind == "d":
                        child = conn.execute(
                            f"SELECT 1 FROM {s}.nodes WHERE ns = %s AND parent = %s LIMIT 1", [ns, rd]
                        ).fetchone()
                        if child:
                            raise FSError(errno.ENOTEMPTY, dst)
                    conn.execute(f"DELETE FROM {s}.nodes WHERE ns = %s AND path = %s", [ns, rd])
                    if t_cid is not None:
                        conn.execute(f"DELETE FROM {s}.chunks WHERE cid = %s", [t_cid])
                        conn.execute(f"DELETE FROM {s}.pending WHERE cid = %s", [t_cid])
                conn.execute(
                    f"UPDATE {s}.nodes SET path = %s, parent = %s WHERE ns = %s AND path = %s",
                    [rd, _parent(rd), ns, rs],
                )
                if src_kind == "d":
                    # Descendants: paths in [src + '/', src + '0') ('0' follows '/').
                    cut = len(rs) + 1
                    conn.execute(
                        f"UPDATE {s}.nodes SET path = %(dst)s || substring(path FROM %(cut)s), "
                        f"parent = %(dst)s || substring(parent FROM %(cut)s) "
                        f"WHERE ns = %(ns)s AND path >= %(lo)s AND path < %(hi)s",
                        {"dst": rd, "cut": cut, "ns": ns, "lo": rs + b"/", "hi": rs + b"0"},
                    )

        self._run(src, go)

    def set_mtime(self, path: str, mtime: float) -> None:
        """Set a file's modification time (bumps its version, as ``touch`` changes ctime)."""
        self._check_writable(path)
        raw = _encode_path(path)
        if raw == b"":
            return
        s = self.schema

        def go(conn: "psycopg.Connection") -> None:
            with conn.transaction():
                self._lock_path(conn, raw)
                row = conn.execute(
                    f"UPDATE {s}.nodes SET mtime = %s, version = nextval('{s}.version_seq') "
                    f"WHERE ns = %s AND path = %s RETURNING 1",
                    [float(mtime), self.namespace, raw],
                ).fetchone()
                if row is None:
                    raise self._missing(conn, path, raw)

        self._run(path, go)

    # -- locking ---------------------------------------------------------------------------------

    @contextmanager
    def lock(self, path: str) -> Iterator[None]:
        """Hold ``path``'s advisory lock, exclusive across processes and machines.

        The body's store calls in this thread run on the lock's connection, inside the lock's
        transaction: they commit together when the block ends (or roll back if it raises or
        the connection drops, so a read-modify-write is applied whole or not at all).
        Re-entrant within a thread.
        """
        raw = _encode_path(path)
        pinned = getattr(self._pinned, "conn", None)
        if pinned is not None:
            with self._errors(path):
                self._lock_path(pinned, raw)
            yield
            return
        import psycopg

        entry = None
        conn = None
        tx = None
        with self._errors(path):
            entry = self._entry()
            conn = entry.pool.getconn()
        try:
            with self._errors(path):
                self._ensure_schema(entry, conn)
                tx = conn.transaction()
                tx.__enter__()
                conn.execute(
                    "SELECT set_config('lock_timeout', %s, true)",
                    [f"{int(self.lock_timeout * 1000)}ms"],
                )
                self._lock_path(conn, raw)
            self._pinned.conn = conn
            try:
                yield
            except BaseException as exc:
                self._pinned.conn = None
                with self._errors(path):
                    tx.__exit__(type(exc), exc, exc.__traceback__)
                raise
            else:
                self._pinned.conn = None
                with self._errors(path):
                    tx.__exit__(None, None, None)
        except BaseException:
            self._pinned.conn = None
            raise
        finally:
            self._pinned.conn = None
            if conn is not None and entry is not None:
                try:
                    if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                        conn.close()
                except Exception:  # noqa: BLE001
                    pass
                entry.pool.putconn(conn)

    # -- change notification ---------------------------------------------------------------------

    def versions(self) -> dict[str, object]:
        """{path: version} of every file and directory of this namespace, in one query (a
        version changes on every write, appends included)."""
        s = self.schema

        def go(conn: "psycopg.Connection") -> dict[str, object]:
            rows = conn.execute(
                f"SELECT n.path, greatest(n.version, (SELECT max(seq) FROM {s}.pending p "
                f"WHERE p.cid = n.cid)) FROM {s}.nodes n WHERE n.ns = %s",
                [self.namespace],
            ).fetchall()
            return {_decode(bytes(p)): v for p, v in rows}

        return self._run("", go, retry=True)

    def watch(self, interval: float = 0.5, timeout: float | None = None,
              stop: threading.Event | None = None) -> Iterator[str]:
        """Yield the path of every file or directory that another worker (or this one)
        creates, changes or removes in this namespace, by polling ``versions()`` every
        ``interval`` seconds (one indexed query). Ends after ``timeout`` seconds without a
        change, or once ``stop`` is set. A failed poll is retried at the next interval."""
        last = self.versions()
        idle_since = time.monotonic()
        while not (stop is not None and stop.is_set()):
            if stop is not None:
                stop.wait(interval)
            else:
                time.sleep(interval)
            try:
                now = self.versions()
            except FSError:
                continue
            changed = sorted(p for p in set(last) | set(now) if last.get(p) != now.get(p))
            last = now
            if changed:
                idle_since = time.monotonic()
                yield from changed
            elif timeout is not None and time.monotonic() - idle_since >= timeout:
                return

    # -- housekeeping ----------------------------------------------------------------------------

    def drop_namespace(self) -> None:
        """Delete every file and directory of this namespace, its version history and its
        recall index (tests, ``memtool migrate``)."""
        s = self.schema

        def go(conn: "psycopg.Connection") -> None:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", [self._tree_key])
                for table in ("chunks", "pending"):
                    conn.execute(
                        f"DELETE FROM {s}.{table} WHERE cid IN "
                        f"(SELECT cid FROM {s}.nodes WHERE ns = %s AND cid IS NOT NULL)",
                        [self.namespace],
                    )
                conn.execute(f"DELETE FROM {s}.nodes WHERE ns = %s", [self.namespace])
                # ... and its history: a reader's copy is reread (the generation changes).
                conn.execute(f"DELETE FROM {s}.versions WHERE ns = %s", [self.namespace])
                conn.execute(f"DELETE FROM {s}.version_contents WHERE ns = %s", [self.namespace])
                for table in ("recall_units", "recall_postings", "recall_terms", "recall_vectors",
                              "recall_vector_files"):  # derived
                    conn.execute(f"DELETE FROM {s}.{table} WHERE fid IN (SELECT fid FROM "
                                 f"{s}.recall_files WHERE ns = %s)", [self.namespace])
                conn.execute(f"DELETE FROM {s}.recall_files WHERE ns = %s", [self.namespace])
                conn.execute(
                    f"INSERT INTO {s}.version_generation (ns, generation) VALUES (%s, 1) ON CONFLICT (ns) "
                    f"DO UPDATE SET generation = {s}.version_generation.generation + 1", [self.namespace])

        self._run("", go)
