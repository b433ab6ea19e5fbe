"""OpenAI Agents SDK (``openai-agents``): memtool's tools as ``FunctionTool``s and core memory
as dynamic instructions.

    from agents import Agent, Runner
    from memtool import Memory
    from memtool.adapters.openai_agents import memory_function_tools, memory_instructions

    mem = Memory(".memory")
    agent = Agent(name="assistant", tools=memory_function_tools(mem),
                  instructions=memory_instructions(mem, "You are a helpful assistant."))
    print(Runner.run_sync(agent, "I prefer metric units.").final_output)

The SDK calls a callable ``instructions`` before every model call of a run (each turn of its
loop), so core memory is read fresh each time. The tools use memtool's JSON Schemas with
``strict_json_schema=False`` (the memory tool's fields are optional by design) and run in a
worker thread, returning memtool's model-facing strings.

``memory_function_tools(mem, needs_approval=True)`` maps memtool's approval to the SDK's
human-in-the-loop: a call that would change a file (found by a dry run, ``Memory.preview``)
interrupts the run (``result.interruptions``); ``state.approve(item)`` or ``state.reject(item)``
then ``Runner.run(agent, state)`` continues. Reads never interrupt.

``memory_shell_tool(mem)`` is the SDK's native ``ShellTool`` (OpenAI's ``shell`` tool type)
backed by the sandbox over the memory: use it with ``memory_function_tools(mem, bash=False)``.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable

try:
    from agents import FunctionTool
except ImportError as _e:  # pragma: no cover - exercised only without the extra
    from memtool.adapters import missing_extra

    raise missing_extra("openai_agents", _e) from _e


def _invoker(mem: Any, name: str, approved: bool = False) -> Callable[[Any, str], Any]:
    async def invoke(_context: Any, arguments_json: str) -> str:
        return await asyncio.to_thread(lambda: mem.call(name, arguments_json or "{}", approved=approved))

    return invoke


def _approval_check(mem: Any, name: str) -> Callable[[Any, dict, str], Any]:
    async def needs_approval(_context: Any, params: dict, _call_id: str) -> bool:
        return await asyncio.to_thread(mem.preview, name, params) is not None

    return needs_approval


def memory_function_tools(mem: Any, *, needs_approval: bool = False,
                          bash: bool = True) -> list[FunctionTool]:
    """One ``FunctionTool`` per offered memtool tool; ``needs_approval``: a call that would
    change memory waits for the SDK's approval (see the module docstring); ``bash=False``:
    leave the bash tool out (when ``memory_shell_tool`` offers the shell)."""
    return [FunctionTool(name=d.name, description=d.description, params_json_schema=d.parameters,
                         on_invoke_tool=_invoker(mem, d.name, approved=needs_approval),
                         strict_json_schema=False,
                         needs_approval=_approval_check(mem, d.name) if needs_approval else False)
            for d in mem.tools.definitions() if bash or d.name != "bash"]


def memory_shell_tool(mem: Any) -> Any:
    """The Agents SDK's ``ShellTool`` running each command in memtool's sandbox (the same
    allowlist, jail, limits, versions and approval as the bash tool)."""
    from agents import ShellTool
    from agents.tool import ShellCallOutcome, ShellCommandOutput, ShellResult

    from memtool.adapters.openai import shell_outputs

    async def executor(request: Any) -> ShellResult:
        action = request.data.action
        chunks = await asyncio.to_thread(shell_outputs, mem, action.commands, action.timeout_ms,
                                         action.max_output_length)
        return ShellResult(output=[ShellCommandOutput(stdout=c["stdout"], stderr=c["stderr"], command=cmd,
                                                      outcome=ShellCallOutcome(**c["outcome"]))
                                   for c, cmd in zip(chunks, action.commands)],
                           max_output_length=action.max_output_length)

    return ShellTool(executor=executor)


def memory_instructions(mem: Any, instructions: str = "") -> Callable[[Any, Any], str]:
    """A dynamic ``instructions`` callable: ``instructions`` + date + core.md read now."""

    def core_memory_instructions(_context: Any, _agent: Any) -> str:
        return mem.system_prompt(instructions)

    return core_memory_instructions
