"""The structured ``memory`` tool: every result and error string, on every store.

Anthropic's strings are checked word for word against the ``memory_20250818`` documentation
("Memory tool" page of Anthropic's docs); the expected strings are written out here in full,
independently of ``MESSAGES`` in the implementation, so a typo in either one fails.
"""

from __future__ import annotations

import pytest

from memtool import Memory
from memtool.tools.memory_tool import human_size


def call(mem: Memory, **args) -> str:
    return mem.call("memory", args)


def put(mem: Memory, rel: str, text: str) -> None:
    parts = rel.split("/")
    for i in range(1, len(parts)):
        d = "/".join(parts[:i])
        if not mem.store.exists(d):
            mem.store.mkdir(d)
    mem.store.write_bytes(rel, text.encode())


# -- view -------------------------------------------------------------------------------


def test_view_file_with_line_numbers(mem):
    put(mem, "prefs.md", "Likes tea.\nPrefers km.\n")
    assert call(mem, command="view", path="/memories/prefs.md") == (
        "Here's the content of /memories/prefs.md with line numbers:\n"
        "     1\tLikes tea.\n"
        "     2\tPrefers km."
    )


def test_view_range(mem):
    put(mem, "n.md", "".join(f"line {i}\n" for i in range(1, 13)))
    assert call(mem, command="view", path="/memories/n.md", view_range=[10, -1]) == (
        "Here's the content of /memories/n.md with line numbers:\n"
        "    10\tline 10\n    11\tline 11\n    12\tline 12"
    )
    assert call(mem, command="view", path="/memories/n.md", view_range=[2, 3]) == (
        "Here's the content of /memories/n.md with line numbers:\n     2\tline 2\n     3\tline 3"
    )
    bad = call(mem, command="view", path="/memories/n.md", view_range=[5, 99])
    assert bad.startswith("Error: Invalid `view_range` parameter: [5, 99].")
    assert "12" in bad


def test_view_missing(mem):
    assert call(mem, command="view", path="/memories/nope.md") == (
        "The path /memories/nope.md does not exist. Please provide a valid path."
    )


def test_view_directory_two_levels_human_sizes(mem):
    put(mem, "a/b/c/deep.md", "x" * 10)
    put(mem, "a/one.md", "y" * 1536)
    put(mem, ".hidden", "h" * 5)
    put(mem, "node_modules/x.js", "z")
    out = call(mem, command="view", path="/memories")
    lines = out.split("\n")
    assert lines[0] == (
        "Here're the files and directories up to 2 levels deep in /memories, "
        "excluding hidden items and node_modules:"
    )
    rows = dict(reversed(line.split("\t")) for line in lines[1:])
    base = len(mem.store.read_bytes("core.md")) + len(mem.store.read_bytes("notes.md"))
    assert rows["/memories/a"] == "1.6K"  # 1546 bytes below it, rounded up as du -h does
    assert rows["/memories/a/one.md"] == "1.5K"
    assert rows["/memories/a/b"] == "10"
    assert "/memories/a/b/c" not in rows and "/memories/a/b/c/deep.md" not in rows
    assert "/memories/.hidden" not in rows and "/memories/node_modules" not in rows
    assert rows["/memories/core.md"] == str(len(mem.store.read_bytes("core.md")))
    assert rows["/memories"] == human_size(base + 1536 + 10 + 5 + 1)
    assert lines[1].endswith("\t/memories")
    assert call(mem, command="view", path="/memories", view_range=[1, 2]) == (
        "Error: The `view_range` parameter is not allowed when `path` points to a directory."
    )


@pytest.mark.parametrize("n,expected", [
    (0, "0"), (1023, "1023"), (1024, "1.0K"), (1025, "1.1K"), (1536, "1.5K"), (10239, "10K"),
    (10240, "10K"), (10241, "11K"), (1048575, "1.0M"), (1048576, "1.0M"), (5 * 2**20 + 1, "5.1M"),
    (3 * 2**30, "3.0G"),
])
def test_human_size_matches_du(n, expected):
    assert human_size(n) == expected


@pytest.mark.parametrize("n", [0, 1, 1000, 1023, 1024, 1025, 1536, 4095, 4097, 10239, 10240, 10241,
                               99999, 1048575, 1048577, 5 * 2**20 + 1, 123456789])
def test_human_size_against_real_du(tmp_path, n):
    import shutil
    import subprocess
    if shutil.which("du") is None:
        pytest.skip("du not installed")
    f = tmp_path / "f"
    with open(f, "wb") as fh:
        fh.truncate(n)
    out = subprocess.run(["du", "--apparent-size", "-h", str(f)], capture_output=True, text=True,
                         env={"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"}).stdout.split("\t")[0]
    assert human_size(n) == out, f"du --apparent-size -h on a {n}-byte file"


# -- create / update ---------------------------------------------------------------------


def test_create_and_exists(mem):
    assert call(mem, command="create", path="/memories/topics/travel.md", file_text="Berlin\n") == (
        "File created successfully at: /memories/topics/travel.md"
    )
    assert mem.store.read_bytes("topics/travel.md") == b"Berlin\n"
    assert oct(mem.store.stat("topics/travel.md").mode) == oct(0o600)
    assert mem.store.stat("topics").mode == 0o700
    assert call(mem, command="create", path="/memories/topics/travel.md", file_text="x") == (
        "Error: File /memories/topics/travel.md already exists"
    )
    assert call(mem, command="create", path="x.md", content="seed form") == (
        "File created successfully at: /memories/x.md"
    )
    assert call(mem, command="create", path="/.memory/y.md", content="y") == (
        "File created successfully at: /.memory/y.md"
    )
    assert mem.store.read_bytes("y.md") == b"y"


def test_create_needs_text(mem):
    assert call(mem, command="create", path="a.md") == "Error: `create` needs `file_text` (or `content`)."


def test_update_overwrite_and_append(mem):
    put(mem, "n.md", "one")
    assert call(mem, command="update", path="/memories/n.md", content="two", mode="append") == (
        "Appended to /memories/n.md (8 characters)."
    )
    assert mem.store.read_bytes("n.md") == b"one\ntwo\n"
    assert call(mem, command="update", path="/memories/n.md", content="fresh") == (
        "Overwrote /memories/n.md (5 characters)."
    )
    assert mem.store.read_bytes("n.md") == b"fresh"
    assert call(mem, command="update", path="/memories/new/t.md", content="a", mode="append") == (
        "Created /memories/new/t.md (2 characters)."
    )


def test_core_budget_reported_and_enforced(store):
    mem = Memory(store, core_budget=300)
    core = mem.store.read_bytes("core.md").decode()
    out = call(mem, command="update", path="core.md", content="- likes tea", mode="append")
    n = len(core) + len("- likes tea\n")
    assert out == f"Appended to /memories/core.md ({n} characters).\n[core.md: {n}/300 chars]"
    before = mem.store.read_bytes("core.md")
    out = call(mem, command="update", path="core.md", content="x" * 301)
    assert out == (
        f"Error: core.md would grow to 301 characters, over its budget of 300 (currently {n}); "
        "move detail to notes.md and keep core.md to the essentials. Nothing was written."
    )
    assert mem.store.read_bytes("core.md") == before
    out = call(mem, command="str_replace", path="core.md", old_str="likes tea", new_str="likes green tea")
    assert out.endswith(f"\n[core.md: {n + 6}/300 chars]")
    assert call(mem, command="insert", path="core.md", insert_line=0, insert_text="y" * 400).startswith(
        "Error: core.md would grow to")
    assert call(mem, command="create", path="/memories/core2.md", file_text="z" * 400).startswith("File created")
    assert call(mem, command="delete", path="/memories/core.md") == (
        "Successfully deleted /memories/core.md\n[core.md: 0/300 chars]")
    assert call(mem, command="rename", old_path="/memories/core2.md", new_path="/memories/core.md").startswith(
        "Error: core.md would grow to 400 characters, over its budget of 300")


def test_core_over_budget_by_hand_can_shrink(store):
    mem = Memory(store, core_budget=50)
    mem.store.write_bytes("core.md", b"a" * 80 + b"\n")
    assert call(mem, command="str_replace", path="core.md", old_str="aaaa", new_str="b").startswith(
        "No replacement was performed. Multiple occurrences")
    out = call(mem, command="update", path="core.md", content="a" * 60)
    assert out == "Overwrote /memories/core.md (60 characters).\n[core.md: 60/50 chars]"
    assert mem.system_prompt().count("a" * 60) == 1  # never truncated


# -- str_replace / insert ------------------------------------------------------------------


def test_str_replace_formats(mem):
    put(mem, "p.md", "".join(f"line {i}\n" for i in range(1, 11)))
    out = call(mem, command="str_replace", path="/memories/p.md", old_str="line 6\n", new_str="LINE six\n")
    assert out == (
        "The memory file has been edited.\n"
        "     2\tline 2\n     3\tline 3\n     4\tline 4\n     5\tline 5\n"
        "     6\tLINE six\n"
        "     7\tline 7\n     8\tline 8\n     9\tline 9\n    10\tline 10"
    )
    assert call(mem, command="str_replace", path="/memories/p.md", old_str="absent", new_str="x") == (
        "No replacement was performed, old_str `absent` did not appear verbatim in /memories/p.md."
    )
    put(mem, "d.md", "dup\nother\ndup dup\n")
    assert call(mem, command="str_replace", path="/memories/d.md", old_str="dup", new_str="x") == (
        "No replacement was performed. Multiple occurrences of old_str `dup` in lines: 1, 3. "
        "Please ensure it is unique"
    )
    assert call(mem, command="str_replace", path="/memories/none.md", old_str="a", new_str="b") == (
        "Error: The path /memories/none.md does not exist. Please provide a valid path."
    )
    put(mem, "o.md", "aaa")
    assert "Multiple occurrences of old_str `aa` in lines: 1." in call(
        mem, command="str_replace", path="/memories/o.md", old_str="aa", new_str="b")
    assert mem.store.read_bytes("o.md") == b"aaa"


def test_insert_formats(mem):
    put(mem, "i.md", "a\nb\n")
    assert call(mem, command="insert", path="/memories/i.md", insert_line=1, insert_text="between") == (
        "The file /memories/i.md has been edited."
    )
    assert mem.store.read_bytes("i.md") == b"a\nbetween\nb\n"
    assert call(mem, command="insert", path="/memories/i.md", insert_line=0, insert_text="top\n")
    assert call(mem, command="insert", path="/memories/i.md", insert_line=4, insert_text="end")
    assert mem.store.read_bytes("i.md") == b"top\na\nbetween\nb\nend\n"
    assert call(mem, command="insert", path="/memories/i.md", insert_line=9, insert_text="x") == (
        "Error: Invalid `insert_line` parameter: 9. It should be within the range of lines of the file: [0, 5]"
    )
    assert call(mem, command="insert", path="/memories/i.md", insert_line=-1, insert_text="x") == (
        "Error: Invalid `insert_line` parameter: -1. It should be within the range of lines of the file: [0, 5]"
    )
    assert call(mem, command="insert", path="/memories/zz.md", insert_line=0, insert_text="x") == (
        "Error: The path /memories/zz.md does not exist"
    )


# -- delete / rename ---------------------------------------------------------------------


def test_delete_formats(mem):
    put(mem, "t/a.md", "a")
    put(mem, "t/u/b.md", "b")
    assert call(mem, command="delete", path="/memories/t") == "Successfully deleted /memories/t"
    assert not mem.store.exists("t")
    assert call(mem, command="delete", path="/memories/t") == "Error: The path /memories/t does not exist"


def test_rename_formats(mem):
    put(mem, "a.md", "a")
    put(mem, "b.md", "b")
    assert call(mem, command="rename", old_path="/memories/a.md", new_path="/memories/b.md") == (
        "Error: The destination /memories/b.md already exists"
    )
    assert mem.store.read_bytes("b.md") == b"b"
    assert call(mem, command="rename", old_path="/memories/a.md", new_path="/memories/arch/a.md") == (
        "Successfully renamed /memories/a.md to /memories/arch/a.md"
    )
    assert mem.store.read_bytes("arch/a.md") == b"a"
    assert call(mem, command="rename", old_path="/memories/a.md", new_path="/memories/c.md") == (
        "Error: The path /memories/a.md does not exist"
    )
    assert call(mem, command="rename", old_path="/memories/arch", new_path="/memories/arch/sub").startswith("Error:")


# -- search ------------------------------------------------------------------------------


def test_search_ranking_format_and_cap(store):
    mem = Memory(store, search_limit=3, embedder=None)  # BM25's order
    # Ranked units (memtool.recall): each paragraph is a unit, shown as its best line; the
    # two one-word paragraphs tie on score and the newer (later) one goes first.
    put(mem, "notes.md", "budget only\n\npricing and budget\n\nnothing\n\nPRICING\n")
    put(mem, "topics/t.md", "budget pricing meeting\n")
    out = call(mem, command="search", query="pricing budget meeting")
    assert out.split("\n") == [
        "topics/t.md:1:budget pricing meeting",
        "notes.md:3:pricing and budget",
        "notes.md:7:PRICING",
        "... 1 more matching lines not shown; use more specific words or a path.",
    ]
    assert call(mem, command="search", query="pricing", path="/memories/topics") == (
        "topics/t.md:1:budget pricing meeting")
    assert call(mem, command="search", query="zebra") == "No matches for zebra in /memories."
    assert call(mem, command="search", query="  ") == (
        "Error: `query` is empty; give one or more words to look for.")
    assert call(mem, command="search") == "Error: `search` needs `query` (a few words)."


def test_search_finds_conversation_lines(mem):
    mem.record("user", "Our pricing is too complex")
    out = call(mem, command="search", query="pricing")
    assert out.startswith("conversations.jsonl:1:{")


# -- append-only, read-only, binary, caps ------------------------------------------------------


@pytest.mark.parametrize("args", [
    dict(command="create", path="/memories/conversations.jsonl", file_text="x"),
    dict(command="update", path="/memories/conversations.jsonl", content="x"),
    dict(command="update", path="/memories/conversations.jsonl", content="x", mode="append"),
    dict(command="str_replace", path="/memories/conversations.jsonl", old_str="a", new_str="b"),
    dict(command="insert", path="/memories/conversations.jsonl", insert_line=0, insert_text="x"),
    dict(command="delete", path="/memories/conversations.jsonl"),
    dict(command="rename", old_path="/memories/conversations.jsonl", new_path="/memories/c.jsonl"),
    dict(command="rename", old_path="/memories/notes.md", new_path="/memories/conversations.jsonl"),
])
def test_conversations_are_append_only(mem, args, snapshot):
    mem.record("user", "hello")
    before = snapshot(mem.store)
    out = call(mem, **args)
    assert out.startswith("Error: /memories/conversations.jsonl is append-only"), out
    assert snapshot(mem.store) == before


def test_append_only_is_configurable(store):
    mem = Memory(store, append_only=())
    assert call(mem, command="update", path="conversations.jsonl", content="", mode="overwrite").startswith("Overwrote")


def test_read_only_mode(store, snapshot):
    mem = Memory(store, read_only=True)
    before = snapshot(mem.store)
    assert call(mem, command="create", path="a.md", file_text="x") == (
        "Error: memory is read-only here; `create` is not available. Use view or search.")
    assert call(mem, command="view", path="/memories/core.md").startswith("Here's the content")
    assert snapshot(mem.store) == before


def test_binary_and_oversized_files_refused(store):
    mem = Memory(store, max_file_bytes=1000)
    mem.store.write_bytes("bin.dat", b"\x00\x01\x02")
    mem.store.write_bytes("latin1.txt", "café".encode("latin-1"))
    mem.store.write_bytes("big.md", b"x" * 1001)
    assert call(mem, command="view", path="bin.dat") == (
        "Error: File /memories/bin.dat is a binary file; memory files must be UTF-8 text.")
    assert call(mem, command="view", path="latin1.txt") == (
        "Error: File /memories/latin1.txt is not valid UTF-8 text; memory files must be UTF-8 text.")
    assert call(mem, command="view", path="big.md").startswith(
        "Error: File /memories/big.md is 1001 bytes, over the 1000-byte limit for memory files;")
    assert call(mem, command="str_replace", path="bin.dat", old_str="a", new_str="b").startswith(
        "Error: File /memories/bin.dat is a binary file")
    assert call(mem, command="create", path="c.md", file_text="y" * 1001).startswith(
        "Error: the new content of /memories/c.md would exceed the 1000-byte limit")
    assert not mem.store.exists("c.md")


def test_missing_fields_named(mem):
    assert call(mem, command="str_replace", path="a.md") == "Error: `str_replace` needs `old_str`."
    assert call(mem, command="insert", path="a.md", insert_text="x") == "Error: `insert` needs `insert_line`."
    assert call(mem, command="rename", old_path="a.md") == "Error: `rename` needs `new_path`."
    assert call(mem, command="delete") == "Error: `delete` needs `path`."


@pytest.mark.parametrize("args,expected", [
    (dict(command="str_replace", path="/memories/no/dir.md", old_str="a", new_str="b"),
     "Error: The path /memories/no/dir.md does not exist. Please provide a valid path."),
    (dict(command="insert", path="/memories/no/dir.md", insert_line=0, insert_text="b"),
     "Error: The path /memories/no/dir.md does not exist"),
    (dict(command="delete", path="/memories/no/dir.md"), "Error: The path /memories/no/dir.md does not exist"),
    (dict(command="rename", old_path="/memories/no/dir.md", new_path="/memories/x.md"),
     "Error: The path /memories/no/dir.md does not exist"),
    (dict(command="view", path="/memories/no/dir.md"),
     "The path /memories/no/dir.md does not exist. Please provide a valid path."),
    (dict(command="view", path="/memories/notes.md/x"),
     "The path /memories/notes.md/x does not exist. Please provide a valid path."),
])
def test_missing_parents(mem, args, expected):
    assert call(mem, **args) == expected


def test_search_is_case_insensitive_beyond_ascii(mem):
    mem.embedder = None  # BM25's order
    put(mem, "u.md", "ſecret plan\n\nStraße\n\nKELVIN\n")
    out = call(mem, command="search", query="secret strasse kelvin")
    # one term each: the shorter units score higher, the newer first on a tie
    assert out.split("\n") == ["u.md:5:KELVIN", "u.md:3:Straße", "u.md:1:ſecret plan"]
    mem.record("user", "the ſecret is in the Straße")
    assert call(mem, command="search", query="secret strasse").split("\n")[0] == (
        'conversations.jsonl:1:{"role": "user", "content": "the ſecret is in the Straße", "timestamp": '
        + mem.recent(1)[0]["timestamp"].join('""') + "}")
