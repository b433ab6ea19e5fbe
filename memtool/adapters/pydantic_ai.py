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
"""

from __future__ import annotations

from typing import Any, Callable

try:
    from pydantic_ai.tools import Tool
    from pydantic_ai.toolsets import FunctionToolset
except ImportError as _e:  # pragma: no cover - exercised only without the extra
    from memtool.adapters import missing_extra

    raise missing_extra("pydantic_ai", _e) from _e


def _caller(mem: Any, name: str) -> Callable[..., str]:
    def call_memtool(**arguments: Any) -> str:
        return mem.call(name, arguments)

    return call_memtool


def memory_tools(mem: Any) -> list[Tool[Any]]:
    """One pydantic-ai ``Tool`` per offered memtool tool (memtool's schema and description)."""
    return [Tool.from_schema(_caller(mem, d.name), name=d.name, description=d.description,
                             json_schema=d.parameters) for d in mem.tools.definitions()]


def memory_toolset(mem: Any) -> FunctionToolset[Any]:
    """A ``FunctionToolset`` with the offered tools."""
    return FunctionToolset(memory_tools(mem))


def memory_instructions(mem: Any, instructions: str = "") -> Callable[[], str]:
    """An instructions function: ``instructions`` + today's date + core.md read at each call."""

    def core_memory_instructions() -> str:
        return mem.system_prompt(instructions)

    return core_memory_instructions
