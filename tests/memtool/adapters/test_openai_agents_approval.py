"""OpenAI Agents SDK: memtool's approval as the SDK's needs_approval (a scripted Model)."""

from __future__ import annotations

from adapters_support import need  # type: ignore[import-not-found]

need("agents", "openai-agents")

from agents import Agent, Runner  # noqa: E402
from test_openai_agents import ScriptedModel, _call, _text  # type: ignore[import-not-found]  # noqa: E402

from memtool import Memory, MemoryStore  # noqa: E402
from memtool.adapters.openai_agents import memory_function_tools  # noqa: E402

CREATE = '{"command": "create", "path": "/memories/tea.md", "file_text": "likes tea\\n"}'


def _run(mem, outputs):
    model = ScriptedModel(outputs)
    agent = Agent(name="a", model=model, tools=memory_function_tools(mem, needs_approval=True))
    return agent, model, Runner.run_sync(agent, "Remember: tea.")


def test_a_write_waits_for_approval_then_runs():
    store = MemoryStore()
    mem = Memory(store)
    agent, model, result = _run(mem, [[_call("c1", "memory", CREATE)], [_text("Noted.")]])
    assert [i.raw_item.name for i in result.interruptions] == ["memory"]
    assert not store.exists("tea.md")  # nothing happened yet
    state = result.to_state()
    state.approve(result.interruptions[0])
    result = Runner.run_sync(agent, state)
    assert result.final_output == "Noted."
    assert store.read_bytes("tea.md") == b"likes tea\n"
    assert mem.history("tea.md")[0].actor == "memory"


def test_a_rejected_write_changes_nothing():
    store = MemoryStore()
    mem = Memory(store)
    before = store.read_bytes("notes.md")
    agent, model, result = _run(mem, [[_call("c1", "bash", '{"command": "sed -i d notes.md"}')], [_text("OK.")]])
    state = result.to_state()
    state.reject(result.interruptions[0])
    result = Runner.run_sync(agent, state)
    assert result.final_output == "OK." and store.read_bytes("notes.md") == before


def test_reads_do_not_interrupt():
    mem = Memory(store=MemoryStore())
    agent, model, result = _run(mem, [[_call("c1", "bash", '{"command": "cat core.md | head -1"}')],
                                      [_text("Read.")]])
    assert not result.interruptions and result.final_output == "Read."
