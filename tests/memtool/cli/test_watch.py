"""memtool.watch over a store without file events (polling by version)."""

from __future__ import annotations

from memtool import Memory, MemoryStore
from memtool.watch import Watcher


def test_changes_are_reported_with_diffs():
    mem = Memory(store=MemoryStore())
    store = mem.store
    watcher = Watcher(store, poll=True, interval=0.05)
    assert watcher.mode.startswith("polling")
    assert watcher.scan() == []

    mem.record("user", "hello there")
    mem.call("memory", {"command": "create", "path": "topics/a.md", "file_text": "one\ntwo\n"})
    changes = {c.path: c for c in watcher.scan()}
    assert changes["conversations.jsonl"].kind == "modified"
    assert len(changes["conversations.jsonl"].diff) == 1
    assert changes["conversations.jsonl"].diff[0].startswith('+{"role": "user", "content": "hello there"')
    assert (changes["topics/a.md"].kind, changes["topics/a.md"].diff) == ("created", ["+one", "+two"])

    mem.call("memory", {"command": "str_replace", "path": "topics/a.md", "old_str": "two", "new_str": "2"})
    [change] = watcher.scan()
    assert change.kind == "modified" and change.diff[:2] == ["--- a/topics/a.md", "+++ b/topics/a.md"]
    assert "-two" in change.diff and "+2" in change.diff

    store.write_bytes("blob.bin", b"\xff\xfe")
    mem.call("memory", {"command": "delete", "path": "topics/a.md"})
    changes = {c.path: c for c in watcher.scan()}
    assert changes["blob.bin"].diff == ["(binary or large file: 0 -> 2 bytes)"]
    assert (changes["topics/a.md"].kind, changes["topics/a.md"].diff) == ("deleted", ["-one", "-2"])
    assert watcher.scan() == []


def test_changes_generator_stops_on_count_and_timeout():
    mem = Memory(store=MemoryStore())
    watcher = Watcher(mem.store, poll=True, interval=0.05)
    assert list(watcher.changes(timeout=0.2)) == []
    mem.call("memory", {"command": "create", "path": "x.md", "file_text": "x"})
    mem.call("memory", {"command": "create", "path": "y.md", "file_text": "y"})
    assert [c.path for c in Watcher(mem.store, poll=True).changes(count=1, timeout=0.2)] == []
    watcher2 = Watcher(mem.store, poll=True, interval=0.05)
    mem.call("memory", {"command": "create", "path": "z.md", "file_text": "z"})
    assert [c.path for c in watcher2.changes(count=1, timeout=5)] == ["z.md"]
