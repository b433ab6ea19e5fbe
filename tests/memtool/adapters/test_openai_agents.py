"""OpenAI Agents SDK: FunctionTools and dynamic instructions, with a scripted Model (no network)."""

from __future__ import annotations

import pytest

from adapters_support import need  # type: ignore[import-not-found]

need("agents", "openai-agents")

from agents import Agent, Runner  # noqa: E402
from agents.items import ModelResponse  # noqa: E402
from agents.models.interface import Model  # noqa: E402
from agents.usage import Usage  # noqa: E402
from openai.types.responses import (  # noqa: E402
    ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText,
)

from memtool import Memory, MemoryStore  # noqa: E402
from memtool.adapters.openai_agents import memory_function_tools, memory_instructions  # noqa: E402
from agents import set_tracing_disabled  # noqa: E402

set_tracing_disabled(True)


class ScriptedModel(Model):
    """Replays outputs and keeps the system instructions and input of every call."""

    def __init__(self, outputs: list[list]):
        self.outputs = list(outputs)
        self.calls: list[tuple[str | None, object]] = []

    async def get_response(self, system_instructions, input, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.calls.append((system_instructions, input))
        return ModelResponse(output=self.outputs.pop(0), usage=Usage(), response_id=None)

    def stream_response(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        raise NotImplementedError


def _call(i: str, name: str, args: str) -> ResponseFunctionToolCall:
    return ResponseFunctionToolCall(id=f"fc_{i}", call_id=i, name=name, arguments=args, type="function_call",
                                    status="completed")


def _text(text: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(id="m", role="assistant", status="completed", type="message",
                                 content=[ResponseOutputText(text=text, type="output_text", annotations=[])])


@pytest.fixture
def mem():
    return Memory(store=MemoryStore())


def test_core_reread_before_every_model_call(mem):
    model = ScriptedModel([
        [_call("c1", "memory", '{"command": "update", "path": "core.md", "mode": "append", '
                               '"content": "- Allergic to nuts\\n"}')],
        [_call("c2", "bash", '{"command": "grep -c nuts core.md"}')],
        [_text("No nuts, noted.")],
    ])
    agent = Agent(name="a", model=model, tools=memory_function_tools(mem),
                  instructions=memory_instructions(mem, "Be brief."))
    result = Runner.run_sync(agent, "I am allergic to nuts.")
    assert result.final_output == "No nuts, noted."
    systems = [c[0] for c in model.calls]
    assert len(systems) == 3 and all("Be brief." in s for s in systems)
    assert ["Allergic to nuts" in s for s in systems] == [False, True, True]
    outputs = [item for item in model.calls[2][1] if isinstance(item, dict) and item.get("type") == "function_call_output"]
    assert outputs[0]["output"].startswith("Appended to /memories/core.md")
    assert outputs[1]["output"] == "1\n"


def test_tool_definitions(mem):
    tools = memory_function_tools(mem)
    assert [t.name for t in tools] == ["memory", "bash"]
    assert tools[0].params_json_schema == mem.tools.definitions()[0].parameters
    assert tools[0].strict_json_schema is False
