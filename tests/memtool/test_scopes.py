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
