"""Versions of memory files: every change by either tool, the application or a person is a
version; history, diff, restore (itself a version), retention, a failed record undoing its
change, the hidden version store, export/import, scopes, and the in-memory store."""

from __future__ import annotations

import json
import os

import pytest

from memtool import Memory
from memtool.history import HistoryError, MemoryVersionLog, Retention, acting
from memtool.history.archive import ArchiveError, export_archive, import_archive
from memtool.stores.local import LocalStore
from memtool.stores.memory import MemoryStore
from sandbox.fs.base import FSError
from sandbox.policy import DEFAULT_ALLOW

ALLOW = DEFAULT_ALLOW | {"rm", "mv", "cp", "tee", "rmdir", "find"}


@pytest.fixture
def mem(store):
    """A memory with versions on each store kind (a directory, in memory, PostgreSQL with its
    versions table), with mv/cp/rm allowed."""
    return Memory(store, allow=ALLOW)


def files(m: Memory) -> dict[str, bytes]:
    """Every file of the memory (conversation log included) and its content."""
    from memtool.history.archive import walk_files

    return {p: m.store.read_bytes(p) for p in walk_files(m.store)}


def test_every_write_path_of_both_tools_is_a_version(mem):
    mem.notice_edits()
    start = mem.versions.entries()[-1].id
    calls = [
        ("memory", {"command": "create", "path": "/memories/a.md", "file_text": "one\n"}),
        ("memory", {"command": "update", "path": "/memories/a.md", "content": "two", "mode": "append"}),
        ("memory", {"command": "update", "path": "/memories/a.md", "content": "three\n"}),
        ("memory", {"command": "str_replace", "path": "/memories/a.md", "old_str": "three", "new_str": "3"}),
        ("memory", {"command": "insert", "path": "/memories/a.md", "insert_line": 0, "insert_text": "top"}),
        ("memory", {"command": "rename", "old_path": "/memories/a.md", "new_path": "/memories/d/b.md"}),
        ("memory", {"command": "delete", "path": "/memories/d"}),
        ("bash", {"command": "echo x > c.md"}),
        ("bash", {"command": "echo y >> c.md"}),
        ("bash", {"command": "sed -i 's/x/z/' c.md"}),
        ("bash", {"command": "echo t | tee t.md"}),
        ("bash", {"command": "cp c.md e.md && mv e.md f.md"}),
        ("bash", {"command": "rm c.md f.md t.md"}),
    ]
    for name, args in calls:
        out = mem.call(name, args)
        assert not out.startswith("Error"), out
    made = [(e.actor, e.path, e.kind) for e in mem.history() if e.id > start][::-1]
    assert made == [
        ("memory", "a.md", "created"), ("memory", "a.md", "modified"), ("memory", "a.md", "modified"),
        ("memory", "a.md", "modified"), ("memory", "a.md", "modified"),
        ("memory", "a.md", "deleted"), ("memory", "d/b.md", "created"),
        ("memory", "d/b.md", "deleted"),
        ("bash", "c.md", "created"), ("bash", "c.md", "modified"), ("bash", "c.md", "modified"),
        ("bash", "t.md", "created"),
        ("bash", "f.md", "created"),  # a bash call's net change: e.md was only on the way
        ("bash", "c.md", "deleted"), ("bash", "f.md", "deleted"), ("bash", "t.md", "deleted"),
    ]
    details = {v.detail for v in mem.versions.entries() if v.actor == "bash"}
    assert "sed -i 's/x/z/' c.md" in details
    # every version chains: its `before` is the previous version's `after` for that path
    last: dict[str, str | None] = {}
    for v in mem.versions.entries():
        assert last.get(v.path) == v.before, v
        last[v.path] = v.after


def test_restore_after_mangling_sed(mem):
    before = mem.store.read_bytes("core.md")
    mem.call("bash", {"command": "sed -i 's/.*/oops/' core.md"})
    assert mem.store.read_bytes("core.md") != before
    newest = mem.history("core.md")[0]
    assert newest.actor == "bash" and newest.detail == "sed -i 's/.*/oops/' core.md"
    mem.restore("/memories/core.md", newest.id - 1)
    assert mem.store.read_bytes("core.md") == before
    undo = mem.history("core.md")[0]
    assert undo.actor == "restore" and undo.id == newest.id + 1
    mem.restore("core.md", newest.id)  # restoring is undoable
    assert mem.store.read_bytes("core.md").startswith(b"oops\n")


def test_restore_everything_after_rm_r(mem):
    mem.call("memory", {"command": "create", "path": "/memories/topics/a.md", "file_text": "A\n"})
    mem.call("memory", {"command": "create", "path": "/memories/topics/deep/b.md", "file_text": "B\n"})
    snapshot = files(mem)
    point = mem.history(limit=1)[0].id
    out = mem.call("bash", {"command": "rm -r /.memory/*"})
    assert "conversations.jsonl" in out  # protected: refused, the rest removed
    assert set(files(mem)) == {"conversations.jsonl"}
    mem.restore(None, point)
    assert files(mem) == snapshot
    assert mem.history("topics")[0].kind == "created"


def test_restore_after_an_editors_change(tmp_path):
    m = Memory(str(tmp_path / "mem"), gitignore=False)
    m.notice_edits()
    original = (tmp_path / "mem" / "notes.md").read_bytes()
    (tmp_path / "mem" / "notes.md").write_text("rewritten by hand\n")
    (tmp_path / "mem" / "new.md").write_text("new by hand\n")
    m.call("memory", {"command": "view", "path": "/memories"})  # noticed at the next tool call
    top = m.history(limit=2)
    assert {(e.actor, e.path, e.kind) for e in top} == {("person", "notes.md", "modified"),
                                                       ("person", "new.md", "created")}
    notes = m.history("notes.md")[0]
    m.restore("notes.md", notes.id - 1)
    assert (tmp_path / "mem" / "notes.md").read_bytes() == original
    os.remove(tmp_path / "mem" / "new.md")
    assert m.notice_edits()[0].kind == "deleted"


def test_edit_found_when_a_tool_changes_the_same_file(tmp_path):
    m = Memory(str(tmp_path / "mem"), gitignore=False)
    m.notice_edits()
    (tmp_path / "mem" / "notes.md").write_text("by hand\n")
    m.tool_store.write_bytes("notes.md", b"by app\n")  # no scan in between
    kinds = [(e.actor, m.content_at("notes.md", e.id)) for e in m.history("notes.md", limit=2)]
    assert kinds == [("app", b"by app\n"), ("person", b"by hand\n")]


def test_history_entries_and_diff(mem):
    mem.call("memory", {"command": "create", "path": "/memories/h.md", "file_text": "a\nb\n"})
    mem.call("memory", {"command": "str_replace", "path": "/memories/h.md", "old_str": "b", "new_str": "c"})
    first, second = mem.history("h.md")[::-1]
    assert first.kind == "created" and first.summary == "created (4 bytes, 2 lines)"
    assert second.summary == "modified (+1 -1 lines)" and second.actor == "memory"
    assert json.loads(second.detail)["command"] == "str_replace"
    assert second.when.endswith("Z")
    text = mem.diff("h.md")
    assert text.splitlines()[:2] == [f"--- a/h.md\tv{first.id}", "+++ b/h.md\tnow"]
    assert "-b\n+c\n" in text
    assert mem.diff("h.md", first.id, second.id).endswith("-b\n+c\n")
    assert mem.diff("h.md", second.id) == ""
    with pytest.raises(HistoryError):
        mem.diff("h.md", 10_000)
    with pytest.raises(HistoryError):
        mem.restore("h.md", "x1")


def test_record_is_not_versioned(mem):
    mem.notice_edits()
    n = len(mem.versions.entries())
    for i in range(20):
        mem.record("user", f"turn {i}")
    mem.call("memory", {"command": "view", "path": "/memories/core.md"})
    assert len(mem.versions.entries()) == n


def test_a_change_whose_version_cannot_be_recorded_is_undone(mem, monkeypatch):
    mem.notice_edits()
    before = files(mem)

    def broken(lines):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(mem.versions, "_write_lines", broken)
    for name, args in [("memory", {"command": "create", "path": "/memories/n.md", "file_text": "x"}),
                       ("memory", {"command": "update", "path": "/memories/notes.md", "content": "gone"}),
                       ("bash", {"command": "echo gone > notes.md"}),
                       ("bash", {"command": "rm notes.md"}),
                       ("bash", {"command": "mv notes.md moved.md"})]:
        out = mem.call(name, args)
        assert "could not be recorded" in out or "Error" in out or "exit code" in out, out
        assert files(mem) == before


def test_version_store_is_invisible_and_unreachable(tmp_path):
    m = Memory(str(tmp_path / "mem"), allow=ALLOW, gitignore=False)
    m.call("bash", {"command": "echo hi > a.md"})
    assert (tmp_path / "mem" / ".memtool" / "versions" / "log.jsonl").exists()
    listing = m.call("bash", {"command": "ls -a; ls -aR /.memory; grep -r sha256 . ; grep -rl '\"actor\"' /.memory"})
    assert ".memtool" not in listing and "log.jsonl" not in listing and "objects" not in listing
    for cmd in ["cat .memtool/versions/log.jsonl", "ls .memtool", "cd .memtool", "ls /.memory/.memtool/versions",
                "echo x > .memtool/x", "mkdir .memtool", "mv a.md .memtool", "rm -r .memtool",
                "cp a.md .memtool/versions/log.jsonl", "touch .memtool", "cat .memtool/../a.md"]:
        out = m.call("bash", {"command": cmd})
        assert "exit code" in out, (cmd, out)
    if "not available" not in m.call("bash", {"command": "find . -name '*'"}):
        assert ".memtool" not in m.call("bash", {"command": "find / ; find . -name 'log*'"})
    for args in [{"command": "view", "path": "/memories/.memtool"},
                 {"command": "view", "path": "/memories/.memtool/versions/log.jsonl"},
                 {"command": "create", "path": "/memories/.memtool/x.md", "file_text": "x"},
                 {"command": "search", "query": "actor", "path": "/memories"},
                 {"command": "rename", "old_path": "/memories/a.md", "new_path": "/memories/.memtool"}]:
        out = m.call("memory", args)
        assert "sha256" not in out and '"actor"' not in out
        assert not out.startswith(("File created", "Successfully", "Here's the content")), out
    view = m.call("memory", {"command": "view", "path": "/memories"})
    assert ".memtool" not in view
    assert (tmp_path / "mem" / ".memtool" / "versions" / "log.jsonl").stat().st_size > 0
    assert str(tmp_path) not in listing


def test_retention_by_count_and_age(tmp_path):
    log = MemoryVersionLog()
    m = Memory(MemoryStore(), versions=log)
    for i in range(10):
        m.tool_store.write_bytes("a.md", f"{i}\n".encode())
        m.tool_store.write_bytes("b.md", f"{i}\n".encode())
    assert log.prune(Retention(count=3)) > 0
    kept = log.entries()
    assert [v.path for v in kept].count("a.md") == 3 and [v.path for v in kept].count("b.md") == 3
    assert m.content_at("a.md", kept[-1].id) == b"9\n"
    assert all(log.get_blob(h) for v in kept for h in (v.before, v.after) if h)
    assert len(list(log.blob_names())) <= 10
    m.tool_store.remove("b.md")
    dropped = log.prune(Retention(age=0), now=kept[-1].time + 10)
    assert dropped > 0
    left = log.entries()
    assert [(v.path, v.kind) for v in left if v.path in ("a.md", "b.md")] == [("a.md", "modified")]
    # automatic pruning with the memory's own retention
    auto = Memory(MemoryStore(), retention=Retention(count=2))
    for i in range(100):
        auto.tool_store.write_bytes("c.md", f"{i}\n".encode())
    assert [v.path for v in auto.versions.entries()].count("c.md") <= 2 + 64


def test_local_retention_rewrites_the_log_for_other_handles(tmp_path):
    m = Memory(str(tmp_path / "mem"), gitignore=False)
    for i in range(5):
        m.tool_store.write_bytes("a.md", f"{i}\n".encode())
    from memtool.history import LocalVersionLog

    other = LocalVersionLog(str(tmp_path / "mem"))  # another process's view
    assert len(other.entries()) == len(m.versions.entries())
    m.versions.prune(Retention(count=1))
    assert [v.path for v in other.entries()].count("a.md") == 1
    m.tool_store.write_bytes("a.md", b"after\n")
    assert other.entries()[-1].after == m.versions.entries()[-1].after


def test_export_then_import_loses_nothing(tmp_path):
    src = Memory(str(tmp_path / "mem"), allow=ALLOW, gitignore=False)
    src.call("memory", {"command": "create", "path": "/memories/t/x.md", "file_text": "x\n"})
    src.call("bash", {"command": "sed -i 's/x/y/' t/x.md; rm notes.md"})
    src.record("user", "hello")
    src.notice_edits()
    out = str(tmp_path / "export.tar.gz")
    counts = export_archive(src.base_store, src.versions, out)
    assert counts["versions"] == len(src.versions.entries())
    dst_store = LocalStore(str(tmp_path / "copy"))
    from memtool.history import local_log
    from memtool.history.archive import walk_files

    import_archive(dst_store, local_log(dst_store.path), out)
    assert {p: dst_store.read_bytes(p) for p in walk_files(dst_store)} == files(src)
    for p in walk_files(dst_store):
        assert dst_store.stat(p).mtime == pytest.approx(src.store.stat(p).mtime, abs=1)
    dst = Memory(str(tmp_path / "copy"), gitignore=False)  # bootstraps notes.md again
    assert dst.versions.entries() == src.versions.entries()
    assert [e.summary for e in dst.history_api.entries()] == [e.summary for e in src.history_api.entries()]
    # into an in-memory store
    mstore = MemoryStore()
    mlog = MemoryVersionLog()
    import_archive(mstore, mlog, out)
    assert {p: mstore.read_bytes(p) for p in walk_files(mstore)} == files(src)
    assert mlog.entries() == src.versions.entries()
    with pytest.raises(ArchiveError):
        import_archive(dst_store, local_log(dst_store.path), out)  # not empty


def test_import_refuses_unsafe_members(tmp_path):
    import io
    import tarfile

    bad = tmp_path / "bad.tar"
    with tarfile.open(bad, "w") as tar:
        for name, data in [("manifest.json", b'{"format": "memtool-export", "version": 1}'),
                           ("files/../escape.md", b"x"), ("files//abs.md", b"x"), ("files/.memtool/x", b"x"),
                           ("files/ok.md", b"ok"), ("versions/objects/" + "0" * 64, b"not that")]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo("files/link.md")
        link.type = tarfile.SYMTYPE
        link.linkname = "/etc/passwd"
        tar.addfile(link)
    store = LocalStore(str(tmp_path / "t"))
    from memtool.history import local_log

    counts = import_archive(store, local_log(store.path), str(bad))
    assert counts["files"] == 1 and counts["skipped"] == 5
    assert sorted(os.listdir(tmp_path / "t")) == [".memtool", "ok.md"]
    assert not (tmp_path / "escape.md").exists()
    junk = tmp_path / "junk.tar"
    junk.write_bytes(b"not a tar at all")
    with pytest.raises(ArchiveError):
        import_archive(LocalStore(str(tmp_path / "u")), None, str(junk))


def test_scopes_have_their_own_history(tmp_path):
    base = LocalStore(str(tmp_path / "mem"))
    a = Memory(base, scope="user:1")
    b = Memory(base, scope="user:2")
    a.call("memory", {"command": "create", "path": "/memories/x.md", "file_text": "A"})
    b.call("memory", {"command": "create", "path": "/memories/x.md", "file_text": "B"})
    assert {e.path for e in a.history()} >= {"x.md"}
    va = a.history("x.md")[0]
    assert a.content_at("x.md", va.id) == b"A"
    b.call("memory", {"command": "delete", "path": "/memories/x.md"})
    with pytest.raises(HistoryError):
        a.restore("x.md", b.history("x.md")[0].id)  # another scope's version
    b.restore("x.md", b.history("x.md")[1].id)
    assert b.store.read_bytes("x.md") == b"B"


def test_acting_names_the_application(mem):
    with acting("cli", "memtool sh -c 'echo'"):
        mem.tool_store.write_bytes("z.md", b"z")
    mem.tool_store.write_bytes("z.md", b"zz")
    assert [(e.actor, e.detail) for e in mem.history("z.md")] == [("app", ""), ("cli", "memtool sh -c 'echo'")]


def test_versions_off(tmp_path):
    m = Memory(str(tmp_path / "mem"), versions=False, gitignore=False)
    assert m.versions is None and m.tool_store is m.store
    m.call("bash", {"command": "echo x > y.md"})
    assert not (tmp_path / "mem" / ".memtool").exists()
    with pytest.raises(HistoryError):
        m.history()


def test_reserved_name_in_the_store(tmp_path):
    store = LocalStore(str(tmp_path / "mem"))
    (tmp_path / "mem" / ".memtool").mkdir()
    (tmp_path / "mem" / ".memtool" / "f").write_text("secret")
    assert ".memtool" not in store.listdir("")
    for fn, args in [(store.stat, (".memtool",)), (store.read_bytes, (".memtool/f",)),
                     (store.listdir, (".memtool",)), (store.remove, (".memtool/f",)),
                     (store.write_bytes, (".memtool/f", b"x")), (store.append_bytes, (".memtool/f", b"x")),
                     (store.mkdir, (".memtool",)), (store.rename, (".memtool", "x")),
                     (store.rename, ("x", ".memtool")), (store.rmdir, (".memtool",))]:
        with pytest.raises(FSError):
            fn(*args)
    assert (tmp_path / "mem" / ".memtool" / "f").read_text() == "secret"


def test_torn_records_at_the_end_are_cut_off(tmp_path):
    m = Memory(str(tmp_path / "mem"), gitignore=False)
    m.tool_store.write_bytes("a.md", b"one\n")
    vdir = tmp_path / "mem" / ".memtool" / "versions"
    with open(vdir / "objects.pack", "ab") as f:  # a content cut short by a crash
        f.write(b"ab" * 32 + b" 1000\npartial")
    with open(vdir / "log.jsonl", "ab") as f:  # a line cut short by a crash
        f.write(b'{"id": 99, "ti')
    from memtool.history import LocalVersionLog

    fresh = LocalVersionLog(str(tmp_path / "mem"))  # another process
    assert [v.id for v in fresh.entries()] == [v.id for v in m.versions.entries()]
    m.tool_store.write_bytes("a.md", b"two\n")  # the next writer ends the torn line and record
    again = LocalVersionLog(str(tmp_path / "mem"))
    newest = again.entries()[-1]
    assert newest.id == fresh.entries()[-2].id + 1 if len(fresh.entries()) > 1 else True
    assert again.get_blob(newest.after) == b"two\n" and again.get_blob(newest.before) == b"one\n"
    assert [v.id for v in again.entries()] == list(range(1, len(again.entries()) + 1))


def test_store_version_log_on_any_store():
    from memtool.history import StoreVersionLog
    from sandbox.fs.memory import MemoryFS

    fs = MemoryFS()
    log = StoreVersionLog(fs)
    m = Memory(fs, versions=log, allow=ALLOW)
    out = m.call("bash", {"command": "echo hi > a.md; sed -i s/hi/ho/ a.md; ls -a; grep -r actor ."})
    assert ".memtool" not in out and "actor" not in out
    assert "Permission denied" in m.call("bash", {"command": "mkdir .memtool"})
    assert ".memtool" not in m.call("memory", {"command": "view", "path": "/memories"})
    assert m.history("a.md")[0].kind == "created"
    m.call("bash", {"command": "rm a.md"})
    m.restore("a.md", m.history("a.md")[1].id)
    assert fs.read_bytes("a.md") == b"ho\n"
    other = StoreVersionLog(fs)  # another process's view
    assert other.entries() == log.entries()
    log.prune(Retention(count=1))
    assert other.entries() == log.entries()
    m.tool_store.write_bytes("a.md", b"again\n")
    assert other.entries()[-1].after == log.entries()[-1].after


def test_docs_snippets_run(tmp_path, monkeypatch, capsys):
    import re
    from pathlib import Path

    doc = Path(__file__).resolve().parents[2] / "docs" / "versions.md"
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(), re.S)
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(doc), "exec"), namespace)
    assert len(blocks) >= 2
    assert "oops" in capsys.readouterr().out
    assert "oops" in (tmp_path / ".memory" / "core.md").read_text()  # restored to right after the sed


def test_an_unwritable_history_refuses_writes_but_not_reads(tmp_path, monkeypatch):
    m = Memory(str(tmp_path / "mem"), allow=ALLOW, gitignore=False)
    m.notice_edits()
    before = (tmp_path / "mem" / "notes.md").read_bytes()

    def denied(self, digest, data):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(type(m.versions), "_store_blob", denied)
    (tmp_path / "mem" / "by_hand.md").write_text("typed\n")  # its scan fails: logged, not raised
    assert "Here's the content" in m.call("memory", {"command": "view", "path": "/memories/notes.md"})
    out = m.call("memory", {"command": "update", "path": "/memories/notes.md", "content": "x"})
    assert out.startswith("Error") and "version history cannot be written" in out
    out = m.call("bash", {"command": "echo x > notes.md"})
    assert "version history cannot be written" in out and "internal" not in out
    assert (tmp_path / "mem" / "notes.md").read_bytes() == before
