"""Reading one ``***************`` hunk of a context diff (``diff -c``), old or new style, with
GNU's repairs: omitted old or new parts filled in from the other's context, blank lines whose
leading spaces were eaten, a null hunk's line numbers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox.commands.patch.options import CONTEXT_DIFF, NEW_CONTEXT_DIFF, Fatal

if TYPE_CHECKING:
    from sandbox.commands.patch.reader import PatchReader

_FASCINATING = ("(Fascinating -- this is really a new-style context diff but without\n"
                "the telltale extra asterisks on the *** line that usually indicate\n"
                "the new style...)\n")


def _range(r: "PatchReader", buf: bytes, repl: bool) -> tuple[int, int | None]:
    """The ``first[,last]`` numbers of a ``*** `` (or, ``repl``, ``--- ``) line, scanned as
    GNU does: from the first digit, and after the comma from the next digit."""
    s = 0
    while s < len(buf) and not 0x30 <= buf[s] <= 0x39:
        s += 1
    if not repl and buf[s:s + 3] == b"0,0":
        buf = buf[:s] + buf[s + 2:]
    first, s = r.scan_linenum(buf, s)
    if buf[s:s + 1] != b",":
        return first, None
    if repl:
        while True:
            s += 1
            if s >= len(buf):
                raise r.malformed()
            if 0x30 <= buf[s] <= 0x39:
                break
    else:
        while s < len(buf) and not 0x30 <= buf[s] <= 0x39:
            s += 1
    last, _ = r.scan_linenum(buf, s)
    return first, last


def _range_lines(r: "PatchReader", buf: bytes, repl: bool) -> tuple[int, int]:
    """The first line and the line count a ``*** `` / ``--- `` line gives (``N`` alone is one
    line; ``0`` is none, starting at 1)."""
    first, last = _range(r, buf, repl)
    if last is not None:
        if last + 1 - first < 0:
            raise r.malformed()
        return first, last + 1 - first
    return (first, 1) if first else (1, 0)


def read_hunk(r: "PatchReader", difftype: int) -> bool:
    """Fill ``r.hunk`` from the next context hunk; False (and rewind) when none follows."""
    h = r.hunk
    src = r.src
    line_beginning = src.tell()
    repl_beginning = 0
    fillcnt = 0
    fillsrc = filldst = repl_patch_line = repl_context = 0
    ptrn_spaces_eaten = False
    some_context = False
    repl_could_be_missing = True
    ptrn_missing = False
    repl_missing = False
    repl_backtrack_position = 0
    ptrn_prefix_context = ptrn_suffix_context = repl_prefix_context = -1
    ptrn_copiable = repl_copiable = 0
    context = 0

    chars_read = r.get_line()
    if chars_read <= 8 or not r.buf.startswith(b"********"):
        r.next_intuit_at(line_beginning, r.input_line)
        return False
    buf = r.buf
    s = 0
    while s < len(buf) and buf[s] == 0x2A:
        s += 1
    if buf[s:s + 1] == b" ":
        h.c_function = buf[s:buf.index(b"\n", s)]
    h.hunk_beg = r.input_line + 1
    while h.end < h.max:
        chars_read = r.get_line()
        buf = r.buf
        if not chars_read:
            if repl_beginning and repl_could_be_missing:
                repl_missing = True
                break
            if h.max - h.end < 4:
                buf = b"  \n"  # (assume blank lines got chopped)
                src.buf = buf
                chars_read = 3
            else:
                raise Fatal("unexpected end of file in patch")
        h.end += 1
        if h.end == h.hunkmax:
            text = buf.decode("utf-8", "surrogateescape")
            raise Fatal(f"unterminated hunk starting at line {h.hunk_beg}; giving up at line "
                        f"{r.input_line}: {text}")
        first = chr(buf[0])
        h.put(h.end, first)
        if first == "*":
            if buf.startswith(b"********"):
                if repl_beginning and repl_could_be_missing:
                    repl_missing = True
                    break
                raise Fatal(f"unexpected end of hunk at line {r.input_line}")
            if h.end != 0:
                if repl_beginning and repl_could_be_missing:
                    repl_missing = True
                    break
                raise r.fatal_line("unexpected '***'")
            context = 0
            h.put(h.end, "*", buf)
            h.first, h.ptrn_lines = _range_lines(r, buf, False)
            h.max = h.ptrn_lines + 6
            h.grow_to(h.max)
            h.max = h.hunkmax
            continue
        if first == "-" and buf[1:2] == b"-":
            if ptrn_prefix_context == -1:
                ptrn_prefix_context = context
            ptrn_suffix_context = context
            if repl_beginning or (h.end != h.ptrn_lines + 1 + (h.char(h.end - 1) == "\n")):
                if h.end == 1:
                    # The old lines were omitted: fill them in from the new context lines.
                    ptrn_missing = True
                    h.end = h.ptrn_lines + 1
                    ptrn_prefix_context = ptrn_suffix_context = -1
                    fillsrc = h.end + 1
                    filldst = 1
                    fillcnt = h.ptrn_lines
                elif not repl_beginning:
                    word = "Premature" if h.end <= h.ptrn_lines else "Overdue"
                    raise Fatal(f"{word} '---' at line {r.input_line}; check line numbers at "
                                f"line {h.hunk_beg}")
                elif not repl_could_be_missing:
                    raise Fatal(f"duplicate '---' at line {r.input_line}; check line numbers "
                                f"at line {h.hunk_beg + repl_beginning}")
                else:
                    repl_missing = True
                    break
            repl_beginning = h.end
            repl_backtrack_position = src.tell()
            repl_patch_line = r.input_line
            repl_context = context
            h.put(h.end, "=", buf)
            h.newfirst, h.repl_lines = _range_lines(r, buf, True)
            h.max = h.repl_lines + h.end
            h.grow_to(h.max)
            if (h.repl_lines != ptrn_copiable
                    and (h.prefix_context != 0 or context != 0 or h.repl_lines != 1)):
                repl_could_be_missing = False
            context = 0
            continue
        if first in "+!-":
            if first != "-":
                repl_could_be_missing = False
            text = buf[1:]
            if text[:1] in (b" ", b"\t"):
                text = text[1:]
            elif repl_beginning and repl_could_be_missing:
                repl_missing = True
                break
            if not repl_beginning:
                if ptrn_prefix_context == -1:
                    ptrn_prefix_context = context
            elif repl_prefix_context == -1:
                repl_prefix_context = context
            if (len(text) > 1 and h.end == (h.max if repl_beginning else h.ptrn_lines)
                    and src.incomplete_line()):
                text = text[:-1]
            h.put(h.end, first, text)
            context = 0
        elif first in "\t\n":  # (assume spaces got eaten)
            size = chars_read - 1 if first == "\t" else chars_read
            if repl_beginning and repl_could_be_missing and (
                    not ptrn_spaces_eaten or difftype == NEW_CONTEXT_DIFF):
                repl_missing = True
                break
            if (size > 1 and h.end == (h.max if repl_beginning else h.ptrn_lines)
                    and src.incomplete_line()):
                size -= 1
            h.put(h.end, first, buf[:size])  # (GNU keeps the tab, drops the last byte)
            if h.end != h.ptrn_lines + 1:
                ptrn_spaces_eaten |= repl_beginning != 0
                some_context = True
                context += 1
                if repl_beginning:
                    repl_copiable += 1
                else:
                    ptrn_copiable += 1
                h.chars[h.end] = " "
        elif first == " ":
            text = buf[1:]
            if text[:1] in (b" ", b"\t"):
                text = text[1:]
            elif repl_beginning and repl_could_be_missing:
                repl_missing = True
                break
            some_context = True
            context += 1
            if repl_beginning:
                repl_copiable += 1
            else:
                ptrn_copiable += 1
            if (len(text) > 1 and h.end == (h.max if repl_beginning else h.ptrn_lines)
                    and src.incomplete_line()):
                text = text[:-1]
            h.put(h.end, " ", text)
        else:
            if repl_beginning and repl_could_be_missing:
                repl_missing = True
                break
            raise r.malformed()

    # hunk_done:
    if h.end >= 0 and not repl_beginning:
        raise Fatal(f"no '---' found in patch at line {h.hunk_beg}")
    if repl_missing:
        # Back to just after the '---' line: the new lines are the old context.
        src.input_line = repl_patch_line
        context = repl_context
        src.seek(repl_backtrack_position)
        fillsrc = 1
        filldst = repl_beginning + 1
        fillcnt = h.repl_lines
        h.end = h.max
    elif not ptrn_missing and ptrn_copiable != repl_copiable:
        raise Fatal(f"context mangled in hunk at line {h.hunk_beg}")
    elif not some_context and fillcnt == 1:
        # A null hunk with no context where one line was expected: an append.
        while filldst < h.end:
            h.put(filldst, h.chars.get(filldst + 1, "^"), h.line(filldst + 1))
            filldst += 1
        h.end -= 1
        h.first += 1
        fillcnt = 0
        h.ptrn_lines = 0
    if repl_prefix_context == -1 or (
            ptrn_prefix_context != -1 and ptrn_prefix_context < repl_prefix_context):
        h.prefix_context = ptrn_prefix_context
    else:
        h.prefix_context = repl_prefix_context
    if ptrn_suffix_context != -1 and ptrn_suffix_context < context:
        h.suffix_context = ptrn_suffix_context
    else:
        h.suffix_context = context
    if h.prefix_context == -1 or h.suffix_context == -1:
        raise Fatal(f"replacement text or line numbers mangled in hunk at line {h.hunk_beg}")
    if difftype == CONTEXT_DIFF and (
            fillcnt or (h.first > 1 and h.prefix_context + h.suffix_context < ptrn_copiable)):
        if r.verbose:
            r.say(_FASCINATING.encode())
        r.diff_type = difftype = NEW_CONTEXT_DIFF
    if fillcnt:
        while fillcnt > 0:
            fillcnt -= 1
            while fillsrc <= h.end and fillsrc != repl_beginning and h.chars.get(fillsrc, "^") != " ":
                fillsrc += 1
            if h.end < fillsrc or fillsrc == repl_beginning:
                raise Fatal("replacement text or line numbers mangled in hunk at line "
                            f"{h.hunk_beg}")
            h.put(filldst, h.chars.get(fillsrc, "^"), h.line(fillsrc))
            fillsrc += 1
            filldst += 1
        while fillsrc <= h.end and fillsrc != repl_beginning:
            if h.chars.get(fillsrc, "^") == " ":
                raise Fatal("replacement text or line numbers mangled in hunk at line "
                            f"{h.hunk_beg}")
            fillsrc += 1
    return True
