"""Claude's native memory tool over memtool: the SDK's types, a real client on recorded HTTP."""

from __future__ import annotations

import json

import pytest

from adapters_support import need  # type: ignore[import-not-found]

anthropic = need("anthropic", "anthropic")
try:  # newer SDKs run on httpx2 and refuse httpx objects; older ones use httpx
    import httpx2 as httpx  # type: ignore[import-not-found]
except ImportError:
    httpx = need("httpx", "anthropic")

from memtool import Memory, MemoryStore  # noqa: E402
from memtool.adapters.anthropic_memory import (  # noqa: E402
    MEMORY_BETA, AsyncMemtoolMemoryTool, MemtoolMemoryTool, request_params, run, tool_results,
)


def _message(content: list[dict], stop: str = "end_turn", n: int = 0) -> dict:
    return {"id": f"msg_{n}", "type": "message", "role": "assistant", "model": "claude-test",
            "content": content, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5}}


class Recorder:
    """An httpx transport that answers with canned Messages API replies and keeps every request."""

    def __init__(self, replies: list[dict]):
        self.replies = list(replies)
        self.requests: list[dict] = []

    def __call__(self, request):  # type: ignore[no-untyped-def]
        self.requests.append({"url": str(request.url), "headers": dict(request.headers),
                              "body": json.loads(request.content)})
        return httpx.Response(200, json=self.replies.pop(0))

    def client(self):  # type: ignore[no-untyped-def]
        return anthropic.Anthropic(api_key="test-key", base_url="http://anthropic.test",
                                   http_client=httpx.Client(transport=httpx.MockTransport(self)), max_retries=0)


@pytest.fixture
def mem():
    return Memory(store=MemoryStore())


def test_tool_definition_and_params(mem):
    tool = MemtoolMemoryTool(mem)
    assert tool.to_dict() == {"type": "memory_20250818", "name": "memory"}
    assert tool.name == "memory"
    params = request_params(mem, "Be brief.", bash=True)
    assert params["betas"] == [MEMORY_BETA]
    assert params["tools"][0] == {"type": "memory_20250818", "name": "memory"}
    assert params["tools"][1]["name"] == "bash" and "input_schema" in params["tools"][1]
    assert "Be brief." in params["system"] and '<memory name="core">' in params["system"]


def test_every_command_through_sdk_types(mem):
    tool = MemtoolMemoryTool(mem)
    # call() parses the raw input into the SDK's command types, then dispatches.
    assert tool.call({"command": "create", "path": "/memories/a.md", "file_text": "one\ntwo\n"}) == \
        "File created successfully at: /memories/a.md"
    assert tool.call({"command": "create", "path": "/memories/a.md", "file_text": "x"}) == \
        "Error: File /memories/a.md already exists"
    view = tool.call({"command": "view", "path": "/memories/a.md", "view_range": [2, -1]})
    assert "two" in view and "one" not in view
    assert tool.call({"command": "str_replace", "path": "/memories/a.md", "old_str": "two",
                      "new_str": "2"}).startswith("The memory file has been edited.")
    assert tool.call({"command": "str_replace", "path": "/memories/a.md", "old_str": "zzz", "new_str": "y"}) == \
        "No replacement was performed, old_str `zzz` did not appear verbatim in /memories/a.md."
    assert tool.call({"command": "insert", "path": "/memories/a.md", "insert_line": 0,
                      "insert_text": "zero\n"}) == "The file /memories/a.md has been edited."
    assert mem.store.read_bytes("a.md") == b"zero\none\n2\n"
    assert tool.call({"command": "rename", "old_path": "/memories/a.md", "new_path": "/memories/b.md"}) == \
        "Successfully renamed /memories/a.md to /memories/b.md"
    assert tool.call({"command": "delete", "path": "/memories/b.md"}) == "Successfully deleted /memories/b.md"
    # memtool's rules apply: traversal, the append-only log and secrets are refused.
    assert tool.call({"command": "view", "path": "/memories/../../etc/passwd"}).startswith("Error: The path")
    assert tool.call({"command": "delete", "path": "/memories/conversations.jsonl"}).startswith("Error")
    refused = tool.call({"command": "create", "path": "/memories/k.md",
                         "file_text": "aws AKIAIOSFODNN7EXAMPLE"})
    assert refused.startswith("Error") and "AKIAIOSFODNN7EXAMPLE" not in refused
    assert not mem.store.exists("k.md")


def test_async_tool(mem):
    import asyncio

    tool = AsyncMemtoolMemoryTool(mem)
    out = asyncio.run(tool.call({"command": "create", "path": "/memories/x.md", "file_text": "hi"}))
    assert out == "File created successfully at: /memories/x.md"


def test_run_rereads_core_before_every_call(mem):
    replies = [
        _message([{"type": "tool_use", "id": "tu_1", "name": "memory",
                   "input": {"command": "str_replace", "path": "/memories/core.md",
                             "old_str": "# Core Memory", "new_str": "# Core Memory\n- Likes green tea"}}],
                 stop="tool_use", n=1),
        _message([{"type": "tool_use", "id": "tu_2", "name": "memory",
                   "input": {"command": "view", "path": "/memories/core.md"}}], stop="tool_use", n=2),
        _message([{"type": "text", "text": "Noted: green tea."}], n=3),
    ]
    rec = Recorder(replies)
    answer = run(rec.client(), mem, "I like green tea.", model="claude-test")
    assert answer == "Noted: green tea."
    assert len(rec.requests) == 3
    systems = [r["body"]["system"] for r in rec.requests]
    assert "Likes green tea" not in systems[0]
    assert "Likes green tea" in systems[1] and "Likes green tea" in systems[2]
    for r in rec.requests:
        assert r["body"]["tools"][0] == {"type": "memory_20250818", "name": "memory"}
        assert MEMORY_BETA in r["headers"].get("anthropic-beta", "")
        assert "/v1/messages" in r["url"]
    second = rec.requests[1]["body"]["messages"]
    assert second[-1]["content"][0]["type"] == "tool_result"
    assert second[-1]["content"][0]["tool_use_id"] == "tu_1"
    assert second[-1]["content"][0]["content"].startswith("The memory file has been edited.")
    turns = mem.recent(5)
    assert [(t["role"], t["content"]) for t in turns] == [("user", "I like green tea."),
                                                           ("assistant", "Noted: green tea.")]


def test_sdk_tool_runner_runs_our_tool(mem):
    """The SDK's own runner executes MemtoolMemoryTool (system is fixed per run there)."""
    replies = [
        _message([{"type": "tool_use", "id": "tu_1", "name": "memory",
                   "input": {"command": "create", "path": "/memories/r.md", "file_text": "from runner"}}],
                 stop="tool_use", n=1),
        _message([{"type": "text", "text": "done"}], n=2),
    ]
    rec = Recorder(replies)
    client = rec.client()
    runner = client.beta.messages.tool_runner(model="claude-test", max_tokens=100, tools=[MemtoolMemoryTool(mem)],
                                              messages=[{"role": "user", "content": "save"}],
                                              betas=[MEMORY_BETA])
    final = runner.until_done()
    assert final.content[0].text == "done"
    assert mem.store.read_bytes("r.md") == b"from runner"
    result = rec.requests[1]["body"]["messages"][-1]["content"][0]
    assert result["tool_use_id"] == "tu_1"
    assert "File created successfully at: /memories/r.md" in json.dumps(result)


def test_tool_results_unknown_tool(mem):
    msg = anthropic.types.beta.BetaMessage.model_validate(_message(
        [{"type": "tool_use", "id": "a", "name": "web", "input": {}},
         {"type": "tool_use", "id": "b", "name": "bash", "input": {"command": "echo hi"}}], stop="tool_use"))
    out = tool_results(mem, msg)
    assert out[0]["content"].startswith("Error: unknown tool")
    assert out[1]["content"] == "hi\n"
