"""The two tools an agent gets, their definitions for every provider, and one dispatch.

``Toolset.call(name, arguments)`` takes a dict or a JSON string and always returns a string:
bad arguments, refused paths and failed commands come back as short text, never as an
exception and never with a host path. ``definitions()`` gives name, description and JSON
Schema; ``openai_chat()``, ``openai_responses()``, ``anthropic()`` and ``json_schemas()``
give them in each provider's shape.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Any, Mapping

from pydantic import BaseModel, ValidationError

from memtool.layout import load_template
from memtool.tools.bash_tool import BashTool
from memtool.tools.memory_tool import MemoryTool
from memtool.tools.schemas import BashArgs, MemoryArgs, json_schema

log = logging.getLogger("memtool.tools")

TOOL_NAMES = ("memory", "bash")


@dataclass(frozen=True)
class ToolDefinition:
    """One tool as offered to a model."""

    name: str
    description: str
    parameters: dict[str, Any]

    def openai_chat(self) -> dict[str, Any]:
        """OpenAI Chat Completions ``tools`` entry."""
        return {"type": "function",
                "function": {"name": self.name, "description": self.description,
                             "parameters": self.parameters}}

    def openai_responses(self) -> dict[str, Any]:
        """OpenAI Responses API ``tools`` entry."""
        return {"type": "function", "name": self.name, "description": self.description,
                "parameters": self.parameters, "strict": False}

    def anthropic(self) -> dict[str, Any]:
        """Anthropic Messages API ``tools`` entry."""
        return {"name": self.name, "description": self.description, "input_schema": self.parameters}

    def json_schema(self) -> dict[str, Any]:
        """Plain JSON: name, description and the JSON Schema of the arguments."""
        return {"name": self.name, "description": self.description, "parameters": self.parameters}


def _validation_message(name: str, err: ValidationError) -> str:
    parts = []
    for e in err.errors()[:5]:
        where = ".".join(str(x) for x in e.get("loc", ())) or "arguments"
        kind = e.get("type", "")
        if kind == "extra_forbidden":
            parts.append(f"unexpected field `{where}`")
        elif kind == "missing":
            parts.append(f"missing field `{where}`")
        else:
            parts.append(f"`{where}`: {e.get('msg', 'invalid')}")
    return f"Error: invalid arguments for `{name}`: " + "; ".join(parts) + "."


class Toolset:
    """The tools offered (``memory`` and/or ``bash``) over one memory."""

    def __init__(self, memory_tool: MemoryTool, bash_tool: BashTool,
                 offered: tuple[str, ...] = TOOL_NAMES):
        unknown = [n for n in offered if n not in TOOL_NAMES]
        if unknown:
            raise ValueError(f"unknown tool(s) {unknown}; choose from {list(TOOL_NAMES)}")
        self.memory_tool = memory_tool
        self.bash_tool = bash_tool
        self.offered = tuple(offered)

    def definitions(self) -> list[ToolDefinition]:
        """The offered tools with name, description (from templates) and JSON Schema."""
        out = []
        for name in self.offered:
            if name == "memory":
                out.append(ToolDefinition("memory", load_template("tool_memory").strip(),
                                          json_schema(MemoryArgs)))
            else:
                desc = load_template("tool_bash").replace(
                    "{allowed_commands}", self.bash_tool.allowed_list())
                if self.bash_tool.config.read_only:
                    desc += "\nThe memory is read-only here: commands that write files are refused."
                out.append(ToolDefinition("bash", desc.strip(), json_schema(BashArgs)))
        return out

    def openai_chat(self) -> list[dict[str, Any]]:
        """Tools for OpenAI Chat Completions (``tools=``)."""
        return [d.openai_chat() for d in self.definitions()]

    def openai_responses(self) -> list[dict[str, Any]]:
        """Tools for the OpenAI Responses API (``tools=``)."""
        return [d.openai_responses() for d in self.definitions()]

    def anthropic(self) -> list[dict[str, Any]]:
        """Tools for the Anthropic Messages API (``tools=``)."""
        return [d.anthropic() for d in self.definitions()]

    def json_schemas(self) -> list[dict[str, Any]]:
        """Plain JSON Schema definitions."""
        return [d.json_schema() for d in self.definitions()]

    def call(self, name: str, arguments: Mapping[str, Any] | str | bytes | None) -> str:
        """Run tool ``name`` with ``arguments`` (dict or JSON); always a string for the model."""
        try:
            return self._call(name, arguments)
        except Exception as e:  # last line of defence: never a traceback to the model
            log.exception("memtool tool %r failed", name)
            return f"Error: the {name!s:.20} tool failed internally ({type(e).__name__}); nothing more was done."

    def _call(self, name: str, arguments: Mapping[str, Any] | str | bytes | None) -> str:
        if name not in self.offered:
            return f"Error: unknown tool {str(name)[:40]!r}. Available tools: {', '.join(self.offered)}."
        if arguments is None:
            arguments = {}
        if isinstance(arguments, (str, bytes)):
            try:
                arguments = json.loads(arguments or "{}")
            except ValueError as e:
                return f"Error: the arguments are not valid JSON ({e.__class__.__name__}: {str(e)[:100]})."
        if not isinstance(arguments, Mapping):
            return "Error: the arguments must be a JSON object."
        model: type[BaseModel] = MemoryArgs if name == "memory" else BashArgs
        try:
            args = model.model_validate(dict(arguments))
        except ValidationError as e:
            return _validation_message(name, e)
        if name == "memory":
            return self.memory_tool.run(args)  # type: ignore[arg-type]
        return self.bash_tool.run(args.command)  # type: ignore[attr-defined]


def is_error(name: str, result: str) -> bool:
    """True if a tool result reports a failure the client should flag (``isError``): a
    refused or invalid call, a memory-tool error, a bash command the guard refused (126) or
    that does not exist (127). A command's own non-zero status (grep finding nothing) is not."""
    first = result.split("\n", 1)[0]
    if first.startswith("Error"):
        return True
    if name == "bash":
        m = re.search(r"\[exit code (\d+)\]\s*$", result.split("\n[core.md:")[0])
        return bool(m and m.group(1) in ("126", "127")) or "\nError: " in result
    if first.startswith("No replacement was performed"):
        return True
    return first.startswith("The path ") and first.endswith("does not exist. Please provide a valid path.")
