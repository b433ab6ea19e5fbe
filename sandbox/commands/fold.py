"""``fold``: wrap each input line to fit a width (GNU coreutils 9.1): ``-w N``, ``-b``, ``-s``,
and the obsolete ``-N``.

Columns are counted per byte as GNU 9.1 does (tab to the next multiple of 8, backspace one
back, carriage return to 0; ``-b`` counts every byte as one), ``-s`` breaks after the last
blank (space or tab). Lines that fit pass through untouched and lines without tab, backspace
or carriage return are cut with slicing; only the others are scanned byte by byte.
"""

from __future__ import annotations

import re
from itertools import compress

from sandbox._native import linescan
from sandbox.commands._lineblocks import line_blocks
from sandbox.commands._quoting import quote, quotef
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    short="bsw:" + "".join(f"{d}::" for d in "0123456789"),
    long={
        "bytes": (NO_ARG, "b"),
        "spaces": (NO_ARG, "s"),
        "width": (REQUIRED, "w"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

HELP = """Usage: fold [OPTION]... [FILE]...
Wrap input lines in each FILE, writing to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --bytes         count bytes rather than columns
  -s, --spaces        break at spaces
  -w, --width=WIDTH   use WIDTH columns instead of 80
      --help        display this help and exit
      --version     output version information and exit

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Report any translation bugs to <https://translationproject.org/team/>
Full documentation <https://www.gnu.org/software/coreutils/fold>
or available locally via: info '(coreutils) fold invocation'
"""

VERSION = """fold (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by David MacKenzie."""
MAX_WIDTH = (1 << 64) - 1 - 8 - 1
#: Widths the C accelerator's fold takes (its columns are 64-bit).
NATIVE_MAX_WIDTH = (1 << 64) - 16
_UNSIGNED = re.compile(r"[ \t\n\v\f\r]*\+?([0-9]+)(.*)", re.DOTALL)


class WidthError(Exception):
    """A width GNU refuses; ``str()`` is the message."""


def parse_width(text: str) -> int:
    """gnulib ``xdectoumax(text, 1, SIZE_MAX - 9)`` with fold's message."""
    m = _UNSIGNED.fullmatch(text)
    if m is None or m.group(2):
        raise WidthError(f"invalid number of columns: {quote(text)}")
    value = int(m.group(1))
    if 1 <= value <= MAX_WIDTH:
        return value
    reason = "Numerical result out of range" if value <= (1 << 31) - 1 else "Value too large for defined data type"
    raise WidthError(f"invalid number of columns: {quote(text)}: {reason}")


def _adjust(column: int, c: int, count_bytes: bool) -> int:
    if count_bytes:
        return column + 1
    if c == 8:
        return column - 1 if column > 0 else 0
    if c == 13:
        return 0
    if c == 9:
        return column + 8 - column % 8
    return column + 1


def fold_general(line: bytes, width: int, count_bytes: bool, spaces: bool) -> bytes:
    """GNU's byte loop over one line (without its newline): the folded text."""
    out: list[bytes] = []
    buf = bytearray()
    column = 0
    for c in line:
        while True:
            column = _adjust(column, c, count_bytes)
            if column <= width:
                buf.append(c)
                break
            if spaces:
                end = max(buf.rfind(b" "), buf.rfind(b"\t"))
                if end >= 0:
                    out.append(bytes(buf[: end + 1]) + b"\n")
                    del buf[: end + 1]
                    column = 0
                    for b in buf:
                        column = _adjust(column, b, count_bytes)
                    continue
            if not buf:
                buf.append(c)
                break
            out.append(bytes(buf) + b"\n")
            buf.clear()
            column = 0
    out.append(bytes(buf))
    return b"".join(out)


def fold_plain(line: bytes, width: int, spaces: bool) -> bytes:
    """Fold a line in which every byte is one column wide."""
    n = len(line)
    if not spaces:
        return b"\n".join([line[i : i + width] for i in range(0, n, width)])
    out: list[bytes] = []
    pos = 0
    while n - pos > width:
        end = line.rfind(b" ", pos, pos + width)
        cut = end + 1 if end >= 0 else pos + width
        out.append(line[pos:cut])
        pos = cut
    out.append(line[pos:])
    return b"\n".join(out)


class Folder:
    """One fold run's settings."""

    def __init__(self, width: int, count_bytes: bool, spaces: bool):
        self.width = width
        self.count_bytes = count_bytes
        self.spaces = spaces

    def native(self):  # type: ignore[no-untyped-def]
        """The C accelerator's ``fold`` (the same loop as GNU's), when it is built and the
        width is one it takes; else None."""
        if self.width > NATIVE_MAX_WIDTH:
            return None
        return getattr(linescan(), "fold", None)

    def line(self, line: bytes) -> bytes:
        """Fold one line (without its newline)."""
        fold = self.native()
        if fold is not None:
            return fold(line, self.width, self.count_bytes, self.spaces)
        width = self.width
        if len(line) <= width and (self.count_bytes or b"\t" not in line):
            return line
        if self.count_bytes:
            if not self.spaces or b"\t" not in line:
                return fold_plain(line, width, self.spaces)
            return fold_general(line, width, True, self.spaces)
        if b"\b" in line or b"\r" in line:
            return fold_general(line, width, False, self.spaces)
        if b"\t" not in line:
            return fold_plain(line, width, self.spaces)
        if len(line.expandtabs(8)) <= width:
            return line
        return fold_tabs(line, width, True) if self.spaces else fold_tabs_hard(line, width)

    def block(self, block: bytes) -> bytes:
        """Fold a block of whole lines (each ending with a newline): in C with the
        accelerator, else only the lines that are too wide are looked at, found from their
        (tab-expanded) lengths in C."""
        fold = self.native()
        if fold is not None:
            return fold(block, self.width, self.count_bytes, self.spaces)
        width = self.width
        if (not self.spaces and not self.count_bytes and width % 8 == 0
                and b"\b" not in block and b"\r" not in block):
            marker = _absent_byte(block)
            if marker is not None:
                return fold_block_aligned(block, width, marker)
        lines = block.split(b"\n")
        lines.pop()
        if self.count_bytes or b"\t" not in block:
            widths = list(map(len, lines))
        elif b"\b" not in block and b"\r" not in block:
            expanded = block.expandtabs(8).split(b"\n")
            expanded.pop()
            widths = list(map(len, expanded))
        else:
            return b"\n".join([self.line(x) for x in lines]) + b"\n"
        if max(widths) <= width:
            return block
        spaces = self.spaces
        wide = [i for i, w in enumerate(widths) if w > width]  # a superset of the wide lines
        if not self.count_bytes and b"\b" not in block and b"\r" not in block:
            for i in wide:
                text = lines[i]
                if b"\t" not in text:
                    lines[i] = fold_plain(text, width, spaces)
                else:
                    lines[i] = fold_tabs(text, width, True) if spaces else fold_tabs_hard(text, width)
            return b"\n".join(lines) + b"\n"
        for i in wide:
            text = lines[i]
            if self.count_bytes:
                wide_tab = spaces and b"\t" in text
                lines[i] = fold_general(text, width, True, True) if wide_tab else fold_plain(text, width, spaces)
            elif b"\b" in text or b"\r" in text:
                lines[i] = fold_general(text, width, False, spaces)
            elif b"\t" in text:
                lines[i] = fold_tabs(text, width, True) if spaces else fold_tabs_hard(text, width)
            else:
                lines[i] = fold_plain(text, width, spaces)
        return b"\n".join(lines) + b"\n"


_MARKERS = (1, 2, 3, 4, 5, 6, 7, 0, 0x7F, 0xFF)
_SPACE_TO: dict[int, bytes] = {}


def _absent_byte(block: bytes) -> int | None:
    """A byte other than space, tab, newline that ``block`` does not hold (or None)."""
    for b in _MARKERS:
        if bytes((b,)) not in block:
            return b
    present = set(block)
    return next((b for b in range(256) if b not in present and b not in (9, 10, 32)), None)


def fold_block_aligned(block: bytes, width: int, marker: int) -> bytes:
    """Fold (without ``-s``) a block of whole lines by columns when ``width`` is a multiple of
    8 and the block holds no backspace or carriage return: every break then falls on a tab
    stop, so the output lines keep the input's tab stops and each break is a plain cut.

    Spaces are first mapped to ``marker`` (a byte absent from the block), so that in the
    tab-expanded copy every space is a tab's padding: the byte offset of column ``k * width``
    (a multiple of 8, never inside a tab) is ``k * width`` less the padding before it plus one
    per tab, each tab having exactly one padding byte at a column congruent to 7 mod 8. Only
    the lines wider than ``width`` (found from the expanded lengths, in C) are touched."""
    table = _SPACE_TO.get(marker)
    if table is None:
        table = _SPACE_TO[marker] = bytes.maketrans(b" ", bytes((marker,)))
    lines = block.split(b"\n")
    lines.pop()
    if b"\t" not in block:
        wide = list(compress(range(len(lines)), map(width.__lt__, map(len, lines))))
        if not wide:
            return block
        for i in wide:
            lines[i] = fold_plain(lines[i], width, False)
        return b"\n".join(lines) + b"\n"
    expanded = block.translate(table).expandtabs(8).split(b"\n")
    expanded.pop()
    wide = list(compress(range(len(expanded)), map(width.__lt__, map(len, expanded))))
    if not wide:
        return block
    double = 2 * width
    for i in wide:
        e = expanded[i]
        x = lines[i]
        if len(e) <= double:
            pad = e.count(b" ", 0, width)
            o = width - pad + e[7:width:8].count(b" ") if pad else width
            lines[i] = x[:o] + b"\n" + x[o:]
        else:
            cuts = [0]
            for col in range(width, len(e), width):
                cuts.append(col - e.count(b" ", 0, col) + e[7:col:8].count(b" "))
            cuts.append(len(x))
            lines[i] = b"\n".join([x[a:b] for a, b in zip(cuts, cuts[1:])])
    return b"\n".join(lines) + b"\n"


def fold_tabs_hard(line: bytes, width: int) -> bytes:
    """``fold_tabs`` without ``-s``: every break is a plain cut, so whole stretches between
    tabs are cut with slices and only the tabs are looked at one by one."""
    out: list[bytes] = []
    start = pos = col = 0
    segments = line.split(b"\t")
    last = len(segments) - 1
    for k, seg in enumerate(segments):
        n = len(seg)
        if n and col + n > width:
            cut = pos + (width - col if col < width else 0)
            out.append(line[start:cut])
            n -= cut - pos
            pos = cut
            while n > width:
                out.append(line[pos : pos + width])
                pos += width
                n -= width
            start = pos
            col = n
        else:
            col += n
        pos += n
        if k == last:
            break
        nxt = col + 8 - col % 8
        if nxt > width and start != pos:
            out.append(line[start:pos])
            start = pos
            nxt = 8
        col = nxt
        pos += 1
    out.append(line[start:])
    return b"\n".join(out)


def fold_tabs(line: bytes, width: int, spaces: bool) -> bytes:
    """GNU's loop for a line whose only special bytes are tabs, run over the segments between
    tabs with index arithmetic (a segment of plain bytes is cut with slices)."""
    out: list[bytes] = []
    start = 0  # where the current output line begins
    pos = 0
    col = 0
    segments = line.split(b"\t")
    last = len(segments) - 1
    for k, seg in enumerate(segments):
        n = len(seg)
        while n:
            room = width - col
            if n <= room:
                col += n
                pos += n
                break
            room = max(0, room)
            cut = pos + room
            if spaces:
                blank = max(line.rfind(b" ", start, cut), line.rfind(b"\t", start, cut))
                if blank >= 0:
                    out.append(line[start : blank + 1])
                    start = blank + 1
                    col = len(line[start:cut].expandtabs(8))
                    n -= room
                    pos = cut
                    continue
            out.append(line[start:cut])
            start = pos = cut
            n -= room
            col = 0
        if k == last:
            break
        while True:  # the tab at pos
            nxt = col + 8 - col % 8
            if nxt <= width:
                col = nxt
                break
            if spaces:
                blank = max(line.rfind(b" ", start, pos), line.rfind(b"\t", start, pos))
                if blank >= 0:
                    out.append(line[start : blank + 1])
                    start = blank + 1
                    col = len(line[start:pos].expandtabs(8))
                    continue
            if start == pos:
                col = nxt
                break
            out.append(line[start:pos])
            start = pos
            col = 0
        pos += 1
    out.append(line[start:])
    return b"\n".join(out)


def run(ctx: CommandContext) -> int:
    """Fold each input."""
    parsed = parse_command_line(ctx, SPEC, HELP, version=VERSION)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    width = 80
    count_bytes = spaces = False
    try:
        for key, value in opts:
            if key == "b":
                count_bytes = True
            elif key == "s":
                spaces = True
            elif key == "w":
                width = parse_width(value or "")
            elif key.isdigit():
                width = parse_width(key + (value or ""))
    except WidthError as err:
        ctx.error(str(err))
        return 1
    folder = Folder(width, count_bytes, spaces)
    status = 0
    for operand in operands or ["-"]:
        try:
            stream = ctx.stdin if operand == "-" else ctx.open_read(operand)
        except FSError as err:
            ctx.error(f"{quotef(operand)}: {err}")
            status = 1
            continue
        try:
            _fold_stream(ctx, folder, stream)
        except FSError as err:
            ctx.error(f"{quotef(operand)}: {err}")
            status = 1
        finally:
            if stream is not ctx.stdin:
                stream.close()
    return status


def _fold_stream(ctx: CommandContext, folder: Folder, stream) -> None:
    for block, whole in line_blocks(ctx, stream):
        ctx.stdout.write(folder.block(block) if whole else folder.line(block))
