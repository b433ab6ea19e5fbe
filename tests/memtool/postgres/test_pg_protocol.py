"""``PostgresStore`` speaks the sandbox filesystem protocol exactly as a real directory does.

Differential: seeded random sequences of operations run against the store and against a real
directory through the OS (``os.mkdir``, ``os.rename``...); every result or errno must match.
A failure prints the seed and the operation, so ``pytest -k 'seed_N'`` reproduces it.
"""

from __future__ import annotations

import errno
import io
import os
import random

import pytest

from sandbox.fs.base import FSError

NAMES = ["a", "b", "d", "e", "d/x", "d/y", "d/e", "d/e/z", "e/x", "a/x", "é", "\udcff"]
SEEDS = range(24)


class OsRef:
    """The reference: plain OS calls on a real directory (the POSIX semantics we copy)."""

    def __init__(self, root: str):
        self.root = root

    def _p(self, path: str) -> bytes:
        return os.path.join(self.root, path).encode("utf-8", "surrogateescape")

    def write_bytes(self, path, data):
        p = self._p(path)
        if os.path.isdir(p):
            raise OSError(errno.EISDIR, "")
        tmp = p + b".tmp~"
        with open(tmp, "wb") as f:
            f.write(data)
        os.rename(tmp, p)

    def append_bytes(self, path, data):
        with open(self._p(path), "ab") as f:
            f.write(data)

    def append_line(self, path, line):
        """What ``append_line`` means: a newline first if the file does not end with one."""
        p = self._p(path)
        with open(p, "ab") as f:
            size = f.tell()
        if size:
            with open(p, "rb") as f:
                f.seek(size - 1)
                if f.read(1) != b"\n":
                    line = b"\n" + line
        with open(p, "ab") as f:
            f.write(line)

    def read_bytes(self, path):
        with open(self._p(path), "rb") as f:
            return f.read()

    def stat(self, path):
        st = os.stat(self._p(path))
        is_dir = os.path.isdir(self._p(path))
        return ("dir", 4096) if is_dir else ("file", st.st_size)

    def listdir(self, path):
        return sorted(n.decode("utf-8", "surrogateescape") for n in os.listdir(self._p(path))
                      if not n.endswith(b".tmp~"))

    def mkdir(self, path):
        os.mkdir(self._p(path))

    def remove(self, path):
        p = self._p(path)
        if os.path.isdir(p):
            raise OSError(errno.EISDIR, "")
        os.unlink(p)

    def rmdir(self, path):
        os.rmdir(self._p(path))

    def rename(self, src, dst):
        os.rename(self._p(src), self._p(dst))


def _apply(target, op, args):
    try:
        if op == "stat":
            st = target.stat(*args)
            result = st if isinstance(st, tuple) else (st.kind, st.size)
        elif op == "listdir":
            result = sorted(target.listdir(*args))
        else:
            result = getattr(target, op)(*args)
        return ("ok", result)
    except FSError as e:
        return ("err", e.errno)
    except OSError as e:
        return ("err", e.errno)


def _random_op(rng: random.Random):
    op = rng.choice(["write_bytes", "append_bytes", "append_bytes", "append_line", "read_bytes",
                     "stat", "listdir", "mkdir", "mkdir", "remove", "rmdir", "rename", "rename"])
    name = rng.choice(NAMES)
    if op in ("write_bytes", "append_bytes", "append_line"):
        data = bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 5, 40])))
        if op == "append_line" or rng.random() < 0.5:  # the fast path: ends with a newline
            data += b"\n"
        return op, (name, data)
    if op == "rename":
        return op, (name, rng.choice(NAMES))
    if op == "listdir" and rng.random() < 0.3:
        return op, ("",)
    return op, (name,)


@pytest.mark.parametrize("seed", SEEDS, ids=[f"seed_{s}" for s in SEEDS])
def test_random_operations_match_a_real_directory(seed, tmp_path, pgserver_module, pg_dsn):
    store = pgserver_module.fresh_store()
    ref = OsRef(str(tmp_path))
    rng = random.Random(seed)
    for step in range(80):
        op, args = _random_op(rng)
        want = _apply(ref, op, args)
        got = _apply(store, op, args)
        assert got == want, f"seed {seed} step {step}: {op}{args!r}: store {got!r}, os {want!r}"
    # Whole tree identical at the end.
    for name in NAMES:
        assert _apply(store, "stat", (name,)) == _apply(ref, "stat", (name,)), name
        if _apply(ref, "stat", (name,)) [0] == "ok" and ref.stat(name)[0] == "file":
            assert store.read_bytes(name) == ref.read_bytes(name)


def test_versions_change_on_every_write_and_never_repeat(pg_store):
    seen = set()
    pg_store.write_bytes("f", b"1")
    seen.add(pg_store.stat("f").version)
    for op in ("append", "write", "touch", "remove-recreate"):
        if op == "append":
            pg_store.append_bytes("f", b"2")
        elif op == "write":
            pg_store.write_bytes("f", b"1")  # same size as before: version still changes
        elif op == "touch":
            pg_store.set_mtime("f", 1000.0)
        else:
            pg_store.remove("f")
            pg_store.write_bytes("f", b"1")
        v = pg_store.stat("f").version
        assert v not in seen, op
        seen.add(v)
    assert pg_store.stat("f").version == pg_store.stat("f").version  # stable without writes


def test_modes_mtime_and_kinds(pg_store):
    pg_store.mkdir("d")
    pg_store.write_bytes("d/f", b"abc")
    assert pg_store.stat("d").mode == 0o700 and pg_store.stat("d").is_dir
    assert pg_store.stat("d/f").mode == 0o600 and pg_store.stat("d/f").is_file
    pg_store.set_mtime("d/f", 1234.5)
    assert pg_store.stat("d/f").mtime == 1234.5
    assert pg_store.stat("").is_dir


@pytest.mark.parametrize("bad", ["/abs", "a/../b", "./a", "a//b", "a/", "..", "a\x00b"])
def test_unnormalised_paths_are_refused(pg_store, bad):
    with pytest.raises(FSError) as info:
        pg_store.write_bytes(bad, b"x")
    assert info.value.errno == errno.EINVAL
    with pytest.raises(FSError):
        pg_store.stat(bad)


def test_streaming_reader_seeks_and_reads_large_files(pg_store):
    rng = random.Random(7)
    # Many appends of random sizes (some large), a merge or two, then random reads.
    parts = []
    for i in range(700):
        size = rng.choice([1, 50, 200, 3000, 70000]) if i % 97 else 600_000
        piece = bytes(rng.randrange(256) for _ in range(min(size, 64))) * (size // 64 + 1)
        piece = piece[:size]
        parts.append(piece)
        pg_store.append_bytes("big", piece)
    want = b"".join(parts)
    assert pg_store.stat("big").size == len(want)
    assert pg_store.read_bytes("big") == want
    with pg_store.open_read("big") as f:
        assert f.seekable()
        for _ in range(200):
            pos = rng.randrange(len(want) + 10)
            n = rng.choice([0, 1, 100, 5000, 300_000, 2_000_000])
            f.seek(pos)
            assert f.tell() == pos
            assert f.read(n) == want[pos : pos + n], (pos, n)
        f.seek(-1000, io.SEEK_END)
        assert f.read() == want[-1000:]
        f.seek(0)
        lines = sum(1 for _ in f)
        assert lines == want.count(b"\n") + (0 if want.endswith(b"\n") else 1)
    # Overwrite: a multi-chunk file replaced by another.
    new = bytes(range(256)) * 20000
    pg_store.write_bytes("big", new)
    assert pg_store.read_bytes("big") == new


def test_a_reader_of_replaced_content_fails_stale_not_mixed(pg_store):
    pg_store.write_bytes("f", b"a" * 3_000_000)
    with pg_store.open_read("f") as f:
        assert f.read(10) == b"a" * 10
        pg_store.write_bytes("f", b"b" * 3_000_000)
        with pytest.raises(FSError) as info:
            f.seek(2_500_000)
            f.read(10)
    assert info.value.errno == errno.ESTALE
    assert "retry" in str(info.value)


def test_reader_is_not_disturbed_by_appends_and_merges(pg_store):
    pg_store.write_bytes("log", b"x" * 2_000_000)
    with pg_store.open_read("log") as f:
        head = f.read(1000)
        for i in range(300):  # forces a merge of the tail
            pg_store.append_bytes("log", b"line %d\n" % i)
        rest = f.read()
    assert head + rest == b"x" * 2_000_000  # the size seen at open
    assert pg_store.read_bytes("log").endswith(b"line 299\n")


def test_tail_reads_only_the_end(pg_store, monkeypatch):
    line = b'{"role":"user","content":"' + b"w" * 150 + b'"}\n'
    for _ in range(3):
        pg_store.write_bytes("c", line * 20000)  # 3.5 MB, four chunks
    fetched = []
    original = type(pg_store)._read_range

    def spy(self, path, cid, start, end):
        fetched.append(end - start)
        return original(self, path, cid, start, end)

    monkeypatch.setattr(type(pg_store), "_read_range", spy)
    with pg_store.open_read("c") as f:
        f.seek(-40 * len(line), io.SEEK_END)
        assert f.read() == line * 40
    assert sum(fetched) <= 300 << 10, fetched


def test_namespaces_and_schemas_are_isolated(pgserver_module, pg_dsn):
    a = pgserver_module.fresh_store(schema=pgserver_module.fresh_schema(), namespace="user:1")
    b = a.scoped("user:2")
    a.write_bytes("core.md", b"secret of 1")
    assert b.listdir("") == []
    with pytest.raises(FSError):
        b.stat("core.md")
    other_schema = pgserver_module.fresh_store(namespace="user:1", schema=pgserver_module.fresh_schema())
    assert other_schema.listdir("") == []


def test_bad_configuration_is_refused(pgserver_module, pg_dsn, monkeypatch):
    from memtool.stores.postgres import PostgresStore

    monkeypatch.delenv("MEMTOOL_DSN", raising=False)
    with pytest.raises(ValueError, match="MEMTOOL_DSN"):
        PostgresStore()
    for ns in ["", "a\x00b"]:
        with pytest.raises(ValueError):
            PostgresStore(pg_dsn, namespace=ns)
    with pytest.raises(ValueError):
        PostgresStore(pg_dsn, schema="x; DROP TABLE y")
    monkeypatch.setenv("MEMTOOL_DSN", pg_dsn)
    store = PostgresStore(namespace="env", schema=pgserver_module.fresh_schema())
    store.write_bytes("f", b"via env")
    assert store.read_bytes("f") == b"via env"


def test_unreachable_database_is_one_actionable_line(monkeypatch):
    from memtool.stores.postgres import PostgresStore

    store = PostgresStore("host=127.0.0.1 port=1 user=nobody dbname=none connect_timeout=1",
                          connect_timeout=1.5, schema="unreachable")
    try:
        with pytest.raises(FSError) as info:
            store.stat("core.md")
    finally:
        store.close()  # stop the pool's reconnection attempts
    msg = str(info.value)
    assert info.value.errno == errno.EIO and "retry" in msg and "\n" not in msg
    assert "127.0.0.1" not in msg and "nobody" not in msg


def test_watch_sees_changes_from_another_process(pgserver_module, pg_dsn):
    import subprocess
    import sys
    import threading

    store = pgserver_module.fresh_store()
    store.write_bytes("core.md", b"v1")
    repo = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "from memtool.stores.postgres import PostgresStore;"
        "s = PostgresStore(sys.argv[2], namespace=sys.argv[3], schema=sys.argv[4]);"
        "s.append_bytes('conversations.jsonl', b'{}\\n'); s.write_bytes('core.md', b'v2')"
    )
    stop = threading.Event()
    seen: list[str] = []

    def watcher():
        for path in store.watch(interval=0.05, timeout=20, stop=stop):
            seen.append(path)
            if {"core.md", "conversations.jsonl"} <= set(seen):
                stop.set()

    t = threading.Thread(target=watcher)
    t.start()
    subprocess.run([sys.executable, "-c", script, repo, pg_dsn, store.namespace, store.schema],
                   check=True, timeout=60)
    t.join(30)
    stop.set()
    assert {"core.md", "conversations.jsonl"} <= set(seen)
    assert store.read_bytes("core.md") == b"v2"


def test_pending_appends_count_in_stat_and_are_read_in_order(pgserver_module):
    store = pgserver_module.fresh_store(durable=False)
    store.write_bytes("log", b"")
    v0 = store.stat("log").version
    for i in range(300):  # crosses MERGE_COUNT: one seal by an appender, the rest pending
        store.append_bytes("log", b"%d\n" % i)
        if i in (0, 10, 299):
            st = store.stat("log")
            assert st.size == len(b"".join(b"%d\n" % j for j in range(i + 1)))
            assert st.version != v0
            v0 = st.version
    assert store.read_bytes("log") == b"".join(b"%d\n" % j for j in range(300))
    assert store.stat("log").version == v0  # sealing by the read did not change the version


def test_a_write_blocked_by_a_held_lock_times_out_with_a_retry_message(pgserver_module, pg_dsn):
    import threading

    from memtool.stores.postgres import PostgresStore

    holder = pgserver_module.fresh_store()
    holder.write_bytes("core.md", b"x")
    # A store on a distinct DSN string gets its own pool, with a short lock timeout.
    waiter = PostgresStore(pg_dsn + " application_name=waiter", namespace=holder.namespace,
                           schema=holder.schema, lock_timeout=0.5)
    entered, release = threading.Event(), threading.Event()

    def hold():
        with holder.lock("core.md"):
            entered.set()
            release.wait(20)

    t = threading.Thread(target=hold)
    t.start()
    try:
        assert entered.wait(20)
        for attempt in (lambda: waiter.append_bytes("core.md", b"y"),
                        lambda: waiter.write_bytes("core.md", b"z")):
            with pytest.raises(FSError) as info:
                attempt()
            assert info.value.errno == errno.EAGAIN and "retry" in str(info.value)
        assert waiter.read_bytes("core.md") == b"x"  # reads are never blocked
    finally:
        release.set()
        t.join()
    waiter.append_bytes("core.md", b"y")  # the next call succeeds
    assert holder.read_bytes("core.md") == b"xy"


def test_append_line_adds_a_missing_newline_once(pg_store):
    pg_store.append_line("log", b'{"a":1}\n')  # creates the file
    pg_store.append_bytes("log", b"hand edit without newline")
    pg_store.append_line("log", b'{"a":2}\n')
    pg_store.append_line("log", b'{"a":3}\n')
    assert pg_store.read_bytes("log") == b'{"a":1}\nhand edit without newline\n{"a":2}\n{"a":3}\n'
    pg_store.write_bytes("log2", b"x" * 2_000_000 + b"tail")  # sealed content, no newline
    pg_store.append_line("log2", b"l\n")
    assert pg_store.read_bytes("log2")[-9:] == b"xxtail\nl\n"


def test_the_newline_flag_follows_every_kind_of_write(pg_store):
    """``nl`` (the content ends with a newline) decides between the one-round-trip append
    and the exclusive one; every write that changes the last byte must keep it right."""
    s = pg_store
    s.write_bytes("f", b"no newline")
    s.append_bytes("f", b" more\n")  # exclusive path (nl false), sets nl
    s.append_line("f", b"line\n")  # fast path
    s.append_bytes("f", b"partial")  # exclusive path (piece without newline), clears nl
    s.append_line("f", b"after partial\n")  # exclusive path: adds the newline
    s.append_bytes("f", b"\n")
    s.append_line("f", b"x\n")
    assert s.read_bytes("f") == b"no newline more\nline\npartial\nafter partial\n\nx\n"
    s.write_bytes("f", b"")
    s.append_line("f", b"first\n")  # an empty file needs no newline
    s.write_bytes("g", b"sealed without newline")
    s.rename("g", "h")  # the flag moves with the file
    s.append_line("h", b"l\n")
    assert s.read_bytes("f") == b"first\n"
    assert s.read_bytes("h") == b"sealed without newline\nl\n"


@pytest.mark.parametrize("small", [5, 40])
def test_sealing_and_merging_keep_every_byte_in_order(pg_store, monkeypatch, pg_dsn, small):
    """With tiny chunks and a seal every few appends (each rewriting the last chunk while it
    is under SMALL_CHUNK bytes: always with 40, only for short remainders with 5), random
    appends (both paths) and reads agree with a plain byte string, and the chunks stay
    contiguous, each at most CHUNK_BYTES."""
    import psycopg

    from memtool.stores.postgres import common as tunables

    monkeypatch.setattr(tunables, "SEAL_EVERY", 3)  # seals of a few pending rows each
    monkeypatch.setattr(tunables, "CHUNK_BYTES", 7)
    monkeypatch.setattr(tunables, "SMALL_CHUNK", small)
    rng = random.Random(7)
    want = b""
    for i in range(300):
        piece = bytes(rng.choice(b"abc \xff") for _ in range(rng.randrange(0, 25)))
        if rng.random() < 0.7:
            piece += b"\n"
        if rng.random() < 0.5:
            pg_store.append_bytes("log", piece)
            want += piece
        else:
            piece = piece.rstrip(b"\n") + b"\n"
            pg_store.append_line("log", piece)
            want += (b"\n" if want and not want.endswith(b"\n") else b"") + piece
        if i % 37 == 0:
            assert pg_store.read_bytes("log") == want
            with pg_store.open_read("log") as f:
                f.seek(max(0, len(want) - 30))
                assert f.read() == want[-30:]
    assert pg_store.read_bytes("log") == want
    assert pg_store.stat("log").size == len(want)
    with psycopg.connect(pg_dsn) as conn:
        s = pg_store.schema
        cid, size = conn.execute(f"SELECT cid, size FROM {s}.nodes WHERE ns = %s AND path = 'log'",
                                 [pg_store.namespace]).fetchone()
        rows = conn.execute(f"SELECT off, octet_length(data) FROM {s}.chunks WHERE cid = %s "
                            f"ORDER BY off", [cid]).fetchall()
        pending = conn.execute(f"SELECT count(*) FROM {s}.pending WHERE cid = %s", [cid]).fetchone()[0]
    # Seals happened (a failed seal is silent: the appends stand, the rows stay pending).
    assert size > len(want) // 2 and pending < 30, (size, pending)
    offset = 0
    for off, length in rows:
        assert off == offset and 0 < length <= 7
        offset += length
    assert offset == size
    # Only the last chunk may be small (the others were rewritten until they were not).
    assert all(length >= min(small, 7) for _, length in rows[:-1]), rows


def test_appends_survive_psycopg_dropping_every_prepared_statement(pg_store, pg_dsn):
    """psycopg runs DEALLOCATE ALL on a connection after a ROLLBACK or DROP it sent; the
    append statement prepared on that connection is prepared again, the append not lost."""
    from memtool.stores import postgres as pgmod

    pg_store.append_line("log", b"1\n")
    entry = pgmod._pools[(pg_dsn, os.getpid())]
    conns = [entry.pool.getconn() for _ in range(2)]
    for conn in conns:
        conn.execute("DEALLOCATE ALL")
    for conn in conns:
        entry.pool.putconn(conn)
    for i in range(2, 6):
        pg_store.append_line("log", b"%d\n" % i)
    assert pg_store.read_bytes("log") == b"1\n2\n3\n4\n5\n"


def test_version_5_files_get_their_newline_flag_on_upgrade(pgserver_module, pg_dsn):
    """Upgrading from schema 5 (before ``nl``) computes the flag from each file's last byte,
    pending appends included."""
    import psycopg

    from memtool.stores import postgres as pgmod

    schema = pgserver_module.fresh_schema()
    store = pgserver_module.fresh_store(schema=schema)
    store.write_bytes("plain", b"ends without")
    store.write_bytes("nl", b"ends with\n")
    store.write_bytes("pend", b"sealed\n")
    store.append_bytes("pend", b"pending, no newline")
    store.write_bytes("empty", b"")
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(f"ALTER TABLE {schema}.nodes DROP COLUMN nl")
        conn.execute(f"DROP FUNCTION {schema}.append_nl")
        conn.execute(f"DROP FUNCTION {schema}.seal")
        conn.execute(f"UPDATE {schema}.schema_version SET version = 5")
    pgmod._pools[(pg_dsn, os.getpid())].schemas_ready.discard(schema)
    again = pgmod.PostgresStore(pg_dsn, namespace=store.namespace, schema=schema)
    for name in ("plain", "nl", "pend", "empty"):
        again.append_line(name, b"L\n")
    assert again.read_bytes("plain") == b"ends without\nL\n"
    assert again.read_bytes("nl") == b"ends with\nL\n"
    assert again.read_bytes("pend") == b"sealed\npending, no newline\nL\n"
    assert again.read_bytes("empty") == b"L\n"
