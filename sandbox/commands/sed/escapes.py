"""GNU sed's escape processing of script text (``normalize_text`` in GNU's compile.c).

Regexes, replacements, ``a``/``i``/``c`` text and ``y`` strings each accept ``\\a \\f \\n \\r
\\t \\v``, ``\\cX`` (control character), ``\\dNNN`` (decimal), ``\\oNNN`` (octal) and ``\\xHH``
(hex). What happens to the other escapes depends on where the text is used; ``Kind`` says so.
"""

from __future__ import annotations

from enum import Enum

_SIMPLE = {
    ord("a"): 7,
    ord("f"): 12,
    ord("n"): 10,
    ord("r"): 13,
    ord("t"): 9,
    ord("v"): 11,
}
_BASES = {ord("d"): 10, ord("o"): 8, ord("x"): 16}
_BACKSLASH = 0x5C


class Kind(Enum):
    """Where escaped text will be used."""

    REGEX = "regex"  # other escapes are kept (``\\.`` stays for the regex parser)
    REPLACEMENT = "replacement"  # other escapes are kept for the replacement parser
    TEXT = "text"  # a/i/c text: ``\\X`` becomes ``X``
    PLAIN = "plain"  # y strings: other escapes are kept for the y parser


class EscapeError(Exception):
    """A script escape sed refuses; ``str()`` is GNU's message."""


def _digit(byte: int, base: int) -> int:
    if 0x30 <= byte <= 0x39:
        d = byte - 0x30
    elif 0x61 <= byte <= 0x66:
        d = byte - 0x61 + 10
    elif 0x41 <= byte <= 0x46:
        d = byte - 0x41 + 10
    else:
        return -1
    return d if d < base else -1


def _convert_number(text: bytes, i: int, base: int) -> tuple[int | None, int]:
    """Read up to 3 (2 for hex) digits after ``text[i]`` (the d/o/x letter).

    Returns (byte value or None if there were no digits, index after the digits).
    """
    value = 0
    limit = 1
    j = i + 1
    while j < len(text) and limit <= 255:
        d = _digit(text[j], base)
        if d < 0:
            break
        value = value * base + d
        j += 1
        limit *= base
    if j == i + 1:
        return None, j
    return value & 0xFF, j


def normalize(text: bytes, kind: Kind) -> bytes:
    """Apply GNU sed's escape conversions for text of the given ``kind``.

    Raises ``EscapeError`` for ``\\c\\`` (GNU: "recursive escaping after \\c not allowed").
    """
    if b"\\" not in text:
        return text
    out = bytearray()
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch != _BACKSLASH or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        nxt = text[i + 1]
        simple = _SIMPLE.get(nxt)
        if simple is not None:
            out.append(simple)
            i += 2
            continue
        if nxt == ord("c"):
            if i + 2 < n:
                target = text[i + 2]
                if target == _BACKSLASH:
                    raise EscapeError("recursive escaping after \\c not allowed")
                upper = target - 32 if 0x61 <= target <= 0x7A else target
                _append_converted(out, upper ^ 0x40, kind)
                i += 3
                continue
            # "\c" at the very end: kept as is.
            out += b"\\c"
            i += 2
            continue
        base = _BASES.get(nxt)
        if base is not None:
            value, j = _convert_number(text, i + 1, base)
            if value is None:
                # No digits: GNU keeps the letter (and, for text, drops the backslash).
                if kind is Kind.TEXT:
                    out.append(nxt)
                else:
                    out += bytes((_BACKSLASH, nxt))
                i += 2
                continue
            _append_converted(out, value, kind)
            i = j
            continue
        # Any other escape.
        if kind is Kind.TEXT:
            out.append(nxt)
        else:
            out.append(_BACKSLASH)
            out.append(nxt)
        i += 2
    return bytes(out)


def _append_converted(out: bytearray, value: int, kind: Kind) -> None:
    """Append a byte produced by a numeric or ``\\c`` escape."""
    if kind is Kind.REPLACEMENT and value in (0x26, _BACKSLASH):
        out.append(_BACKSLASH)  # a produced '&' or '\' is literal in a replacement
    elif kind is Kind.PLAIN and value == _BACKSLASH:
        out.append(_BACKSLASH)
    out.append(value)
