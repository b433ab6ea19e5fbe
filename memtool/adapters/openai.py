"""OpenAI Chat Completions and Responses: tool definitions, running tool calls, a turn loop.

    from openai import OpenAI
    from memtool import Memory
    from memtool.adapters.openai import run_chat

    mem = Memory(".memory")
    print(run_chat(OpenAI(), mem, "I prefer metric units.", model="gpt-4o-mini"))

The helpers that build definitions and run tool calls need only the standard library (they
accept the SDK's objects or plain dicts); ``run_chat``/``run_responses`` take an ``openai``
client (``memtool[openai]``) and re-render the system prompt (core memory read fresh) before
every model call of the turn.

``responses_tools(mem, shell=True)`` offers OpenAI's native ``{"type": "shell"}`` tool in place
of memtool's ``bash`` function: each ``shell_call`` (``action.commands``, ``timeout_ms``,
``max_output_length``) runs in the sandbox over the memory and is answered with a
``shell_call_output`` (stdout, stderr and the outcome of every command).
"""

from __future__ import annotations

import json
from typing import Any, Iterable


def chat_tools(mem: Any) -> list[dict[str, Any]]:
    """The offered tools for Chat Completions (``tools=``)."""
    return mem.tools.openai_chat()


#: OpenAI's native shell tool, as a Responses API ``tools`` entry.
SHELL_TOOL: dict[str, str] = {"type": "shell"}


def responses_tools(mem: Any, *, shell: bool = False) -> list[dict[str, Any]]:
    """The offered tools for the Responses API (``tools=``); ``shell``: the native shell tool
    instead of the ``bash`` function."""
    tools = mem.tools.openai_responses()
    if shell:
        tools = [t for t in tools if t.get("name") != "bash"] + [dict(SHELL_TOOL)]
    return tools


def _cut(text: str, room: int | None) -> tuple[str, int | None]:
    if room is None:
        return text, None
    return text[:max(room, 0)], max(room - len(text), 0)


def shell_outputs(mem: Any, commands: Iterable[str], timeout_ms: int | None = None,
                  max_output_length: int | None = None) -> list[dict[str, Any]]:
    """Run each command (``Memory.shell``); one ``{stdout, stderr, outcome}`` per command. The
    sandbox's own time limit applies (``timeout_ms`` is reported, never raised above it); a
    run ended by it is the outcome ``timeout``; ``max_output_length`` caps each command's
    stdout plus stderr."""
    out = []
    for command in commands:
        stdout, stderr, code = mem.shell(str(command))
        stdout, room = _cut(stdout, max_output_length)
        stderr, _ = _cut(stderr, room)
        outcome = {"type": "timeout"} if code == 124 else {"type": "exit", "exit_code": code}
        out.append({"stdout": stdout, "stderr": stderr, "outcome": outcome})
    return out


def shell_call_output(mem: Any, item: Any) -> dict[str, Any]:
    """The ``shell_call_output`` input item answering one ``shell_call`` output item."""
    action = _get(item, "action") or {}
    limit = _get(action, "max_output_length")
    output: dict[str, Any] = {"type": "shell_call_output", "call_id": _get(item, "call_id"),
                              "output": shell_outputs(mem, _get(action, "commands") or [],
                                                      _get(action, "timeout_ms"), limit)}
    if limit is not None:
        output["max_output_length"] = limit
    return output


def _get(obj: Any, key: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(key, default)
    return getattr(obj, key, default)


def _message_of(response_or_message: Any) -> Any:
    choices = _get(response_or_message, "choices")
    if choices:
        return _get(choices[0], "message")
    return response_or_message


def chat_tool_messages(mem: Any, response_or_message: Any) -> list[dict[str, Any]]:
    """Run the tool calls of a Chat Completions response (or its message); the ``role: tool``
    messages to append, one per call, in order."""
    message = _message_of(response_or_message)
    out = []
    for call in _get(message, "tool_calls") or []:
        function = _get(call, "function")
        name = _get(function, "name", "")
        result = mem.call(name, _get(function, "arguments") or "{}")
        out.append({"role": "tool", "tool_call_id": _get(call, "id"), "content": result})
    return out


def responses_tool_outputs(mem: Any, response: Any) -> list[dict[str, Any]]:
    """Run the ``function_call`` (and native ``shell_call``) items of a Responses API
    response; the ``function_call_output`` (``shell_call_output``) items to send back."""
    out = []
    for item in _get(response, "output") or []:
        if _get(item, "type") == "shell_call":
            out.append(shell_call_output(mem, item))
            continue
        if _get(item, "type") != "function_call":
            continue
        result = mem.call(_get(item, "name", ""), _get(item, "arguments") or "{}")
        out.append({"type": "function_call_output", "call_id": _get(item, "call_id"), "output": result})
    return out


def _dump(obj: Any) -> Any:
    if hasattr(obj, "model_dump"):
        return obj.model_dump(exclude_none=True)
    return obj


def run_chat(client: Any, mem: Any, user_message: str, *, model: str,
             instructions: str = "You are a helpful assistant.", history: Iterable[dict[str, Any]] = (),
             max_steps: int = 20, record: bool = True, **create_options: Any) -> str:
    """One user turn over Chat Completions; returns the answer. The system message is rebuilt
    (core memory read now) before every call; the turn is recorded unless ``record=False``."""
    messages: list[dict[str, Any]] = [*history, {"role": "user", "content": user_message}]
    if record:
        mem.record("user", user_message)
    answer = ""
    for _ in range(max_steps):
        system = {"role": "system", "content": mem.system_prompt(instructions, query=user_message)}
        response = client.chat.completions.create(model=model, messages=[system, *messages],
                                                  tools=chat_tools(mem), **create_options)
        message = _message_of(response)
        answer = _get(message, "content") or ""
        results = chat_tool_messages(mem, message)
        if not results:
            break
        messages.append(_dump(message))
        messages.extend(results)
    if record:
        mem.record("assistant", answer)
    return answer


def run_responses(client: Any, mem: Any, user_message: str, *, model: str,
                  instructions: str = "You are a helpful assistant.", max_steps: int = 20,
                  record: bool = True, shell: bool = False, **create_options: Any) -> str:
    """One user turn over the Responses API; ``instructions`` (with core memory read now) are
    sent with every call, the conversation is chained with ``previous_response_id``."""
    if record:
        mem.record("user", user_message)
    pending: list[Any] = [{"role": "user", "content": user_message}]
    previous: str | None = None
    answer = ""
    for _ in range(max_steps):
        options = dict(create_options)
        if previous is not None:
            options["previous_response_id"] = previous
        response = client.responses.create(model=model, instructions=mem.system_prompt(instructions, query=user_message),
                                           input=pending, tools=responses_tools(mem, shell=shell), **options)
        answer = _get(response, "output_text") or ""
        pending = responses_tool_outputs(mem, response)
        previous = _get(response, "id")
        if not pending:
            break
    if record:
        mem.record("assistant", answer)
    return answer


def arguments(call: Any) -> dict[str, Any]:
    """The parsed JSON arguments of a tool call (``{}`` when they are not a JSON object)."""
    raw = _get(_get(call, "function") or call, "arguments") or "{}"
    try:
        value = json.loads(raw) if isinstance(raw, str) else raw
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
