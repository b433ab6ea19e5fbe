"""diff's output formats (diffutils 3.8): normal, context (``-c``/``-C``), unified
(``-u``/``-U``), with GNU's hunk grouping (``find_hunk``: changes closer than 2*N+1 lines share
a hunk; an ignorable ``-B``/``-I`` change joins within N), its number ranges and the ``\\ No
newline at end of file`` marker; ``Printer`` is util.c's line printing under ``-t``/``-T``/
``--tabsize``/``--suppress-blank-empty`` and ``FunctionFinder`` context.c's ``-p``/``-F``
function line. Side by side (``-y``) is side.c's."""

from __future__ import annotations

from sandbox.commands._wcwidth import width as wcwidth
from sandbox.commands.diff.analyze import Change

NO_NEWLINE = b"\\ No newline at end of file\n"


def _line(prefix: bytes, line: bytes) -> bytes:
    if line.endswith(b"\n"):
        return prefix + line
    return prefix + line + b"\n" + NO_NEWLINE


def _lines(out: list[bytes], prefix: bytes, lines: list[bytes]) -> None:
    """Append ``lines``, each after ``prefix``, in one piece (``_line`` for a last line
    without its newline)."""
    if not lines:
        return
    last = lines[-1]
    if last.endswith(b"\n"):
        out.append(prefix + prefix.join(lines))
        return
    if len(lines) > 1:
        out.append(prefix + prefix.join(lines[:-1]))
    out.append(_line(prefix, last))


def _range(a: int, b: int) -> bytes:
    """Normal/context range of 0-based lines [a, b] (b < a: the line before)."""
    ta, tb = a + 1, b + 1
    if tb <= ta:
        return str(tb).encode()
    return f"{ta},{tb}".encode()


def _span(group: list, n0: int, n1: int, context: int) -> tuple[int, int, int, int]:
    """The lines a hunk of ``group`` shows, with ``context`` lines around its changes:
    (first, end) in file 0, then in file 1 (files of ``n0`` and ``n1`` lines)."""
    first, last = group[0], group[-1]
    return (max(0, first.line0 - context), min(n0, last.line0 + last.deleted + context),
            max(0, first.line1 - context), min(n1, last.line1 + last.inserted + context))


def _unified_range(a: int, b: int) -> bytes:
    ta, tb = a + 1, b + 1
    if tb <= ta:
        return (f"{tb},0" if tb < ta else f"{tb}").encode()
    return f"{ta},{tb - ta + 1}".encode()


class Printer:
    """util.c ``print_1_line_nl`` and ``output_1_line`` under ``-t``/``-T``/
    ``--suppress-blank-empty``/``--tabsize`` (the formats' plain paths skip it)."""

    def __init__(self, expand: bool, initial_tab: bool, suppress_blank: bool, tabsize: int):
        self.expand_tabs = expand
        self.initial_tab = initial_tab
        self.suppress_blank = suppress_blank
        self.tabsize = tabsize

    def expand(self, text: bytes, flag_format: bytes | None = None) -> bytes:
        """output_1_line: ``text`` with tabs expanded (under -t)."""
        if not self.expand_tabs:
            return text
        out = bytearray()
        column = 0
        size = self.tabsize
        n = len(text)
        k = 0
        while k < n:
            c = text[k]
            k += 1
            if c == 9:
                spaces = size - column % size
                column += spaces
                out += b" " * spaces
            elif c == 13:
                out.append(c)
                if flag_format is not None and k < n and text[k] != 10:
                    out += flag_format
                column = 0
            elif c == 8:
                if column == 0:
                    continue
                column -= 1
                out.append(c)
            else:
                column += 0x20 <= c < 0x7F
                out.append(c)
        return bytes(out)

    def flagged(self, out: list[bytes], flag: bytes, lines) -> None:  # type: ignore[no-untyped-def]
        """print_1_line with a non-empty line flag ("<", "!", " " ...)."""
        sep = b"\t" if self.initial_tab else b" "
        for line in lines:
            ff = flag + sep
            if self.suppress_blank and line[:1] == b"\n":
                out.append(flag[1:] if flag == b" " else flag)
            else:
                out.append(ff)
            out.append(self.expand(line, ff))
            if not line.endswith(b"\n"):
                out.append(b"\n" + NO_NEWLINE)

    def unified(self, out: list[bytes], flag: bytes, lines) -> None:  # type: ignore[no-untyped-def]
        """pr_unidiff_hunk's lines: ' ' (or a tab under -T) for context, '-'/'+' (and a tab
        under -T) for changes; nothing before an empty line under --suppress-blank-empty."""
        for line in lines:
            blank = self.suppress_blank and line[:1] == b"\n"
            if flag == b" ":
                if not blank:
                    out.append(b"\t" if self.initial_tab else b" ")
            else:
                out.append(flag)
                if self.initial_tab and not blank:
                    out.append(b"\t")
            out.append(self.expand(line))
            if not line.endswith(b"\n"):
                out.append(b"\n" + NO_NEWLINE)


def function_label(line: bytes) -> bytes:
    """context.c ``print_context_function``: ' ' and at most 40 bytes of the line, leading and
    trailing white space dropped."""
    space = b" \t\n\v\f\r"
    i = 0
    while i < len(line) and line[i] in space and line[i] != 10:
        i += 1
    j = i
    while j < i + 40 and j < len(line) and line[j] != 10:
        j += 1
    while i < j and line[j - 1] in space:
        j -= 1
    return b" " + line[i:j]


class FunctionFinder:
    """context.c ``find_function``: the last line before a hunk matching the -F/-p regex,
    searched back to where the previous search started, else the previous match."""

    def __init__(self, regex, lines) -> None:  # type: ignore[no-untyped-def]
        self.regex = regex
        self.lines = lines
        self.last_search = 0
        self.last_match: int | None = None

    def __call__(self, linenum: int) -> bytes:
        i = linenum
        last = self.last_search
        self.last_search = i
        lines, rx = self.lines, self.regex
        while last <= i - 1:
            i -= 1
            line = lines[i]
            body = line[:-1] if line.endswith(b"\n") else line
            if rx.search(body) is not None:
                self.last_match = i
                return function_label(line)
        if self.last_match is not None:
            return function_label(lines[self.last_match])
        return b""


def normal(changes: list[Change], a: list[bytes], b: list[bytes],
           pr: Printer | None = None) -> bytes:
    """The default format."""
    out: list[bytes] = []
    if pr is not None:
        for c in changes:
            if c.ignore:
                continue
            kind = b"c" if c.deleted and c.inserted else b"d" if c.deleted else b"a"
            out.append(_range(c.line0, c.line0 + c.deleted - 1) + kind
                       + _range(c.line1, c.line1 + c.inserted - 1) + b"\n")
            pr.flagged(out, b"<", a[c.line0:c.line0 + c.deleted])
            if c.deleted and c.inserted:
                out.append(b"---\n")
            pr.flagged(out, b">", b[c.line1:c.line1 + c.inserted])
        return b"".join(out)
    for c in changes:
        if c.ignore:
            continue
        kind = b"c" if c.deleted and c.inserted else b"d" if c.deleted else b"a"
        out.append(_range(c.line0, c.line0 + c.deleted - 1) + kind
                   + _range(c.line1, c.line1 + c.inserted - 1) + b"\n")
        _lines(out, b"< ", a[c.line0:c.line0 + c.deleted])
        if c.deleted and c.inserted:
            out.append(b"---\n")
        _lines(out, b"> ", b[c.line1:c.line1 + c.inserted])
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


def unified(groups: list[list[Change]], a: list[bytes], b: list[bytes], context: int,
            pr: Printer | None = None, func: FunctionFinder | None = None) -> bytes:
    """``-u`` hunks (the header is printed by the caller)."""
    out: list[bytes] = []
    if pr is not None or func is not None:
        pr = pr or Printer(False, False, False, 8)
        for group in groups:
            lo0, hi0, lo1, hi1 = _span(group, len(a), len(b), context)
            out.append(b"@@ -" + _unified_range(lo0, hi0 - 1) + b" +"
                       + _unified_range(lo1, hi1 - 1) + b" @@"
                       + (func(lo0) if func else b"") + b"\n")
            i = lo0
            for c in group:
                pr.unified(out, b" ", a[i:c.line0])
                pr.unified(out, b"-", a[c.line0:c.line0 + c.deleted])
                pr.unified(out, b"+", b[c.line1:c.line1 + c.inserted])
                i = c.line0 + c.deleted
            pr.unified(out, b" ", a[i:hi0])
        return b"".join(out)
    for group in groups:
        lo0, hi0, lo1, hi1 = _span(group, len(a), len(b), context)
        out.append(b"@@ -" + _unified_range(lo0, hi0 - 1) + b" +"
                   + _unified_range(lo1, hi1 - 1) + b" @@\n")
        i = lo0
        for c in group:
            _lines(out, b" ", a[i:c.line0])
            _lines(out, b"-", a[c.line0:c.line0 + c.deleted])
            _lines(out, b"+", b[c.line1:c.line1 + c.inserted])
            i = c.line0 + c.deleted
        _lines(out, b" ", a[i:hi0])
    return b"".join(out)


def context_format(groups: list[list[Change]], a: list[bytes], b: list[bytes],
                   context: int, pr: Printer | None = None,
                   func: FunctionFinder | None = None) -> bytes:
    """``-c`` hunks (the header is printed by the caller)."""
    out: list[bytes] = []
    if pr is not None:
        def put(mark: bytes, line: bytes) -> None:
            pr.flagged(out, mark[:1], [line])
    else:
        def put(mark: bytes, line: bytes) -> None:
            out.append(_line(mark, line))
    for group in groups:
        lo0, hi0, lo1, hi1 = _span(group, len(a), len(b), context)
        out.append(b"***************" + (func(lo0) if func else b"") + b"\n")
        out.append(b"*** " + _range(lo0, hi0 - 1) + b" ****\n")
        if any(c.deleted and not c.ignore for c in group) or any(c.deleted for c in group):
            marks: dict[int, bytes] = {}
            for c in group:
                mark = b"! " if c.inserted else b"- "
                for k in range(c.line0, c.line0 + c.deleted):
                    marks[k] = mark
            for k in range(lo0, hi0):
                put(marks.get(k, b"  "), a[k])
        out.append(b"--- " + _range(lo1, hi1 - 1) + b" ----\n")
        if any(c.inserted for c in group):
            marks = {}
            for c in group:
                mark = b"! " if c.deleted else b"+ "
                for k in range(c.line1, c.line1 + c.inserted):
                    marks[k] = mark
            for k in range(lo1, hi1):
                put(marks.get(k, b"  "), b[k])
    return b"".join(out)


# -- side by side (-y), diffutils 3.8 side.c -------------------------------------------------

_PRINTABLE = frozenset(range(0x20, 0x7F))


def _tab_from_to(out: bytearray, frm: int, to: int, tabsize: int = 8,
                 expand: bool = False) -> int:
    tab = frm + tabsize - frm % tabsize
    while tab <= to and not expand:
        out += b"\t"
        frm = tab
        tab += tabsize
    while frm < to:
        out += b" "
        frm += 1
    return to


def _utf8_char(line: bytes, k: int) -> tuple[int, int] | None:
    """(code point, length) of a valid multibyte UTF-8 character at ``k``, else None."""
    lead = line[k]
    size = 2 if 0xC2 <= lead <= 0xDF else 3 if 0xE0 <= lead <= 0xEF else 4 if 0xF0 <= lead <= 0xF4 else 0
    if not size:
        return None
    try:
        ch = line[k:k + size].decode("utf-8")
    except UnicodeDecodeError:
        return None
    return (ord(ch), size) if len(ch) == 1 else None


def _half_line(out: bytearray, line: bytes, indent: int, bound: int, tabsize: int = 8,
               expand: bool = False) -> int:
    """side.c ``print_half_line``: multibyte characters take their wcwidth in columns."""
    in_pos = out_pos = 0
    k = 0
    n = len(line)
    while k < n:
        c = line[k]
        k += 1
        if c >= 0x80:
            got = _utf8_char(line, k - 1)
            if got is not None:
                cp, size = got
                w = wcwidth(cp)
                if w > 0:
                    in_pos += w
                if in_pos <= bound:
                    out_pos = in_pos
                    out += line[k - 1:k - 1 + size]
                k += size - 1
                continue
        if c == 9:
            spaces = tabsize - in_pos % tabsize
            if in_pos == out_pos:
                tabstop = out_pos + spaces
                if expand:
                    tabstop = min(tabstop, bound)
                    if out_pos < tabstop:
                        out += b" " * (tabstop - out_pos)
                        out_pos = tabstop
                elif tabstop < bound:
                    out_pos = tabstop
                    out.append(c)
            in_pos += spaces
        elif c == 13:
            out.append(c)
            _tab_from_to(out, 0, indent, tabsize, expand)
            in_pos = out_pos = 0
        elif c == 8:
            if in_pos != 0:
                in_pos -= 1
                if in_pos < bound:
                    if out_pos <= in_pos:
                        while out_pos < in_pos:
                            out += b" "
                            out_pos += 1
                    else:
                        out_pos = in_pos
                        out.append(c)
        elif c == 10:
            return out_pos
        elif c in _PRINTABLE:
            if in_pos < bound:
                in_pos += 1
                out_pos = in_pos
                out.append(c)
            else:
                in_pos += 1
        else:  # control characters and bytes >= 0x80 take no column
            if in_pos < bound:
                out.append(c)
    return out_pos


class SideBySide:
    """Layout of ``-y`` for a width (GNU's half width and second-column offset)."""

    def __init__(self, width: int, left_column: bool, suppress: bool, tabsize: int = 8,
                 expand: bool = False):
        t = 1 if expand else tabsize
        self.expand = expand
        off = (width + t + 3) // (2 * t) * t
        self.hw = max(0, min(off - 3, width - off))
        self.c2o = off if self.hw else width
        self.left_column = left_column
        self.suppress = suppress
        self.tabsize = tabsize

    def line(self, out: bytearray, left: bytes | None, sep: str, right: bytes | None) -> None:
        col = 0
        put_newline = False
        if left is not None:
            put_newline |= left.endswith(b"\n")
            col = _half_line(out, left, 0, self.hw, self.tabsize, self.expand)
        if sep != " ":
            col = _tab_from_to(out, col, (self.hw + self.c2o - 1) // 2, self.tabsize,
                               self.expand) + 1
            if sep == "|" and right is not None and put_newline != right.endswith(b"\n"):
                sep = "/" if put_newline else "\\"
            out += sep.encode()
        if right is not None:
            put_newline |= right.endswith(b"\n")
            if right[:1] != b"\n":
                col = _tab_from_to(out, col, self.c2o, self.tabsize, self.expand)
                _half_line(out, right, col, self.hw, self.tabsize, self.expand)
        if put_newline:
            out += b"\n"

    def render(self, changes: list[Change], a: list[bytes], b: list[bytes]) -> bytes:
        out = bytearray()
        n0 = n1 = 0

        def common(limit0: int, limit1: int) -> None:
            nonlocal n0, n1
            if self.suppress:
                pass
            elif self.left_column:  # file 1's lines of ignored changes are not shown
                while n0 < limit0:
                    self.line(out, a[n0], "(", None)
                    n0 += 1
            else:
                while n0 < limit0 and n1 < limit1:
                    self.line(out, a[n0], " ", b[n1])
                    n0 += 1
                    n1 += 1
                # lines of changes -B/-I ignore: side.c's ')' and '(' columns
                while n1 < limit1:
                    self.line(out, None, ")", b[n1])
                    n1 += 1
                while n0 < limit0:
                    self.line(out, a[n0], "(", None)
                    n0 += 1
            n0, n1 = limit0, limit1

        for c in changes:
            if c.ignore:
                continue
            common(c.line0, c.line1)
            i, j = c.line0, c.line1
            last0, last1 = c.line0 + c.deleted, c.line1 + c.inserted
            if c.deleted and c.inserted:
                while i < last0 and j < last1:
                    self.line(out, a[i], "|", b[j])
                    i += 1
                    j += 1
            while j < last1:
                self.line(out, None, ">", b[j])
                j += 1
            while i < last0:
                self.line(out, a[i], "<", None)
                i += 1
            n0, n1 = last0, last1
        common(len(a), len(b))
        return bytes(out)
