"""Reading one ``@@ -a,b +c,d @@`` hunk of a unified diff (pch.c's ``another_hunk``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox.commands.patch.options import Fatal

if TYPE_CHECKING:
    from sandbox.commands.patch.reader import PatchReader


def _scan_range(r: "PatchReader", buf: bytes, s: int, then: bytes) -> tuple[int, int, int]:
    """``first[,count]`` at ``s`` of an ``@@`` line (count 1 if left out), an optional space,
    then the byte ``then`` (else the hunk is malformed): first, count and where ``then`` is."""
    first, s = r.scan_linenum(buf, s)
    count = 1
    if buf[s:s + 1] == b",":
        count, s = r.scan_linenum(buf, s + 1)
    if buf[s:s + 1] == b" ":
        s += 1
    if buf[s:s + 1] != then:
        raise r.malformed()
    return first, count, s

def read_hunk(r: "PatchReader") -> bool:
    """Fill ``r.hunk`` from the next unified hunk; False (and rewind) when none follows."""
    h = r.hunk
    src = r.src
    line_beginning = src.tell()
    chars_read = r.get_line()
    buf = r.buf
    if chars_read <= 4 or not buf.startswith(b"@@ -"):
        r.next_intuit_at(line_beginning, r.input_line)
        return False
    h.first, h.ptrn_lines, s = _scan_range(r, buf, 4, b"+")
    h.newfirst, h.repl_lines, s = _scan_range(r, buf, s + 1, b"@")
    s += 1
    at = buf[s:s + 1]
    s += 1
    if at == b"@" and buf[s:s + 1] == b" ":
        h.c_function = buf[s:buf.index(b"\n", s)]
    if not h.ptrn_lines:
        h.first += 1
    if not h.repl_lines:
        h.newfirst += 1
    if h.ptrn_lines >= (1 << 63) - (h.repl_lines + 1):
        raise r.malformed()
    h.max = h.ptrn_lines + h.repl_lines + 1
    h.grow_to(h.max)
    fillsrc = 1
    filldst = fillsrc + h.ptrn_lines
    h.end = filldst + h.repl_lines
    h.put(0, "*", b"*** %d,%d ****\n" % (h.first, h.first + h.ptrn_lines - 1))
    h.put(filldst, "=", b"--- %d,%d ----\n" % (h.newfirst, h.newfirst + h.repl_lines - 1))
    src.buf = h.line(filldst)  # (GNU formats these lines in its line buffer)
    filldst += 1
    h.prefix_context = -1
    context = 0
    h.hunk_beg = r.input_line + 1
    while fillsrc <= h.ptrn_lines or filldst <= h.end:
        chars_read = r.get_line()
        line = r.buf
        if not chars_read:
            if h.max - filldst < 3:
                line = b" \n"  # (assume blank lines got chopped)
                src.buf = line
                chars_read = 2
            else:
                raise Fatal("unexpected end of file in patch")
        if line[:1] in (b"\t", b"\n"):
            ch = " "  # (assume the space got eaten)
            text = line
        else:
            ch = chr(line[0])
            text = line[1:]
        if ch == "=":
            ch = " "
        if ch == "-":
            if fillsrc > h.ptrn_lines:
                h.end = filldst - 1
                raise r.malformed()
            if fillsrc == h.ptrn_lines and src.incomplete_line():
                text = text[:-1]
            h.put(fillsrc, ch, text)
            fillsrc += 1
        elif ch in " +":
            if ch == " ":
                if fillsrc > h.ptrn_lines:
                    raise r.malformed()
                context += 1
                if fillsrc == h.ptrn_lines and src.incomplete_line():
                    text = text[:-1]
                h.put(fillsrc, ch, text)
                fillsrc += 1
            if filldst > h.end:
                raise r.malformed()
            if filldst == h.end and src.incomplete_line():
                text = text[:-1]
            h.put(filldst, ch, text)
            filldst += 1
        else:
            raise r.malformed()
        if ch != " ":
            if h.prefix_context < 0:
                h.prefix_context = context
            context = 0
    if h.prefix_context < 0:
        raise r.malformed()
    h.suffix_context = context
    return True
