"""pydantic-ai: the toolset and instructions with pydantic-ai's FunctionModel and TestModel."""

from __future__ import annotations

import pytest

from adapters_support import need  # type: ignore[import-not-found]

need("pydantic_ai", "pydantic-ai")

from pydantic_ai import Agent  # noqa: E402
from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart  # noqa: E402
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402
from pydantic_ai.models.test import TestModel  # noqa: E402

from memtool import Memory, MemoryStore  # noqa: E402
from memtool.adapters.pydantic_ai import memory_instructions, memory_toolset  # noqa: E402


@pytest.fixture
def mem():
    return Memory(store=MemoryStore())


def test_core_reread_before_every_model_call(mem):
    seen_instructions: list[str] = []
    tool_returns: list[str] = []

    def model(messages, info: AgentInfo) -> ModelResponse:  # type: ignore[no-untyped-def]
        seen_instructions.append(messages[-1].instructions or "")
        for part in messages[-1].parts:
            if isinstance(part, ToolReturnPart):
                tool_returns.append(part.content)
        step = len(seen_instructions)
        if step == 1:
            assert {t.name for t in info.function_tools} == {"memory", "bash"}
            return ModelResponse(parts=[ToolCallPart("memory", {"command": "update", "path": "core.md",
                                                                "mode": "append", "content": "- Likes jazz\n"})])
        if step == 2:
            return ModelResponse(parts=[ToolCallPart("bash", {"command": "grep -c jazz /.memory/core.md"})])
        return ModelResponse(parts=[TextPart("Jazz it is.")])

    agent = Agent(FunctionModel(model), toolsets=[memory_toolset(mem)],
                  instructions=memory_instructions(mem, "Be brief."))
    result = agent.run_sync("I like jazz.")
    assert result.output == "Jazz it is."
    assert len(seen_instructions) == 3
    assert all("Be brief." in s and '<memory name="core">' in s for s in seen_instructions)
    assert ["Likes jazz" in s for s in seen_instructions] == [False, True, True]
    assert tool_returns[0].startswith("Appended to /memories/core.md")
    assert tool_returns[1] == "1\n"


def test_schema_and_errors_with_test_model(mem):
    agent = Agent(TestModel(call_tools=["memory"]), toolsets=[memory_toolset(mem)])
    result = agent.run_sync("go")
    returns = [p.content for m in result.all_messages() for p in getattr(m, "parts", [])
               if isinstance(p, ToolReturnPart)]
    assert len(returns) == 1 and isinstance(returns[0], str)  # whatever TestModel sent, a string came back
    tools = memory_toolset(mem).tools
    assert tools["memory"].function_schema.json_schema == mem.tools.definitions()[0].parameters
