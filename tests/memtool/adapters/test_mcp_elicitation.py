"""MCP: `memtool mcp --approve` asks by elicitation before any change (the SDK's client over
stdio): accepted it runs, declined or denied nothing changes, a client without elicitation
gets a clear error; reads never ask."""

from __future__ import annotations

import asyncio
import os

import pytest

from adapters_support import PYTHON, need, subprocess_env  # type: ignore[import-not-found]

need("mcp", "mcp")

from test_mcp_server import _text  # type: ignore[import-not-found]  # noqa: E402


def _run(memdir, callback, body) -> None:  # type: ignore[no-untyped-def]
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def main() -> None:
        params = StdioServerParameters(command=PYTHON, args=["-m", "memtool", "mcp", "--path", str(memdir), "--approve"],
                                       env=subprocess_env())
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                kwargs = {"elicitation_callback": callback} if callback else {}
                async with ClientSession(read, write, **kwargs) as session:
                    await session.initialize()
                    await body(session)

    asyncio.run(asyncio.wait_for(main(), timeout=60))


def _answer(action: str, content=None):  # type: ignore[no-untyped-def]
    import mcp.types as t

    asked: list[str] = []

    async def callback(context, params):  # type: ignore[no-untyped-def]
        asked.append(params.message)
        return t.ElicitResult(action=action, content=content)

    return callback, asked


@pytest.mark.parametrize("action, content, applied, says", [
    ("accept", {"approve": True}, True, "File created"),
    ("accept", {"approve": False, "reason": "not in this file"}, False, "not in this file"),
    ("decline", None, False, "not approved"),
])
def test_writes_ask_by_elicitation(tmp_path, action, content, applied, says):
    memdir = tmp_path / "mem"
    callback, asked = _answer(action, content)

    async def body(session) -> None:  # type: ignore[no-untyped-def]
        out = _text(await session.call_tool("memory", {"command": "create", "path": "/memories/t.md",
                                                         "file_text": "tea\n"}), error=not applied)
        assert says in out
        assert _text(await session.call_tool("bash", {"command": "head -1 core.md"})).startswith("# Core")

    _run(memdir, callback, body)
    assert len(asked) == 1 and "+tea" in asked[0] and "create" in asked[0]
    assert (memdir / "t.md").exists() == applied


def test_a_client_without_elicitation_gets_a_clear_error(tmp_path):
    memdir = tmp_path / "mem"

    async def body(session) -> None:  # type: ignore[no-untyped-def]
        before = (memdir / "core.md").read_bytes()
        out = _text(await session.call_tool("bash", {"command": "echo x >> core.md"}), error=True)
        assert "does not support elicitation" in out
        assert (memdir / "core.md").read_bytes() == before

    _run(memdir, None, body)
