"""The shapes of ls output: GNU's column layout for -C and -x (``calculate_columns`` with tab
``indent``), -m's comma lines, sizes (gnulib ``human_readable`` and ``--block-size``) and the
dates of ``-l`` in each ``--time-style``."""

from __future__ import annotations

import time as _time
from dataclasses import dataclass
from datetime import timezone

from sandbox.commands.date import Moment, strftime

MIN_COLUMN_WIDTH = 3
SIX_MONTHS = 31556952 // 2
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
_LETTERS = "KMGTPEZYRQ"


@dataclass
class Cell:
    """One printed item: its text and the columns it takes."""

    text: str
    width: int


def indent(start: int, to: int, tabsize: int) -> str:
    """GNU ls's ``indent``: spaces (and tabs when ``tabsize``) from column ``start`` to ``to``."""
    out = []
    while start < to:
        if tabsize and to // tabsize > (start + 1) // tabsize:
            out.append("\t")
            start += tabsize - start % tabsize
        else:
            out.append(" ")
            start += 1
    return "".join(out)


def _max_columns(count: int, line_length: int) -> int:
    if line_length == 0:
        return count
    max_idx = line_length // MIN_COLUMN_WIDTH + (line_length % MIN_COLUMN_WIDTH != 0)
    return max_idx if 0 < max_idx < count else count


def calculate_columns(cells: list[Cell], line_length: int, by_columns: bool) -> tuple[int, list[int]]:
    """GNU's ``calculate_columns``: the most columns that fit, and their widths."""
    n = len(cells)
    max_cols = _max_columns(n, line_length)
    limit = line_length if line_length else float("inf")
    widths = [[MIN_COLUMN_WIDTH] * (i + 1) for i in range(max_cols)]
    line_len = [(i + 1) * MIN_COLUMN_WIDTH for i in range(max_cols)]
    valid = [True] * max_cols
    for filesno, cell in enumerate(cells):
        for i in range(max_cols):
            if not valid[i]:
                continue
            idx = filesno // ((n + i) // (i + 1)) if by_columns else filesno % (i + 1)
            real = cell.width + (0 if idx == i else 2)
            if widths[i][idx] < real:
                line_len[i] += real - widths[i][idx]
                widths[i][idx] = real
                valid[i] = line_len[i] < limit
    cols = max_cols
    while cols > 1 and not valid[cols - 1]:
        cols -= 1
    return cols, widths[cols - 1] if cols else []


def vertical(cells: list[Cell], line_length: int, tabsize: int, eol: str = "\n") -> str:
    """``-C``: columns filled top to bottom (each row ended by ``eol``)."""
    if not cells:
        return ""
    cols, widths = calculate_columns(cells, line_length, True)
    n = len(cells)
    rows = n // cols + (n % cols != 0)
    out = []
    for row in range(rows):
        filesno, col, pos = row, 0, 0
        while True:
            cell = cells[filesno]
            out.append(cell.text)
            max_width = widths[col]
            col += 1
            filesno += rows
            if filesno >= n:
                break
            out.append(indent(pos + cell.width, pos + max_width, tabsize))
            pos += max_width
        out.append(eol)
    return "".join(out)


def horizontal(cells: list[Cell], line_length: int, tabsize: int, eol: str = "\n") -> str:
    """``-x``: columns filled left to right (each row ended by ``eol``)."""
    if not cells:
        return ""
    cols, widths = calculate_columns(cells, line_length, False)
    out = [cells[0].text]
    pos, width, max_width = 0, cells[0].width, widths[0]
    for filesno in range(1, len(cells)):
        col = filesno % cols
        if col == 0:
            out.append(eol)
            pos = 0
        else:
            out.append(indent(pos + width, pos + max_width, tabsize))
            pos += max_width
        out.append(cells[filesno].text)
        width, max_width = cells[filesno].width, widths[col]
    out.append(eol)
    return "".join(out)


def commas(cells: list[Cell], line_length: int, eol: str = "\n") -> str:
    """``-m``: ``a, b, c`` wrapped before ``line_length`` (lines ended by ``eol``)."""
    if not cells:
        return ""
    out = []
    pos = 0
    for i, cell in enumerate(cells):
        length = cell.width if line_length else 0
        if i:
            if not line_length or pos + length + 2 < line_length:
                pos += 2
                out.append(", ")
            else:
                pos = 0
                out.append("," + eol)
        out.append(cell.text)
        pos += length
    out.append(eol)
    return "".join(out)


# -- sizes ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Scale:
    """A gnulib ``human_options`` result: autoscale (-h, --si) or a fixed block size."""

    block: int = 1
    autoscale: bool = False
    suffix: bool = False  # human_SI without autoscale: print the unit's letter
    base: int = 1024
    bytes_suffix: bool = False  # human_B


def parse_block_size(spec: str) -> "Scale | str":
    """``--block-size=SPEC`` as gnulib's ``humblock`` reads it, or the reason it is refused
    (``invalid``, ``suffix``: an invalid suffix, ``large``: above UINTMAX_MAX)."""
    if spec.startswith("'"):
        spec = spec[1:]
    if spec == "human-readable":
        return Scale(1, True, True, 1024)
    if spec == "si":
        return Scale(1, True, True, 1000)
    i = 0
    while i < len(spec) and spec[i].isdigit() and spec[i].isascii():
        i += 1
    rest = spec[i:]
    if i == 0 and (not rest or rest[0] not in _POWERS):
        return "invalid"
    number = int(spec[:i]) if i else 1
    block, suffix, base, with_b = number, False, 1024, False
    if rest:
        letter, tail = rest[0], rest[1:]
        if letter not in _POWERS or tail not in ("", "B", "iB"):
            return "suffix"
        base = 1000 if tail == "B" else 1024
        block = number * base ** _POWERS[letter]
        suffix, with_b = i == 0, tail != "" and i == 0
    if block > (1 << 64) - 1:
        return "large"
    if block == 0:
        return "invalid"
    return Scale(block, False, suffix, base, with_b)


_POWERS = {"k": 1, "K": 1, "m": 2, "M": 2, "g": 3, "G": 3, "t": 4, "T": 4, "p": 5, "P": 5,
           "e": 6, "E": 6, "z": 7, "Z": 7, "y": 8, "Y": 8}


def human(value: int, scale: Scale, from_size: int = 1) -> str:
    """gnulib ``human_readable`` (ceiling rounding) of ``value`` units of ``from_size`` bytes."""
    if scale.autoscale:
        return _autoscale(value * from_size, scale.base)
    total = value * from_size
    amount = -(-total // scale.block)
    if not scale.suffix:
        return str(amount)
    exponent, power = 0, 1
    while power < scale.block and exponent < len(_LETTERS):
        power *= scale.base
        exponent += 1
    text = str(amount)
    if exponent:
        text += "k" if scale.base == 1000 and exponent == 1 else _LETTERS[exponent - 1]
    if scale.bytes_suffix:
        text += ("i" if scale.base == 1024 and exponent else "") + "B"
    return text


def _autoscale(value: int, base: int) -> str:
    """-h / --si: autoscale, one decimal below 10, rounding up (``4.0K``, ``15M``)."""
    digits, exponent = autoscale(value, base)
    if not exponent:
        return digits
    letter = "k" if base == 1000 and exponent == 1 else _LETTERS[exponent - 1]
    return digits + letter


def autoscale(value: int, base: int) -> tuple[str, int]:
    """gnulib ``human_readable`` with ``human_autoscale`` and ceiling rounding: the digits
    (one decimal below 10: ``4.0``, ``15``) and the power of ``base`` they count (0 for none)."""
    if value < base:
        return str(value), 0
    amt, tenths, rounding, exponent = value, 0, 0, 0
    while True:
        r10 = (amt % base) * 10 + tenths
        r2 = (r10 % base) * 2 + (rounding >> 1)
        amt //= base
        tenths = r10 // base
        rounding = int(r2 + rounding != 0) if r2 < base else 2 + int(base < r2 + rounding)
        exponent += 1
        if not (base <= amt and exponent < 8):
            break
    point = ""
    if amt < 10:
        if rounding > 0:
            tenths += 1
            rounding = 0
            if tenths == 10:
                amt += 1
                tenths = 0
        if amt < 10:
            point = f".{tenths}"
            tenths = rounding = 0
    if tenths + rounding > 0:
        amt += 1
        if amt == base and exponent < 8:
            exponent += 1
            amt = 1
            point = ".0"
    return f"{amt}{point}", exponent


# -- dates ---------------------------------------------------------------------------------------

TIME_STYLES = ["full-iso", "long-iso", "iso", "locale"]


def parse_time_style(style: str) -> tuple[str, str] | None:
    """(format for old files, format for recent ones) of a ``--time-style``, or None."""
    while style.startswith("posix-"):
        style = style[6:]
    if style.startswith("+"):
        old, _, recent = style[1:].partition("\n")
        return old, recent or old
    formats = {"full-iso": ("%Y-%m-%d %H:%M:%S.%N %z",) * 2, "long-iso": ("%Y-%m-%d %H:%M",) * 2,
               "iso": ("%Y-%m-%d ", "%m-%d %H:%M"), "locale": ("%b %e  %Y", "%b %e %H:%M")}
    return formats.get(style)


def format_date(mtime: float, now: float, formats: tuple[str, str], mtime_ns: int | None = None) -> str:
    """A file time in ``formats`` (old, recent): recent is within six months past, not future.
    ``mtime_ns``, where known, gives the exact nanoseconds (``--full-time``)."""
    if mtime_ns is not None:
        seconds, nanos = divmod(mtime_ns, 1_000_000_000)
    else:
        seconds = int(mtime // 1)
        nanos = int(round((mtime - seconds) * 1e9))
        if nanos >= 1_000_000_000:
            seconds, nanos = seconds + 1, 0
    recent = now - SIX_MONTHS < mtime <= now
    fmt = formats[1] if recent else formats[0]
    if fmt == "%b %e %H:%M" or fmt == "%b %e  %Y":
        t = _time.gmtime(seconds)
        if recent:
            return f"{MONTHS[t.tm_mon - 1]} {t.tm_mday:2d} {t.tm_hour:02d}:{t.tm_min:02d}"
        return f"{MONTHS[t.tm_mon - 1]} {t.tm_mday:2d}  {t.tm_year}"
    return strftime(fmt, Moment(seconds, nanos, timezone.utc, "UTC"))
