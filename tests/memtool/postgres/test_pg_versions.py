"""Versions on PostgreSQL, kept in the ``versions`` tables (on by default): both tools'
changes are versions, a person reads them with SQL, restore works, a change and its version
commit together, a rolled-back version is forgotten, other processes see the same log, and
export then import (into an empty directory and into PostgreSQL, from either) gives
identical files and history. (The rest of the version tests run on PostgreSQL too:
``tests/memtool/test_versions.py``, ``test_versions_concurrency.py``.)"""

from __future__ import annotations

import psycopg
import pytest

from memtool import Memory
from memtool.history import Retention, StoreVersionLog, local_log
from memtool.history.archive import export_archive, import_archive, walk_files
from memtool.stores.local import LocalStore
from memtool.stores.postgres.versions import PostgresVersionLog
from sandbox.fs.base import FSError


def _files(store) -> dict[str, bytes]:
    return {p: store.read_bytes(p) for p in walk_files(store)}


def test_versions_table_on_by_default(pg_store, pg_dsn):
    mem = Memory(pg_store)
    assert isinstance(mem.versions, PostgresVersionLog)
    mem.call("bash", {"command": "sed -i 's/.*/MANGLED/' core.md"})
    out = mem.call("bash", {"command": "ls -a; ls .memtool"})
    assert ".memtool" not in out.replace("ls: cannot access '.memtool'", "")
    newest = mem.history("core.md")[0]
    assert newest.actor == "bash" and "sed -i" in newest.detail
    with psycopg.connect(pg_dsn) as conn:  # a person reads the history with SQL
        rows = conn.execute(f"SELECT id, actor, detail, convert_from(path, 'UTF8') FROM {pg_store.schema}.versions "
                            f"WHERE ns = %s ORDER BY id", [pg_store.namespace]).fetchall()
    assert rows[-1] == (newest.id, "bash", newest.detail, "core.md")
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1))
    mem.restore("core.md", newest.id - 1)
    assert b"MANGLED" not in pg_store.read_bytes("core.md")
    assert mem.history("core.md")[0].actor == "restore"


def test_restore_after_rm_r(pg_store):
    mem = Memory(pg_store)  # versions on: rm is in the default allowlist
    mem.call("memory", {"command": "create", "path": "/memories/t/a.md", "file_text": "a\n"})
    mem.call("memory", {"command": "create", "path": "/memories/t/u/b.md", "file_text": "b\n"})
    before = _files(pg_store)
    out = mem.call("bash", {"command": "rm -r /.memory/t; ls"})
    assert "exit code" not in out and "t" not in out.split()
    point = mem.history()[0].id  # the newest version: every file's deletion came after
    deletions = [e for e in mem.history() if e.kind == "deleted"]
    assert {e.path for e in deletions} == {"t/a.md", "t/u/b.md"}
    for e in deletions:
        mem.restore(e.path, e.id - 1 if e.id - 1 > 0 else e.id)
    assert {p: v for p, v in _files(pg_store).items() if p.startswith("t/")} == \
        {p: v for p, v in before.items() if p.startswith("t/")}
    assert mem.history()[0].id > point


def test_a_change_and_its_version_commit_together(pg_store, monkeypatch):
    mem = Memory(pg_store)
    mem.notice_edits()
    before, n = _files(pg_store), len(mem.versions.entries())

    def broken(self, conn, versions):
        conn.execute("SELECT 1/0")  # the insert fails inside the change's transaction

    monkeypatch.setattr(PostgresVersionLog, "_insert", broken)
    for name, args in [("memory", {"command": "create", "path": "/memories/n.md", "file_text": "x"}),
                       ("memory", {"command": "str_replace", "path": "/memories/notes.md", "old_str": "#",
                                   "new_str": "gone"}),
                       ("bash", {"command": "echo gone >> notes.md"}),
                       ("bash", {"command": "sed -i s/a/b/ core.md"}),
                       ("bash", {"command": "rm notes.md"}),
                       ("bash", {"command": "mv notes.md moved.md"})]:
        out = mem.call(name, args)
        assert "Error" in out or "exit code" in out, out
        assert _files(pg_store) == before, (name, args)
    monkeypatch.undo()
    assert len(PostgresVersionLog(pg_store).entries()) == n
    mem.call("bash", {"command": "echo kept >> notes.md"})
    assert pg_store.read_bytes("notes.md").endswith(b"kept\n")
    ids = [v.id for v in PostgresVersionLog(pg_store).entries()]
    assert ids == list(range(1, n + 2))


def test_a_rolled_back_version_is_forgotten(pg_store):
    mem = Memory(pg_store)
    n = len(mem.versions.entries())
    with pytest.raises(RuntimeError):
        with pg_store.lock("x.md"):
            mem.tool_store.write_bytes("x.md", b"never\n")  # the version is counted here ...
            raise RuntimeError("... and the transaction rolled back")
    assert not pg_store.exists("x.md")
    assert len(mem.versions.entries()) == n and mem.versions.state("x.md") is None
    mem.tool_store.write_bytes("x.md", b"kept\n")
    assert [v.id for v in mem.versions.entries()] == list(range(1, n + 2))
    assert mem.history("x.md")[0].kind == "created"


def test_other_processes_see_the_same_log_and_retention(pg_store):
    mem = Memory(pg_store, versions=PostgresVersionLog(pg_store))
    other = PostgresVersionLog(pg_store)  # another process's view
    for i in range(4):
        mem.tool_store.write_bytes("a.md", b"%d\n" % i)
    assert other.entries() == mem.versions.entries()
    dropped = mem.versions.prune(Retention(count=1))
    assert dropped >= 3
    assert other.entries() == mem.versions.entries()
    assert mem.versions.get_blob(mem.versions.state("a.md")) == b"3\n"
    assert len(set(other.blob_names())) == len({h for v in other.entries() for h in (v.before, v.after) if h})
    mem.tool_store.write_bytes("a.md", b"again\n")
    assert other.entries()[-1] == mem.versions.entries()[-1]


def test_odd_file_names_keep_their_bytes(pg_store):
    mem = Memory(pg_store)
    name = "caf\udcff \u00e9.md"  # an undecodable byte kept as a surrogate
    mem.tool_store.write_bytes(name, b"x")
    newest = PostgresVersionLog(pg_store).entries()[-1]
    assert newest.path == name and newest.kind == "created"


def test_drop_namespace_drops_its_history(pg_store):
    mem = Memory(pg_store)
    mem.tool_store.write_bytes("a.md", b"a")
    pg_store.drop_namespace()
    assert mem.versions.entries() == [] and PostgresVersionLog(pg_store).entries() == []


def test_a_failing_database_refuses_the_change(pg_store, monkeypatch):
    mem = Memory(pg_store)
    mem.notice_edits()
    before = _files(pg_store)

    def down(self, fn):
        raise FSError(5, ".memtool/versions", "Input/output error (memory database unavailable; retry in a moment)")

    monkeypatch.setattr(PostgresVersionLog, "_run", down)
    out = mem.call("memory", {"command": "create", "path": "/memories/n.md", "file_text": "x"})
    assert out.startswith("Error") and "Traceback" not in out
    monkeypatch.undo()
    assert _files(pg_store) == before


def _history(mem: Memory) -> list[tuple]:
    return [(e.id, e.actor, e.path, e.summary) for e in mem.history()]


def test_export_then_import_into_an_empty_directory_and_into_postgres(tmp_path, pgserver_module):
    """Both ways: a local memory exported, imported into an empty directory and into
    PostgreSQL; the PostgreSQL memory exported and imported into another empty directory and
    another namespace: every copy has identical files and history."""
    src = Memory(str(tmp_path / "mem"), gitignore=False)
    src.call("memory", {"command": "create", "path": "/memories/t/a.md", "file_text": "a\n"})
    src.call("bash", {"command": "echo b >> t/a.md; sed -i 's/a/A/' t/a.md; cp t/a.md t/c.md; rm t/c.md"})
    src.call("memory", {"command": "str_replace", "path": "/memories/core.md", "old_str": "#", "new_str": "##"})
    src.record("user", "hi")
    (tmp_path / "mem" / "notes.md").write_text("a person's edit\n")
    src.notice_edits()
    src.call("bash", {"command": "mv t/a.md t/b.md"})
    want_files = _files(src.store)
    want_log = local_log(src.base_store.path).entries()
    first = str(tmp_path / "first.tar")
    export_archive(src.base_store, src.versions, first)

    copies = []
    for kind in ("directory", "postgres"):
        if kind == "directory":
            store = LocalStore(str(tmp_path / f"copy-{kind}"))
            log = local_log(store.path)
        else:
            store = pgserver_module.fresh_store()
            log = PostgresVersionLog(store)
        import_archive(store, log, first)
        copies.append(Memory(store))
    pg_copy = copies[1]
    second = str(tmp_path / "second.tar.gz")
    export_archive(pg_copy.base_store, pg_copy.versions, second)
    store = LocalStore(str(tmp_path / "copy-from-postgres"))
    import_archive(store, local_log(store.path), second)
    copies.append(Memory(store))
    store = pgserver_module.fresh_store()
    import_archive(store, PostgresVersionLog(store), second)
    copies.append(Memory(store))

    for copy in copies:
        assert _files(copy.store) == want_files, copy.base_store
        assert copy.versions.entries() == want_log, copy.base_store
        assert _history(copy) == _history(src)
        for v in want_log:
            for h in (v.before, v.after):
                if h:
                    assert copy.versions.get_blob(h) == src.versions.get_blob(h)
        assert copy.notice_edits() == []  # nothing looks edited after the import
    last = copies[1]
    last.restore("t/a.md", last.history("t/a.md")[-1].id)  # its first version
    assert last.store.read_bytes("t/a.md") == b"a\n"


def test_store_version_log_still_works_on_postgres(pg_store):
    """A log kept inside the store (``StoreVersionLog``, for any store) can still be chosen."""
    mem = Memory(pg_store, versions=StoreVersionLog(pg_store))
    mem.call("bash", {"command": "echo x > a.md"})
    assert mem.history("a.md")[0].actor == "bash"
    assert "could not" not in mem.call("bash", {"command": "ls -a"})
