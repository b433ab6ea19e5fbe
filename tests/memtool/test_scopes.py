"""Scope keys: validation, encoding (case-insensitive filesystems, no path), isolation."""

from __future__ import annotations

import os

import pytest

from memtool import Memory, ScopeError
from memtool.scopes import decode_scope, encode_scope, validate_scope

BAD = [None, "", " ", "\t", "undefined", "null", "None", "NULL", "nil", "NaN", "user:None",
       "user:undefined", "user:null", "user:", ":42", "session:", "user: ", "a/b", "..\\x",
       "user:42\x00", "user\n42", " user:42", "user:42 ", "x" * 81, 42, b"user:42", "[object Object]",
       "user:[object Object]", "user::42"]
GOOD = ["user:42", "user:Alice", "user:alice", "session:2f1c-44", "agent", "..", ".", "a.b",
        "用户:张", "user:O'Brien", "CON", "user:%2e%2e"]


@pytest.mark.parametrize("key", BAD, ids=[repr(k)[:30] for k in BAD])
def test_bad_keys_refused(key, tmp_path):
    with pytest.raises(ScopeError) as info:
        validate_scope(key)
    assert str(info.value)
    with pytest.raises(ScopeError):
        Memory(str(tmp_path / "m"), scope=key, gitignore=False)
    assert not (tmp_path / "m" / "scopes").exists() or not os.listdir(tmp_path / "m" / "scopes")


@pytest.mark.parametrize("key", GOOD)
def test_encoding_is_a_safe_single_name(key):
    name = encode_scope(key)
    assert "/" not in name and "\\" not in name and name not in (".", "..") and not name.startswith(".")
    assert len(name.encode()) <= 255
    assert decode_scope(name) == key


def test_case_insensitive_filesystems_keep_keys_apart():
    names = {encode_scope(k).casefold() for k in GOOD + ["User:42", "USER:ALICE", "user:ALICE"]}
    assert len(names) == len(GOOD) + 3


def test_scopes_are_isolated(store, snapshot):
    alice = Memory(store, scope="user:Alice")
    alice2 = Memory(store, scope="user:alice")
    alice.call("memory", dict(command="update", path="core.md", content="- Alice likes tea", mode="append"))
    alice.record("user", "hello from Alice")
    assert "Alice likes tea" in alice.system_prompt()
    assert "Alice likes tea" not in alice2.system_prompt()
    assert alice2.recent(5) == []
    assert alice2.call("memory", dict(command="search", query="Alice")) == "No matches for alice in /memories."
    out = alice2.call("memory", dict(command="view", path="/memories"))
    assert "scopes" not in out and "%" not in out
    assert store.exists("scopes/user%3A%41lice/core.md") and store.exists("scopes/user%3Aalice/core.md")


def test_scoped_directory_on_disk(tmp_path):
    Memory(str(tmp_path / "m"), scope="user:42", gitignore=False)
    assert sorted(os.listdir(tmp_path / "m" / "scopes" / "user%3A42")) == [
        "conversations.jsonl", "core.md", "notes.md"]


def test_bash_tool_sees_only_its_scope(store):
    from memtool.tools.bash_tool import sandbox_available
    if not sandbox_available():
        pytest.skip("the sandbox (sandbox.api) is not installed")
    alice = Memory(store, scope="user:Alice")
    bob = Memory(store, scope="user:bob")
    alice.call("memory", dict(command="create", path="secret-plans.md", file_text="Alice plans a trip\n"))
    out = bob.bash("cat /.memory/secret-plans.md; cat /.memory/../secret-plans.md; grep -c Alice /.memory/core.md")
    assert "Alice plans" not in out
    assert "[exit code" in out
    assert "Alice plans a trip" in alice.bash("cat /.memory/secret-plans.md")


def test_a_scope_log_is_appended_lock_free_and_whole(tmp_path):
    """A scope's conversation log goes through the local store's ``append_line`` (nested path:
    the jail's link-refusing walk, a shared flock on the file), adds a missing newline once,
    and keeps every line whole when several processes append at once."""
    import multiprocessing as mp

    from memtool.stores.base import SubStore
    from memtool.stores.local import LocalStore

    root = tmp_path / "m"
    mem = Memory(str(root), scope="user:42", gitignore=False)
    assert isinstance(mem.store, SubStore) and callable(mem.store.append_line)
    log = root / "scopes" / "user%3A42" / "conversations.jsonl"
    log.write_bytes(b'{"role":"user","content":"hand edit"}')  # no final newline
    mem.record("user", "one")
    mem.record("user", "two")
    assert [t["content"] for t in mem.recent(5)] == ["hand edit", "one", "two"]
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_record_many, args=(str(root), w, 200)) for w in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    lines = log.read_bytes().split(b"\n")
    assert lines[-1] == b"" and len(lines) == 3 + 800 + 1
    seen = {}
    for t in Memory(str(root), scope="user:42", gitignore=False).recent(1000)[3:]:
        w, i = t["content"].split(":")
        assert int(i) == seen.get(w, -1) + 1  # each process's turns whole and in order
        seen[w] = int(i)
    assert sorted(seen.values()) == [199] * 4
    # A base store without append_line gives a view without it (callers fall back).
    assert not hasattr(SubStore(_NoAppendLine(str(tmp_path / "x")), "s"), "append_line")
    assert hasattr(SubStore(LocalStore(str(tmp_path / "y")), "s"), "append_line")


def _record_many(root: str, worker: int, n: int) -> None:
    mem = Memory(root, scope="user:42", gitignore=False)
    for i in range(n):
        mem.record("user", f"w{worker}:{i}")


class _NoAppendLine:
    """A store-like object without ``append_line`` (only what ``SubStore`` reads)."""

    def __init__(self, path: str):
        self.read_only = False


def test_a_scope_log_behind_a_planted_symlink_is_refused(tmp_path):
    """A host-side symlink in place of a scope directory or of its log is never followed by
    the lock-free append: the append fails with the jail's message, nothing outside changes."""
    from sandbox.fs.base import FSError

    from memtool.stores.local import LocalStore

    root = tmp_path / "m"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "conversations.jsonl").write_bytes(b"secret\n")
    store = LocalStore(str(root))
    store.mkdir("scopes")
    os.symlink(outside, root / "scopes" / "user%3A1")
    with pytest.raises(FSError) as info:
        store.append_line("scopes/user%3A1/conversations.jsonl", b"x\n")
    assert "symbolic link" in str(info.value).lower() and str(tmp_path) not in str(info.value)
    store.mkdir("scopes/user%3A2")
    os.symlink(outside / "conversations.jsonl", root / "scopes" / "user%3A2" / "conversations.jsonl")
    with pytest.raises(FSError) as info:
        store.append_line("scopes/user%3A2/conversations.jsonl", b"x\n")
    assert "symbolic link" in str(info.value).lower()
    assert (outside / "conversations.jsonl").read_bytes() == b"secret\n"
