"""Reading one ``NaM``/``N,McM,N``/``N,MdM`` hunk of a normal diff (plain ``diff``), made into
GNU's context-less hunk: ``< `` lines are the old part, ``> `` lines the new."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox.commands.patch.options import Fatal

if TYPE_CHECKING:
    from sandbox.commands.patch.reader import PatchReader

_MAX = (1 << 63) - 1


def read_hunk(r: "PatchReader") -> bool:
    """Fill ``r.hunk`` from the next normal-diff command; False (and rewind) when none follows."""
    h = r.hunk
    src = r.src
    line_beginning = src.tell()
    h.prefix_context = h.suffix_context = 0
    chars_read = r.get_line()
    buf = r.buf
    if not chars_read or not 0x30 <= buf[0] <= 0x39:
        r.next_intuit_at(line_beginning, r.input_line)
        return False
    h.first, s = r.scan_linenum(buf, 0)
    if buf[s:s + 1] == b",":
        last, s = r.scan_linenum(buf, s + 1)
        h.ptrn_lines = last + 1 - h.first
    else:
        h.ptrn_lines = int(buf[s:s + 1] != b"a")
    if h.first >= _MAX - h.ptrn_lines:
        raise r.malformed()
    hunk_type = buf[s:s + 1]
    if hunk_type == b"a":
        h.first += 1
    low, s = r.scan_linenum(buf, s + 1)
    if buf[s:s + 1] == b",":
        high, _ = r.scan_linenum(buf, s + 1)
    else:
        high = low
    if low > high or high - low == _MAX:
        raise r.malformed()
    if hunk_type == b"d":
        low += 1
    h.newfirst = low
    h.repl_lines = high - low + 1
    if h.newfirst >= _MAX - h.repl_lines or h.ptrn_lines >= _MAX - (h.repl_lines + 1):
        raise r.malformed()
    h.end = h.ptrn_lines + h.repl_lines + 1
    h.grow_to(h.end)
    h.put(0, "*", b"*** %d,%d\n" % (h.first, h.first + h.ptrn_lines - 1))
    i = 1
    while i <= h.ptrn_lines:
        _expect(r, b"<")
        size = len(r.buf) - 2 - (i == h.ptrn_lines and src.incomplete_line())
        h.put(i, "-", r.buf[2:2 + size])
        i += 1
    if hunk_type == b"c":
        if not r.get_line():
            raise Fatal(f"unexpected end of file in patch at line {r.input_line}")
        if r.buf[:1] != b"-":
            raise Fatal(f"'---' expected at line {r.input_line} of patch")
    h.put(i, "=", b"--- %d,%d\n" % (low, high))
    i += 1
    while i <= h.end:
        _expect(r, b">")
        size = len(r.buf) - 2 - (i == h.end and src.incomplete_line())
        h.put(i, "+", r.buf[2:2 + size])
        i += 1
    return True


def _expect(r: "PatchReader", mark: bytes) -> None:
    if not r.get_line():
        raise Fatal(f"unexpected end of file in patch at line {r.input_line}")
    if r.buf[:1] != mark or r.buf[1:2] not in (b" ", b"\t"):
        which = mark.decode()
        raise Fatal(f"'{which}' followed by space or tab expected at line {r.input_line} of patch")
