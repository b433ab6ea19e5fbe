"""pch.c's reading state: where the patch text is, what the current file patch's headers
said, and the current hunk; the per-format hunk readers fill it (``another_hunk``)."""

from __future__ import annotations

from typing import Callable

from sandbox.commands.patch.hunk import HunkBuffer
from sandbox.commands.patch.options import (CONTEXT_DIFF, NEW_CONTEXT_DIFF, NO_DIFF, NORMAL_DIFF,
                                            UNI_DIFF, Fatal)
from sandbox.commands.patch.source import PatchSource

OLD, NEW, INDEX = 0, 1, 2


class PatchReader:
    """The patch being read: GNU's ``p_*`` globals of pch.c."""

    def __init__(self, data: bytes, say: Callable[[bytes], None], verbose: bool):
        self.src = PatchSource(data, say)
        self.say = say
        self.verbose = verbose
        self.filesize = len(data)
        self.hunk = HunkBuffer()
        self.names: list[bytes | None] = [None, None, None]
        self.timestr: list[bytes | None] = [None, None]
        self.timestamp: list[int] = [-1, -1]
        self.says_nonexistent = [0, 0]
        self.rfc934_nesting = 0
        self.indent = 0
        self.strip_trailing_cr = False
        self.pass_comments_through = False
        self.base = 0
        self.bline = 1
        self.start = 0
        self.sline = 0
        self.diff_type = NO_DIFF
        #: The ``Prereq:`` word of this file patch (a text the file must contain).
        self.revision: bytes | None = None
        #: Names ``name_is_valid`` already refused in this header (said once each).
        self.invalid_names: list[bytes] = []

    # -- lines ----------------------------------------------------------------------------

    def get_line(self) -> int:
        """A hunk line, with the indentation, nesting and CR handling of this file patch."""
        return self.src.pget_line(self.indent, self.rfc934_nesting, self.strip_trailing_cr,
                                  self.pass_comments_through)

    @property
    def buf(self) -> bytes:
        """The last line read."""
        return self.src.buf

    @property
    def input_line(self) -> int:
        """The number of the last line read."""
        return self.src.input_line

    def next_intuit_at(self, pos: int, line: int) -> None:
        """Remember where the next file patch's search starts."""
        self.base = pos
        self.bline = line

    def re_patch(self) -> None:
        """GNU's ``re_patch``: forget the current hunk before the next file patch."""
        h = self.hunk
        h.first = h.newfirst = h.ptrn_lines = h.repl_lines = 0
        h.end = -1
        h.max = 0
        self.indent = 0
        self.strip_trailing_cr = False

    # -- errors ---------------------------------------------------------------------------

    def fatal_line(self, what: str) -> Fatal:
        """``WHAT at line N: LINE`` (the line with its newline, as GNU prints ``buf``)."""
        text = self.buf.decode("utf-8", "surrogateescape")
        return Fatal(f"{what} at line {self.input_line}: {text}")

    def malformed(self) -> Fatal:
        """``malformed patch at line N: LINE``."""
        return self.fatal_line("malformed patch")

    def scan_linenum(self, s: bytes, i: int) -> tuple[int, int]:
        """A line number at ``s[i:]``: (its value, the offset after it)."""
        j = i
        while j < len(s) and 0x30 <= s[j] <= 0x39:
            j += 1
        if j == i:
            raise self.fatal_line("missing line number")
        value = int(s[i:j])
        if value >= 1 << 63:
            digits = s[i:j].decode()
            raise self.fatal_line(f"line number {digits} is too large")
        return value, j

    # -- hunks ----------------------------------------------------------------------------

    def another_hunk(self, difftype: int, rev: bool) -> bool:
        """Read the next hunk of this file patch into ``hunk``; False at its end."""
        from sandbox.commands.patch import context, normal, unified

        h = self.hunk
        h.reset()
        h.max = h.hunkmax
        if difftype in (CONTEXT_DIFF, NEW_CONTEXT_DIFF):
            got = context.read_hunk(self, difftype)
        elif difftype == UNI_DIFF:
            got = unified.read_hunk(self)
        elif difftype == NORMAL_DIFF:
            got = normal.read_hunk(self)
        else:
            got = False
        if not got:
            return False
        if rev:
            h.swap()
        h.put(h.end + 1, "^")
        return True
