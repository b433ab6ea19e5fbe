"""Path attacks on the structured tool: every one is refused, and nothing is read or written.

Each path of the corpus is tried with every command that takes a path (view, create, update,
search, str_replace, insert, delete, rename from and to), on every store; the whole store is
compared before and after, and a secret file next to the memory directory must never leak.
"""

from __future__ import annotations

import os

import pytest

from memtool import Memory
from memtool.tools.paths import PathRefused, resolve

SECRET = "TOP-SECRET-OUTSIDE-CONTENT"

ATTACKS: list[str] = [
    "../outside.txt",
    "/memories/../outside.txt",
    "/memories/../../etc/passwd",
    "/.memory/../outside.txt",
    "notes/../../outside.txt",
    "..",
    "/memories/..",
    "a/..",
    "a/../../b",
    "...",
    "notes..md",
    "%2e%2e/outside.txt",
    "%2E%2E/outside.txt",
    "/memories/%2e%2e/outside.txt",
    "%2e%2e%2foutside.txt",
    "..%2foutside.txt",
    "%252e%252e/outside.txt",
    "/memories/%2F..%2Foutside.txt",
    "%00notes.md",
    "notes.md%00.txt",
    "..\\outside.txt",
    "\\memories\\notes.md",
    "/memories\\..\\outside.txt",
    "a\\b",
    "/memories_x/notes.md",
    "/memoriesnotes.md",
    "/memories-backup/core.md",
    "/.memoryx/core.md",
    "/etc/passwd",
    "/tmp/x.md",
    "/",
    "//etc/passwd",
    "/Memories/core.md",
    "~/notes.md",
    "~root/x",
    "notes.md\x00.txt",
    "/memories/notes.md\x00",
    "\x00",
    "a\nb.md",
    "a\rb.md",
    "tab\there.md",
    "\x7fdel.md",
    "\uff0e\uff0e/outside.txt",  # fullwidth dots
    "\u2024\u2024/outside.txt",  # one dot leaders
    "a\u2215..\u2215outside.txt",  # division slash
    "\uff3coutside.txt",  # fullwidth backslash
    "./notes.md",
    "/memories/./notes.md",
    "a/./b.md",
    "x" * 256 + ".md",
    "/memories/" + "/".join(["d"] * 7) + "/deep.md",
    "",
]


def test_corpus_is_big_enough():
    assert len(ATTACKS) >= 40


@pytest.mark.parametrize("raw", ATTACKS, ids=[repr(a)[:40] for a in ATTACKS])
def test_resolve_refuses(raw):
    with pytest.raises(PathRefused):
        resolve(raw, max_depth=6)


def _commands(raw: str) -> list[dict]:
    return [
        dict(command="view", path=raw),
        dict(command="view", path=raw, view_range=[1, 1]),
        dict(command="create", path=raw, file_text="pwned"),
        dict(command="update", path=raw, content="pwned"),
        dict(command="update", path=raw, content="pwned", mode="append"),
        dict(command="search", query="SECRET", path=raw),
        dict(command="str_replace", path=raw, old_str="TOP", new_str="pwned"),
        dict(command="insert", path=raw, insert_line=0, insert_text="pwned"),
        dict(command="delete", path=raw),
        dict(command="rename", old_path=raw, new_path="/memories/moved.md"),
        dict(command="rename", old_path="/memories/notes.md", new_path=raw),
    ]


@pytest.mark.parametrize("raw", ATTACKS, ids=[repr(a)[:40] for a in ATTACKS])
def test_every_command_refuses_and_touches_nothing(store, tmp_path, raw, snapshot):
    (tmp_path / "outside.txt").write_text(SECRET)
    mem = Memory(store)
    mem.store.write_bytes("notes.md", b"TOP notes\n")
    before = snapshot(mem.store)
    for args in _commands(raw):
        out = mem.call("memory", args)
        assert out.startswith("Error: The path "), (args, out)
        assert " is not allowed: " in out, (args, out)
        assert SECRET not in out and str(tmp_path) not in out
        assert "\x00" not in out and "\n" not in out.rstrip("\n")
    assert snapshot(mem.store) == before
    assert (tmp_path / "outside.txt").read_text() == SECRET


@pytest.mark.parametrize("raw", ["/memories", "/.memory", "/memories/", ""])
def test_root_cannot_be_deleted_or_renamed(mem, raw, snapshot):
    before = snapshot(mem.store)
    for args in (dict(command="delete", path=raw),
                 dict(command="rename", old_path=raw, new_path="/memories/x"),
                 dict(command="create", path=raw, file_text="x")):
        out = mem.call("memory", args)
        assert out.startswith("Error:"), (args, out)
    assert snapshot(mem.store) == before


@pytest.mark.parametrize("raw,rel", [
    ("/memories/notes.md", "notes.md"),
    ("/.memory/notes.md", "notes.md"),
    ("notes.md", "notes.md"),
    ("/memories/topics/a.md", "topics/a.md"),
    ("topics//a.md", "topics/a.md"),
    ("/memories", ""),
    ("/memories/", ""),
    ("/.memory", ""),
    ("Ünïcode name.md", "Ünïcode name.md"),
])
def test_accepted_paths(raw, rel):
    assert resolve(raw).rel == rel


def test_depth_cap_is_configurable(store):
    mem = Memory(store, max_depth=2)
    assert mem.call("memory", dict(command="create", path="a/b.md", file_text="x")).startswith("File created")
    out = mem.call("memory", dict(command="create", path="a/b/c.md", file_text="x"))
    assert out == "Error: The path a/b/c.md is not allowed: it is more than 2 levels deep."


def _local_memory(tmp_path) -> Memory:
    (tmp_path / "outside.txt").write_text(SECRET)
    (tmp_path / "outdir").mkdir()
    (tmp_path / "outdir" / "f.md").write_text(SECRET)
    return Memory(str(tmp_path / "mem"), gitignore=False)


@pytest.mark.parametrize("target", ["outside.txt", "outdir", "mem/notes.md"])
@pytest.mark.parametrize("command", ["view", "create", "update", "str_replace", "insert", "delete",
                                     "rename", "search"])
def test_symlinks_are_refused(tmp_path, target, command):
    mem = _local_memory(tmp_path)
    root = tmp_path / "mem"
    os.symlink(tmp_path / target, root / "link")
    os.symlink(tmp_path / target, root / "link.md")
    paths = {"link": "/memories/link", "link.md": "/memories/link.md", "inner": "/memories/link/f.md"}
    for raw in paths.values():
        args = {"view": dict(command="view", path=raw),
                "create": dict(command="create", path=raw, file_text="pwned"),
                "update": dict(command="update", path=raw, content="pwned"),
                "str_replace": dict(command="str_replace", path=raw, old_str="TOP", new_str="x"),
                "insert": dict(command="insert", path=raw, insert_line=0, insert_text="x"),
                "delete": dict(command="delete", path=raw),
                "rename": dict(command="rename", old_path=raw, new_path="/memories/moved"),
                "search": dict(command="search", query="secret", path=raw)}[command]
        out = mem.call("memory", args)
        assert SECRET not in out and str(tmp_path) not in out, (args, out)
        if command in ("view", "str_replace", "insert", "search", "update", "create") and raw != paths["link"]:
            assert out.startswith("Error: The path") or out.startswith("Error: File") or out.startswith(
                "The path"), (args, out)
    assert (tmp_path / "outside.txt").read_text() == SECRET
    assert (tmp_path / "outdir" / "f.md").read_text() == SECRET
    assert os.path.islink(root / "link") or command in ("delete", "rename")


def test_symlink_is_reported_as_such(tmp_path):
    mem = _local_memory(tmp_path)
    os.symlink(tmp_path / "outside.txt", tmp_path / "mem" / "link.md")
    assert mem.call("memory", dict(command="view", path="/memories/link.md")) == (
        "Error: The path /memories/link.md is not allowed: it is a symbolic link.")
    listing = mem.call("memory", dict(command="view", path="/memories"))
    assert SECRET not in listing and "link.md" not in listing


def test_hard_link_is_refused(tmp_path):
    mem = _local_memory(tmp_path)
    os.link(tmp_path / "outside.txt", tmp_path / "mem" / "hard.md")
    out = mem.call("memory", dict(command="view", path="/memories/hard.md"))
    assert out.startswith("Error: The path /memories/hard.md is not allowed"), out
    out = mem.call("memory", dict(command="update", path="/memories/hard.md", content="pwned"))
    assert out.startswith("Error: The path /memories/hard.md is not allowed"), out
    assert (tmp_path / "outside.txt").read_text() == SECRET
