"""Claude's native memory tool (``memory_20250818``) over a memtool memory.

    import anthropic
    from memtool import Memory
    from memtool.adapters.anthropic_memory import MemtoolMemoryTool, run

    mem = Memory(".memory")
    client = anthropic.Anthropic()
    answer = run(client, mem, "Remember that I like tea.", model="claude-sonnet-4-5")

``MemtoolMemoryTool`` subclasses the SDK's ``BetaAbstractMemoryTool``: every command Claude
sends (view, create, str_replace, insert, delete, rename) runs through memtool's memory tool,
so its path rules, locking, core budget, append-only log and secret checks all apply, and
results are the strings of Anthropic's documentation. It also works in the SDK's own tool
runner (``client.beta.messages.tool_runner(tools=[MemtoolMemoryTool(mem)], ...)``), but that
runner fixes ``system`` for the whole run, so core memory is then read once per run; ``run``
below re-renders the system prompt (core memory read fresh) before every model call.
"""

from __future__ import annotations

import asyncio
from typing import Any, Iterable

try:
    from anthropic.lib.tools import BetaAbstractMemoryTool, BetaAsyncAbstractMemoryTool
except ImportError as _e:  # pragma: no cover - exercised only without the extra
    from memtool.adapters import missing_extra

    raise missing_extra("anthropic_memory", _e) from _e

#: The beta flag that enables the memory tool on the Messages API.
MEMORY_BETA = "context-management-2025-06-27"


def _arguments(command: Any) -> dict[str, Any]:
    """A command object (or dict) as the memory tool's arguments."""
    if isinstance(command, dict):
        data = dict(command)
    elif hasattr(command, "model_dump"):
        data = command.model_dump(exclude_none=True)
    else:
        data = dict(vars(command))
    return {k: v for k, v in data.items() if v is not None}


class MemtoolMemoryTool(BetaAbstractMemoryTool):
    """``memory_20250818`` commands executed by memtool (see the module docstring)."""

    def __init__(self, mem: Any, *, cache_control: Any = None) -> None:
        super().__init__(cache_control=cache_control)
        self.mem = mem

    def execute(self, command: Any) -> str:  # type: ignore[override]
        """Run one command; always the model-facing string (errors included)."""
        return self.mem.call("memory", _arguments(command))

    def view(self, command: Any) -> str:  # type: ignore[override]
        """``view``: a file with line numbers or a directory listing."""
        return self.execute(command)

    def create(self, command: Any) -> str:  # type: ignore[override]
        """``create``: a new file (refused if it exists)."""
        return self.execute(command)

    def str_replace(self, command: Any) -> str:  # type: ignore[override]
        """``str_replace``: replace text that occurs exactly once."""
        return self.execute(command)

    def insert(self, command: Any) -> str:  # type: ignore[override]
        """``insert``: insert text after a line."""
        return self.execute(command)

    def delete(self, command: Any) -> str:  # type: ignore[override]
        """``delete``: a file or directory."""
        return self.execute(command)

    def rename(self, command: Any) -> str:  # type: ignore[override]
        """``rename``: never overwrites."""
        return self.execute(command)

    def clear_all_memory(self) -> str:  # type: ignore[override]
        """Refused: memtool never wipes a memory in one call; delete files one by one."""
        return "Error: clearing all memory is not supported; delete files one by one."


class AsyncMemtoolMemoryTool(BetaAsyncAbstractMemoryTool):
    """The async variant (for ``AsyncAnthropic``); commands run in a worker thread."""

    def __init__(self, mem: Any, *, cache_control: Any = None) -> None:
        super().__init__(cache_control=cache_control)
        self.mem = mem

    async def execute(self, command: Any) -> str:  # type: ignore[override]
        """Run one command in a thread; always the model-facing string."""
        return await asyncio.to_thread(self.mem.call, "memory", _arguments(command))

    async def view(self, command: Any) -> str:  # type: ignore[override]
        """``view``."""
        return await self.execute(command)

    async def create(self, command: Any) -> str:  # type: ignore[override]
        """``create``."""
        return await self.execute(command)

    async def str_replace(self, command: Any) -> str:  # type: ignore[override]
        """``str_replace``."""
        return await self.execute(command)

    async def insert(self, command: Any) -> str:  # type: ignore[override]
        """``insert``."""
        return await self.execute(command)

    async def delete(self, command: Any) -> str:  # type: ignore[override]
        """``delete``."""
        return await self.execute(command)

    async def rename(self, command: Any) -> str:  # type: ignore[override]
        """``rename``."""
        return await self.execute(command)

    async def clear_all_memory(self) -> str:  # type: ignore[override]
        """Refused, as in the sync tool."""
        return "Error: clearing all memory is not supported; delete files one by one."


#: Claude's native bash tool (input ``command``, or ``restart: true``), backed here by the
#: sandbox over the memory directory.
BASH_TOOL: dict[str, str] = {"type": "bash_20250124", "name": "bash"}


def native_tools(mem: Any) -> list[dict[str, Any]]:
    """Claude's native ``memory_20250818`` and ``bash_20250124`` together, for ``tools=``."""
    return [MemtoolMemoryTool(mem).to_dict(), dict(BASH_TOOL)]


def request_params(mem: Any, instructions: str = "You are a helpful assistant.", *,
                   bash: bool | str = False, query: str | None = None) -> dict[str, Any]:
    """``system`` (instructions + core memory read now), ``tools`` (the native memory tool,
    plus a bash tool: ``bash=True`` memtool's own definition, ``bash="native"`` Claude's
    ``bash_20250124``) and ``betas`` for ``client.beta.messages.create``. Call it before every
    model call; ``query`` (the last user message) adds the recalled memories to ``system``."""
    tools: list[Any] = [MemtoolMemoryTool(mem).to_dict()]
    if bash == "native":
        tools.append(dict(BASH_TOOL))
    elif bash:
        tools += [d.anthropic() for d in mem.tools.definitions() if d.name == "bash"]
    return {"system": mem.system_prompt(instructions, query=query), "tools": tools, "betas": [MEMORY_BETA]}


def bash_result(mem: Any, tool_input: Any) -> dict[str, Any]:
    """Run one native ``bash_20250124`` call: ``{"content": text, "is_error": bool}``. The
    shell keeps no state between calls (each command starts at /.memory), so ``restart``
    only says so."""
    data = tool_input if isinstance(tool_input, dict) else _arguments(tool_input)
    if data.get("restart"):
        return {"content": "The bash tool has been restarted.", "is_error": False}
    command = data.get("command")
    if not isinstance(command, str) or not command.strip():
        return {"content": "Error: `command` is required (or `restart: true`).", "is_error": True}
    from memtool.tools import is_error

    text = mem.call("bash", {"command": command})
    return {"content": text, "is_error": is_error("bash", text)}


def tool_results(mem: Any, message: Any) -> list[dict[str, Any]]:
    """Run every ``tool_use`` block of ``message`` (memory or bash); the ``tool_result`` blocks."""
    tool = MemtoolMemoryTool(mem)
    results = []
    for block in getattr(message, "content", None) or []:
        if getattr(block, "type", None) != "tool_use":
            continue
        name = block.name
        if name == "memory":
            text = tool.execute(block.input if isinstance(block.input, dict) else _arguments(block.input))
        elif name == "bash":
            answer = bash_result(mem, block.input)
            results.append({"type": "tool_result", "tool_use_id": block.id, **answer})
            continue
        else:
            text = f"Error: unknown tool {str(name)[:40]!r}."
        results.append({"type": "tool_result", "tool_use_id": block.id, "content": text})
    return results


def run(client: Any, mem: Any, user_message: str, *, model: str, max_tokens: int = 1024,
        instructions: str = "You are a helpful assistant.", history: Iterable[dict[str, Any]] = (),
        bash: bool = False, max_steps: int = 20, record: bool = True) -> str:
    """One user turn with Claude: the memory tool runs locally and the system prompt (core
    memory read fresh) is rebuilt before every model call. Records the user message and the
    answer in conversations.jsonl (``record=False`` to skip). Returns the answer's text."""
    messages: list[dict[str, Any]] = [*history, {"role": "user", "content": user_message}]
    if record:
        mem.record("user", user_message)
    text = ""
    for _ in range(max_steps):
        message = client.beta.messages.create(model=model, max_tokens=max_tokens, messages=messages,
                                              **request_params(mem, instructions, bash=bash))
        text = "".join(getattr(b, "text", "") for b in message.content if getattr(b, "type", "") == "text")
        results = tool_results(mem, message)
        if not results:
            break
        messages.append({"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in message.content]})
        messages.append({"role": "user", "content": results})
    if record:
        mem.record("assistant", text)
    return text
