"""diff's output formats (diffutils 3.8): normal, context (``-c``/``-C``), unified
(``-u``/``-U``), with GNU's hunk grouping (``find_hunk``: changes closer than 2*N+1 lines share
a hunk; an ignorable ``-B`` change joins within N), its number ranges and the ``\\ No newline at
end of file`` marker."""

from __future__ import annotations

from sandbox.commands.diff.analyze import Change

NO_NEWLINE = b"\\ No newline at end of file\n"


def _line(prefix: bytes, line: bytes) -> bytes:
    if line.endswith(b"\n"):
        return prefix + line
    return prefix + line + b"\n" + NO_NEWLINE


def _range(a: int, b: int) -> bytes:
    """Normal/context range of 0-based lines [a, b] (b < a: the line before)."""
    ta, tb = a + 1, b + 1
    if tb <= ta:
        return str(tb).encode()
    return f"{ta},{tb}".encode()


def _unified_range(a: int, b: int) -> bytes:
    ta, tb = a + 1, b + 1
    if tb <= ta:
        return (f"{tb},0" if tb < ta else f"{tb}").encode()
    return f"{ta},{tb - ta + 1}".encode()


def normal(changes: list[Change], a: list[bytes], b: list[bytes]) -> bytes:
    """The default format."""
    out: list[bytes] = []
    for c in changes:
        if c.ignore:
            continue
        kind = b"c" if c.deleted and c.inserted else b"d" if c.deleted else b"a"
        out.append(_range(c.line0, c.line0 + c.deleted - 1) + kind
                   + _range(c.line1, c.line1 + c.inserted - 1) + b"\n")
        for line in a[c.line0:c.line0 + c.deleted]:
            out.append(_line(b"< ", line))
        if c.deleted and c.inserted:
            out.append(b"---\n")
        for line in b[c.line1:c.line1 + c.inserted]:
            out.append(_line(b"> ", line))
    return b"".join(out)


def hunks(changes: list[Change], context: int) -> list[list[Change]]:
    """GNU's ``find_hunk`` grouping; groups made only of ignorable changes are dropped."""
    groups: list[list[Change]] = []
    i = 0
    n = len(changes)
    while i < n:
        group = [changes[i]]
        while i + 1 < n:
            cur = changes[i]
            top0 = cur.line0 + cur.deleted
            nxt = changes[i + 1]
            thresh = context if nxt.ignore else 2 * context + 1
            if nxt.line0 - top0 < thresh:
                group.append(nxt)
                i += 1
            else:
                break
        i += 1
        if not all(c.ignore for c in group):
            groups.append(group)
    return groups


def unified(groups: list[list[Change]], a: list[bytes], b: list[bytes], context: int) -> bytes:
    """``-u`` hunks (the header is printed by the caller)."""
    out: list[bytes] = []
    for group in groups:
        first, last = group[0], group[-1]
        lo0 = max(0, first.line0 - context)
        lo1 = max(0, first.line1 - context)
        hi0 = min(len(a), last.line0 + last.deleted + context)
        hi1 = min(len(b), last.line1 + last.inserted + context)
        out.append(b"@@ -" + _unified_range(lo0, hi0 - 1) + b" +"
                   + _unified_range(lo1, hi1 - 1) + b" @@\n")
        i = lo0
        for c in group:
            for line in a[i:c.line0]:
                out.append(_line(b" ", line))
            for line in a[c.line0:c.line0 + c.deleted]:
                out.append(_line(b"-", line))
            for line in b[c.line1:c.line1 + c.inserted]:
                out.append(_line(b"+", line))
            i = c.line0 + c.deleted
        for line in a[i:hi0]:
            out.append(_line(b" ", line))
    return b"".join(out)


def context_format(groups: list[list[Change]], a: list[bytes], b: list[bytes],
                   context: int) -> bytes:
    """``-c`` hunks (the header is printed by the caller)."""
    out: list[bytes] = []
    for group in groups:
        first, last = group[0], group[-1]
        lo0 = max(0, first.line0 - context)
        lo1 = max(0, first.line1 - context)
        hi0 = min(len(a), last.line0 + last.deleted + context)
        hi1 = min(len(b), last.line1 + last.inserted + context)
        out.append(b"***************\n")
        out.append(b"*** " + _range(lo0, hi0 - 1) + b" ****\n")
        if any(c.deleted and not c.ignore for c in group) or any(c.deleted for c in group):
            marks: dict[int, bytes] = {}
            for c in group:
                mark = b"! " if c.inserted else b"- "
                for k in range(c.line0, c.line0 + c.deleted):
                    marks[k] = mark
            for k in range(lo0, hi0):
                out.append(_line(marks.get(k, b"  "), a[k]))
        out.append(b"--- " + _range(lo1, hi1 - 1) + b" ----\n")
        if any(c.inserted for c in group):
            marks = {}
            for c in group:
                mark = b"! " if c.deleted else b"+ "
                for k in range(c.line1, c.line1 + c.inserted):
                    marks[k] = mark
            for k in range(lo1, hi1):
                out.append(_line(marks.get(k, b"  "), b[k]))
    return b"".join(out)
