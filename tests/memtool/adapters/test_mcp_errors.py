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
            ("bash", {"command": "curl http://x"}, True, "sandbox: refused"),
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
