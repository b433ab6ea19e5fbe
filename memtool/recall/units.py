"""Memory files split into the units people store, for ranking.

* ``*.jsonl`` (conversations.jsonl, archived logs): one turn per line, with its role and
  timestamp; lines that are not a JSON object are a unit of plain text.
* any other text file (notes.md, topic files): a list item with its continuation lines (a
  note entry such as ``- 2026-09-01: ...``), or a paragraph (lines up to a blank line or a
  heading). An entry's date is the ``YYYY-MM-DD`` it starts with, else the date in the
  nearest heading above it (``## 2026-09-01``). A heading's words count as context of the
  units below it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterator

_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_LEADING_DATE = re.compile(r"^\s*(?:[-*+]|\d+[.)])?\s*\**\[?(\d{4}-\d{2}-\d{2})")
_HEADING = re.compile(r"^\s{0,3}#{1,6}(?:\s|$)")
_ITEM = re.compile(r"^\s{0,1}(?:[-*+]|\d{1,9}[.)])\s")


@dataclass
class Unit:
    """One searchable unit: where it is, its text, its date and role (turns)."""

    file: str
    line: int
    text: str
    lines: list[str] = field(default_factory=list)
    date: str = ""
    role: str = ""
    context: str = ""


def unit_terms(unit: Unit) -> list[str]:
    """A unit's index terms: its text's, then its heading's (context)."""
    from memtool.recall.text import terms

    return terms(unit.text) + terms(unit.context) if unit.context else terms(unit.text)


def turn_text(content: Any) -> str:
    """The text of a turn's content: a string, or the ``text`` parts of a list of blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict) and isinstance(block.get("text"), str):
                parts.append(block["text"])
        if parts:
            return "\n".join(parts)
    try:
        return json.dumps(content, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(content)


def turn_unit(file: str, lineno: int, raw: str) -> Unit:
    """The unit of one line of a JSONL log."""
    try:
        obj = json.loads(raw)
    except ValueError:
        obj = None
    if not isinstance(obj, dict):
        return Unit(file, lineno, raw, [raw])
    stamp = obj.get("timestamp")
    role = obj.get("role")
    return Unit(file, lineno, turn_text(obj.get("content", "")), [raw],
                date=stamp if isinstance(stamp, str) else "",
                role=role if isinstance(role, str) else "")


def text_units(file: str, text: str) -> Iterator[Unit]:
    """The entries and paragraphs of a Markdown (or any text) file."""
    heading_date = ""
    heading = ""
    current: list[str] = []
    first = 0

    def flush() -> Iterator[Unit]:
        if current:
            m = _LEADING_DATE.match(current[0])
            yield Unit(file, first, "\n".join(current), list(current),
                       date=m.group(1) if m else heading_date, context=heading)

    for lineno, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if not line.strip():
            yield from flush()
            current = []
            continue
        if _HEADING.match(line):
            yield from flush()
            current = []
            heading = line.lstrip(" #").strip()
            m = _DATE.search(line)
            heading_date = m.group(1) if m else ""
            continue
        if current and _ITEM.match(line):
            yield from flush()
            current = []
        if not current:
            first = lineno
        current.append(line)
    yield from flush()
