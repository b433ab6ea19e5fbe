"""The integration snippets of docs/integrations.md (and of README.md once folded in) run.

Each ```python block is executed in a fresh directory against a local fake of the OpenAI and
Anthropic HTTP APIs (the SDKs are pointed at it with their *_BASE_URL variables), so every
line of the snippets, model calls included, really runs. The JSON config must parse and every
``memtool ...`` line of the shell blocks must parse with the real CLI parser.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from adapters_support import REPO, need  # type: ignore[import-not-found]

DOCS = [Path(REPO) / "docs" / "integrations.md", Path(REPO) / "README.md"]


def _blocks(lang: str) -> list[tuple[str, str]]:
    """(source file, block) for every block of ``lang`` that is about integrations."""
    found = []
    for doc in DOCS:
        if not doc.exists():
            continue
        text = doc.read_text()
        for block in re.findall(rf"```{lang}\n(.*?)```", text, re.S):
            if doc.name == "README.md" and "memtool.adapters" not in block and "mcpServers" not in block \
                    and "memtool mcp" not in block:
                continue
            found.append((doc.name, block))
    return found


class FakeModelAPI(BaseHTTPRequestHandler):
    """Answers Chat Completions, Responses and Anthropic Messages with a plain text reply."""

    requests: list[tuple[str, dict]] = []

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        FakeModelAPI.requests.append((self.path, body))
        path = self.path.split("?")[0]
        if path.endswith("/chat/completions"):
            reply = {"id": "c", "object": "chat.completion", "created": 0, "model": body.get("model", "m"),
                     "choices": [{"index": 0, "finish_reason": "stop",
                                  "message": {"role": "assistant", "content": "OK from chat"}}],
                     "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
        elif path.endswith("/responses"):
            reply = {"id": "r", "object": "response", "created_at": 0, "model": body.get("model", "m"),
                     "status": "completed", "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
                     "output": [{"type": "message", "id": "m", "role": "assistant", "status": "completed",
                                 "content": [{"type": "output_text", "text": "OK from responses",
                                              "annotations": []}]}],
                     "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
                               "input_tokens_details": {"cached_tokens": 0},
                               "output_tokens_details": {"reasoning_tokens": 0}}}
        elif path.endswith("/messages"):
            reply = {"id": "msg", "type": "message", "role": "assistant", "model": body.get("model", "m"),
                     "content": [{"type": "text", "text": "OK from claude"}], "stop_reason": "end_turn",
                     "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}
        else:
            self.send_response(404)
            self.end_headers()
            return
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:  # noqa: D102 - quiet
        pass


@pytest.fixture(scope="module")
def fake_api():
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeModelAPI)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def _fake_chat_model():  # type: ignore[no-untyped-def]
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    class Model(GenericFakeChatModel):
        def bind_tools(self, tools, **kwargs):  # type: ignore[no-untyped-def]
            return self

    return Model(messages=iter([AIMessage(content="OK from langchain")]))


PYTHON_BLOCKS = _blocks("python")


def test_there_are_snippets():
    sources = " ".join(b for _, b in PYTHON_BLOCKS)
    for adapter in ("anthropic_memory", "adapters.openai ", "openai_agents", "pydantic_ai", "langchain"):
        assert adapter.strip() in sources, adapter


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.filterwarnings("ignore:create_react_agent has been moved")
@pytest.mark.parametrize("source,block", PYTHON_BLOCKS, ids=[f"{s}-{i}" for i, (s, _) in enumerate(PYTHON_BLOCKS)])
def test_python_snippet_runs(source, block, fake_api, tmp_path, monkeypatch, capsys):
    for module, extra in (("anthropic", "anthropic"), ("openai", "openai"), ("agents", "openai-agents"),
                          ("pydantic_ai", "pydantic-ai"), ("langgraph.prebuilt", "langchain")):
        if f"import {module.split('.')[0]}" in block or f"from {module}" in block:
            need(module, extra)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_api + "/v1")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_api)
    monkeypatch.setenv("OPENAI_AGENTS_DISABLE_TRACING", "1")
    namespace: dict = {"__name__": "snippet"}
    if "create_react_agent(model" in block:
        namespace["model"] = _fake_chat_model()
    FakeModelAPI.requests = []
    exec(compile(block, f"{source} snippet", "exec"), namespace)  # noqa: S102 - the point of the test
    out = capsys.readouterr().out
    if "print(" in block:
        assert "OK from" in out
    if "core memory" in block or "memory_instructions" in block or "memory_prompt" in block \
            or "run(client" in block or "run_chat" in block:
        # every request that reached the fake API carried the core-memory block
        for _, body in FakeModelAPI.requests:
            text = json.dumps(body)
            assert "<memory name=\\\"core\\\">" in text or '<memory name="core">' in text, body
    assert (tmp_path / ".memory" / "core.md").exists()


def test_mcp_config_and_cli_lines_parse():
    from memtool.cli import build_parser

    configs = [json.loads(b) for _, b in _blocks("json")]
    assert configs and all("memtool" in c["mcpServers"] for c in configs)
    for c in configs:
        entry = c["mcpServers"]["memtool"]
        build_parser().parse_args(entry["args"])
    lines = [line.split("#")[0].strip() for _, b in _blocks("bash") for line in b.splitlines()]
    commands = [shlex.split(line)[1:] for line in lines if line.startswith("memtool ")]
    assert len(commands) >= 10
    for argv in commands:
        args = build_parser().parse_args(argv)
        assert callable(args.func), argv
