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
- ``versions``, ``version_contents``, ``version_generation``: the version log of each
  namespace (``versions.py``: ``PostgresVersionLog``, on by default for ``Memory``).
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

Modules: ``schema`` (tables, migrations), ``pool`` (connections), ``combiner`` (group
commit), ``store`` (``PostgresStore``), ``reader`` (streaming reads), ``versions`` (the
version log), ``common`` (limits, messages, path helpers).

Namespaces isolate: every query is bound to this store's namespace; there is no path syntax
that reaches another namespace (paths are relative and normalised, ``..`` is refused).
"""

from __future__ import annotations

from memtool.stores.postgres.common import (
    CHUNK_BYTES, DB_BUSY, DB_DOWN, DB_LOST, DIR_SIZE, INLINE_READ, READ_WINDOW, SEAL_EVERY, SMALL_CHUNK, STALE,
    STALE_RETRIES,
)
from memtool.stores.postgres.pool import _pools, close_all_pools  # noqa: F401 (_pools: tests)
from memtool.stores.postgres.schema import MIGRATIONS, SCHEMA_VERSION, SchemaTooNew
from memtool.stores.postgres.store import PostgresStore
from memtool.stores.postgres.versions import PostgresVersionLog

__all__ = [
    "CHUNK_BYTES", "DB_BUSY", "DB_DOWN", "DB_LOST", "DIR_SIZE", "INLINE_READ", "MIGRATIONS", "READ_WINDOW",
    "SCHEMA_VERSION", "SEAL_EVERY", "SMALL_CHUNK", "STALE", "STALE_RETRIES", "PostgresStore", "PostgresVersionLog", "SchemaTooNew",
    "close_all_pools",
]
