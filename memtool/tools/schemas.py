"""The tools' arguments as pydantic models, and their JSON Schemas for model providers.

The memory tool's schema is one flat object (a ``command`` enum plus optional fields), the
shape every provider accepts (OpenAI, Anthropic, JSON-Schema-only clients); which fields each
command needs is checked by the handler, which names the missing ones.
"""

from __future__ import annotations

from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

SEED_COMMANDS = ("view", "create", "update", "search")
ANTHROPIC_COMMANDS = ("view", "create", "str_replace", "insert", "delete", "rename")
COMMANDS = ("view", "create", "update", "search", "str_replace", "insert", "delete", "rename")
WRITE_COMMANDS = frozenset({"create", "update", "str_replace", "insert", "delete", "rename"})


class MemoryArgs(BaseModel):
    """Arguments of the ``memory`` tool (seed and Anthropic ``memory_20250818`` commands)."""

    model_config = ConfigDict(extra="forbid")

    command: Literal["view", "create", "update", "search", "str_replace", "insert", "delete", "rename"] = Field(
        description="What to do: view, create, update, search, str_replace, insert, delete or rename."
    )
    path: Optional[str] = Field(None, description="File or directory, e.g. /memories/notes.md.")
    content: Optional[str] = Field(None, description="create/update: the text to write.")
    file_text: Optional[str] = Field(None, description="create: the text of the new file (same as content).")
    mode: Optional[Literal["append", "overwrite"]] = Field(
        None, description="update: 'overwrite' (default) replaces the file, 'append' adds to its end."
    )
    query: Optional[str] = Field(None, description="search: short words; a line matches if it contains any.")
    view_range: Optional[list[int]] = Field(
        None, description="view: [start, end] line numbers, 1-based; end -1 means the last line."
    )
    old_str: Optional[str] = Field(None, description="str_replace: exact text to replace (must occur once).")
    new_str: Optional[str] = Field(None, description="str_replace: replacement text.")
    insert_line: Optional[int] = Field(None, description="insert: line number after which to insert (0: top).")
    insert_text: Optional[str] = Field(None, description="insert: the text to insert.")
    old_path: Optional[str] = Field(None, description="rename: the current path.")
    new_path: Optional[str] = Field(None, description="rename: the new path (must not exist).")


class BashArgs(BaseModel):
    """Arguments of the ``bash`` tool."""

    model_config = ConfigDict(extra="forbid")

    command: str = Field(description="The shell command to run over /.memory.")


def _clean(node: Any) -> Any:
    """Drop pydantic's titles and turn ``anyOf [X, null]`` into ``X`` (optional = not required)."""
    if isinstance(node, dict):
        node = {k: v for k, v in node.items() if k != "title"}
        any_of = node.get("anyOf")
        if isinstance(any_of, list):
            kept = [s for s in any_of if s != {"type": "null"}]
            if len(kept) == 1 and len(kept) < len(any_of):
                rest = {k: v for k, v in node.items() if k != "anyOf"}
                merged = dict(kept[0])
                merged.update(rest)
                node = merged
        if node.get("default", 0) is None:
            node.pop("default")
        return {k: _clean(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_clean(v) for v in node]
    return node


def json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """A compact JSON Schema (draft 2020-12 subset) of a model's fields."""
    schema = _clean(model.model_json_schema())
    schema.pop("description", None)
    schema.setdefault("additionalProperties", False)
    return schema
