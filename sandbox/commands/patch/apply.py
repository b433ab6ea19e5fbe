"""Placing and applying the current hunk on the file being patched (patch.c's
``locate_hunk``, ``patch_match``, ``apply_hunk``, ``copy_till``, ``spew_output``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from sandbox.commands.patch.options import Fatal

if TYPE_CHECKING:
    from sandbox.commands.patch.hunk import HunkBuffer


class OutState:
    """The patched text being produced (GNU's ``struct outstate`` and its output file)."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.after_newline = True
        self.zero_output = True

    def write(self, data: bytes) -> None:
        """Append bytes."""
        self.parts.append(data)

    def text(self) -> bytes:
        """Everything written so far."""
        return b"".join(self.parts)


class Applier:
    """One file's application: its lines, the frozen position and the offsets."""

    def __init__(self, lines: list[bytes], out: OutState | None,
                 say: Callable[[str], None], check_time: Callable[[], None]):
        self.lines = lines
        self.input_lines = len(lines)
        self.out = out
        self.say = say
        self.check_time = check_time
        self.last_frozen_line = 0
        self.in_offset = 0
        self.out_offset = 0

    def ifetch(self, line: int) -> bytes:
        """Line ``line`` (1-based) of the input, empty beyond its end."""
        return self.lines[line - 1] if 1 <= line <= self.input_lines else b""

    def patch_match(self, h: "HunkBuffer", base: int, offset: int, prefix_fuzz: int,
                    suffix_fuzz: int) -> bool:
        """Does the hunk's old text (less the fuzz) match at ``base + offset``?"""
        pat_lines = h.ptrn_lines - suffix_fuzz
        lines = self.lines
        n = self.input_lines
        start = base + offset - 1
        for pline in range(1 + prefix_fuzz, pat_lines + 1):
            k = start + pline - 1
            if not (0 <= k < n) or lines[k] != h.line(pline):
                if not (0 <= k < n) and h.line(pline) == b"":
                    continue
                return False
        return True

    def locate_hunk(self, h: "HunkBuffer", fuzz: int) -> int:
        """GNU's ``locate_hunk``: the line where the hunk applies (0: nowhere), searching
        outward from where the previous hunks leave it."""
        first_guess = h.first + self.in_offset
        pat_lines = h.ptrn_lines
        prefix_context = h.prefix_context
        suffix_context = h.suffix_context
        context = max(prefix_context, suffix_context)
        prefix_fuzz = fuzz + prefix_context - context
        suffix_fuzz = fuzz + suffix_context - context
        max_where = self.input_lines - (pat_lines - suffix_fuzz) + 1
        min_where = self.last_frozen_line + 1
        max_pos_offset = max_where - first_guess
        max_neg_offset = first_guess - min_where
        max_offset = max(max_pos_offset, max_neg_offset)
        if not pat_lines:
            return first_guess
        if first_guess <= max_neg_offset:
            max_neg_offset = first_guess - 1
        if prefix_fuzz < 0 and h.first <= 1:
            # Can only match the start of the file.
            if suffix_fuzz < 0:
                # Can only match the entire file.
                if pat_lines != self.input_lines or prefix_context < self.last_frozen_line:
                    return 0
            offset = 1 - first_guess
            if (self.last_frozen_line <= prefix_context and offset <= max_pos_offset
                    and self.patch_match(h, first_guess, offset, 0, max(suffix_fuzz, 0))):
                self.in_offset += offset
                return first_guess + offset
            return 0
        if prefix_fuzz < 0:
            prefix_fuzz = 0
        if suffix_fuzz < 0:
            # Can only match the end of the file.
            offset = first_guess - (self.input_lines - pat_lines + 1)
            if offset <= max_neg_offset and self.patch_match(h, first_guess, -offset,
                                                             prefix_fuzz, 0):
                self.in_offset -= offset
                return first_guess - offset
            return 0
        if max_pos_offset < 0:
            min_offset = first_guess - max_where
        elif max_neg_offset < 0:
            min_offset = first_guess - min_where
        else:
            min_offset = 0
        for offset in range(max(min_offset, 0), max_offset + 1):
            if offset <= max_pos_offset and self.patch_match(h, first_guess, offset,
                                                             prefix_fuzz, suffix_fuzz):
                self.in_offset += offset
                return first_guess + offset
            if offset <= max_neg_offset and self.patch_match(h, first_guess, -offset,
                                                             prefix_fuzz, suffix_fuzz):
                self.in_offset -= offset
                return first_guess - offset
            if offset & 255 == 0:
                self.check_time()
        return 0

    def copy_till(self, lastline: int) -> bool:
        """Copy input lines up to ``lastline`` to the output."""
        if self.last_frozen_line > lastline:
            self.say("misordered hunks! output would be garbled\n")
            return False
        out = self.out
        while self.last_frozen_line < lastline:
            self.last_frozen_line += 1
            line = self.ifetch(self.last_frozen_line)
            if line and out is not None:
                if not out.after_newline:
                    out.write(b"\n")
                out.write(line)
                out.after_newline = line.endswith(b"\n")
                out.zero_output = False
        return True

    def _put(self, h: "HunkBuffer", i: int) -> None:
        text = h.line(i)
        if self.out is not None:
            self.out.write(text)
            self.out.after_newline = text.endswith(b"\n")
            self.out.zero_output = False

    def apply_hunk(self, h: "HunkBuffer", where: int) -> bool:
        """GNU's ``apply_hunk`` (without ``-D``): copy up to each change, drop old lines,
        write new ones; context stays the file's own text."""
        old = 1
        lastline = h.ptrn_lines
        new = lastline + 1
        pat_end = h.end
        where -= 1
        while h.char(new) in ("=", "\n"):
            new += 1
        while old <= lastline:
            c_old = h.char(old)
            if c_old == "-":
                if not self.copy_till(where + old - 1):
                    return False
                self.last_frozen_line += 1
                old += 1
            elif new > pat_end:
                break
            elif h.char(new) == "+":
                if not self.copy_till(where + old - 1):
                    return False
                self._put(h, new)
                new += 1
            elif h.char(new) != c_old:
                raise Fatal(f"Out-of-sync patch, lines {h.hunk_beg + old},{h.hunk_beg + new} "
                            "-- mangled text or line numbers, maybe?")
            elif h.char(new) == "!":
                if not self.copy_till(where + old - 1):
                    return False
                while True:
                    self.last_frozen_line += 1
                    old += 1
                    if h.char(old) != "!":
                        break
                while True:
                    self._put(h, new)
                    new += 1
                    if h.char(new) != "!":
                        break
            else:
                old += 1
                new += 1
        if new <= pat_end and h.char(new) == "+":
            if not self.copy_till(where + old - 1):
                return False
            while True:
                if self.out is not None and not self.out.after_newline:
                    self.out.write(b"\n")
                self._put(h, new)
                new += 1
                if not (new <= pat_end and h.char(new) == "+"):
                    break
        self.out_offset += h.repl_lines - h.ptrn_lines
        return True

    def spew_output(self) -> bool:
        """Copy the rest of the input."""
        if self.last_frozen_line < self.input_lines:
            return self.copy_till(self.input_lines)
        return True

    def check_line_endings(self, h: "HunkBuffer", where: int) -> bool:
        """Do the hunk's first line and the input line at ``where`` differ in CR LF?"""
        p = h.line(1)
        if not p:
            return False
        patch_crlf = p.endswith(b"\r\n")
        if not self.input_lines:
            return False
        where = min(where, self.input_lines)
        line = self.ifetch(where)
        if not line:
            return False
        return patch_crlf != line.endswith(b"\r\n")
