"""pydantic-ai: memtool's tools as a toolset, and core memory as dynamic instructions.

    from pydantic_ai import Agent
    from memtool import Memory
    from memtool.adapters.pydantic_ai import memory_instructions, memory_toolset

    mem = Memory(".memory")
    agent = Agent("openai:gpt-4o-mini", toolsets=[memory_toolset(mem)],
                  instructions=memory_instructions(mem, "You are a helpful assistant."))

pydantic-ai evaluates an instructions function for every model request of a run, so core
memory is read fresh before each model call (a change made by a tool call in the same run is
seen at the next step). Tools keep memtool's JSON Schemas and return its model-facing strings.

``memory_toolset(mem, requires_approval=True)`` maps memtool's approval to pydantic-ai's
deferred tool approval: a call that would change a file (a dry run, ``Memory.preview``)
raises ``ApprovalRequired`` (metadata: tool, command, paths, diff), so a run with
``output_type=[str, DeferredToolRequests]`` ends with the request; the next run, given
``DeferredToolResults(approvals={call_id: True | ToolDenied("reason")})``, runs or refuses it.
Reads never ask.
"""

from __future__ import annotations

from typing import Any, Callable

try:
    from pydantic_ai import RunContext
    from pydantic_ai.tools import Tool
    from pydantic_ai.toolsets import FunctionToolset
except ImportError as _e:  # pragma: no cover - exercised only without the extra
    from memtool.adapters import missing_extra

    raise missing_extra("pydantic_ai", _e) from _e


def _caller(mem: Any, name: str) -> Callable[..., str]:
    def call_memtool(**arguments: Any) -> str:
        return mem.call(name, arguments)

    return call_memtool


def _approving_caller(mem: Any, name: str) -> Callable[..., str]:
    def call_memtool(ctx: Any, **arguments: Any) -> str:
        if getattr(ctx, "tool_call_approved", False):
            return mem.call(name, arguments, approved=True)
        request = mem.preview(name, arguments)
        if request is None:
            return mem.call(name, arguments, approved=True)  # a read: nothing to ask
        from pydantic_ai import ApprovalRequired

        raise ApprovalRequired(metadata={"tool": request.tool, "command": request.command,
                                         "paths": request.paths, "diff": request.diff})

    return call_memtool


def memory_tools(mem: Any, *, requires_approval: bool = False) -> list[Tool[Any]]:
    """One pydantic-ai ``Tool`` per offered memtool tool (memtool's schema and description);
    ``requires_approval``: writes are deferred for approval (see the module docstring)."""
    if requires_approval:
        return [Tool.from_schema(_approving_caller(mem, d.name), name=d.name, description=d.description,
                                 json_schema=d.parameters, takes_ctx=True) for d in mem.tools.definitions()]
    return [Tool.from_schema(_caller(mem, d.name), name=d.name, description=d.description,
                             json_schema=d.parameters) for d in mem.tools.definitions()]


def memory_toolset(mem: Any, *, requires_approval: bool = False) -> FunctionToolset[Any]:
    """A ``FunctionToolset`` with the offered tools."""
    return FunctionToolset(memory_tools(mem, requires_approval=requires_approval))


def memory_instructions(mem: Any, instructions: str = "") -> Callable[[RunContext[Any]], str]:
    """An instructions function: ``instructions`` + today's date + core.md read at each call,
    and the memories recalled for the run's user prompt (``RunContext.prompt``)."""

    def core_memory_instructions(ctx: RunContext[Any]) -> str:
        prompt = getattr(ctx, "prompt", None)
        if not isinstance(prompt, str):  # a multi-part prompt: its text parts
            parts = [p for p in (prompt or ()) if isinstance(p, str)] if isinstance(prompt, (list, tuple)) else []
            prompt = " ".join(parts) or None
        return mem.system_prompt(instructions, query=prompt)

    return core_memory_instructions
