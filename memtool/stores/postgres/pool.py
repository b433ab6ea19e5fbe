"""Connections of the PostgreSQL store: one pool per (DSN, process), each thread's own
append connection, libpq constants and result checks."""

from __future__ import annotations

import os
import threading
import weakref
from typing import TYPE_CHECKING, Any

from memtool.stores.postgres.combiner import _Combiner

if TYPE_CHECKING:  # pragma: no cover
    import psycopg
    from psycopg_pool import ConnectionPool


class _Appender:
    """A connection that appends, with the statements prepared on it: a thread's own (kept
    across calls) or one borrowed from the pool (given back after the call)."""

    __slots__ = ("conn", "pgconn", "prepared", "pooled")

    def __init__(self, conn: "psycopg.Connection", prepared: set[bytes], pooled: bool):
        self.conn = conn
        self.pgconn = conn.pgconn
        self.prepared = prepared
        self.pooled = pooled


class _PoolEntry:
    """One connection pool per (DSN, process), shared by every store on that DSN; the
    group-commit combiners of its appends (one per file being appended to); and up to
    ``max_size`` per-thread append connections.

    Why append connections of their own: checking a connection out of the pool and back runs
    more Python than the append's own call into libpq, and with many processes appending on
    a busy machine, client CPU is what limits the rate (16 processes: ~5,000 vs ~4,300
    appends/s on the benchmark machine). A thread's append connection is used by nothing
    else, so it needs no checkout; it is checked for a server-side close before each use (no
    round trip) and replaced when broken. Their number is capped (at ``max_size``, so a
    process opens at most twice its pool size); threads beyond the cap use the pool."""

    def __init__(self, pool: "ConnectionPool", pid: int, dsn: str, kwargs: dict[str, Any],
                 max_size: int):
        self.pool = pool
        self.pid = pid
        self.schemas_ready: set[str] = set()
        self._dsn = dsn
        self._kwargs = kwargs
        self._max_appenders = max_size
        self._local = threading.local()
        self._appenders: "weakref.WeakSet[psycopg.Connection]" = weakref.WeakSet()
        self._connecting = 0  # append connections being opened
        self._combiners: dict[tuple, _Combiner] = {}
        self._guard = threading.Lock()
        self.closed = False

    def combiner(self, key: tuple) -> _Combiner:
        """The combiner of appends to one file (``key``: schema, durability, namespace, path;
        one per file, so an append waiting for one file's lock never holds up another's)."""
        found = self._combiners.get(key)
        if found is None:
            with self._guard:
                found = self._combiners.get(key)
                if found is None:
                    if len(self._combiners) >= 1024:  # forget the idle ones
                        self._combiners = {k: c for k, c in self._combiners.items() if c.busy}
                    found = self._combiners[key] = _Combiner()
        return found

    def appender(self) -> _Appender:
        """This thread's own append connection (opened on first use, replaced if the server
        closed it while it was idle), or a pooled one beyond the cap (``pooled``: the
        caller gives it back)."""
        app = getattr(self._local, "app", None)
        if app is not None:
            if _connection_ok(app.pgconn):
                return app
            app.conn.close()  # broken: open another
            self._local.app = None
        with self._guard:  # reserve a place under the cap before connecting
            full = len(self._appenders) + self._connecting >= self._max_appenders
            if not full:
                self._connecting += 1
        if full:
            conn = self.pool.getconn()
            prepared = _prepared.get(conn)
            if prepared is None:
                prepared = _prepared[conn] = set()
            return _Appender(conn, prepared, pooled=True)
        import psycopg

        conn = None
        try:
            conn = psycopg.connect(self._dsn, connect_timeout=max(1, int(self.pool.timeout)),
                                   **self._kwargs)
        except psycopg.OperationalError:
            from psycopg_pool import PoolTimeout

            raise PoolTimeout("cannot connect") from None  # reported as "unavailable; retry"
        finally:
            with self._guard:
                self._connecting -= 1
                if conn is not None:
                    self._appenders.add(conn)
        app = self._local.app = _Appender(conn, set(), pooled=False)
        return app

    def give_back(self, app: _Appender) -> None:
        """After an append: close a connection left in an unknown state (never use it again);
        return a pooled one to the pool."""
        if app.pgconn.transaction_status != _IDLE:
            app.conn.close()
        if app.pooled:
            self.pool.putconn(app.conn)

    def close(self) -> None:
        """Close the pool and every thread's append connection."""
        self.closed = True
        for conn in list(self._appenders):
            try:
                conn.close()
            except Exception:  # noqa: BLE001 - closing anyway
                pass
        self.pool.close()


_pools: dict[tuple[str, int], _PoolEntry] = {}
_pools_guard = threading.Lock()
#: This process's id (kept current across ``fork``; cheaper than ``os.getpid()`` per call).
_pid = os.getpid()


def _after_fork() -> None:
    global _pid
    _pid = os.getpid()


os.register_at_fork(after_in_child=_after_fork)


def _connection_ok(pgconn: Any) -> bool:
    """Whether a connection is still good, found without a round trip: read whatever the
    server sent while it was idle (a termination notice, EOF after a restart). Twice: a
    server that shuts down or terminates the backend sends a FATAL message and then closes,
    and the first read may only get the message."""
    try:
        if pgconn.status != _CONN_OK:
            return False
        pgconn.consume_input()  # raises once the server has closed the socket
        pgconn.consume_input()
    except Exception:  # noqa: BLE001 - any failure to read means a broken connection
        return False
    return pgconn.status == _CONN_OK


def _check_connection(conn: "psycopg.Connection") -> None:
    """Pool check run on every checkout: refuse a connection that is no longer good
    (``_connection_ok``), so the pool hands out a fresh one instead."""
    if not _connection_ok(conn.pgconn):
        import psycopg

        raise psycopg.OperationalError("connection is broken")


#: Statements prepared by ``_append_fast`` on each connection (dropped with the connection).
_prepared: "weakref.WeakKeyDictionary[psycopg.Connection, set[bytes]]" = weakref.WeakKeyDictionary()
#: Parameter types of ``append_nl`` (text, bytea, int8, float8, bytea) ...
_APPEND_TYPES = [25, 17, 20, 701, 17]
#: ... and formats (1 = binary: the two ``bytea`` values; 0 = text).
_APPEND_FORMATS = [0, 1, 0, 0, 1]


# libpq constants, as plain ints (looked up once; see ``_load_pq``).
_COMMAND_OK = _TUPLES_OK = _IDLE = _SQLSTATE = _CONN_OK = -1


def _load_pq() -> None:
    global _COMMAND_OK, _TUPLES_OK, _IDLE, _SQLSTATE, _CONN_OK
    from psycopg import pq

    _COMMAND_OK = pq.ExecStatus.COMMAND_OK
    _TUPLES_OK = pq.ExecStatus.TUPLES_OK
    _IDLE = pq.TransactionStatus.IDLE
    _SQLSTATE = pq.DiagnosticField.SQLSTATE
    _CONN_OK = pq.ConnStatus.OK


def _raise_for(result: Any, conn: "psycopg.Connection", expected: Any) -> None:
    """Raise psycopg's exception for a libpq ``result`` that is not ``expected``: the
    server's error class (mapped by ``_errors``), or ``OperationalError`` if the connection
    itself failed."""
    import psycopg
    from psycopg import pq

    if result.status == expected:
        return
    if conn.pgconn.status != pq.ConnStatus.OK or result.status != pq.ExecStatus.FATAL_ERROR:
        raise psycopg.OperationalError("connection lost during the statement")
    raise psycopg.errors.error_from_result(result, encoding="utf-8")


def _get_pool(dsn: str, max_size: int, connect_timeout: float, lock_timeout: float) -> _PoolEntry:
    pid = os.getpid()
    entry = _pools.get((dsn, pid))
    if entry is not None:
        return entry
    from psycopg_pool import ConnectionPool

    _load_pq()
    with _pools_guard:
        entry = _pools.get((dsn, pid))
        if entry is None:
            # Every statement waits at most lock_timeout for a lock (then EAGAIN: retry).
            kwargs = {"autocommit": True, "options": f"-c lock_timeout={int(lock_timeout * 1000)}"}
            pool = ConnectionPool(
                dsn,
                min_size=1,
                max_size=max_size,
                kwargs=kwargs,
                check=_check_connection,
                timeout=connect_timeout,
                open=False,
                name="memtool",
            )
            pool.open(wait=False)
            entry = _pools[(dsn, pid)] = _PoolEntry(pool, pid, dsn, kwargs, max_size)
        return entry


def close_all_pools() -> None:
    """Close every connection pool of this process (tests; the end of a program)."""
    with _pools_guard:
        entries = [e for (dsn, pid), e in _pools.items() if pid == os.getpid()]
        _pools.clear()
    for entry in entries:
        entry.close()
