"""Writing a hunk that did not apply to the reject text (patch.c's ``abort_hunk``): unified
format for unified diffs, context format (old or new style) for the others, or as
``--reject-format`` says; line numbers shifted by what the earlier hunks did."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox.commands.patch.options import NEW_CONTEXT_DIFF, NO_DIFF, UNI_DIFF, Fatal
from sandbox.commands.patch.reader import INDEX

if TYPE_CHECKING:
    from sandbox.commands.patch.hunk import HunkBuffer
    from sandbox.commands.patch.reader import PatchReader


def _unidiff_range(start: int, count: int) -> bytes:
    if count == 0:
        return b"%d,0" % (start - 1)
    if count == 1:
        return b"%d" % start
    return b"%d,%d" % (start, count)


def _header_line(r: "PatchReader", tag: bytes, which: int) -> bytes:
    name = r.names[which]
    timestr = r.timestr[which]
    return tag + b" " + (name if name is not None else b"/dev/null") + (timestr or b"") + b"\n"


def _mangled(h: "HunkBuffer", old: int, new: int) -> Fatal:
    return Fatal(f"Out-of-sync patch, lines {h.hunk_beg + old},{h.hunk_beg + new} -- mangled "
                 "text or line numbers, maybe?")


def _unified(r: "PatchReader", header: bool, reverse: bool, out_offset: int) -> bytes:
    h = r.hunk
    out: list[bytes] = []
    old = 1
    lastline = h.ptrn_lines
    new = lastline + 1
    if header:
        if r.names[INDEX] is not None:
            out.append(b"Index: " + r.names[INDEX] + b"\n")
        out.append(_header_line(r, b"---", int(reverse)))
        out.append(_header_line(r, b"+++", int(not reverse)))
    out.append(b"@@ -" + _unidiff_range(h.first + out_offset, lastline) + b" +"
               + _unidiff_range(h.newfirst + out_offset, h.repl_lines) + b" @@"
               + (h.c_function or b"") + b"\n")
    while h.char(new) in ("=", "\n"):
        new += 1
    if r.diff_type != UNI_DIFF:
        h.normalize(unified=True)
    while True:
        while h.char(old) == "-":
            out.append(b"-" + h.line(old))
            old += 1
        while h.char(new) == "+":
            out.append(b"+" + h.line(new))
            new += 1
        if old > lastline:
            break
        if h.char(new) != h.char(old):
            raise _mangled(h, old, new)
        out.append(b" " + h.line(old))
        old += 1
        new += 1
    if h.char(new) != "^":
        raise _mangled(h, old, new)
    return b"".join(out)


def _range_line(mark: bytes, first: int, last: int, tail: bytes) -> bytes:
    """A context hunk's ``*** a,b ****`` / ``--- a,b ----`` line (``0`` for no lines, ``a``
    for one)."""
    if last < first:
        span = b"0"
    elif last == first:
        span = b"%d" % first
    else:
        span = b"%d,%d" % (first, last)
    return mark + b" " + span + tail + b"\n"


def _context(r: "PatchReader", header: bool, reverse: bool, out_offset: int) -> bytes:
    h = r.hunk
    out: list[bytes] = []
    oldfirst = h.first + out_offset
    newfirst = h.newfirst + out_offset
    oldlast = oldfirst + h.ptrn_lines - 1
    newlast = newfirst + h.repl_lines - 1
    new_style = r.diff_type >= NEW_CONTEXT_DIFF
    stars = b" ****" if new_style else b""
    minuses = b" ----" if new_style else b" -----"
    if r.diff_type == UNI_DIFF:
        h.normalize(unified=False)
    if header:
        if r.names[INDEX] is not None:
            out.append(b"Index: " + r.names[INDEX] + b"\n")
        out.append(_header_line(r, b"***", int(reverse)))
        out.append(_header_line(r, b"---", int(not reverse)))
    out.append(b"***************" + (h.c_function or b"") + b"\n")
    for i in range(h.end + 1):
        c = h.char(i)
        if c == "*":
            out.append(_range_line(b"***", oldfirst, oldlast, stars))
        elif c == "=":
            out.append(_range_line(b"---", newfirst, newlast, minuses))
        elif c in " -+!":
            out.append(c.encode() + b" " + h.line(i))
        elif c == "\n":
            out.append(h.line(i))
        else:
            raise Fatal("fatal internal error in abort_hunk_context")
    return b"".join(out)


def abort_hunk(r: "PatchReader", header: bool, reverse: bool, out_offset: int,
               reject_format: int) -> bytes:
    """The reject text for the current hunk (with the file header when ``header``)."""
    if reject_format == UNI_DIFF or (reject_format == NO_DIFF and r.diff_type == UNI_DIFF):
        return _unified(r, header, reverse, out_offset)
    return _context(r, header, reverse, out_offset)
