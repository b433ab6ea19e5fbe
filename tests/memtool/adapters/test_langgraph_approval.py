"""LangGraph: memtool's approval as an interrupt (LangChain's fake chat model, in-memory
checkpointer): a write pauses the graph; resuming with True applies it, with a reason denies."""

from __future__ import annotations

import pytest

from adapters_support import need  # type: ignore[import-not-found]

need("langchain_core", "langchain")
prebuilt = need("langgraph.prebuilt", "langchain")

from langchain_core.messages import AIMessage  # noqa: E402
from langgraph.checkpoint.memory import InMemorySaver  # noqa: E402
from langgraph.types import Command  # noqa: E402
from test_langchain import RecordingFakeChatModel  # type: ignore[import-not-found]  # noqa: E402

from memtool import Memory, MemoryStore  # noqa: E402
from memtool.adapters.langchain import memory_tools  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.filterwarnings("ignore:create_react_agent has been moved")]


def _agent(mem, calls):
    script = iter([AIMessage(content="", tool_calls=[c]) for c in calls] + [AIMessage(content="Done.")])
    model = RecordingFakeChatModel(messages=script)
    model.seen = []
    return prebuilt.create_react_agent(model, memory_tools(mem, interrupt_on_write=True),
                                       checkpointer=InMemorySaver())


WRITE = {"id": "c1", "name": "bash", "args": {"command": "echo '- likes tea' >> core.md"}}


@pytest.mark.parametrize("answer, applied", [(True, True), (False, False), ("ask me tomorrow", False)])
def test_write_pauses_until_resumed(answer, applied):
    store = MemoryStore()
    mem = Memory(store)
    before = store.read_bytes("core.md")
    agent = _agent(mem, [WRITE])
    config = {"configurable": {"thread_id": "t"}}
    state = agent.invoke({"messages": [("user", "I like tea")]}, config)
    [pending] = state["__interrupt__"]
    assert pending.value["tool"] == "bash" and pending.value["paths"] == ["core.md"]
    assert "+- likes tea" in pending.value["diff"]
    assert store.read_bytes("core.md") == before  # paused: nothing written
    state = agent.invoke(Command(resume=answer), config)
    assert state["messages"][-1].content == "Done."
    tool_output = state["messages"][-2].content
    assert (store.read_bytes("core.md") != before) == applied
    if not applied:
        assert tool_output.startswith("Error: this change was not approved")
        if isinstance(answer, str):
            assert answer in tool_output


def test_reads_do_not_pause():
    mem = Memory(store=MemoryStore())
    agent = _agent(mem, [{"id": "c1", "name": "memory", "args": {"command": "view", "path": "/memories"}}])
    state = agent.invoke({"messages": [("user", "hi")]}, {"configurable": {"thread_id": "t"}})
    assert "__interrupt__" not in state and state["messages"][-1].content == "Done."
