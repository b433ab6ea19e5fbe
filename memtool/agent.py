"""A minimal agent loop over a ``Memory``: the reference for wiring memory into any framework.

For each user message, ``Agent.run``: records it, then loops *prepare_call → model → tool
calls → results* until the model answers without tool calls (or ``max_steps`` is reached),
then records the answer. ``prepare_call`` renders the system prompt with core memory read
fresh *before every model call*, so an edit made by a tool call in this very run is seen at
the next call.

Messages use the OpenAI Chat Completions shape (``role``/``content``/``tool_calls``/
``tool_call_id``), which most providers and local servers (Ollama, vLLM) speak.
``ScriptedModel`` replays canned responses and keeps every request (tests, the demo);
``OpenAIModel`` (extra ``memtool[openai]``) talks to any OpenAI-compatible endpoint.
"""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Protocol

from memtool.memory import Memory


@dataclass
class ToolCall:
    """A tool call requested by the model."""

    name: str
    arguments: dict[str, Any] | str
    id: str = field(default_factory=lambda: f"call_{uuid.uuid4().hex[:12]}")

    def arguments_json(self) -> str:
        """The arguments as a JSON string."""
        return self.arguments if isinstance(self.arguments, str) else json.dumps(self.arguments)


@dataclass
class ModelResponse:
    """What a model returns: text, tool calls, or both."""

    text: str | None = None
    tool_calls: list[ToolCall] = field(default_factory=list)


@dataclass
class ModelRequest:
    """What the agent sends to a model for one call."""

    system: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]


class Model(Protocol):
    """The model interface: one call in, one response out."""

    def complete(self, request: ModelRequest) -> ModelResponse:
        """Answer one request."""


class ScriptedModel:
    """Replays ``responses`` in order and keeps every request it got in ``requests``."""

    def __init__(self, responses: Iterable[ModelResponse]):
        self.responses = list(responses)
        self.requests: list[ModelRequest] = []

    def complete(self, request: ModelRequest) -> ModelResponse:
        """Return the next scripted response (a copy of the request is kept)."""
        self.requests.append(ModelRequest(request.system, [dict(m) for m in request.messages],
                                          list(request.tools)))
        if not self.responses:
            raise RuntimeError("ScriptedModel has no responses left")
        return self.responses.pop(0)


class OpenAIModel:
    """An OpenAI-compatible chat model (OpenAI, Ollama, vLLM, ...).

    ``model`` and ``base_url`` come from the arguments or from ``MEMTOOL_MODEL`` /
    ``MEMTOOL_BASE_URL`` (then ``OPENAI_MODEL`` / ``OPENAI_BASE_URL``); the key from
    ``api_key`` or ``OPENAI_API_KEY`` (local servers accept any). Needs ``memtool[openai]``.
    """

    def __init__(self, model: str | None = None, base_url: str | None = None,
                 api_key: str | None = None, **options: Any):
        try:
            import openai  # noqa: PLC0415 - optional extra, imported lazily
        except ImportError as e:
            raise RuntimeError("the OpenAI client is not installed: pip install 'memtool[openai]'") from e
        self.model = model or os.environ.get("MEMTOOL_MODEL") or os.environ.get("OPENAI_MODEL")
        if not self.model:
            raise RuntimeError("no model configured: pass model= or set MEMTOOL_MODEL")
        base_url = base_url or os.environ.get("MEMTOOL_BASE_URL") or os.environ.get("OPENAI_BASE_URL")
        api_key = api_key or os.environ.get("OPENAI_API_KEY") or "not-needed"
        self.client = openai.OpenAI(base_url=base_url, api_key=api_key)
        self.options = options

    def complete(self, request: ModelRequest) -> ModelResponse:
        """One Chat Completions call."""
        messages = [{"role": "system", "content": request.system}, *request.messages]
        resp = self.client.chat.completions.create(model=self.model, messages=messages,
                                                   tools=request.tools or None, **self.options)
        msg = resp.choices[0].message
        calls = [ToolCall(c.function.name, c.function.arguments or "{}", c.id)
                 for c in (msg.tool_calls or [])]
        return ModelResponse(msg.content, calls)


#: Observer of the loop (the demo prints with it): (event, payload).
Observer = Callable[[str, dict[str, Any]], None]


class Agent:
    """A tool loop with memory. One ``Agent`` holds one conversation's messages."""

    def __init__(self, memory: Memory, model: Model, instructions: str = "You are a helpful assistant.",
                 max_steps: int = 8, observer: Observer | None = None, record: bool = True):
        self.memory = memory
        self.model = model
        self.instructions = instructions
        self.max_steps = max_steps
        self.observer = observer
        self.record = record
        self.messages: list[dict[str, Any]] = []

    def _emit(self, event: str, **payload: Any) -> None:
        if self.observer is not None:
            self.observer(event, payload)

    def prepare_call(self) -> str:
        """The system prompt for the next model call, with core memory read now and the
        memories most relevant to the last user message recalled after it."""
        return self.memory.system_prompt(self.instructions, query=self.last_user_message())

    def last_user_message(self) -> str | None:
        """The text of the last user message of this conversation (None: there is none)."""
        for message in reversed(self.messages):
            if message.get("role") == "user" and isinstance(message.get("content"), str):
                return message["content"]
        return None

    def run(self, user_message: str) -> str:
        """Answer one user message, using tools as the model asks; return the answer."""
        if self.record:
            self.memory.record("user", user_message)
        self.messages.append({"role": "user", "content": user_message})
        answer = ""
        for _ in range(self.max_steps):
            system = self.prepare_call()
            request = ModelRequest(system, list(self.messages), self.memory.tools.openai_chat())
            self._emit("model_call", system=system, messages=request.messages)
            response = self.model.complete(request)
            assistant: dict[str, Any] = {"role": "assistant", "content": response.text}
            if response.tool_calls:
                assistant["tool_calls"] = [
                    {"id": c.id, "type": "function",
                     "function": {"name": c.name, "arguments": c.arguments_json()}}
                    for c in response.tool_calls
                ]
            self.messages.append(assistant)
            if not response.tool_calls:
                answer = response.text or ""
                break
            for call in response.tool_calls:
                self._emit("tool_call", name=call.name, arguments=call.arguments)
                result = self.memory.call(call.name, call.arguments)
                self._emit("tool_result", name=call.name, result=result)
                self.messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
        else:
            answer = "(stopped: too many tool calls without an answer)"
        self._emit("answer", text=answer)
        if self.record:
            self.memory.record("assistant", answer)
        return answer
