"""MCP: a refused or failed tool call comes back flagged ``isError: true`` through the SDK's
own client (a real stdio subprocess); successes and a command's own non-zero status do not."""

from __future__ import annotations

from adapters_support import need  # type: ignore[import-not-found]

need("mcp", "mcp")

from test_mcp_server import _text, run  # type: ignore[import-not-found]  # noqa: E402

from memtool.adapters.mcp_server import tool_error  # noqa: E402


def test_errors_are_flagged_through_the_sdk_client(tmp_path):
    memdir = tmp_path / "mem"

    async def body(session) -> None:  # type: ignore[no-untyped-def]
        cases = [
            ("memory", {"command": "view", "path": "/memories/../x"}, True, "Error: The path"),
            ("memory", {"command": "view", "path": "/memories/missing.md"}, True, "The path /memories/missing.md"),
            ("memory", {"command": "str_replace", "path": "core.md", "old_str": "zzz", "new_str": "y"}, True,
             "No replacement was performed"),
            ("memory", {"command": "create", "path": "/memories/conversations.jsonl", "file_text": "x"}, True,
             "Error:"),
            ("bash", {"command": "sh -c 'curl http://x'"}, True, "sandbox: refused"),
            ("bash", {"command": "grep -c nothing-like-this core.md"}, False, "0"),
            ("bash", {"command": "echo ok"}, False, "ok"),
            ("memory", {"command": "view", "path": "/memories/core.md"}, False, "Here's the content"),
        ]
        for name, args, error, start in cases:
            out = _text(await session.call_tool(name, args), error=error)
            assert out.startswith(start), (name, args, out)

    run(["--path", str(memdir)], body)


def test_tool_error_rules():
    assert tool_error("bash", "x\n[exit code 126]")
    assert tool_error("bash", "bash: nope: command not found\n[exit code 127]")
    assert not tool_error("bash", "[exit code 1]")
    assert tool_error("bash", "\nError: core.md would exceed its budget. The change to core.md was undone.\n[core.md: 1/2 chars]")
    assert tool_error("memory", "Error: this change was not approved: no. Nothing was changed.")
    assert not tool_error("memory", "File created successfully at: /memories/a.md")


def _structured(result):  # type: ignore[no-untyped-def]
    return getattr(result, "structured_content", getattr(result, "structuredContent", None))


def test_memory_tool_structured_output_through_the_sdk_client(tmp_path):
    """The memory tool publishes an outputSchema; a success carries the text as
    structuredContent too (validated by the SDK's client against the schema), an error
    carries none and is flagged; the bash tool stays unstructured."""
    memdir = tmp_path / "mem"

    async def body(session) -> None:  # type: ignore[no-untyped-def]
        tools = {t.name: t for t in (await session.list_tools()).tools}
        schema = getattr(tools["memory"], "output_schema", getattr(tools["memory"], "outputSchema", None))
        assert schema["type"] == "object" and schema["required"] == ["result"]
        assert schema["properties"]["result"]["type"] == "string"
        assert getattr(tools["bash"], "output_schema", getattr(tools["bash"], "outputSchema", None)) is None
        for args in ({"command": "create", "path": "/memories/a.md", "file_text": "x\n"},
                     {"command": "view", "path": "/memories/a.md"},
                     {"command": "search", "query": "x"}):
            result = await session.call_tool("memory", args)
            assert _structured(result) == {"result": _text(result)}, args
        result = await session.call_tool("memory", {"command": "view", "path": "/memories/missing.md"})
        assert _text(result, error=True).startswith("The path") and _structured(result) is None
        result = await session.call_tool("bash", {"command": "cat a.md"})
        assert _text(result) == "x\n" and _structured(result) is None

    run(["--path", str(memdir)], body)
