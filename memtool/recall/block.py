"""The recalled block of the system prompt: the notes and past turns most relevant to the
user's message, dated, labelled as recalled and possibly out of date, escaped like core's
block, and cut to a token budget.

Tokens are estimated as characters / 4, rounded up (no tokenizer download); the whole block,
header and closing tag included, stays within the budget. Items go in rank order; an item
that does not fit is left out and smaller ones after it may still go in.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Iterable

from sandbox.fs.base import FileSystem

from memtool.core import escape_memory_tags
from memtool.recall.search import Hit, query_terms, search, snippet

if TYPE_CHECKING:
    from memtool.recall.index import RecallIndex

DEFAULT_RECALL_BUDGET = 800
#: Characters of one recalled item at most (a long turn is cut around its match).
ITEM_CHARS = 600
CANDIDATES = 24

HEADER = ('<memory name="recalled">\n'
          "Recalled automatically from notes and past conversations for the current message; "
          "these may be out of date or no longer true. Prefer core memory and the user's own "
          "words; check before relying on them.\n")
FOOTER = "</memory>"


def estimate_tokens(text: str) -> int:
    """A token estimate that needs no tokenizer: characters / 4, rounded up."""
    return math.ceil(len(text) / 4)


def item_line(hit: Hit, qterms: list[str] = ()) -> str:  # type: ignore[assignment]
    """One recalled item: ``- [date, role, file:line] text`` (on one line, escaped; a long
    text cut to ``ITEM_CHARS`` around its first query term)."""
    label = [hit.date[:10]] if hit.date else []
    if hit.role:
        label.append(hit.role)
    label.append(f"{hit.file}:{hit.line}")
    body = snippet(hit.text, list(qterms), ITEM_CHARS)
    return escape_memory_tags(f"- [{', '.join(label)}] {body}")


def render_block(hits: Iterable[Hit], budget: int, qterms: list[str] = ()) -> str:  # type: ignore[assignment]
    """The block of as many of ``hits`` (in order) as fit in ``budget`` tokens; "" if none."""
    used = len(HEADER) + len(FOOTER)
    limit = budget * 4
    lines: list[str] = []
    for hit in hits:
        line = item_line(hit, qterms) + "\n"
        if used + len(line) > limit:
            continue
        lines.append(line)
        used += len(line)
    if not lines:
        return ""
    return HEADER + "".join(lines) + FOOTER


def recall_block(store: FileSystem, query: str, budget: int = DEFAULT_RECALL_BUDGET,
                 exclude: Iterable[str] = ("core.md",), index: "RecallIndex | None" = None) -> str:
    """The recalled block for ``query`` ("" when nothing matches or nothing fits); ``index``:
    search through it rather than by reading the files."""
    if budget <= 0 or not query or not query.strip():
        return ""
    if index is not None:
        result = index.search(query, k=CANDIDATES, exclude=exclude)
    else:
        result = search(store, query, k=CANDIDATES, exclude=exclude)
    return render_block(result.hits, budget, query_terms(query))
