"""The current hunk, held as GNU patch holds it (pch.c's arrays), whatever the diff format.

Index 0 is the ``*** first,last`` line (``*``), then the old lines (``-`` deleted, ``!``
changed, `` `` context), then the ``--- first,last`` line (``=``), then the new lines (``+``,
``!``, `` ``); a ``\\n`` char marks a blank line a context diff put between the two parts.
Every format's parser fills these; locating, applying, reversing and rejecting read them.
"""

from __future__ import annotations

#: GNU's INITHUNKMAX: the arrays' first size (only the "unterminated hunk" check sees it).
INITHUNKMAX = 125
#: The array size whose allocation fails, as it does for GNU when a header announces billions
#: of lines (GNU's real limit is the machine's memory).
MAX_HUNKMAX = 1 << 28


class OutOfMemory(Exception):
    """GNU's ``grow_hunkmax`` failed: the hunk's header asks for more lines than memory."""


class HunkBuffer:
    """pch.c's per-hunk globals (``p_first``, ``p_line`` ...) and the operations on them."""

    def __init__(self) -> None:
        self.first = 0
        self.newfirst = 0
        self.ptrn_lines = 0
        self.repl_lines = 0
        self.end = -1
        self.max = 0
        self.prefix_context = 0
        self.suffix_context = 0
        self.hunk_beg = 0
        self.c_function: bytes | None = None
        self.hunkmax = INITHUNKMAX
        #: Entries by index (sparse: a header's counts never allocate anything).
        self.chars: dict[int, str] = {}
        self.lines: dict[int, bytes] = {}

    def reset(self) -> None:
        """Empty the arrays before the next hunk is read."""
        self.end = -1
        self.chars = {}
        self.lines = {}
        self.c_function = None

    def put(self, i: int, char: str, line: bytes = b"") -> None:
        """Set entry ``i``."""
        self.chars[i] = char
        self.lines[i] = line

    def char(self, i: int) -> str:
        """``pch_char``: the kind of entry ``i`` (``^`` past the end)."""
        return self.chars.get(i, "^") if i <= self.end else "^"

    def line(self, i: int) -> bytes:
        """``pfetch``: the text of entry ``i`` (with its newline, if it has one)."""
        return self.lines.get(i, b"")

    def grow_to(self, needed: int) -> None:
        """GNU's ``while (needed + 1 >= hunkmax) grow_hunkmax ();`` (``OutOfMemory`` past
        ``MAX_HUNKMAX``)."""
        while needed + 1 >= self.hunkmax:
            if self.hunkmax * 2 > MAX_HUNKMAX:
                raise OutOfMemory()
            self.hunkmax *= 2

    def swap(self) -> None:
        """``pch_swap``: exchange the old and new parts (for ``-R`` and reversed patches)."""
        tp_chars, tp_lines = dict(self.chars), self.lines
        end = self.end
        self.first, self.newfirst = self.newfirst, self.first
        chars: dict[int, str] = {}
        lines: dict[int, bytes] = {}
        i = self.ptrn_lines + 1
        blankline = False
        if tp_chars.get(i) == "\n":
            blankline = True
            i += 1
        n = 0
        while i <= end:
            c = tp_chars.get(i, "^")
            chars[n] = "-" if c == "+" else c
            lines[n] = tp_lines.get(i, b"")
            i += 1
            n += 1
        if blankline:
            i = self.ptrn_lines + 1
            chars[n] = tp_chars[i]
            lines[n] = tp_lines.get(i, b"")
            n += 1
        chars[0] = "*"
        lines[0] = lines.get(0, b"").replace(b"-", b"*")
        tp_chars[0] = "="
        first_line = tp_lines.get(0, b"").replace(b"*", b"-")
        i = 0
        while n <= end:
            c = tp_chars.get(i, "^")
            chars[n] = "+" if c == "-" else c
            lines[n] = first_line if i == 0 else tp_lines.get(i, b"")
            i += 1
            n += 1
        self.ptrn_lines, self.repl_lines = self.repl_lines, self.ptrn_lines
        chars[end + 1] = "^"
        self.chars = chars
        self.lines = lines

    def normalize(self, unified: bool) -> None:
        """``pch_normalize``: ``!`` lines as ``-``/``+`` (unified) or lone ``-``/``+`` blocks
        as ``!`` (context), for a reject written in the other format."""
        old = 1
        new = self.ptrn_lines + 1
        while self.char(new) in ("=", "\n"):
            new += 1
        if unified:
            for k in range(old, self.ptrn_lines + 1):
                if self.chars.get(k) == "!":
                    self.chars[k] = "-"
            for k in range(new, self.end + 1):
                if self.chars.get(k) == "!":
                    self.chars[k] = "+"
            return
        # Convert '-' and '+' into '!' where both appear between the same context lines.
        while old <= self.ptrn_lines:
            if self.chars.get(old) == "-":
                if new <= self.end and self.chars.get(new) == "+":
                    while old <= self.ptrn_lines and self.chars.get(old) == "-":
                        self.chars[old] = "!"
                        old += 1
                    while new <= self.end and self.chars.get(new) == "+":
                        self.chars[new] = "!"
                        new += 1
                else:
                    while old <= self.ptrn_lines and self.chars.get(old) == "-":
                        old += 1
            elif new <= self.end and self.chars.get(new) == "+":
                while new <= self.end and self.chars.get(new) == "+":
                    new += 1
            else:
                old += 1
                new += 1
        return
