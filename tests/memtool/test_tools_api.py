"""Tool definitions for every provider, and ``call()``: always a string, never an exception."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtool import Memory
from memtool.stores.memory import MemoryStore


def test_exports_shapes(mem):
    chat = mem.tools.openai_chat()
    assert [t["function"]["name"] for t in chat] == ["memory", "bash"]
    for t in chat:
        assert t["type"] == "function"
        assert set(t["function"]) == {"name", "description", "parameters"}
        assert t["function"]["parameters"]["type"] == "object"
    responses = mem.tools.openai_responses()
    assert all(set(t) == {"type", "name", "description", "parameters", "strict"} for t in responses)
    anthropic = mem.tools.anthropic()
    assert all(set(t) == {"name", "description", "input_schema"} for t in anthropic)
    plain = mem.tools.json_schemas()
    assert all(set(t) == {"name", "description", "parameters"} for t in plain)
    schema = plain[0]["parameters"]
    assert schema["required"] == ["command"]
    assert schema["properties"]["command"]["enum"] == [
        "view", "create", "update", "search", "str_replace", "insert", "delete", "rename"]
    assert schema["properties"]["mode"]["enum"] == ["append", "overwrite"]
    assert schema["additionalProperties"] is False
    assert "title" not in json.dumps(schema) and "anyOf" not in json.dumps(schema)
    bash = plain[1]["parameters"]
    assert bash == {"additionalProperties": False, "properties": {"command": {
        "description": "The shell command to run over /.memory.", "type": "string"}},
        "required": ["command"], "type": "object"}
    json.dumps([chat, responses, anthropic, plain])  # all JSON-serialisable


def test_schema_validates_with_jsonschema_style_check(mem):
    # every property has a type or an enum (providers reject untyped properties)
    for tool in mem.tools.json_schemas():
        for name, prop in tool["parameters"]["properties"].items():
            assert "type" in prop or "enum" in prop, (tool["name"], name)


def test_bash_description_lists_allowed_commands_and_examples(store):
    mem = Memory(store, allow={"cat", "grep", "tail", "jq", "echo", "sed"})
    desc = mem.tools.json_schemas()[1]["description"]
    assert "only these commands exist: cat, echo, grep, jq, sed, tail." in desc
    for example in ("cat /.memory/core.md", "echo \"- Prefers tea over coffee\" >> /.memory/core.md",
                    "sed -i 's/concise/detailed/' /.memory/core.md", "grep -n \"budget\" /.memory/notes.md",
                    "grep -niE \"pricing|budget\" /.memory/conversations.jsonl",
                    "tail -n 40 /.memory/conversations.jsonl | jq -c '.role + \": \" + .content'"):
        assert example in desc
    lines = [line for line in desc.splitlines() if line.strip()]
    assert len(lines) == len(set(lines)), "a line of the description is repeated"


def test_descriptions_come_from_templates(mem):
    from memtool.layout import load_template
    assert mem.tools.json_schemas()[0]["description"] == load_template("tool_memory").strip()


def test_tool_selection_and_read_only(store):
    mem = Memory(store, tools=("memory",), read_only=True)
    assert [t["name"] for t in mem.tools.json_schemas()] == ["memory"]
    assert mem.call("bash", {"command": "ls"}) == "Error: unknown tool 'bash'. Available tools: memory."
    with pytest.raises(ValueError):
        Memory(MemoryStore(), tools=("memory", "python"))
    ro = Memory(MemoryStore(), read_only=True)
    assert "read-only" in ro.tools.json_schemas()[1]["description"]


def test_call_accepts_json_strings(mem):
    out = mem.call("memory", '{"command": "view", "path": "/memories/core.md"}')
    assert out.startswith("Here's the content of /memories/core.md with line numbers:")
    out = mem.call("memory", b'{"command": "view", "path": "core.md"}')
    assert out.startswith("Here's the content of /memories/core.md")


@pytest.mark.parametrize("args,expected", [
    ("{nope", "Error: the arguments are not valid JSON (JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1))."),
    ("[1, 2]", "Error: the arguments must be a JSON object."),
    ({}, "Error: invalid arguments for `memory`: missing field `command`."),
    ({"command": "view", "colour": "red"}, "Error: invalid arguments for `memory`: unexpected field `colour`."),
    ({"command": "insert", "path": "a", "insert_line": "x", "insert_text": "t"},
     "Error: invalid arguments for `memory`: `insert_line`: Input should be a valid integer, unable to parse string as an integer."),
    ({"command": "fly"}, "Error: invalid arguments for `memory`: `command`: Input should be 'view', 'create', 'update', 'search', 'str_replace', 'insert', 'delete' or 'rename'."),
])
def test_bad_arguments_are_text(mem, args, expected):
    assert mem.call("memory", args) == expected


def test_unknown_tool(mem):
    assert mem.call("python", {}) == "Error: unknown tool 'python'. Available tools: memory, bash."


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=30),
                     lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3),
                     max_leaves=8)
_fields = st.fixed_dictionaries({}, optional={
    "command": st.sampled_from(["view", "create", "update", "search", "str_replace", "insert", "delete",
                                "rename", "nope"]) | _json,
    "path": st.text(max_size=40) | st.sampled_from(["/memories/core.md", "notes.md", "/memories", "a/b.md"]),
    "content": st.text(max_size=50), "file_text": st.text(max_size=50), "mode": st.text(max_size=10),
    "query": st.text(max_size=20), "view_range": st.lists(st.integers(-5, 50), max_size=3),
    "old_str": st.text(max_size=10), "new_str": st.text(max_size=10), "insert_line": st.integers(-3, 20),
    "insert_text": st.text(max_size=20), "old_path": st.text(max_size=30), "new_path": st.text(max_size=30),
    "extra": _json,
})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(args=_fields)
def test_fuzzed_arguments_always_give_a_string(args):
    mem = Memory(MemoryStore())
    out = mem.call("memory", args)
    assert isinstance(out, str) and out
    assert "Traceback" not in out and "internally" not in out, out


_paths = st.lists(st.sampled_from(list("ab./\\%~-_ \x00\nüＡ．") + ["..", "/memories/", "/.memory/", "%2e"]),
                  max_size=12).map("".join)


@settings(max_examples=150, deadline=None)
@given(command=st.sampled_from(["view", "create", "update", "search", "str_replace", "insert", "delete", "rename"]),
       path=_paths, other=_paths, text=st.text(max_size=40))
def test_fuzzed_paths_on_disk_always_give_a_string(command, path, other, text):
    import tempfile
    root = tempfile.mkdtemp(prefix="memtool-fuzz-")
    try:
        mem = Memory(root + "/m", gitignore=False)
        args = {"command": command, "path": path, "content": text, "file_text": text, "query": text or "a",
                "old_str": text or "x", "new_str": text, "insert_line": 0, "insert_text": text,
                "old_path": path, "new_path": other}
        if command == "rename":
            args.pop("path")
        keep = {"view": {"path"}, "create": {"path", "file_text"}, "update": {"path", "content"},
                "search": {"path", "query"}, "str_replace": {"path", "old_str", "new_str"},
                "insert": {"path", "insert_line", "insert_text"}, "delete": {"path"},
                "rename": {"old_path", "new_path"}}[command]
        out = mem.call("memory", {"command": command, **{k: v for k, v in args.items() if k in keep}})
        assert isinstance(out, str) and out
        assert "internally" not in out and root not in out, out
        # nothing ever appears outside the memory directory
        import os
        assert sorted(os.listdir(root)) == ["m"]
    finally:
        import shutil
        shutil.rmtree(root, ignore_errors=True)
