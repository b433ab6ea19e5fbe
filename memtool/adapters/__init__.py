"""Integrations of memtool's two tools with agent frameworks and protocols.

Each module is imported on demand and needs its optional extra:

- ``memtool.adapters.mcp_server``: an MCP server (``memtool[mcp]``), also ``memtool mcp``.
- ``memtool.adapters.anthropic_memory``: Claude's native memory tool (``memtool[anthropic]``).
- ``memtool.adapters.openai``: Chat Completions / Responses helpers (``memtool[openai]``; the
  helpers themselves need only the standard library).
- ``memtool.adapters.openai_agents``: OpenAI Agents SDK ``FunctionTool``s (``memtool[openai-agents]``).
- ``memtool.adapters.pydantic_ai``: a pydantic-ai toolset and instructions (``memtool[pydantic-ai]``).
- ``memtool.adapters.langchain``: LangChain ``BaseTool``s and a prompt hook (``memtool[langchain]``).
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: Adapter module name -> (the distribution it needs, the extra that installs it).
REQUIREMENTS: dict[str, tuple[str, str]] = {
    "mcp_server": ("mcp", "mcp"),
    "anthropic_memory": ("anthropic", "anthropic"),
    "openai": ("openai", "openai"),
    "openai_agents": ("openai-agents", "openai-agents"),
    "pydantic_ai": ("pydantic-ai-slim", "pydantic-ai"),
    "langchain": ("langchain-core", "langchain"),
}


def missing_extra(adapter: str, error: ImportError) -> ImportError:
    """An ImportError that says which extra to install for ``adapter``."""
    dist, extra = REQUIREMENTS[adapter]
    err = ImportError(f"memtool.adapters.{adapter} needs {dist}: pip install 'memtool[{extra}]' "
                      f"({error})")
    err.name = getattr(error, "name", None)
    return err


def load(adapter: str) -> ModuleType:
    """Import ``memtool.adapters.<adapter>`` (raises ImportError naming the extra if missing)."""
    if adapter not in REQUIREMENTS:
        raise ValueError(f"unknown adapter {adapter!r}; choose from {', '.join(REQUIREMENTS)}")
    return importlib.import_module(f"memtool.adapters.{adapter}")
