"""Translate a parsed GNU regex AST into RE2 syntax (linear time, leftmost-longest).

``to_re2(ast, ...)`` returns the RE2 pattern text, or raises ``NotTranslatable`` for what RE2
cannot express the GNU way: back-references, word assertions (``\\< \\> \\b \\B`` are
Unicode-aware in GNU, ASCII-only in RE2), invalid UTF-8 bytes in the pattern, and counted
repetitions above RE2's limit of 1000. Those patterns go to the bounded backtracker.
"""

from __future__ import annotations

from sandbox.regex.charsets import class_ranges, fold_closure, fold_variants, merge_ranges

_RE2_MAX_REPEAT = 1000
_META = set("\\.+*?()|[]{}^$")


class NotTranslatable(Exception):
    """The pattern needs the backtracking engine."""


def _cp_text(cp: int) -> str:
    if cp < 0x80 and chr(cp).isalnum():
        return chr(cp)
    return "\\x{%x}" % cp


def set_ranges(items: tuple, icase: bool, exclude_newline: bool) -> list[tuple[int, int]]:
    """Code point ranges of a bracket expression's items (before negation)."""
    ranges: list[tuple[int, int]] = []
    for item in items:
        kind = item[0]
        if kind == "range":
            lo, hi = ord(item[1]), ord(item[2])
            if 0xDC80 <= lo <= 0xDCFF or 0xDC80 <= hi <= 0xDCFF:
                raise NotTranslatable("invalid byte in bracket")
            ranges.append((lo, hi))
        elif kind == "class":
            name = item[1]
            if icase and name in ("upper", "lower"):
                name = "alpha"  # as glibc and dfa do under REG_ICASE
            ranges.extend(class_ranges(name))
        else:  # equiv: the character itself in C.UTF-8
            cp = ord(item[1])
            if 0xDC80 <= cp <= 0xDCFF:
                raise NotTranslatable("invalid byte in bracket")
            ranges.append((cp, cp))
    merged = fold_closure(ranges) if icase else merge_ranges(ranges)
    if exclude_newline:
        out = []
        for lo, hi in merged:
            if lo <= 10 <= hi:
                if lo < 10:
                    out.append((lo, 9))
                if hi > 10:
                    out.append((11, hi))
            else:
                out.append((lo, hi))
        merged = out
    return merged


def _class_text(ranges: list[tuple[int, int]], negated: bool, newline_in_negation: bool) -> str:
    parts = []
    for lo, hi in ranges:
        if lo == hi:
            parts.append(_cp_text(lo))
        else:
            parts.append(_cp_text(lo) + "-" + _cp_text(hi))
    if negated:
        if newline_in_negation:
            parts.append("\\n")
        if not parts:
            return "(?s:.)"
        return "[^" + "".join(parts) + "]"
    if not parts:
        return "[^\\x00-\\x{10ffff}]"
    return "[" + "".join(parts) + "]"


def to_re2(ast: tuple, icase: bool, dot_newline: bool, reg_newline: bool = False) -> str:
    """RE2 text for ``ast`` (flags are set by the caller's options).

    Newline handling has three modes: ``dot_newline`` (everything may match a newline),
    line mode (nothing but a literal newline does) and ``reg_newline`` (glibc's REG_NEWLINE,
    sed's ``M``: only ``.`` and ``[^...]`` are kept off newlines).
    """
    out: list[str] = []
    _emit(ast, out, icase, dot_newline, reg_newline and not dot_newline)
    return "".join(out)


def _emit(node: tuple, out: list[str], icase: bool, dot_newline: bool,
          reg_newline: bool) -> None:
    kind = node[0]
    if kind == "char":
        c = node[1]
        cp = ord(c)
        if 0xDC80 <= cp <= 0xDCFF:
            raise NotTranslatable("invalid byte")
        variants = fold_variants(c) if icase else (c,)
        if len(variants) == 1:
            out.append(c if (c.isascii() and c.isalnum()) else "\\x{%x}" % cp)
        else:
            out.append("[" + "".join("\\x{%x}" % ord(v) for v in variants) + "]")
    elif kind == "any":
        out.append("(?s:.)" if dot_newline else ".")
    elif kind == "set":
        negated = node[1]
        escape = len(node) > 3
        # In line mode (no dot_newline) a bracket never matches a newline; under REG_NEWLINE
        # only a negated bracket expression (not \W or \S) is kept off it.
        keep_off = not dot_newline and not (reg_newline and (escape or not negated))
        ranges = set_ranges(node[2], icase, exclude_newline=not negated and keep_off)
        out.append(_class_text(ranges, negated, newline_in_negation=keep_off))
    elif kind == "cat":
        for sub in node[1]:
            _emit(sub, out, icase, dot_newline, reg_newline)
    elif kind == "alt":
        out.append("(?:")
        for k, sub in enumerate(node[1]):
            if k:
                out.append("|")
            _emit(sub, out, icase, dot_newline, reg_newline)
        out.append(")")
    elif kind == "group":
        out.append("(")
        _emit(node[2], out, icase, dot_newline, reg_newline)
        out.append(")")
    elif kind == "repeat":
        sub, lo, hi = node[1], node[2], node[3]
        if lo > _RE2_MAX_REPEAT or (hi is not None and hi > _RE2_MAX_REPEAT):
            raise NotTranslatable("repeat count above RE2's limit")
        out.append("(?:")
        _emit(sub, out, icase, dot_newline, reg_newline)
        out.append(")")
        if hi is None:
            out.append("*" if lo == 0 else "+" if lo == 1 else "{%d,}" % lo)
        elif lo == hi:
            out.append("{%d}" % lo)
        elif lo == 0 and hi == 1:
            out.append("?")
        else:
            out.append("{%d,%d}" % (lo, hi))
    elif kind == "assert":
        what = node[1]
        if what == "bol":
            out.append("^")
        elif what == "eol":
            out.append("$")
        elif what == "bot":
            out.append("\\A")
        elif what == "eot":
            out.append("\\z")
        else:
            raise NotTranslatable("word assertion")
    elif kind == "empty":
        out.append("(?:)")
    elif kind == "backref":
        raise NotTranslatable("back-reference")
    else:  # pragma: no cover - parser produces no other node
        raise NotTranslatable(kind)
