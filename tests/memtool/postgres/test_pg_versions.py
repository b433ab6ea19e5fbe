"""Versions on PostgreSQL (opt-in, kept in the store itself: StoreVersionLog): both tools' changes are
versions, the log is hidden from the tools, restore works, and export from a local directory
then import into PostgreSQL gives identical files and history."""

from __future__ import annotations

from memtool import Memory
from memtool.history import StoreVersionLog, local_log
from memtool.history.archive import export_archive, import_archive, walk_files
from sandbox.policy import DEFAULT_ALLOW


def test_versions_on_postgres(pg_store):
    assert Memory(pg_store).versions is None  # opt-in on PostgreSQL
    mem = Memory(pg_store, allow=DEFAULT_ALLOW | {"rm"}, versions=StoreVersionLog(pg_store))
    mem.call("bash", {"command": "sed -i 's/.*/MANGLED/' core.md"})
    out = mem.call("bash", {"command": "ls -a; grep -rl actor . ; cat .memtool/versions/log.jsonl"})
    assert ".memtool" not in out.split("[exit code")[0].replace("cat: .memtool", "")
    newest = mem.history("core.md")[0]
    assert newest.actor == "bash" and "sed -i" in newest.detail
    mem.restore("core.md", newest.id - 1)
    assert b"MANGLED" not in pg_store.read_bytes("core.md")
    assert mem.history("core.md")[0].actor == "restore"


def test_export_local_import_postgres(tmp_path, pg_store):
    src = Memory(str(tmp_path / "mem"), gitignore=False)
    src.call("memory", {"command": "create", "path": "/memories/t/a.md", "file_text": "a\n"})
    src.call("bash", {"command": "echo b >> t/a.md"})
    src.record("user", "hi")
    src.notice_edits()
    out = str(tmp_path / "x.tar")
    export_archive(src.base_store, src.versions, out)
    log = StoreVersionLog(pg_store)
    import_archive(pg_store, log, out)
    files = {p: pg_store.read_bytes(p) for p in walk_files(pg_store) if not p.startswith(".memtool/")}
    assert files == {p: src.store.read_bytes(p) for p in walk_files(src.store)}
    assert log.entries() == local_log(src.base_store.path).entries()
    dst = Memory(pg_store, versions=log)
    assert [e.summary for e in dst.history_api.entries()] == [e.summary for e in src.history_api.entries()]
