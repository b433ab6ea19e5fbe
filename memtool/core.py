"""Core memory: ``core.md`` read fresh before every model call, rendered into the system prompt.

``CoreMemory.text()`` returns the current content, served from a cache that is validated
against the store's ``FileStat.version`` on every call (one ``stat``), so a change made by a
tool call, another process or a person in an editor is seen at the very next call. A file
modified within ``RACY_SECONDS`` of being cached is re-read every time until it is older (the
"racy git" rule: coarse timestamps could hide a second same-size edit in the same tick).

Text that looks like a memory tag (``<memory``, ``</memory``, any case, with or without
spaces) is escaped to ``&lt;…`` so stored text can never close the block or open another.
"""

from __future__ import annotations

import re
import time
from datetime import datetime, timezone

from sandbox.fs.base import FileSystem, FSError

from memtool.errors import CoreBudgetExceeded
from memtool.layout import CORE, load_template

DEFAULT_BUDGET = 4000
RACY_SECONDS = 0.05

_TAG = re.compile(r"<(\s*/?\s*memory)", re.IGNORECASE)
_PLACEHOLDER = re.compile(r"\{(instructions|date|core)\}")


def escape_memory_tags(text: str) -> str:
    """Escape every ``<memory`` / ``</memory`` (any case, any spacing) as ``&lt;…``."""
    if "<" not in text:
        return text
    return _TAG.sub(r"&lt;\1", text)


def budget_report(chars: int, budget: int) -> str:
    """The line the tools add after every change to core.md: ``[core.md: N/B chars]``."""
    return f"[core.md: {chars}/{budget} chars]"


class SystemPromptTemplate:
    """The system-prompt block of ``templates/system_prompt.md``, split once at its
    ``{instructions}``, ``{date}`` and ``{core}`` placeholders (inserted text is never
    scanned for placeholders)."""

    def __init__(self, template: str | None = None):
        self.template = load_template("system_prompt") if template is None else template
        self.pieces: list[str] = _PLACEHOLDER.split(self.template)

    def render(self, instructions: str, date: str, core: str) -> str:
        """The block with its placeholders filled in."""
        values = {"instructions": instructions, "date": date, "core": core}
        out = []
        for i, piece in enumerate(self.pieces):
            out.append(values[piece] if i % 2 else piece)
        text = "".join(out)
        return text.lstrip("\n") if not instructions else text


class CoreMemory:
    """``core.md`` of one store: fresh reads, the escaped block, and the size budget."""

    def __init__(self, store: FileSystem, budget: int = DEFAULT_BUDGET, path: str = CORE,
                 template: SystemPromptTemplate | None = None):
        self.store = store
        self.budget = budget
        self.path = path
        self.template = template or SystemPromptTemplate()
        #: (version, text, escaped text), replaced as one object so threads never see a mix.
        self._cache: tuple[object, str, str] = (None, "", "")
        self._day = -1
        self._date = ""

    def _load(self) -> tuple[str, str]:
        """(text, escaped text), from the cache when the file's version is unchanged."""
        try:
            st = self.store.stat(self.path)
        except FSError:
            return "", ""
        version = st.version
        cached = self._cache
        if version is not None and version == cached[0]:
            return cached[1], cached[2]
        try:
            data = self.store.read_bytes(self.path)
        except FSError:
            return "", ""
        text = data.decode("utf-8", "replace")
        escaped = escape_memory_tags(text.rstrip("\n"))
        if version is not None and time.time() - st.mtime > RACY_SECONDS:
            self._cache = (version, text, escaped)
        return text, escaped

    def text(self) -> str:
        """The current content of core.md ("" if it is missing)."""
        return self._load()[0]

    def chars(self) -> int:
        """The current size of core.md in characters."""
        return len(self.text())

    def today(self) -> str:
        """Today's date (UTC), ISO 8601."""
        day = int(time.time() // 86400)
        if day != self._day:
            self._date = datetime.now(timezone.utc).strftime("%Y-%m-%d (%A)")
            self._day = day
        return self._date

    def system_prompt(self, instructions: str = "") -> str:
        """Instructions, today's date and core.md read now, inside ``<memory name="core">``."""
        return self.template.render(instructions, self.today(), self._load()[1])

    def check_budget(self, new_text: str, current_text: str | None = None) -> None:
        """Raise ``CoreBudgetExceeded`` if writing ``new_text`` would take core.md over budget.

        A write that does not grow a file already over budget (a hand edit) is allowed, so
        the model can always shrink it.
        """
        new = len(new_text)
        if new <= self.budget:
            return
        current = len(self.text() if current_text is None else current_text)
        if new > current:
            raise CoreBudgetExceeded(new, current, self.budget)

    def report(self, chars: int | None = None) -> str:
        """``[core.md: chars_current/chars_limit chars]``."""
        return budget_report(self.chars() if chars is None else chars, self.budget)
