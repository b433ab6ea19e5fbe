"""The right-hand side of ``s``: parsing into pieces and expanding a match.

A replacement is a list of pieces: literal bytes, group references (``&`` is group 0,
``\\1``..``\\9``) and case operations (``\\L \\U \\E`` switch the case of what follows,
``\\l \\u`` change the next character only), with GNU's rules for how they combine.
"""

from __future__ import annotations

from dataclasses import dataclass

# Case modes.
ASIS = 0
UPPER = 1
LOWER = 2
# One-shot modifiers (\u, \l).
FIRST_UPPER = 4
FIRST_LOWER = 8
_FIRST = FIRST_UPPER | FIRST_LOWER


@dataclass(frozen=True)
class Piece:
    """One piece of a replacement: literal ``text`` then group ``group`` (-1 for none).

    ``case`` is the case mode (ASIS/UPPER/LOWER, possibly with a FIRST_* modifier) that applies
    to this piece, as GNU's ``struct replacement`` holds it.
    """

    text: bytes
    group: int
    case: int


@dataclass(frozen=True)
class Replacement:
    """A parsed replacement; ``max_group`` is the highest ``\\N`` it uses."""

    pieces: tuple[Piece, ...]
    max_group: int
    #: True when the replacement is plain literal bytes (no group, no case change).
    literal: bytes | None
    #: The C locale: case changes work on single bytes (ASCII letters only).
    single_byte: bool = False


def parse_replacement(text: bytes, single_byte: bool = False) -> Replacement:
    """Parse an already escape-normalised replacement (see ``escapes.normalize``);
    ``single_byte`` for the C locale."""
    pieces: list[Piece] = []
    max_group = 0
    case = ASIS
    literal = bytearray()
    i = 0
    n = len(text)

    def flush(group: int) -> None:
        nonlocal case
        pieces.append(Piece(bytes(literal), group, case))
        literal.clear()
        case &= ~_FIRST

    while i < n:
        ch = text[i]
        if ch == 0x5C:  # backslash
            i += 1
            if i >= n:
                literal.append(0x5C)
                break
            nxt = text[i]
            i += 1
            if 0x30 <= nxt <= 0x39:
                group = nxt - 0x30
                max_group = max(max_group, group)
                flush(group)
            elif nxt in b"LUE":
                flush(-1)
                case = {ord("L"): LOWER, ord("U"): UPPER, ord("E"): ASIS}[nxt]
            elif nxt in b"lu":
                flush(-1)
                case = (case & ~_FIRST) | (FIRST_LOWER if nxt == ord("l") else FIRST_UPPER)
            else:
                literal.append(nxt)
        elif ch == 0x26:  # &
            i += 1
            flush(0)
        else:
            literal.append(ch)
            i += 1
    if literal or not pieces:
        flush(-1)
    # Drop empty pieces that carry nothing (keeps expansion cheap).
    kept = tuple(p for p in pieces if p.text or p.group >= 0 or p.case & _FIRST)
    is_literal = all(p.group < 0 and p.case == ASIS for p in kept)
    return Replacement(kept, max_group, b"".join(p.text for p in kept) if is_literal else None,
                       single_byte)


def expand(rep: Replacement, data: bytes, spans: list[tuple[int, int]], out: bytearray,
           carried: int) -> int:
    """Append the expansion of ``rep`` for one match to ``out``.

    ``spans`` are the match's group spans in ``data``; ``carried`` is a ``\\u``/``\\l`` left
    pending by the previous match (GNU carries it). Returns the modifier left pending.
    """
    pending = carried
    single = rep.single_byte
    for piece in rep.pieces:
        mode = piece.case if piece.case & _FIRST else piece.case | pending
        pending = 0
        if piece.text:
            mode = _append_cased(out, piece.text, mode, single)
        g = piece.group
        if g >= 0:
            start, end = spans[g] if g < len(spans) else (-1, -1)
            if start == end:  # empty or unset group
                if piece.case & _FIRST:
                    pending = mode & _FIRST
            else:
                _append_cased(out, data[start:end], mode, single)
    return pending


def _append_cased(out: bytearray, text: bytes, mode: int, single: bool = False) -> int:
    """Append ``text`` converted by ``mode`` (byte by byte when ``single``); return the mode
    without a consumed modifier."""
    if mode == ASIS:
        out += text
        return mode
    if mode & _FIRST:
        # The one-shot modifier applies to the first character (an invalid byte drops it).
        first_len = _char_len(text, 0, single)
        if first_len == 0:  # a NUL or an incomplete character: copied as is (GNU)
            out += text
            return mode & ~_FIRST
        if first_len < 0:
            out.append(text[0])
            rest_mode = mode & ~_FIRST
            if rest_mode == ASIS:
                out += text[1:]
            else:
                _convert_run(out, text[1:], rest_mode, single)
            return rest_mode
        if single:
            out += _single_cased(text[:1], bool(mode & FIRST_UPPER))
        else:
            ch = text[:first_len].decode("utf-8")
            ch = _upper(ch) if mode & FIRST_UPPER else _lower(ch)
            out += ch.encode("utf-8")
        rest_mode = mode & ~_FIRST
        if rest_mode == ASIS:
            out += text[first_len:]
        else:
            _convert_run(out, text[first_len:], rest_mode, single)
        return rest_mode
    _convert_run(out, text, mode, single)
    return mode


def _convert_run(out: bytearray, text: bytes, mode: int, single: bool = False) -> None:
    """Append ``text`` upper- or lower-cased character by character, as GNU's towupper (byte
    by byte in the C locale, when ``single``)."""
    if single:
        out += _single_cased(text, bool(mode & UPPER))
        return
    i = 0
    n = len(text)
    convert = _upper if mode & UPPER else _lower
    while i < n:
        clen = _char_len(text, i)
        if clen == 0:
            out += text[i:]
            return
        if clen < 0:
            out.append(text[i])
            i += 1
            continue
        if clen == 1:
            b = text[i]
            if mode & UPPER:
                out.append(b - 32 if 0x61 <= b <= 0x7A else b)
            else:
                out.append(b + 32 if 0x41 <= b <= 0x5A else b)
        else:
            out += convert(text[i:i + clen].decode("utf-8")).encode("utf-8")
        i += clen
    return


#: GNU sed in the C locale: a byte above 0x7F has no wide character to convert, and comes out
#: of a case conversion as 0xFF.
_HIGH_TO_FF = bytes(c if c < 0x80 else 0xFF for c in range(256))


def _single_cased(text: bytes, upper: bool) -> bytes:
    """``text`` case-converted byte by byte as GNU sed does in the C locale."""
    return (text.upper() if upper else text.lower()).translate(_HIGH_TO_FF)


def _upper(ch: str) -> str:
    up = ch.upper()
    return up if len(up) == 1 else ch


def _lower(ch: str) -> str:
    low = ch.lower()
    return low if len(low) == 1 else ch


def _char_len(text: bytes, i: int, single: bool = False) -> int:
    """Length of the UTF-8 character at ``text[i]`` (of a byte when ``single``): -1 for an
    invalid byte, 0 for NUL or an incomplete sequence at the end (GNU copies the rest as is
    then)."""
    b = text[i]
    if b == 0:
        return 0
    if single:
        return 1
    if b < 0x80:
        return 1
    if 0xC2 <= b <= 0xDF:
        need = 2
    elif 0xE0 <= b <= 0xEF:
        need = 3
    elif 0xF0 <= b <= 0xF4:
        need = 4
    else:
        return -1
    end = i + need
    if end > len(text):
        # Incomplete if every byte present is a valid continuation, else invalid.
        try:
            text[i:].decode("utf-8")
        except UnicodeDecodeError as err:
            if err.reason == "unexpected end of data":
                return 0
        return -1
    try:
        text[i:end].decode("utf-8")
    except UnicodeDecodeError:
        return -1
    return need
