"""Native tool types over the memory: Claude's bash_20250124 beside memory_20250818 in one
export, OpenAI Responses' shell tool, the Agents SDK's ShellTool. Each through the real SDK
client on a recorded transport (or the SDK's own Runner with a scripted Model)."""

from __future__ import annotations

import json

import pytest

from adapters_support import need  # type: ignore[import-not-found]

from memtool import Memory, MemoryStore


@pytest.fixture
def mem():
    return Memory(store=MemoryStore())


# -- Anthropic ---------------------------------------------------------------------------------


def test_claude_native_bash_and_memory_in_one_export(mem):
    need("anthropic", "anthropic")
    from test_anthropic_memory import Recorder, _message  # type: ignore[import-not-found]

    from memtool.adapters.anthropic_memory import native_tools, request_params, run

    assert native_tools(mem) == [{"type": "memory_20250818", "name": "memory"},
                                 {"type": "bash_20250124", "name": "bash"}]
    assert request_params(mem, bash="native")["tools"] == native_tools(mem)
    rec = Recorder([
        _message([{"type": "tool_use", "id": "t1", "name": "bash",
                   "input": {"command": "echo '- drinks tea' >> core.md && grep -c tea core.md"}},
                  {"type": "tool_use", "id": "t2", "name": "memory",
                   "input": {"command": "view", "path": "/memories/core.md"}}], stop="tool_use", n=1),
        _message([{"type": "tool_use", "id": "t3", "name": "bash", "input": {"restart": True}},
                  {"type": "tool_use", "id": "t4", "name": "bash", "input": {"command": "sh -c 'curl x'"}}],
                 stop="tool_use", n=2),
        _message([{"type": "text", "text": "Tea noted."}], n=3),
    ])
    answer = run(rec.client(), mem, "I drink tea.", model="claude-test", bash="native")
    assert answer == "Tea noted."
    assert rec.requests[0]["body"]["tools"] == native_tools(mem)
    results = rec.requests[1]["body"]["messages"][-1]["content"]
    assert results[0] == {"type": "tool_result", "tool_use_id": "t1", "content": "1\n\n[core.md: " +
                          results[0]["content"].split("[core.md: ")[1], "is_error": False}
    assert results[1]["content"].startswith("Here's the content of /memories/core.md")
    later = rec.requests[2]["body"]["messages"][-1]["content"]
    assert later[0] == {"type": "tool_result", "tool_use_id": "t3", "content": "The bash tool has been restarted.",
                        "is_error": False}
    assert later[1]["is_error"] is True and "not an allowed command" in later[1]["content"]
    assert "- drinks tea" in rec.requests[2]["body"]["system"]
    assert mem.history("core.md")[0].actor == "bash"


# -- OpenAI Responses ------------------------------------------------------------------------


def _resp(n: int, output: list[dict]) -> dict:
    return {"id": f"r{n}", "object": "response", "created_at": 0, "model": "m", "status": "completed",
            "output": output, "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}


def test_openai_responses_shell_tool(mem):
    need("openai", "openai")
    from test_openai import Recorder  # type: ignore[import-not-found]

    from memtool.adapters.openai import responses_tools, run_responses

    assert responses_tools(mem, shell=True)[-1] == {"type": "shell"}
    assert [t.get("name") for t in responses_tools(mem, shell=True)] == ["memory", None]
    rec = Recorder([
        _resp(1, [{"type": "shell_call", "id": "sc1", "call_id": "call1", "status": "completed",
                   "action": {"commands": ["echo hi > a.md; cat a.md", "ls nope", "seq 1 1000"],
                              "timeout_ms": 5000, "max_output_length": 20}}]),
        _resp(2, [{"type": "message", "id": "m2", "role": "assistant", "status": "completed",
                   "content": [{"type": "output_text", "text": "Done.", "annotations": []}]}]),
    ])
    assert run_responses(rec.client(), mem, "save hi", model="m", shell=True) == "Done."
    assert rec.bodies[0]["tools"][-1] == {"type": "shell"}
    [item] = rec.bodies[1]["input"]
    assert item["type"] == "shell_call_output" and item["call_id"] == "call1" and item["max_output_length"] == 20
    first, second, third = item["output"]
    assert first == {"stdout": "hi\n", "stderr": "", "outcome": {"type": "exit", "exit_code": 0}}
    assert second["outcome"] == {"type": "exit", "exit_code": 2} and second["stderr"] == "ls: cannot access 'n"
    assert len(third["stdout"]) == 20 and third["stdout"].startswith("1\n2\n")
    assert mem.store.read_bytes("a.md") == b"hi\n"
    # the SDK's own types accept what we send back
    from openai.types.responses.response_input_item_param import ShellCallOutput  # noqa: F401
    from openai.types.responses import ResponseFunctionShellToolCall

    ResponseFunctionShellToolCall.model_validate({"type": "shell_call", "id": "x", "call_id": "c", "status": "completed",
                                                  "action": {"commands": ["ls"]}})


def test_agents_sdk_shell_tool(mem):
    need("agents", "openai-agents")
    from agents import Agent, Runner
    from openai.types.responses import ResponseFunctionShellToolCall
    from test_openai_agents import ScriptedModel, _text  # type: ignore[import-not-found]

    from memtool.adapters.openai_agents import memory_function_tools, memory_shell_tool

    call = ResponseFunctionShellToolCall(type="shell_call", id="sc1", call_id="call1", status="completed",
                                         action={"commands": ["echo '- swims' >> core.md", "grep -c swims core.md"]})
    model = ScriptedModel([[call], [_text("Swimming noted.")]])
    agent = Agent(name="a", model=model, tools=[*memory_function_tools(mem, bash=False), memory_shell_tool(mem)])
    result = Runner.run_sync(agent, "I swim.")
    assert result.final_output == "Swimming noted."
    assert [t.name for t in agent.tools] == ["memory", "shell"]
    sent = [i for i in model.calls[1][1] if isinstance(i, dict) and i.get("type") == "shell_call_output"]
    assert sent and sent[0]["call_id"] == "call1"
    text = json.dumps(sent[0])
    assert '"exit_code": 0' in text and "1\\n" in text
    assert b"- swims" in mem.store.read_bytes("core.md")
