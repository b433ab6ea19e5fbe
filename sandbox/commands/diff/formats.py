"""diff's ed (``-e``), RCS (``-n``) and if-then-else (``-D``, ``--*-line-format``,
``--*-group-format``) outputs, ported from diffutils 3.8 ``ed.c``, ``normal.c`` (RCS) and
``ifdef.c``: the same directive scanner (``format_group``, ``do_printf_spec``,
``scan_char_literal``), so malformed directives print literally as GNU's do."""

from __future__ import annotations

from typing import Callable

from sandbox.commands.diff.analyze import Change


def _range(a: int, b: int) -> bytes:
    ta, tb = a + 1, b + 1
    if tb <= ta:
        return str(tb).encode()
    return f"{ta},{tb}".encode()


def _kind(c: Change) -> int:
    """analyze_hunk's changes: 1 OLD, 2 NEW, 3 CHANGED."""
    return (1 if c.deleted else 0) | (2 if c.inserted else 0)


def ed(changes: list[Change], b: list[bytes],
       expand: Callable[[bytes], bytes] | None = None) -> bytes:
    """``-e``: ed commands, last change first."""
    out: list[bytes] = []
    for c in reversed(changes):
        if c.ignore:
            continue
        kind = _kind(c)
        out.append(_range(c.line0, c.line0 + c.deleted - 1) + b" dac"[kind:kind + 1] + b"\n")
        if kind != 1:
            insert_mode = True
            for line in b[c.line1:c.line1 + c.inserted]:
                if not insert_mode:
                    out.append(b"a\n")
                    insert_mode = True
                if line == b".\n":
                    out.append(b"..\n.\ns/.//\n")
                    insert_mode = False
                else:
                    out.append(expand(line) if expand else line)
            if insert_mode:
                out.append(b".\n")
    return b"".join(out)


def rcs(changes: list[Change], b: list[bytes],
        expand: Callable[[bytes], bytes] | None = None) -> bytes:
    """``-n``: RCS's forward edit script."""
    out: list[bytes] = []
    for c in changes:
        if c.ignore:
            continue
        tf0, tl0 = c.line0 + 1, c.line0 + c.deleted
        if c.deleted:
            out.append(b"d%d %d\n" % (tf0, tl0 - tf0 + 1 if tf0 <= tl0 else 1))
        if c.inserted:
            out.append(b"a%d %d\n" % (tl0, c.inserted))
            lines = b[c.line1:c.line1 + c.inserted]
            out.extend(map(expand, lines) if expand else lines)
    return b"".join(out)


# -- if-then-else formats (ifdef.c) -------------------------------------------------------

OLD, NEW, UNCHANGED, CHANGED = 1, 2, 0, 3
_DIGITS = b"0123456789"
_INTMAX = (1 << 63) - 1
_FLUSH = 1 << 16
#: printf widths and precisions past this are only padding: the sandbox's bound, not GNU's
_MAX_PAD = 1 << 16


class _Group:
    __slots__ = ("lines", "start", "end")

    def __init__(self, lines: list[bytes], start: int, end: int):
        self.lines, self.start, self.end = lines, start, end


def _printf(spec: bytes, value: int) -> bytes:
    """C printf of ``value`` with ``spec`` = flags width .prec conversion (d o x X)."""
    flags = b""
    k = 0
    while k < len(spec) and spec[k:k + 1] in (b"-", b"'", b"0"):
        flags += spec[k:k + 1]
        k += 1
    w = k
    while k < len(spec) and spec[k] in _DIGITS:
        k += 1
    width = min(int(spec[w:k]), _MAX_PAD) if k > w else 0
    prec = None
    if spec[k:k + 1] == b".":
        k += 1
        p = k
        while k < len(spec) and spec[k] in _DIGITS:
            k += 1
        prec = min(int(spec[p:k]), _MAX_PAD) if k > p else 0
    conv = spec[k:k + 1]
    neg = value < 0
    mag = -value if neg else value
    digits = (b"%d" if conv == b"d" else b"%o" if conv == b"o" else b"%x" if conv == b"x"
              else b"%X") % mag
    if prec is not None:
        if prec == 0 and mag == 0:
            digits = b""
        digits = digits.rjust(prec, b"0")
    sign = b"-" if neg else b""
    body = sign + digits
    if len(body) < width:
        if b"-" in flags:
            body = body.ljust(width, b" ")
        elif b"0" in flags and prec is None:
            body = sign + digits.rjust(width - len(sign), b"0")
        else:
            body = body.rjust(width, b" ")
    return body


class IfdefPrinter:
    """``print_ifdef_script`` for the group formats (UNCHANGED, OLD, NEW, CHANGED) and the
    line formats (OLD, NEW, UNCHANGED) as bytes; ``expand`` is output_1_line's tab
    expansion (or None)."""

    def __init__(self, group_formats: list[bytes], line_formats: list[bytes],
                 expand: Callable[[bytes], bytes] | None,
                 sink: Callable[[bytes], object] | None = None):
        self.gf = group_formats
        self.lf = line_formats
        self.expand = expand
        #: where output goes once it passes _FLUSH bytes (so the run's output limit stops
        #: a format that repeats lines many times before memory does)
        self.sink = sink

    def _flush(self, out: bytearray) -> None:
        if self.sink is not None and len(out) > _FLUSH:
            self.sink(bytes(out))
            out.clear()

    def render(self, changes: list[Change], a: list[bytes], b: list[bytes]) -> bytes:
        out = bytearray()
        n0 = n1 = 0
        for c in changes:
            if c.ignore:
                continue
            if n0 < c.line0 or n1 < c.line1:
                self._format(out, self.gf[UNCHANGED], a, n0, c.line0, b, n1, c.line1)
            n0, n1 = c.line0 + c.deleted, c.line1 + c.inserted
            self._format(out, self.gf[_kind(c)], a, c.line0, n0, b, c.line1, n1)
            self._flush(out)
        if n0 < len(a) or n1 < len(b):
            self._format(out, self.gf[UNCHANGED], a, n0, len(a), b, n1, len(b))
        return bytes(out)

    def _format(self, out: bytearray, fmt: bytes, a: list[bytes], beg0: int, end0: int,
                b: list[bytes], beg1: int, end1: int) -> None:
        self._group(out, fmt, 0, None, (_Group(a, beg0, end0), _Group(b, beg1, end1)))

    def _group(self, out: bytearray | None, fmt: bytes, f: int, endchar: int | None,
               groups: tuple[_Group, _Group]) -> int:
        n = len(fmt)
        while f < n and fmt[f] != endchar:
            c = fmt[f]
            f += 1
            f1 = f
            if c == 37:  # %
                c = fmt[f] if f < n else 0
                f += 1
                if c == 37:
                    pass
                elif c == 40:  # (
                    ok = True
                    values = [0, 0]
                    for i in range(2):
                        if f < n and fmt[f] in _DIGITS:
                            e = f
                            while e < n and fmt[e] in _DIGITS:
                                e += 1
                            values[i] = int(fmt[f:e])
                            f = e
                            if values[i] > _INTMAX:  # strtoimax's ERANGE
                                ok = False
                                break
                        else:
                            v = _letter(groups, fmt[f] if f < n else 0)
                            if v < 0:
                                ok = False
                                break
                            values[i] = v
                            f += 1
                        if f >= n or fmt[f] != b"=?"[i]:
                            f += 1
                            ok = False
                            break
                        f += 1
                    if ok:
                        then_out, else_out = (out, None) if values[0] == values[1] else (None, out)
                        f = self._group(then_out, fmt, f, 58, groups)  # ':'
                        if f < n:
                            f = self._group(else_out, fmt, f + 1, 41, groups)  # ')'
                            if f < n:
                                f += 1
                        continue
                    c, f = 37, f1
                elif c == 60:  # <
                    self._lines(out, self.lf[OLD], groups[0])
                    continue
                elif c == 61:  # =
                    self._lines(out, self.lf[UNCHANGED], groups[0])
                    continue
                elif c == 62:  # >
                    self._lines(out, self.lf[NEW], groups[1])
                    continue
                else:
                    got = _printf_spec(out, fmt, f - 2, None, 0, groups)
                    if got is not None:
                        f = got
                        continue
                    c, f = 37, f1
            if out is not None:
                out.append(c)
        return f

    def _lines(self, out: bytearray | None, fmt: bytes, g: _Group) -> None:
        if out is None:
            return
        lines = g.lines
        if self.expand is None and g.start < g.end:
            if fmt == b"%L":
                out += b"".join(lines[g.start:g.end])
                return
            if fmt == b"%l\n":  # ifdef.c's single fwrite: each line completed
                out += b"".join(lines[g.start:g.end])
                if not out.endswith(b"\n"):
                    out += b"\n"
                return
        n = len(fmt)
        for k in range(g.start, g.end):
            self._flush(out)
            line = lines[k]
            f = 0
            while f < n:
                c = fmt[f]
                f += 1
                f1 = f
                if c == 37:
                    c = fmt[f] if f < n else 0
                    f += 1
                    if c == 37:
                        pass
                    elif c == 108 or c == 76:  # l, L
                        body = line[:-1] if c == 108 and line.endswith(b"\n") else line
                        out += self.expand(body) if self.expand else body
                        continue
                    else:
                        got = _printf_spec(out, fmt, f - 2, g, k, None)
                        if got is not None:
                            f = got
                            continue
                        c, f = 37, f1
                out.append(c)


def _letter(groups: tuple[_Group, _Group], letter: int) -> int:
    g = groups[0]
    if letter in b"EFLMN":
        letter += 32
        g = groups[1]
    if letter == 101:  # e
        return g.start
    if letter == 102:  # f
        return g.start + 1
    if letter == 108:  # l
        return g.end
    if letter == 109:  # m
        return g.end + 1
    if letter == 110:  # n
        return g.end - g.start
    return -1


def _printf_spec(out: bytearray | None, fmt: bytes, spec: int, file: _Group | None, line: int,
                 groups: tuple[_Group, _Group] | None) -> int | None:
    """do_printf_spec: the index after the directive at ``spec`` (a '%'), or None."""
    n = len(fmt)

    def at(i: int) -> int:
        return fmt[i] if i < n else 0

    f = spec + 1
    c = at(f)
    f += 1
    while c in (45, 39, 48):  # - ' 0
        c = at(f)
        f += 1
    while c and c in _DIGITS:
        c = at(f)
        f += 1
    if c == 46:  # .
        c = at(f)
        f += 1
        while c and c in _DIGITS:
            c = at(f)
            f += 1
    c1 = at(f)
    f += 1
    if c == 99:  # c
        if c1 != 39:
            return None
        got = _char_literal(fmt, f)
        if got is None:
            return None
        value, f = got
        if out is not None:
            out.append(value)
        return f
    if c in b"doxX" and c:
        if file is not None:
            if c1 != 110:  # n
                return None
            value = line + 1
        else:
            assert groups is not None
            value = _letter(groups, c1)
            if value < 0:
                return None
        if out is not None:
            out += _printf(fmt[spec + 1:f - 1], value)
        return f
    return None


def _char_literal(fmt: bytes, p: int) -> tuple[int, int] | None:
    n = len(fmt)
    c = fmt[p] if p < n else 0
    lit = p
    p += 1
    if c in (0, 39):
        return None
    if c == 92:  # backslash
        value = 0
        while True:
            c = fmt[p] if p < n else 0
            p += 1
            if c == 39:
                break
            digit = c - 48
            if not 0 <= digit < 8:
                return None
            value = 8 * value + digit
        digits = p - lit - 2
        if not 1 <= digits <= 3:
            return None
        return value & 0xFF, p
    if (fmt[p] if p < n else 0) != 39:
        return None
    return c, p + 1
