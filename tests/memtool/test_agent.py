"""The agent loop: records, tool calls, and core memory re-read before every model call."""

from __future__ import annotations

import json

import pytest

from memtool import Memory
from memtool.agent import Agent, ModelResponse, ScriptedModel, ToolCall
from memtool.tools.bash_tool import sandbox_available


def test_loop_records_and_sees_core_change_at_next_call(mem):
    model = ScriptedModel([
        ModelResponse(None, [ToolCall("memory", {"command": "update", "path": "/memories/core.md",
                                                 "mode": "append", "content": "- Prefers metric units"}, "c1")]),
        ModelResponse("Noted."),
    ])
    agent = Agent(mem, model, "Be helpful.")
    assert agent.run("Use metric units please.") == "Noted."
    first, second = model.requests
    assert "Prefers metric units" not in first.system
    assert "Prefers metric units" in second.system  # re-read before the second call of the same run
    assert second.messages[-1]["role"] == "tool" and second.messages[-1]["tool_call_id"] == "c1"
    assert second.messages[-1]["content"].startswith("Appended to /memories/core.md")
    assert second.messages[-2]["tool_calls"][0]["function"]["name"] == "memory"
    assert json.loads(second.messages[-2]["tool_calls"][0]["function"]["arguments"])["mode"] == "append"
    assert [t["name"] for t in (d["function"] for d in first.tools)] == ["memory", "bash"]
    turns = mem.recent(10)
    assert [(t["role"], t["content"]) for t in turns] == [("user", "Use metric units please."), ("assistant", "Noted.")]


@pytest.mark.skipif(not sandbox_available(), reason="the sandbox (sandbox.api) is not installed")
def test_bash_tool_change_seen_at_next_call(mem):
    model = ScriptedModel([
        ModelResponse(None, [ToolCall("bash", {"command": "echo '- likes tea' >> /.memory/core.md"})]),
        ModelResponse(None, [ToolCall("memory", {"command": "view", "path": "/memories/notes.md"})]),
        ModelResponse("Done."),
    ])
    Agent(mem, model).run("I like tea.")
    assert "- likes tea" not in model.requests[0].system
    assert "- likes tea" in model.requests[1].system and "- likes tea" in model.requests[2].system


def test_external_change_between_calls(mem):
    def edit_then_answer():
        mem.store.write_bytes("core.md", b"- changed by another process\n")
        return ModelResponse("ok")

    class Model(ScriptedModel):
        def complete(self, request):
            resp = super().complete(request)
            if len(self.requests) == 1:
                mem.store.write_bytes("core.md", b"- edited in an editor\n")
            return resp

    model = Model([ModelResponse(None, [ToolCall("memory", {"command": "view", "path": "core.md"})]),
                   ModelResponse("ok")])
    Agent(mem, model).run("hi")
    assert "- edited in an editor" in model.requests[1].system


def test_new_agent_sees_memory_of_the_old_one(tmp_path):
    path = str(tmp_path / "m")
    m1 = ScriptedModel([ModelResponse(None, [ToolCall("memory", {"command": "str_replace", "path": "core.md",
                                                                 "old_str": "# Core Memory", "new_str": "# Core Memory\n- Name: Sam"})]),
                        ModelResponse("Hi Sam.")])
    Agent(Memory(path, gitignore=False), m1).run("I'm Sam.")
    m2 = ScriptedModel([ModelResponse("You are Sam.")])
    Agent(Memory(path, gitignore=False), m2).run("Who am I?")
    assert "- Name: Sam" in m2.requests[0].system
    assert len(Memory(path, gitignore=False).recent(10)) == 4


def test_tool_errors_go_back_to_the_model(mem):
    model = ScriptedModel([ModelResponse(None, [ToolCall("memory", '{"command": "view", "path": "../x"}'),
                                                ToolCall("nope", {})]),
                           ModelResponse("sorry")])
    Agent(mem, model).run("x")
    results = [m["content"] for m in model.requests[1].messages if m["role"] == "tool"]
    assert results == ["Error: The path ../x is not allowed: '..' is not allowed in memory paths.",
                       "Error: unknown tool 'nope'. Available tools: memory, bash."]


def test_max_steps(mem):
    model = ScriptedModel([ModelResponse(None, [ToolCall("memory", {"command": "view", "path": "core.md"})])] * 3)
    out = Agent(mem, model, max_steps=3).run("loop")
    assert out == "(stopped: too many tool calls without an answer)"
    assert len(model.requests) == 3


def test_scripted_model_runs_out(mem):
    with pytest.raises(RuntimeError):
        Agent(mem, ScriptedModel([])).run("x")


def test_openai_model_converts_messages_and_tool_calls(mem):
    """``OpenAIModel.complete`` with a stand-in client (no network, no openai package needed)."""
    from types import SimpleNamespace

    from memtool.agent import ModelRequest, OpenAIModel

    sent = {}

    def create(**kw):
        sent.update(kw)
        call = SimpleNamespace(id="call_1", function=SimpleNamespace(name="memory", arguments='{"command": "view"}'))
        msg = SimpleNamespace(content=None, tool_calls=[call])
        return SimpleNamespace(choices=[SimpleNamespace(message=msg)])

    model = OpenAIModel.__new__(OpenAIModel)
    model.model, model.options = "test-model", {}
    model.client = SimpleNamespace(chat=SimpleNamespace(completions=SimpleNamespace(create=create)))
    resp = model.complete(ModelRequest("SYSTEM", [{"role": "user", "content": "hi"}], mem.tools.openai_chat()))
    assert sent["model"] == "test-model"
    assert sent["messages"] == [{"role": "system", "content": "SYSTEM"}, {"role": "user", "content": "hi"}]
    assert sent["tools"] == mem.tools.openai_chat()
    assert resp.text is None and resp.tool_calls[0].name == "memory" and resp.tool_calls[0].id == "call_1"
    assert mem.call(resp.tool_calls[0].name, resp.tool_calls[0].arguments).startswith("Here're the files")


def test_live_demo_without_a_model_fails_cleanly():
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMTOOL_", "OPENAI_"))}
    r = subprocess.run([sys.executable, "-m", "memtool", "demo", "--live"], capture_output=True, text=True,
                       env=env, timeout=60)
    assert r.returncode == 2
    assert r.stderr.startswith("memtool demo: ") and "Traceback" not in r.stderr
