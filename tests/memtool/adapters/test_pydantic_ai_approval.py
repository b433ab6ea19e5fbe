"""pydantic-ai: memtool's approval as deferred tool approval (FunctionModel, no network)."""

from __future__ import annotations

import pytest

from adapters_support import need  # type: ignore[import-not-found]

need("pydantic_ai", "pydantic-ai")

from pydantic_ai import Agent, DeferredToolRequests, DeferredToolResults, ToolDenied  # noqa: E402
from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart  # noqa: E402
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402

from memtool import Memory, MemoryStore  # noqa: E402
from memtool.adapters.pydantic_ai import memory_toolset  # noqa: E402


def _agent(mem, call: ToolCallPart, returns: list):
    def model(messages, info: AgentInfo) -> ModelResponse:  # type: ignore[no-untyped-def]
        for part in messages[-1].parts:
            if isinstance(part, ToolReturnPart):
                returns.append(part.content)
                return ModelResponse(parts=[TextPart("Done.")])
        return ModelResponse(parts=[call])

    return Agent(FunctionModel(model), toolsets=[memory_toolset(mem, requires_approval=True)],
                 output_type=[str, DeferredToolRequests])


@pytest.mark.parametrize("decision", [True, ToolDenied("not this one")])
def test_write_is_deferred_then_approved_or_denied(decision):
    store = MemoryStore()
    mem = Memory(store)
    before = store.read_bytes("notes.md")
    returns: list = []
    call = ToolCallPart("memory", {"command": "update", "path": "/memories/notes.md", "content": "new"},
                        tool_call_id="c1")
    agent = _agent(mem, call, returns)
    first = agent.run_sync("save a note")
    assert isinstance(first.output, DeferredToolRequests)
    [req] = first.output.approvals
    meta = first.output.metadata.get(req.tool_call_id, {})
    assert meta["paths"] == ["notes.md"] and "+new" in meta["diff"]
    assert store.read_bytes("notes.md") == before
    second = agent.run_sync(message_history=first.all_messages(),
                            deferred_tool_results=DeferredToolResults(approvals={req.tool_call_id: decision}))
    assert second.output == "Done."
    if decision is True:
        assert store.read_bytes("notes.md") == b"new" and returns[0].startswith("Overwrote")
    else:
        assert store.read_bytes("notes.md") == before and "not this one" in returns[0]


def test_reads_are_not_deferred():
    mem = Memory(store=MemoryStore())
    returns: list = []
    agent = _agent(mem, ToolCallPart("bash", {"command": "head -1 core.md"}, tool_call_id="c1"), returns)
    assert agent.run_sync("read").output == "Done." and returns[0].startswith("# Core")
