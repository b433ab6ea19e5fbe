"""The MCP server end to end: the SDK's own client over a real stdio subprocess."""

from __future__ import annotations

import asyncio
import os
import stat

import pytest

from adapters_support import PYTHON, need, subprocess_env  # type: ignore[import-not-found]

mcp = need("mcp", "mcp")


def _text(result, error: bool = False) -> str:  # type: ignore[no-untyped-def]
    """The text of a tool result, which must be flagged isError exactly when ``error``."""
    assert bool(getattr(result, "is_error", getattr(result, "isError", False))) == error, result
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def _session(args: list[str], body) -> None:  # type: ignore[no-untyped-def]
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=PYTHON, args=["-m", "memtool", "mcp", *args], env=subprocess_env())
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                await body(session)


def run(args: list[str], body) -> None:  # type: ignore[no-untyped-def]
    asyncio.run(asyncio.wait_for(_session(args, body), timeout=60))


def test_stdio_end_to_end(tmp_path):
    memdir = tmp_path / "mem"

    async def body(session) -> None:  # type: ignore[no-untyped-def]
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert set(tools) == {"memory", "bash"}
        schema = tools["memory"].input_schema if hasattr(tools["memory"], "input_schema") else tools["memory"].inputSchema
        assert "command" in schema["properties"] and "view_range" in schema["properties"]
        assert "str_replace" in str(schema["properties"]["command"])

        out = _text(await session.call_tool("memory", {"command": "create", "path": "/memories/prefs.md",
                                                         "file_text": "likes tea\n"}))
        assert out == "File created successfully at: /memories/prefs.md"
        assert (memdir / "prefs.md").read_text() == "likes tea\n"
        assert stat.S_IMODE((memdir / "prefs.md").stat().st_mode) == 0o600

        out = _text(await session.call_tool("memory", {"command": "str_replace", "path": "/memories/prefs.md",
                                                         "old_str": "tea", "new_str": "green tea"}))
        assert out.startswith("The memory file has been edited.")
        assert (memdir / "prefs.md").read_text() == "likes green tea\n"

        out = _text(await session.call_tool("memory", {"command": "update", "path": "core.md", "mode": "append",
                                                         "content": "- Prefers metric units\n"}))
        assert "[core.md:" in out
        assert "Prefers metric units" in (memdir / "core.md").read_text()

        out = _text(await session.call_tool("bash", {"command": "echo '- Drinks tea' >> /.memory/core.md && grep -c . core.md"}))
        assert "[core.md:" in out
        assert (memdir / "core.md").read_text().endswith("- Drinks tea\n")

        out = _text(await session.call_tool("memory", {"command": "search", "query": "metric"}))
        assert "core.md:" in out and "metric" in out

        out = _text(await session.call_tool("memory", {"command": "view", "path": "/memories/../etc/passwd"}), error=True)
        assert out.startswith("Error: The path") and str(tmp_path) not in out

        out = _text(await session.call_tool("bash", {"command": "sh -c 'curl http://example.com'"}), error=True)
        assert "not an allowed command" in out or "Allowed commands" in out

        resources = (await session.list_resources()).resources
        assert [str(r.uri) for r in resources] == ["memory://core"]
        (memdir / "core.md").write_text("# Core\n- edited by hand\n")
        read = await session.read_resource("memory://core")
        assert read.contents[0].text == "# Core\n- edited by hand\n"

    run(["--path", str(memdir)], body)
    # .memtool holds the version history (hidden from both tools)
    assert sorted(p.name for p in memdir.iterdir() if p.name != ".memtool") == [
        "conversations.jsonl", "core.md", "notes.md", "prefs.md"]


def test_read_only_and_tool_selection(tmp_path):
    memdir = tmp_path / "mem"
    memdir.mkdir()
    (memdir / "core.md").write_text("# Core\n")

    async def body(session) -> None:  # type: ignore[no-untyped-def]
        tools = [t.name for t in (await session.list_tools()).tools]
        assert tools == ["memory"]
        out = _text(await session.call_tool("memory", {"command": "create", "path": "x.md", "file_text": "x"}), error=True)
        assert out.startswith("Error: memory is read-only")
        assert _text(await session.call_tool("memory", {"command": "view", "path": "core.md"})).endswith("# Core")
        assert (await session.list_resources()).resources == []

    run(["--path", str(memdir), "--read-only", "--tools", "memory", "--no-resource"], body)
    assert not (memdir / "x.md").exists()


def test_scope(tmp_path):
    memdir = tmp_path / "mem"

    async def body(session) -> None:  # type: ignore[no-untyped-def]
        await session.call_tool("memory", {"command": "create", "path": "a.md", "file_text": "scoped"})

    run(["--path", str(memdir), "--scope", "user:42"], body)
    assert not (memdir / "a.md").exists()
    assert [p.read_text() for p in memdir.rglob("a.md")] == ["scoped"]


def test_build_server_in_process(tmp_path):
    from memtool import Memory
    from memtool.adapters.mcp_server import SDK_MAJOR, build_server

    server = build_server(Memory(tmp_path / "m"))
    assert SDK_MAJOR in (1, 2)
    names = sorted(t.name for t in asyncio.run(server.list_tools()))
    assert names == ["bash", "memory"]


def test_streamable_http_end_to_end(tmp_path):
    """`memtool mcp --transport streamable-http` as a subprocess, the SDK's HTTP client."""
    import socket
    import subprocess
    import time

    try:
        from mcp.client.streamable_http import streamable_http_client as http_client
    except ImportError:  # mcp 1.x
        from mcp.client.streamable_http import streamablehttp_client as http_client  # type: ignore[no-redef]
    from mcp.client.session import ClientSession

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    memdir = tmp_path / "mem"
    server = subprocess.Popen([PYTHON, "-m", "memtool", "mcp", "--path", str(memdir), "--transport",
                               "streamable-http", "--port", str(port)], env=subprocess_env(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.2)

        async def main() -> str:
            async with http_client(f"http://127.0.0.1:{port}/mcp") as streams:
                read, write = streams[0], streams[1]
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    assert {t.name for t in (await session.list_tools()).tools} == {"memory", "bash"}
                    return _text(await session.call_tool("memory", {"command": "create", "path": "h.md",
                                                                      "file_text": "over http"}))

        assert asyncio.run(asyncio.wait_for(main(), timeout=60)) == "File created successfully at: /memories/h.md"
        assert (memdir / "h.md").read_text() == "over http"
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
