"""An MCP server offering memtool's tools (and core memory as a resource), with the official SDK.

    from memtool import Memory
    from memtool.adapters.mcp_server import build_server, serve
    serve(build_server(Memory(".memory")))              # stdio; or transport="streamable-http"

or from a shell: ``memtool mcp --path .memory [--scope KEY] [--read-only] [--tools memory,bash]
[--transport streamable-http --port 8000]``.

Works with the SDK's v2 (``mcp.server.mcpserver.MCPServer``) and v1 (``mcp.server.fastmcp.
FastMCP``, ``mcp>=1.10``). Each tool returns exactly the string ``Memory.call`` returns, as text
content; a refusal or failure (``tool_error``) is flagged ``isError: true``. The memory tool
also has structured output: its ``outputSchema`` is ``{"result": string}`` and a success
carries ``structuredContent: {"result": <the same text>}`` (an error carries none).

``build_server(mem, elicit=True)`` (``memtool mcp --approve``) asks the person at the client
before any change: a call that would change a file (a dry run, ``Memory.preview``) sends an
MCP elicitation with the command and the diff; accepted with ``approve: true`` it runs,
otherwise nothing changes and the model reads why. A client without elicitation support gets
a clear error (``isError``) and nothing changes. The resource ``memory://core`` is core.md read at the moment the client reads it;
MCP clients decide themselves when to read resources, so core memory is fresh at every model
call only if the client re-reads it (tool results are always current).
"""

from __future__ import annotations

from typing import Any, Literal, Optional

try:
    try:
        from mcp.server.mcpserver import MCPServer as _ServerClass  # mcp >= 2

        SDK_MAJOR = 2
    except ImportError:
        from mcp.server.fastmcp import FastMCP as _ServerClass  # type: ignore[no-redef]  # mcp 1.x

        SDK_MAJOR = 1
except ImportError as _e:  # pragma: no cover - exercised only without the extra
    from memtool.adapters import missing_extra

    raise missing_extra("mcp_server", _e) from _e

#: URI of the core-memory resource.
CORE_URI = "memory://core"

MemoryCommand = Literal["view", "create", "update", "search", "str_replace", "insert", "delete", "rename"]


def tool_error(name: str, result: str) -> bool:
    """True if a tool result reports a failure the client should flag (``memtool.tools.is_error``)."""
    from memtool.tools import is_error

    return is_error(name, result)


def _result(name: str, text: str) -> Any:
    """``text`` as the tool's result: a plain string, or an error ``CallToolResult``."""
    if not tool_error(name, text):
        return text
    from mcp.types import CallToolResult, TextContent

    try:
        return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)
    except TypeError:  # pragma: no cover - older field name
        return CallToolResult(content=[TextContent(type="text", text=text)], isError=True)


try:
    from pydantic import BaseModel as _BaseModel
except ImportError:  # pragma: no cover
    _BaseModel = object  # type: ignore[assignment,misc]


class ApprovalAnswer(_BaseModel):  # type: ignore[misc,valid-type]
    """What the elicitation asks the person: allow the change, and why not."""

    approve: bool
    reason: str = ""


NO_ELICITATION = ("Error: this change needs a person's approval, but this MCP client cannot ask "
                  "for it (it does not support elicitation); nothing was changed.")


async def approved_call(mem: Any, ctx: Any, name: str, args: dict[str, Any]) -> Any:
    """Run a tool call, asking the client's person first (elicitation) if it would write."""
    import asyncio

    request = await asyncio.to_thread(mem.preview, name, args)
    if request is None:  # a read: nothing to ask
        return _result(name, await asyncio.to_thread(lambda: mem.call(name, args, approved=True)))
    message = (f"Allow this change to memory?\n{request.tool}: {request.command}\n"
               f"{request.diff[:8000]}")
    try:
        answer = await ctx.elicit(message=message, schema=ApprovalAnswer)
    except Exception:  # the client has no elicitation (or it failed): never write unasked
        return _result(name, NO_ELICITATION)
    data = getattr(answer, "data", None)
    if getattr(answer, "action", "") == "accept" and data is not None and data.approve:
        return _result(name, await asyncio.to_thread(lambda: mem.call(name, args, approved=True)))
    reason = (getattr(data, "reason", "") or "").strip() or f"the user answered {getattr(answer, 'action', 'no')}"
    return _result(name, f"Error: this change was not approved: {reason[:500]}. Nothing was changed.")


def _context_class() -> Any:
    try:
        from mcp.server.mcpserver import Context  # mcp >= 2
    except ImportError:  # pragma: no cover - mcp 1.x
        from mcp.server.fastmcp import Context  # type: ignore[no-redef]
    return Context


#: The SDK's tool context (resolved at module level: the SDK reads the annotations).
Context = _context_class()


def elicit_tool_functions(mem: Any) -> dict[str, Any]:
    """``memory`` and ``bash`` as async functions that ask by elicitation before writing."""

    async def memory(
        command: MemoryCommand,
        ctx: Context,  # type: ignore[valid-type]
        path: Optional[str] = None,
        content: Optional[str] = None,
        file_text: Optional[str] = None,
        mode: Optional[Literal["append", "overwrite"]] = None,
        query: Optional[str] = None,
        view_range: Optional[list[int]] = None,
        old_str: Optional[str] = None,
        new_str: Optional[str] = None,
        insert_line: Optional[int] = None,
        insert_text: Optional[str] = None,
        old_path: Optional[str] = None,
        new_path: Optional[str] = None,
    ) -> str:
        args = {k: v for k, v in locals().items() if v is not None and k not in ("mem", "ctx")}
        return await approved_call(mem, ctx, "memory", args)

    async def bash(command: str, ctx: Context) -> str:  # type: ignore[valid-type]
        return await approved_call(mem, ctx, "bash", {"command": command})

    return {"memory": memory, "bash": bash}


def memory_tool_function(mem: Any):  # type: ignore[no-untyped-def]
    """The ``memory`` tool as a typed function (the SDK builds its JSON Schema from it)."""

    def memory(
        command: MemoryCommand,
        path: Optional[str] = None,
        content: Optional[str] = None,
        file_text: Optional[str] = None,
        mode: Optional[Literal["append", "overwrite"]] = None,
        query: Optional[str] = None,
        view_range: Optional[list[int]] = None,
        old_str: Optional[str] = None,
        new_str: Optional[str] = None,
        insert_line: Optional[int] = None,
        insert_text: Optional[str] = None,
        old_path: Optional[str] = None,
        new_path: Optional[str] = None,
    ) -> str:
        args = {k: v for k, v in locals().items() if v is not None and k != "mem"}
        return _result("memory", mem.call("memory", args))

    return memory


def bash_tool_function(mem: Any):  # type: ignore[no-untyped-def]
    """The ``bash`` tool as a typed function."""

    def bash(command: str) -> str:
        return _result("bash", mem.call("bash", {"command": command}))

    return bash


def _add_tool(server: Any, fn: Any, name: str, description: str, structured: bool = False) -> None:
    """Register ``fn``; ``structured``: publish an ``outputSchema`` (``{"result": string}``) and
    send each success as ``structuredContent`` too (SDKs that support structured output)."""
    try:
        server.add_tool(fn, name=name, description=description, structured_output=structured)
    except TypeError:  # older 1.x without structured_output
        server.add_tool(fn, name=name, description=description)


def build_server(mem: Any, *, name: str = "memtool", resource: bool = True,
                 host: str = "127.0.0.1", port: int = 8000, elicit: bool = False) -> Any:
    """An MCP server (``MCPServer`` on mcp 2, ``FastMCP`` on mcp 1) over ``mem``'s offered tools.

    ``resource``: also offer core.md as ``memory://core``. ``host``/``port`` are used by the
    streamable-HTTP transport (mcp 1 takes them here, mcp 2 in ``serve``). ``elicit``: ask
    the client's person before every change (see the module docstring).
    """
    instructions = ("Durable memory kept as plain files. Read core memory (resource "
                    f"{CORE_URI}, or memory view /memories/core.md) at the start of a task; store "
                    "lasting facts about the user in core.md and details in notes.md.")
    if SDK_MAJOR >= 2:
        server = _ServerClass(name, instructions=instructions)
    else:  # pragma: no cover - mcp 1.x
        server = _ServerClass(name, instructions=instructions, host=host, port=port)
    asking = elicit_tool_functions(mem) if elicit else None
    for definition in mem.tools.definitions():
        if asking is not None:
            fn = asking[definition.name]
        else:
            fn = memory_tool_function(mem) if definition.name == "memory" else bash_tool_function(mem)
        _add_tool(server, fn, definition.name, definition.description, structured=definition.name == "memory")
    if resource:
        def core_memory() -> str:
            return mem.core_text()

        server.resource(CORE_URI, name="core", description="core.md: facts to keep in mind in every answer",
                        mime_type="text/markdown")(core_memory)
    return server


def serve(server: Any, transport: str = "stdio", host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run ``server`` until the client goes away (``stdio``) or it is stopped (``streamable-http``)."""
    if transport == "stdio":
        server.run("stdio")
    elif transport == "streamable-http":
        if SDK_MAJOR >= 2:
            server.run("streamable-http", host=host, port=port)
        else:  # pragma: no cover - mcp 1.x
            server.run("streamable-http")
    else:
        raise ValueError(f"unknown transport {transport!r}; use stdio or streamable-http")
