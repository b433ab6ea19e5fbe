"""``PostgresStore``: a memtool store kept in PostgreSQL, shared by many processes and machines.

    from memtool.stores.postgres import PostgresStore
    store = PostgresStore("postgresql://user@db/agents", namespace="user:42")
    # or PostgresStore() with MEMTOOL_DSN set

The store is a ``sandbox.fs.base.FileSystem`` (relative, normalised paths; ``FSError`` with
GNU's strerror), so the sandboxed bash tool and both memory tools run over it unchanged.
psycopg 3 and psycopg_pool are imported lazily (``pip install 'memtool[postgres]'``).

Data model (tables in the PostgreSQL schema ``memtool`` by default, created on first use):

- ``nodes``: one row per file or directory of a *namespace* (``ns``): path and parent as
  ``bytea`` (file names are arbitrary bytes), kind, mode, mtime, ``version`` (from a global
  sequence, so it changes on every write and never repeats, even after delete and re-create),
  ``cid`` (the id of the file's current content), the sealed size, and the start of the not
  yet merged tail of chunks.
- ``chunks``: the sealed content, ``(cid, off) -> data``, ``STORAGE EXTERNAL`` (uncompressed),
  so a ``substring`` reads only the TOAST slices it needs. Reading a range is an index range
  scan on ``(cid, off)``: ``tail -n 40`` on a 1 GB history reads kilobytes.
- ``pending``: appends not yet sealed, ``(cid, seq) -> data``.
- ``schema_version`` and ``MIGRATIONS``: an older layout is upgraded in place, under an
  advisory lock, on first use (or by ``memtool init --dsn``); a newer one is refused.

Appends are O(size of the piece), read nothing of the file and do not wait for each other.
The common one (a newline-terminated piece: every conversation turn) is one round trip, the
function ``append_nl`` called through libpq directly as a statement prepared once per
connection: take the path's advisory lock in *shared* mode, look up the file's row (its
``nl`` flag says the content ends with a newline, so no byte of the file is read), insert one
``pending`` row, commit. Concurrent appenders share the lock, so their commits are flushed to
the WAL together (group commit) instead of one after another; appends to one file that
threads of one process make at the same moment are sent together in one transaction
(``_Combiner``, the function ``append_batch``). Everything else (the file is
missing or a directory, its content or the piece does not end with a newline, or the call is
inside ``lock()``) takes the *exclusive* path: one transaction under the exclusive lock that
creates the file, adds a missing newline before a line, and keeps ``nl`` right.

A pseudo-random one in ``SEAL_EVERY`` appends (``_seal_due``: a hash of the ``seq`` it took,
so no interleaving of files can dodge it) then *seals* the file: the function ``seal``,
under the path's *exclusive* lock (which waits for appends in flight), moves the pending
rows, in ``seq`` order, to the end of the file's chunks, all on the server; a last chunk
still under ``SMALL_CHUNK`` bytes is rewritten with the next seal's bytes, so chunks grow to
a useful size without a separate merge. A reader (the
function ``open``) of a file with pending rows takes the exclusive lock for a moment, so the
sealed chunks followed by the pending rows in ``seq`` order are a prefix of the file that
never changes: bytes once read never move. ``stat`` counts pending bytes in the size and
their ``seq`` in the version, so a cache sees an append at once. Each process's appends keep
their order; appends racing each other are ordered by ``seq``.

Atomicity: every write is one transaction. ``write_bytes`` gives the file a new ``cid``
(old chunks and pending rows are deleted in the same transaction), so readers see the old or
the new content; a streaming reader whose content is replaced under it fails with ``ESTALE``
(``Stale file handle``) instead of mixing the two. A dropped connection rolls back whatever
was not committed; the error says the write is whole or absent, to check and retry
(``DB_LOST``). Reads are retried once on a fresh connection by themselves.

Concurrency, and why advisory locks: every write to a path takes the transaction-scoped
advisory lock ``hash(schema, namespace, path)``: shared for an append, exclusive for
everything else, and ``lock(path)`` takes it exclusively in a transaction that stays open
for the body of the ``with`` block (the body's reads and writes run on that connection and
commit with it). Advisory locks rather than row locks (``SELECT ... FOR UPDATE``) because a
lock must exist for a file that does not exist yet (two workers creating ``notes.md``), must
not depend on a row that a rename moves, must be held across a read-modify-write whose read
comes before its write, and must let appenders share it while excluding rewrites, which a
row lock on the file's row cannot do without serialising the appends. Being
transaction-scoped, the lock never outlives its holder: if the connection drops, the server
aborts the transaction, frees the lock and applies none of the body's writes. So
``str_replace``/``update`` never lose a concurrent edit nor a concurrent append. Changes to
the tree's shape take a namespace-wide advisory lock, shared to create a file or directory,
exclusive for ``rmdir`` and ``rename``.

Change notification: a version column. ``stat()`` is one indexed query returning the version
(never a cached value), cheap enough to call before every model call; ``versions()`` returns
every path's version in one query and ``watch()`` polls it (``memtool watch``). (``NOTIFY``
was tried and dropped: PostgreSQL serialises the commits of notifying transactions, which
would undo the group commit of appends.)

Durability: by default an append is acknowledged after its WAL is flushed. With
``durable=False`` it is acknowledged at commit, before the flush (a server crash may lose
the last fraction of a second of appends, never tear one).

Namespaces isolate: every query is bound to this store's namespace; there is no path syntax
that reaches another namespace (paths are relative and normalised, ``..`` is refused).
"""

from __future__ import annotations

import errno
import hashlib
import io
import os
import re
import threading
import time
import weakref
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Iterator, TypeVar

from sandbox.fs.base import DIR, FILE, FileStat, FileSystem, FSError

if TYPE_CHECKING:  # pragma: no cover
    import psycopg
    from psycopg_pool import ConnectionPool

#: Version of the table layout this code writes; see ``MIGRATIONS``.
SCHEMA_VERSION = 7
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

class SchemaTooNew(RuntimeError):
    """The database was laid out by a newer memtool than this one."""


_IDENT = re.compile(r"^[a-z_][a-z0-9_]{0,47}$")

T = TypeVar("T")


# -- schema and its migrations ------------------------------------------------------------------

def _migrations(schema: str) -> dict[int, list[str]]:
    """DDL that takes the schema from version ``n - 1`` to ``n``, keyed by ``n``."""
    s = schema
    return {
        1: [
            f"CREATE SEQUENCE IF NOT EXISTS {s}.version_seq",
            f"CREATE SEQUENCE IF NOT EXISTS {s}.content_seq",
            f"""CREATE TABLE IF NOT EXISTS {s}.nodes (
                ns text NOT NULL,
                path bytea NOT NULL,
                parent bytea NOT NULL,
                kind "char" NOT NULL CHECK (kind IN ('f', 'd')),
                mode integer NOT NULL,
                mtime double precision NOT NULL,
                version bigint NOT NULL,
                cid bigint,
                size bigint NOT NULL DEFAULT 0,
                tail_off bigint NOT NULL DEFAULT 0,
                tail_count integer NOT NULL DEFAULT 0,
                PRIMARY KEY (ns, path)
            )""",
            f"CREATE INDEX IF NOT EXISTS nodes_parent ON {s}.nodes (ns, parent)",
            f"""CREATE TABLE IF NOT EXISTS {s}.chunks (
                cid bigint NOT NULL,
                off bigint NOT NULL,
                data bytea NOT NULL,
                PRIMARY KEY (cid, off)
            )""",
            f"ALTER TABLE {s}.chunks ALTER COLUMN data SET STORAGE EXTERNAL",
        ],
        # Version 2: appends go to ``pending`` first (no lock between appenders), sealed
        # into ``chunks`` in order by the next reader or every MERGE_COUNT appends.
        2: [
            f"""CREATE TABLE IF NOT EXISTS {s}.pending (
                cid bigint NOT NULL,
                seq bigint NOT NULL,
                at double precision NOT NULL,
                data bytea NOT NULL,
                PRIMARY KEY (cid, seq)
            )""",
            # One round trip per append. Its statements run in order, each with a fresh
            # snapshot (a volatile function): the row is looked up *after* the lock is held,
            # so an append that waited for a rewrite appends to the new content.
            f"""CREATE OR REPLACE FUNCTION {s}.append(p_ns text, p_path bytea, p_key bigint,
                    p_at double precision, p_data bytea) RETURNS bigint
                LANGUAGE plpgsql VOLATILE AS $fn$
            DECLARE
                v_cid bigint;
                v_count bigint;
            BEGIN
                PERFORM pg_advisory_xact_lock_shared(p_key);
                SELECT cid INTO v_cid FROM {s}.nodes
                    WHERE ns = p_ns AND path = p_path AND kind = 'f';
                IF NOT FOUND THEN
                    RETURN NULL;
                END IF;
                INSERT INTO {s}.pending (cid, seq, at, data)
                    VALUES (v_cid, nextval('{s}.version_seq'), p_at, p_data);
                SELECT count(*) INTO v_count FROM {s}.pending WHERE cid = v_cid;
                RETURN v_count;
            END
            $fn$""",
        ],
        # Version 3: ``append`` can append a *line* (``append_line``): it refuses (returns -1,
        # nothing inserted) when the file's last byte is not a newline, so the caller adds one
        # under the exclusive lock.
        3: [
            f"DROP FUNCTION IF EXISTS {s}.append(text, bytea, bigint, double precision, bytea)",
            f"""CREATE OR REPLACE FUNCTION {s}.last_byte(p_cid bigint) RETURNS bytea
                LANGUAGE sql STABLE AS $fn$
                SELECT coalesce(
                    (SELECT substring(data FROM octet_length(data) FOR 1) FROM {s}.pending
                     WHERE cid = p_cid ORDER BY seq DESC LIMIT 1),
                    (SELECT substring(data FROM octet_length(data) FOR 1) FROM {s}.chunks
                     WHERE cid = p_cid AND octet_length(data) > 0 ORDER BY off DESC LIMIT 1))
            $fn$""",
            f"""CREATE OR REPLACE FUNCTION {s}.append(p_ns text, p_path bytea, p_key bigint,
                    p_at double precision, p_data bytea, p_line boolean) RETURNS bigint
                LANGUAGE plpgsql VOLATILE AS $fn$
            DECLARE
                v_cid bigint;
                v_count bigint;
            BEGIN
                PERFORM pg_advisory_xact_lock_shared(p_key);
                SELECT cid INTO v_cid FROM {s}.nodes
                    WHERE ns = p_ns AND path = p_path AND kind = 'f';
                IF NOT FOUND THEN
                    RETURN NULL;
                END IF;
                IF p_line AND coalesce({s}.last_byte(v_cid), '\x0a'::bytea) <> '\x0a'::bytea THEN
                    RETURN -1;
                END IF;
                INSERT INTO {s}.pending (cid, seq, at, data)
                    VALUES (v_cid, nextval('{s}.version_seq'), p_at, p_data);
                SELECT count(*) INTO v_count FROM {s}.pending WHERE cid = v_cid;
                RETURN v_count;
            END
            $fn$""",
        ],
        # Version 4: ``open`` looks a file up for reading in one round trip: its sealed size,
        # its content if small, and its pending appends, taken after a moment's exclusive
        # lock when there are any (so they form a prefix of the file that never changes).
        4: [
            f"""CREATE OR REPLACE FUNCTION {s}.open(p_ns text, p_path bytea, p_key bigint,
                    p_inline bigint)
                RETURNS TABLE (o_kind "char", o_cid bigint, o_size bigint, o_inline bytea,
                               o_tail bytea)
                LANGUAGE plpgsql VOLATILE AS $fn$
            DECLARE
                n record;
            BEGIN
                SELECT x.kind, x.cid, x.size INTO n FROM {s}.nodes x
                    WHERE x.ns = p_ns AND x.path = p_path;
                IF NOT FOUND THEN
                    RETURN;
                END IF;
                IF n.kind = 'f' AND EXISTS (SELECT 1 FROM {s}.pending p WHERE p.cid = n.cid) THEN
                    PERFORM pg_advisory_xact_lock(p_key);
                    SELECT x.kind, x.cid, x.size INTO n FROM {s}.nodes x
                        WHERE x.ns = p_ns AND x.path = p_path;
                    IF NOT FOUND THEN
                        RETURN;
                    END IF;
                END IF;
                RETURN QUERY SELECT n.kind, n.cid, n.size,
                    CASE WHEN n.kind = 'f' AND n.size <= p_inline THEN
                        (SELECT string_agg(c.data, ''::bytea ORDER BY c.off) FROM {s}.chunks c
                         WHERE c.cid = n.cid) END,
                    (SELECT string_agg(p.data, ''::bytea ORDER BY p.seq) FROM {s}.pending p
                     WHERE p.cid = n.cid);
            END
            $fn$""",
        ],
        # Version 5: ``append`` takes the seal threshold and counts the file's pending rows
        # only when they could have reached it: its pending seqs are unique, so there are at
        # most max(seq) - min(seq) + 1 of them (two index probes instead of a count(*) of up
        # to MERGE_COUNT rows on every append). Returns that bound while it is below
        # ``p_merge``, else the exact count. (The version-3 function stays, unused.)
        5: [
            f"""CREATE OR REPLACE FUNCTION {s}.append(p_ns text, p_path bytea, p_key bigint,
                    p_at double precision, p_data bytea, p_line boolean, p_merge bigint)
                RETURNS bigint
                LANGUAGE plpgsql VOLATILE AS $fn$
            DECLARE
                v_cid bigint;
                v_first bigint;
                v_last bigint;
                v_count bigint;
                v_byte bytea;
            BEGIN
                PERFORM pg_advisory_xact_lock_shared(p_key);
                SELECT cid INTO v_cid FROM {s}.nodes
                    WHERE ns = p_ns AND path = p_path AND kind = 'f';
                IF NOT FOUND THEN
                    RETURN NULL;
                END IF;
                IF p_line THEN
                    -- last_byte(v_cid), inlined: a SQL function called from here would be
                    -- parsed and planned again in every transaction.
                    SELECT substring(p.data FROM octet_length(p.data) FOR 1) INTO v_byte
                        FROM {s}.pending p WHERE p.cid = v_cid ORDER BY p.seq DESC LIMIT 1;
                    IF NOT FOUND THEN
                        SELECT substring(c.data FROM octet_length(c.data) FOR 1) INTO v_byte
                            FROM {s}.chunks c WHERE c.cid = v_cid AND octet_length(c.data) > 0
                            ORDER BY c.off DESC LIMIT 1;
                    END IF;
                    IF coalesce(v_byte, '\x0a'::bytea) <> '\x0a'::bytea THEN
                        RETURN -1;
                    END IF;
                END IF;
                INSERT INTO {s}.pending (cid, seq, at, data)
                    VALUES (v_cid, nextval('{s}.version_seq'), p_at, p_data);
                SELECT min(seq), max(seq) INTO v_first, v_last FROM {s}.pending
                    WHERE cid = v_cid;
                IF v_last - v_first + 1 < p_merge THEN
                    RETURN v_last - v_first + 1;
                END IF;
                SELECT count(*) INTO v_count FROM {s}.pending WHERE cid = v_cid;
                RETURN v_count;
            END
            $fn$""",
        ],
        # Version 6: the append path reads nothing of ``pending``. Reading the newest pending
        # row (the last-byte check) and the bounds of a file's pending seqs meant scanning
        # index entries that concurrent appenders were inserting (checking each in-flight
        # transaction's status), which cost more than the insert itself with many appenders.
        # Now ``nodes.nl`` says whether the content ends with a newline (or is empty); every
        # write that can change it (``write_bytes``, the exclusive append path) keeps it
        # right, and ``append_nl`` appends a newline-terminated piece only while it is true,
        # so the file's last byte never has to be read. It returns the ``seq`` it took; the
        # caller seals on a pseudo-random 1 in ``SEAL_EVERY`` of them (``_seal_due``).
        6: [
            f"ALTER TABLE {s}.nodes ADD COLUMN IF NOT EXISTS nl boolean NOT NULL DEFAULT true",
            f"""UPDATE {s}.nodes SET nl = coalesce({s}.last_byte(cid), '\\x0a'::bytea) = '\\x0a'::bytea
                WHERE kind = 'f' AND cid IS NOT NULL""",
            # (Version 6 also created ``append_nl``; version 7 replaces it: see there.)
            # Several threads' appends to one file in one transaction (``_Combiner``): what
            # ``append_nl`` does, for each piece in order; NULL if the file is missing, a
            # directory or without a final newline (each caller then takes the exclusive path).
            f"""CREATE OR REPLACE FUNCTION {s}.append_batch(p_ns text, p_path bytea, p_key bigint,
                    p_at double precision, p_data bytea[])
                RETURNS bigint[]
                LANGUAGE plpgsql VOLATILE AS $fn$
            DECLARE
                v_cid bigint;
                v_piece bytea;
                v_seq bigint;
                v_out bigint[] := '{{}}';
            BEGIN
                PERFORM pg_advisory_xact_lock_shared(p_key);
                SELECT cid INTO v_cid FROM {s}.nodes
                    WHERE ns = p_ns AND path = p_path AND kind = 'f' AND nl;
                IF NOT FOUND THEN
                    RETURN NULL;
                END IF;
                FOREACH v_piece IN ARRAY p_data LOOP
                    v_seq := nextval('{s}.version_seq');
                    INSERT INTO {s}.pending (cid, seq, at, data) VALUES (v_cid, v_seq, p_at, v_piece);
                    v_out := v_out || v_seq;
                END LOOP;
                RETURN v_out;
            END
            $fn$""",
            # Version 6 also created ``seal`` (sealing in one round trip on the server); version 7
            # replaces it, and an upgrade always runs every step, so only that one is kept.
        ],
        # Version 7: ``append_nl`` looks the file up and inserts in one statement (one
        # executor start fewer per append: ~10% more appends/s from 16 processes on the
        # benchmark machine). Still after the lock, in its own statement, so with a snapshot
        # taken once the lock is held: an append that waited for a rewrite appends to the
        # new content. Same signature and result.
        7: [
            f"""CREATE OR REPLACE FUNCTION {s}.append_nl(p_ns text, p_path bytea, p_key bigint,
                    p_at double precision, p_data bytea)
                RETURNS bigint
                LANGUAGE plpgsql VOLATILE AS $fn$
            DECLARE
                v_seq bigint;
            BEGIN
                PERFORM pg_advisory_xact_lock_shared(p_key);
                INSERT INTO {s}.pending (cid, seq, at, data)
                    SELECT n.cid, nextval('{s}.version_seq'), p_at, p_data FROM {s}.nodes n
                    WHERE n.ns = p_ns AND n.path = p_path AND n.kind = 'f' AND n.nl
                    RETURNING seq INTO v_seq;
                RETURN v_seq;
            END
            $fn$""",
            # ``seal`` rewrites only a *small* last chunk. Before, the chunks written by the
            # last seals were merged into CHUNK_BYTES chunks once they held 1 MB, so every
            # appended byte was written twice more (seal, then merge), and the merges cost
            # 16 appending processes ~10% of their throughput. Now the last chunk a seal
            # writes stays open while it is under ``p_small`` bytes and the next seal rewrites
            # it together with the new bytes; a chunk that reaches ``p_small`` is final. So a
            # byte is rewritten only while its chunk is small (at most ``p_small`` bytes per
            # seal), and chunks are at least ``p_small`` bytes (but the last) without a merge.
            f"DROP FUNCTION IF EXISTS {s}.seal(text, bytea, bigint, bigint, integer, bigint)",
            f"""CREATE OR REPLACE FUNCTION {s}.seal(p_ns text, p_path bytea, p_key bigint,
                    p_chunk bigint, p_small bigint)
                RETURNS void
                LANGUAGE plpgsql VOLATILE AS $fn$
            DECLARE
                n record;
                v_blob bytea;
                v_tail bytea;
                v_last bigint;
                v_at double precision;
                v_start bigint;
                v_len bigint;
                v_off bigint;
                v_piece bigint := 0;
            BEGIN
                PERFORM pg_advisory_xact_lock(p_key);
                SELECT cid, size, tail_off, tail_count INTO n FROM {s}.nodes
                    WHERE ns = p_ns AND path = p_path AND kind = 'f' FOR UPDATE;
                IF NOT FOUND THEN
                    RETURN;
                END IF;
                WITH gone AS (DELETE FROM {s}.pending WHERE cid = n.cid RETURNING seq, at, data)
                SELECT string_agg(data, ''::bytea ORDER BY seq), max(seq), max(at)
                    INTO v_blob, v_last, v_at FROM gone;
                IF v_last IS NULL THEN
                    RETURN;
                END IF;
                v_blob := coalesce(v_blob, ''::bytea);
                v_start := n.size;
                IF n.tail_count > 0 AND n.size - n.tail_off < p_small THEN
                    WITH gone AS (DELETE FROM {s}.chunks WHERE cid = n.cid AND off >= n.tail_off
                                  RETURNING off, data)
                    SELECT string_agg(data, ''::bytea ORDER BY off) INTO v_tail FROM gone;
                    IF coalesce(octet_length(v_tail), 0) <> n.size - n.tail_off THEN
                        RAISE EXCEPTION 'chunk tail is not contiguous';
                    END IF;
                    v_blob := coalesce(v_tail, ''::bytea) || v_blob;
                    v_start := n.tail_off;
                END IF;
                v_len := octet_length(v_blob);
                v_off := 0;
                WHILE v_off < v_len LOOP
                    v_piece := least(p_chunk, v_len - v_off);
                    INSERT INTO {s}.chunks (cid, off, data)
                        VALUES (n.cid, v_start + v_off,
                                substring(v_blob FROM (v_off + 1)::integer FOR p_chunk::integer));
                    v_off := v_off + p_chunk;
                END LOOP;
                IF v_piece = 0 OR v_piece >= p_small THEN  -- else the last chunk stays open
                    v_piece := 0;
                END IF;
                UPDATE {s}.nodes SET size = v_start + v_len, tail_off = v_start + v_len - v_piece,
                        tail_count = (v_piece > 0)::integer, version = greatest(version, v_last),
                        mtime = greatest(mtime, v_at)
                    WHERE ns = p_ns AND path = p_path;
            END
            $fn$""",
        ],
    }


#: Public view of the migrations for the default schema (documentation and tests).
MIGRATIONS = _migrations("memtool")


# -- helpers ------------------------------------------------------------------------------------

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


class _AppendTarget:
    """A file appended to by one store: its path's bytes, its lock key as text (a libpq
    parameter), and the key of its combiner in the pool entry."""

    __slots__ = ("raw", "key", "combiner_key")

    def __init__(self, raw: bytes, key: bytes, combiner_key: tuple):
        self.raw = raw
        self.key = key
        self.combiner_key = combiner_key


class _AppendRequest:
    """One fast-path append waiting in a ``_Combiner``."""

    __slots__ = ("target", "data", "done", "seq", "error", "lead")

    def __init__(self, target: _AppendTarget, data: bytes):
        self.target = target
        self.data = data
        self.done = threading.Event()
        self.seq: int | None = None
        self.error: BaseException | None = None
        self.lead = False


class _Combiner:
    """Group commit for the threads of one process: the fast-path appends to one file that
    arrive while another is in flight wait, and the next leader sends them all in one
    transaction: one commit and one WAL flush instead of one each (and one connection instead
    of one each). A lone append goes out at once, exactly as without the combiner.
    Each waiting thread gets its own result (its ``seq``, or ``None`` for the exclusive
    path) or the batch's exception: the batch is one transaction, so every append in it is
    applied whole or not at all."""

    __slots__ = ("lock", "queue", "busy")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.queue: list[_AppendRequest] = []
        self.busy = False

    def append(self, store: "PostgresStore", entry: "_PoolEntry", target: _AppendTarget,
               data: bytes) -> int | None:
        """Append ``data`` to ``target`` (in a batch when others are waiting) through
        ``entry``'s connections; the ``seq`` it took, or ``None`` when the exclusive path
        must do it."""
        lock = self.lock
        with lock:
            if self.busy:
                req: _AppendRequest | None = _AppendRequest(target, data)
                self.queue.append(req)
            else:
                self.busy = True
                req = None
        if req is None:
            # The common case, kept short: nobody was waiting (the queue fills only while
            # busy), so this append goes out alone.
            try:
                return store._append_fast(entry, target, data)
            finally:
                self._hand_over([])
        req.done.wait()
        if not req.lead:
            if req.error is not None:
                raise req.error
            return req.seq
        with lock:  # the lead was handed to us: send what queued up meanwhile, with ours
            batch = [req] + self.queue
            self.queue = []
        try:
            try:
                if len(batch) == 1:
                    seqs = [store._append_fast(entry, target, data)]
                else:
                    seqs = store._append_many(entry, batch)
            except BaseException as e:  # noqa: BLE001 - handed to every waiting thread
                for r in batch:
                    r.error = e
            else:
                for r, seq in zip(batch, seqs):
                    r.seq = seq
        finally:
            self._hand_over(batch[1:])
        if req.error is not None:
            raise req.error
        return req.seq

    def _hand_over(self, finished: "list[_AppendRequest]") -> None:
        """Give the lead to the first thread that queued meanwhile (or become idle), then
        wake the threads whose appends were sent in the batch."""
        with self.lock:
            if self.queue:
                nxt = self.queue.pop(0)
                nxt.lead = True
                nxt.done.set()
            else:
                self.busy = False
        for r in finished:
            r.done.set()


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


# -- the store ----------------------------------------------------------------------------------

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
        if entry is None or entry.closed or entry.pid != _pid:
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
        import psycopg

        s = self.schema
        try:
            row = conn.execute(f"SELECT version FROM {s}.schema_version").fetchone()
            if row and row[0] == SCHEMA_VERSION:
                return
        except psycopg.errors.UndefinedTable:
            pass
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", [_key(b"memtool schema", s.encode())])
            conn.execute(f"CREATE SCHEMA IF NOT EXISTS {s}")
            conn.execute(
                f"CREATE TABLE IF NOT EXISTS {s}.schema_version "
                f"(id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)"
            )
            row = conn.execute(f"SELECT version FROM {s}.schema_version").fetchone()
            current = row[0] if row else 0
            if current > SCHEMA_VERSION:
                raise SchemaTooNew(
                    f"the memory database has schema version {current}, newer than this "
                    f"memtool understands ({SCHEMA_VERSION}); upgrade memtool"
                )
            steps = _migrations(s)
            for version in range(current + 1, SCHEMA_VERSION + 1):
                for ddl in steps[version]:
                    conn.execute(ddl)
            conn.execute(
                f"INSERT INTO {s}.schema_version (id, version) VALUES (1, %s) "
                f"ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version",
                [SCHEMA_VERSION],
            )

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
            return io.BytesIO(data + tail)
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
        for off in range(0, len(data), CHUNK_BYTES):
            conn.execute(
                f"INSERT INTO {s}.chunks (cid, off, data) VALUES (%s, %s, %s)",
                [cid, base + off, data[off : off + CHUNK_BYTES]],
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
                    conn.execute(f"DELETE FROM {s}.chunks WHERE cid = %s", [row[1]])
                    conn.execute(f"DELETE FROM {s}.pending WHERE cid = %s", [row[1]])
                    cid = conn.execute(
                        f"UPDATE {s}.nodes SET cid = nextval('{s}.content_seq'), size = %s, "
                        f"tail_off = %s, tail_count = %s, mtime = %s, nl = %s, "
                        f"version = nextval('{s}.version_seq') WHERE ns = %s AND path = %s "
                        f"RETURNING cid",
                        [len(data), *_open_chunk(len(data)), time.time(), _ends_line(data),
                         self.namespace, raw],
                    ).fetchone()[0]
                    self._insert_chunks(conn, cid, data)

        self._run(path, go)

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
                result = app.pgconn.exec_prepared(name, params, _APPEND_FORMATS)
                if result.status == _TUPLES_OK:
                    value = result.get_value(0, 0)
                    return None if value is None else int(value)
                app.prepared.discard(name)
                # psycopg deallocates every prepared statement of a connection after a
                # ROLLBACK or DROP it ran (its own cache must start again): prepare ours again
                # and retry; it did not run.
                if attempt or result.error_field(_SQLSTATE) != b"26000":
                    _raise_for(result, app.conn, _TUPLES_OK)
            raise AssertionError("unreachable")  # pragma: no cover
        finally:
            entry.give_back(app)

    def _prepare_append(self, app: _Appender) -> None:
        """Prepare this store's ``append_nl`` statement on ``app``'s connection."""
        result = app.pgconn.prepare(
            self._append_statement,
            f"SELECT {self.schema}.append_nl($1, $2, $3, $4, $5){self._sync}".encode(),
            _APPEND_TYPES,
        )
        _raise_for(result, app.conn, _COMMAND_OK)
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
            [self.namespace, raw, self._path_key(raw), CHUNK_BYTES, SMALL_CHUNK],
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
                self._lock_path(conn, raw)
                row = conn.execute(
                    f"SELECT kind, cid FROM {s}.nodes WHERE ns = %s AND path = %s FOR UPDATE",
                    [self.namespace, raw],
                ).fetchone()
                if row is None:
                    raise self._missing(conn, path, raw)
                if row[0] == "d":
                    raise FSError(errno.EISDIR, path)
                conn.execute(f"DELETE FROM {s}.nodes WHERE ns = %s AND path = %s", [self.namespace, raw])
                conn.execute(f"DELETE FROM {s}.chunks WHERE cid = %s", [row[1]])
                conn.execute(f"DELETE FROM {s}.pending WHERE cid = %s", [row[1]])

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
        """Delete every file and directory of this namespace (tests, ``memtool migrate``)."""
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

        self._run("", go)


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
