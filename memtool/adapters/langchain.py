"""LangChain / LangGraph: memtool's tools as ``BaseTool``s and core memory as a prompt hook.

    from langgraph.prebuilt import create_react_agent
    from memtool import Memory
    from memtool.adapters.langchain import memory_prompt, memory_tools

    mem = Memory(".memory")
    agent = create_react_agent(model, memory_tools(mem), prompt=memory_prompt(mem, "Be brief."))

``memory_prompt`` returns a callable that LangGraph calls before every model call: it puts a
``SystemMessage`` with core memory read at that moment in front of the state's messages.
With LangChain's ``create_agent`` use ``system_prompt_text(mem, ...)`` from a
``@dynamic_prompt`` middleware, which is also evaluated before every model call.

``memory_tools(mem, interrupt_on_write=True)`` maps memtool's approval to LangGraph's
``interrupt``: a call that would change a file (a dry run, ``Memory.preview``) pauses the
graph with ``{"tool", "command", "paths", "diff"}``; resume with
``Command(resume=True)`` to allow, ``False`` or a reason string to deny (the model sees it).
Reads never pause. The graph needs a checkpointer, as every LangGraph interrupt does.
"""

from __future__ import annotations

from typing import Any, Callable

try:
    from langchain_core.messages import BaseMessage, SystemMessage
    from langchain_core.tools import BaseTool, StructuredTool
except ImportError as _e:  # pragma: no cover - exercised only without the extra
    from memtool.adapters import missing_extra

    raise missing_extra("langchain", _e) from _e


def _caller(mem: Any, name: str, interrupt_on_write: bool = False) -> Callable[..., str]:
    def call_memtool(**arguments: Any) -> str:
        args = {k: v for k, v in arguments.items() if v is not None}
        if not interrupt_on_write:
            return mem.call(name, args)
        from langgraph.types import interrupt

        from memtool.approval import denial

        request = mem.preview(name, args)
        if request is None:
            return mem.call(name, args, approved=True)  # a read: nothing to ask
        answer = interrupt({"tool": request.tool, "command": request.command,
                            "paths": request.paths, "diff": request.diff})
        reason = denial(answer)
        if reason is not None:
            return f"Error: this change was not approved: {reason}. Nothing was changed."
        return mem.call(name, args, approved=True)

    return call_memtool


def memory_tools(mem: Any, *, interrupt_on_write: bool = False) -> list[BaseTool]:
    """One ``StructuredTool`` per offered memtool tool, with memtool's JSON Schema; each
    returns the model-facing string (errors included, never an exception).
    ``interrupt_on_write``: writes wait for a LangGraph ``interrupt`` (module docstring)."""
    return [StructuredTool.from_function(_caller(mem, d.name, interrupt_on_write), name=d.name,
                                         description=d.description, args_schema=d.parameters)
            for d in mem.tools.definitions()]


def system_prompt_text(mem: Any, instructions: str = "", query: str | None = None) -> str:
    """``instructions`` + today's date + core.md read now (for a dynamic-prompt middleware);
    ``query`` (the last user message) adds the recalled memories."""
    return mem.system_prompt(instructions, query=query)


def last_human_text(messages: Any) -> str | None:
    """The text of the last human message of a LangChain message list (None: none)."""
    for message in reversed(list(messages or [])):
        if getattr(message, "type", None) == "human":
            content = getattr(message, "content", None)
            if isinstance(content, str):
                return content
            if isinstance(content, list):
                parts = [p.get("text", "") if isinstance(p, dict) else str(p) for p in content]
                return " ".join(p for p in parts if p) or None
            return None
    return None


def memory_prompt(mem: Any, instructions: str = "") -> Callable[[Any], list[BaseMessage]]:
    """A LangGraph ``prompt=`` callable: ``[SystemMessage(core memory read now), *messages]``."""

    def prompt(state: Any) -> list[BaseMessage]:
        messages = state.get("messages", []) if isinstance(state, dict) else getattr(state, "messages", [])
        return [SystemMessage(content=mem.system_prompt(instructions, query=last_human_text(messages))),
                *messages]

    return prompt
