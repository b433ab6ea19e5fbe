"""OpenAI helpers: the real SDK client over a recorded HTTP transport (no network)."""

from __future__ import annotations

import json

import pytest

from adapters_support import need  # type: ignore[import-not-found]

openai = need("openai", "openai")
try:  # the SDK runs on httpx2 in newer releases, httpx before
    import httpx2 as httpx  # type: ignore[import-not-found]
    openai.OpenAI(api_key="k", http_client=httpx.Client())
except (ImportError, TypeError):
    httpx = need("httpx", "openai")

from memtool import Memory, MemoryStore  # noqa: E402
from memtool.adapters.openai import (  # noqa: E402
    arguments, chat_tool_messages, chat_tools, responses_tool_outputs, responses_tools, run_chat, run_responses,
)


class Recorder:
    """Answers each request with the next canned JSON body and keeps the request bodies."""

    def __init__(self, replies: list[dict]):
        self.replies = list(replies)
        self.bodies: list[dict] = []

    def __call__(self, request):  # type: ignore[no-untyped-def]
        self.bodies.append(json.loads(request.content))
        return httpx.Response(200, json=self.replies.pop(0))

    def client(self):  # type: ignore[no-untyped-def]
        return openai.OpenAI(api_key="test", base_url="http://openai.test/v1",
                             http_client=httpx.Client(transport=httpx.MockTransport(self)), max_retries=0)


def _chat(message: dict, n: int) -> dict:
    return {"id": f"c{n}", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
                         "message": {"role": "assistant", "content": None, **message}}]}


def _call(i: str, name: str, args: dict) -> dict:
    return {"id": i, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}


@pytest.fixture
def mem():
    return Memory(store=MemoryStore())


def test_definitions(mem):
    assert [t["function"]["name"] for t in chat_tools(mem)] == ["memory", "bash"]
    assert [t["name"] for t in responses_tools(mem)] == ["memory", "bash"]


def test_run_chat_rereads_core_before_every_call(mem):
    rec = Recorder([
        _chat({"tool_calls": [_call("t1", "memory", {"command": "update", "path": "core.md", "mode": "append",
                                                     "content": "- Prefers metric units\n"})]}, 1),
        _chat({"tool_calls": [_call("t2", "bash", {"command": "grep -c metric core.md"}),
                              _call("t3", "nope", {})]}, 2),
        _chat({"content": "Metric it is."}, 3),
    ])
    answer = run_chat(rec.client(), mem, "I prefer metric units.", model="m")
    assert answer == "Metric it is."
    systems = [b["messages"][0]["content"] for b in rec.bodies]
    assert [("Prefers metric units" in s) for s in systems] == [False, True, True]
    assert all(b["messages"][0]["role"] == "system" for b in rec.bodies)
    assert rec.bodies[0]["tools"] == chat_tools(mem)
    tool_msgs = [m for m in rec.bodies[2]["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_msgs] == ["t1", "t2", "t3"]
    assert tool_msgs[1]["content"] == "1\n"
    assert tool_msgs[2]["content"].startswith("Error: unknown tool")
    assert [t["role"] for t in mem.recent(5)] == ["user", "assistant"]


def test_run_responses_rereads_core_before_every_call(mem):
    def resp(n: int, output: list[dict]) -> dict:
        return {"id": f"r{n}", "object": "response", "created_at": 0, "model": "m", "status": "completed",
                "output": output, "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}

    rec = Recorder([
        resp(1, [{"type": "function_call", "id": "fc1", "call_id": "c1", "name": "memory", "status": "completed",
                  "arguments": json.dumps({"command": "str_replace", "path": "/memories/core.md",
                                           "old_str": "# Core Memory", "new_str": "# Core Memory\n- Vegan"})}]),
        resp(2, [{"type": "message", "id": "m2", "role": "assistant", "status": "completed",
                  "content": [{"type": "output_text", "text": "Vegan noted.", "annotations": []}]}]),
    ])
    answer = run_responses(rec.client(), mem, "I am vegan.", model="m")
    assert answer == "Vegan noted."
    assert ["- Vegan" in b["instructions"] for b in rec.bodies] == [False, True]
    assert rec.bodies[1]["previous_response_id"] == "r1"
    assert rec.bodies[1]["input"][0]["type"] == "function_call_output"
    assert rec.bodies[1]["input"][0]["output"].startswith("The memory file has been edited.")


def test_helpers_accept_plain_dicts(mem):
    msgs = chat_tool_messages(mem, {"tool_calls": [_call("a", "bash", {"command": "echo hi"})]})
    assert msgs == [{"role": "tool", "tool_call_id": "a", "content": "hi\n"}]
    outs = responses_tool_outputs(mem, {"output": [{"type": "function_call", "call_id": "x", "name": "memory",
                                                    "arguments": "not json"}]})
    assert outs[0]["call_id"] == "x" and outs[0]["output"].startswith("Error: the arguments are not valid JSON")
    assert arguments(_call("a", "bash", {"command": "ls"})) == {"command": "ls"}
    assert arguments({"function": {"arguments": "[1]"}}) == {}
