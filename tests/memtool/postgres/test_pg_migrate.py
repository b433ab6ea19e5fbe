"""``memtool init --dsn`` and ``memtool migrate``: tables created, a local memory moved into
PostgreSQL and back byte-identical; the schema's version and migration path."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def memtool_cli(*args: str) -> subprocess.CompletedProcess:
    """Run ``python -m memtool ARGS`` (the ``memtool`` script) from the repository."""
    env = dict(os.environ, PYTHONPATH=REPO)
    env.pop("MEMTOOL_DSN", None)
    return subprocess.run([sys.executable, "-m", "memtool", *args], capture_output=True,
                          text=True, env=env, cwd=REPO, timeout=120)


def make_local_memory(root: str, seed: int) -> dict[bytes, bytes | None]:
    """A memory directory with awkward content: nested topics, empty and binary files,
    non-UTF-8 and odd names, a 3 MB history. Returns {relative path: content or None}."""
    rng = random.Random(seed)
    tree: dict[bytes, bytes | None] = {}
    broot = root.encode()
    names = [b"core.md", b"notes.md", b"conversations.jsonl", b"topic", b"topic/deep",
             b"topic/deep/x.md", b"topic/empty.md", b"bin.dat", b"caf\xc3\xa9.md", b"raw\xff.md",
             b"sp ace.md", b"-dash.md", b"empty-dir"]
    for name in names:
        path = os.path.join(broot, name)
        if name in (b"topic", b"topic/deep", b"empty-dir"):
            os.makedirs(path, exist_ok=True)
            tree[name] = None
            continue
        if name == b"conversations.jsonl":
            data = b"".join(b'{"role":"user","content":"turn %d %s"}\n' % (i, b"z" * rng.randrange(300))
                            for i in range(18000))
        elif name == b"bin.dat":
            data = bytes(rng.randrange(256) for _ in range(5000))
        elif name == b"topic/empty.md":
            data = b""
        else:
            data = ("line \u00e9 %d\n" % rng.randrange(10**6)).encode() * rng.randrange(1, 50)
        with open(path, "wb") as f:
            f.write(data)
        os.utime(path, (1_700_000_000 + rng.randrange(10**6),) * 2)
        tree[name] = data
    return tree


def read_local(root: str) -> dict[bytes, bytes | None]:
    out: dict[bytes, bytes | None] = {}
    broot = root.encode()
    for dirpath, dirnames, filenames in os.walk(broot):
        rel = os.path.relpath(dirpath, broot)
        for d in dirnames:
            out[os.path.normpath(os.path.join(rel, d))] = None
        for f in filenames:
            with open(os.path.join(dirpath, f), "rb") as fh:
                out[os.path.normpath(os.path.join(rel, f))] = fh.read()
    return out


def mtimes(root: str) -> dict[bytes, int]:
    broot = root.encode()
    return {os.path.relpath(os.path.join(d, f), broot): int(os.stat(os.path.join(d, f)).st_mtime)
            for d, _, fs in os.walk(broot) for f in fs}


def test_round_trip_through_the_cli_is_byte_identical(tmp_path, pgserver_module, pg_dsn):
    src = str(tmp_path / "src")
    back = str(tmp_path / "back")
    os.makedirs(src)
    want = make_local_memory(src, 3)
    schema = pgserver_module.fresh_schema()
    url_dsn = pg_dsn  # key=value form
    r = memtool_cli("init", "--dsn", url_dsn, "--schema", schema, "--namespace", "empty-one")
    assert r.returncode == 0, r.stderr
    from memtool.stores.postgres import SCHEMA_VERSION

    assert f"version {SCHEMA_VERSION}" in r.stdout
    r = memtool_cli("migrate", src, url_dsn, "--schema", schema, "--namespace", "team")
    assert r.returncode == 0, r.stderr
    assert "verified identical" in r.stdout
    store = pgserver_module.fresh_store(schema=schema, namespace="team")
    assert store.read_bytes("raw\udcff.md") == want[b"raw\xff.md"]
    assert store.stat("conversations.jsonl").size == len(want[b"conversations.jsonl"])
    r = memtool_cli("migrate", url_dsn, back, "--schema", schema, "--namespace", "team")
    assert r.returncode == 0, r.stderr
    assert read_local(back) == read_local(src) == {os.path.normpath(k): v for k, v in want.items()}
    assert mtimes(back) == mtimes(src)
    # A second migration into the same place is refused: nothing is overwritten silently.
    r = memtool_cli("migrate", src, url_dsn, "--schema", schema, "--namespace", "team")
    assert r.returncode == 1 and "--overwrite" in r.stderr and "Traceback" not in r.stderr
    r = memtool_cli("migrate", src, url_dsn, "--schema", schema, "--namespace", "team", "--overwrite")
    assert r.returncode == 0, r.stderr


def test_init_creates_tables_and_the_scope_files(pgserver_module, pg_dsn):
    schema = pgserver_module.fresh_schema()
    r = memtool_cli("init", "--dsn", pg_dsn, "--schema", schema, "--namespace", "n1",
                    "--scope", "user:7")
    assert r.returncode == 0, r.stderr
    assert "core.md" in r.stdout
    store = pgserver_module.fresh_store(schema=schema, namespace="n1")
    names = store.listdir("scopes")
    assert len(names) == 1
    assert set(store.listdir(f"scopes/{names[0]}")) >= {"core.md", "notes.md", "conversations.jsonl"}
    r = memtool_cli("init", "--dsn", pg_dsn, "--schema", schema, "--namespace", "n1", "--scope", "user:7")
    assert r.returncode == 0 and "all files exist" in r.stdout


def test_cli_errors_are_one_line(tmp_path, pgserver_module, pg_dsn):
    r = memtool_cli("init", "--dsn", "host=127.0.0.1 port=1 user=x connect_timeout=1")
    assert r.returncode == 1 and "Traceback" not in r.stderr and "retry" in r.stderr
    r = memtool_cli("migrate", str(tmp_path / "missing"), pg_dsn, "--schema", "memtool_x")
    assert r.returncode == 1 and "No such directory" in r.stderr
    assert not (tmp_path / "missing").exists()


def test_schema_version_and_migration_path(pgserver_module, pg_dsn):
    import psycopg
    from memtool.stores import postgres as pgmod

    schema = pgserver_module.fresh_schema()
    store = pgserver_module.fresh_store(schema=schema)
    store.write_bytes("core.md", b"kept")
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        assert conn.execute(f"SELECT version FROM {schema}.schema_version").fetchone() == (pgmod.SCHEMA_VERSION,)
        # A version-1 database (before ``pending`` and the ``append`` function) is upgraded
        # in place, its files kept.
        conn.execute(f"DROP TABLE {schema}.pending")
        conn.execute(f"DROP FUNCTION {schema}.append(text, bytea, bigint, double precision, bytea, boolean)")
        conn.execute(f"DROP FUNCTION {schema}.last_byte(bigint)")
        conn.execute(f"DROP FUNCTION {schema}.open(text, bytea, bigint, bigint)")
        conn.execute(f"UPDATE {schema}.schema_version SET version = 1")
    again = pgmod.PostgresStore(pg_dsn, namespace=store.namespace, schema=schema)
    pgmod._pools[(pg_dsn, os.getpid())].schemas_ready.discard(schema)
    assert again.read_bytes("core.md") == b"kept"
    again.append_bytes("core.md", b" and appended")
    assert again.read_bytes("core.md") == b"kept and appended"
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        assert conn.execute(f"SELECT version FROM {schema}.schema_version").fetchone() == (pgmod.SCHEMA_VERSION,)
        # A newer database than this code understands is refused with a clear message.
        conn.execute(f"UPDATE {schema}.schema_version SET version = 99")
    pgmod._pools[(pg_dsn, os.getpid())].schemas_ready.discard(schema)
    with pytest.raises(OSError, match="upgrade memtool"):
        pgmod.PostgresStore(pg_dsn, namespace="x", schema=schema).init_schema()
    with pytest.raises(OSError, match="upgrade memtool"):
        pgmod.PostgresStore(pg_dsn, namespace="x", schema=schema).stat("core.md")


def test_copy_tree_between_any_stores(pgserver_module, pg_dsn):
    from memtool.migrate import copy_tree, tree_digest
    from memtool.stores.memory import MemoryStore

    src = MemoryStore({"a/b/c.md": b"deep", "x": b"", "\udcfe": b"\x00\xff"})
    pg = pgserver_module.fresh_store()
    report = copy_tree(src, pg)
    assert report.ok and report.files == 3 and report.directories == 2
    dst = MemoryStore()
    assert copy_tree(pg, dst).ok
    assert tree_digest(dst) == tree_digest(src)
