"""LangChain tools and the LangGraph prompt hook, with LangChain's fake chat model."""

from __future__ import annotations

import pytest

from adapters_support import need  # type: ignore[import-not-found]

need("langchain_core", "langchain")

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.messages import AIMessage, ToolMessage  # noqa: E402

from memtool import Memory, MemoryStore  # noqa: E402
from memtool.adapters.langchain import memory_prompt, memory_tools  # noqa: E402


class RecordingFakeChatModel(GenericFakeChatModel):
    """LangChain's fake chat model, accepting bind_tools and keeping the prompts it got."""

    seen: list = []

    def bind_tools(self, tools, **kwargs):  # type: ignore[no-untyped-def]
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):  # type: ignore[no-untyped-def]
        self.seen.append(list(messages))
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


@pytest.fixture
def mem():
    return Memory(store=MemoryStore())


def test_tools_invoke(mem):
    tools = {t.name: t for t in memory_tools(mem)}
    assert set(tools) == {"memory", "bash"}
    assert tools["memory"].args_schema == mem.tools.definitions()[0].parameters
    out = tools["memory"].invoke({"command": "create", "path": "/memories/a.md", "file_text": "hi"})
    assert out == "File created successfully at: /memories/a.md"
    assert tools["bash"].invoke({"command": "cat a.md"}) == "hi"
    assert tools["memory"].invoke({"command": "view", "path": "../x"}).startswith("Error: The path")


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.filterwarnings("ignore:create_react_agent has been moved")
def test_langgraph_agent_rereads_core_before_every_call(mem):
    prebuilt = need("langgraph.prebuilt", "langchain")
    script = iter([
        AIMessage(content="", tool_calls=[{"id": "c1", "name": "memory", "args": {
            "command": "update", "path": "core.md", "mode": "append", "content": "- Runs marathons\n"}}]),
        AIMessage(content="", tool_calls=[{"id": "c2", "name": "bash", "args": {"command": "grep -c marathon core.md"}}]),
        AIMessage(content="Good luck with the marathon."),
    ])
    model = RecordingFakeChatModel(messages=script)
    model.seen = []
    agent = prebuilt.create_react_agent(model, memory_tools(mem), prompt=memory_prompt(mem, "Be brief."))
    state = agent.invoke({"messages": [("user", "I run marathons.")]})
    assert state["messages"][-1].content == "Good luck with the marathon."
    systems = [m[0].content for m in model.seen]
    assert len(systems) == 3 and all(m[0].type == "system" for m in model.seen)
    assert ["Runs marathons" in s for s in systems] == [False, True, True]
    tool_messages = [m for m in state["messages"] if isinstance(m, ToolMessage)]
    assert tool_messages[0].content.startswith("Appended to /memories/core.md")
    assert tool_messages[1].content == "1\n"
