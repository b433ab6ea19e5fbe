"""``memtool demo``: two conversations that show memory carrying over, with no network.

A fresh copy of the bundled example memory (``.memory.example/``) is made in a temporary
directory. Conversation 1: the user states a preference; the model stores it with each tool
(the ``memory`` tool adds it to core.md, the ``bash`` tool appends a dated note to notes.md).
Conversation 2: a *new* agent object's first model call carries the preference inside its
system prompt, and the answer follows it. Every model call's system prompt, every tool call
and its result are printed with rich. ``--live`` runs the same user messages against a real
OpenAI-compatible model (see ``memtool.agent.OpenAIModel``).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.syntax import Syntax
from rich.text import Text

from memtool.agent import Agent, Model, ModelRequest, ModelResponse, ToolCall
from memtool.layout import example_dir
from memtool.memory import Memory
from memtool.tools.bash_tool import sandbox_available

PREFERENCE = "- Prefers metric units (km, kg, °C) in every answer."
FIRST_MESSAGE = "Quick one: from now on please always use metric units. Kilometres and Celsius, not miles."
SECOND_MESSAGE = "How far is it from Berlin to Hamburg by car?"
INSTRUCTIONS = "You are Dana's assistant. Use your memory tools to remember what matters."


class ReplyModel:
    """A scripted model whose steps may depend on the request (a callable per step)."""

    def __init__(self, steps: list[Callable[[ModelRequest], ModelResponse]]):
        self.steps = list(steps)
        self.requests: list[ModelRequest] = []

    def complete(self, request: ModelRequest) -> ModelResponse:
        """Run the next step on the request."""
        self.requests.append(request)
        return self.steps.pop(0)(request)


def first_conversation_model() -> ReplyModel:
    """Model script of conversation 1: store the preference with each tool, then confirm."""
    today = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    note = f"- {today}: Dana asked for metric units (km, °C) in all answers, not miles."
    calls = [ToolCall("memory", {"command": "update", "path": "/memories/core.md",
                                  "mode": "append", "content": PREFERENCE})]
    if sandbox_available():
        calls.append(ToolCall("bash", {"command": f"echo '{note}' >> /.memory/notes.md && tail -n 1 /.memory/notes.md"}))
    else:
        calls.append(ToolCall("memory", {"command": "update", "path": "/memories/notes.md",
                                          "mode": "append", "content": note}))
    return ReplyModel([
        lambda req: ModelResponse(None, calls),
        lambda req: ModelResponse("Noted: metric units from now on (km, kg, °C)."),
    ])


def second_conversation_model() -> ReplyModel:
    """Model script of conversation 2: the answer follows what the system prompt says."""

    def answer(req: ModelRequest) -> ModelResponse:
        if "metric units" in req.system:
            return ModelResponse("About 290 km by road, roughly 3 hours.")
        return ModelResponse("About 180 miles by road, roughly 3 hours.")

    return ReplyModel([answer])


def _printer(console: Console) -> Callable[[str, dict[str, Any]], None]:
    counter = {"n": 0}

    def show(event: str, payload: dict[str, Any]) -> None:
        if event == "model_call":
            counter["n"] += 1
            console.print(Panel(Text(payload["system"]), title=f"model call {counter['n']}: system prompt",
                                border_style="blue"))
        elif event == "tool_call":
            args = payload["arguments"]
            text = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False, indent=2)
            console.print(Panel(Syntax(text, "json", word_wrap=True), title=f"tool call: {payload['name']}",
                                border_style="yellow"))
        elif event == "tool_result":
            console.print(Panel(Text(payload["result"]), title=f"tool result: {payload['name']}",
                                border_style="green"))
        elif event == "answer":
            console.print(Panel(Text(payload["text"]), title="assistant", border_style="magenta"))

    return show


def run_demo(live: bool = False, console: Console | None = None, keep: str | None = None,
             model_factory: Callable[[], Model] | None = None) -> int:
    """Run the two-conversation demo; return 0 if the preference carried over, else 1."""
    console = console or Console()
    workdir = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="memtool-demo-"))
    target = workdir / ".memory"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(example_dir(), target)
    mem = Memory(target, gitignore=False)
    console.print(Rule("memtool demo"))
    console.print(f"Memory: a fresh copy of the example memory in {target}")
    if not sandbox_available():
        console.print("[yellow]The sandbox is not installed: the bash tool is replaced by the memory tool.[/]")

    def make(script: Callable[[], ReplyModel]) -> Model:
        if live:
            from memtool.agent import OpenAIModel

            return model_factory() if model_factory else OpenAIModel()
        return script()

    console.print(Rule("conversation 1: the user states a preference"))
    console.print(Panel(FIRST_MESSAGE, title="user", border_style="cyan"))
    model1 = make(first_conversation_model)
    Agent(mem, model1, INSTRUCTIONS, observer=_printer(console)).run(FIRST_MESSAGE)

    console.print(Rule("conversation 2: a new agent, the same memory"))
    console.print(Panel(SECOND_MESSAGE, title="user", border_style="cyan"))
    model2 = make(second_conversation_model)
    seen: list[str] = []
    agent2 = Agent(Memory(target, gitignore=False), model2, INSTRUCTIONS, observer=_printer(console))
    original_prepare = agent2.prepare_call

    def prepare() -> str:
        system = original_prepare()
        seen.append(system)
        return system

    agent2.prepare_call = prepare  # type: ignore[method-assign]
    agent2.run(SECOND_MESSAGE)
    carried = bool(seen) and "metric units" in seen[0]
    if carried:
        console.print("[bold green]✓ The preference stored in conversation 1 is in the system prompt "
                      "of conversation 2's first model call.[/]")
    else:
        console.print("[bold red]✗ The preference did not reach conversation 2's system prompt.[/]")
    console.print(f"Last turns recorded: {len(mem.recent(4))} shown by mem.recent(4); "
                  f"files are in {target}")
    return 0 if carried or live else 1
