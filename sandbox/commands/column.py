"""``column``: columnate lists (util-linux 2.38): the default fill-columns mode, ``-x`` (fill
rows), ``-t`` (table) with ``-s SEPARATORS`` and ``-o STRING``, ``-c WIDTH``.

As util-linux: a line is cut at a NUL, invalid UTF-8 bytes show as ``\\xNN``, empty and
all-whitespace lines are skipped, widths are display columns (non-printable characters count
0); the output width is ``-c``, else ``$COLUMNS``, else 80, and entries wider than it are
printed one per line. In table mode blanks (runs of spaces and tabs) separate cells, or each
character of ``-s`` separates exactly one cell (empty cells kept); every column but the last
is padded, joined with ``-o`` (two spaces by default). ``-`` is a file name, as in util-linux.
The other util-linux options (``-N -R -J -L``...) are refused as unknown.
"""

from __future__ import annotations

import errno
import re

from sandbox.commands._wcwidth import is_space, width as char_width
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    short="c:o:s:txhV",
    long={
        "output-width": (REQUIRED, "c"),
        "columns": (REQUIRED, "c"),
        "output-separator": (REQUIRED, "o"),
        "separator": (REQUIRED, "s"),
        "table": (NO_ARG, "t"),
        "fillrows": (NO_ARG, "x"),
        "help": (NO_ARG, "h"),
        "version": (NO_ARG, "V"),
    },
)

HELP = """
Usage:
 column [options] [<file>...]

Columnate lists.

Options:
 -t, --table                      create a table
 -c, --output-width <width>       width of output in number of characters
 -o, --output-separator <string>  columns separator for table output (default is two spaces)
 -s, --separator <string>         possible table delimiters
 -x, --fillrows                   fill rows before columns

 -h, --help                       display this help
 -V, --version                    display version

For more details see column(1).
"""

VERSION = "column from util-linux 2.38.1"
_BLANKS = re.compile(r"[ \t]+")


def decode_line(raw: bytes) -> str:
    """A line as util-linux holds it: cut at NUL, invalid bytes as ``\\xNN``."""
    nul = raw.find(b"\0")
    if nul >= 0:
        raw = raw[:nul]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("utf-8", "surrogateescape")
        return "".join(f"\\x{ord(ch) - 0xDC00:02x}" if 0xDC80 <= ord(ch) <= 0xDCFF else ch for ch in text)


def text_width(text: str) -> int:
    """util-linux's ``width()``: the sum of the positive ``wcwidth`` of the characters."""
    if text.isascii() and text.isprintable():
        return len(text)
    total = 0
    for ch in text:
        w = char_width(ord(ch))
        if w > 0:
            total += w
    return total


def _blank(text: str) -> bool:
    return all(is_space(ord(ch)) for ch in text)


def _parse_width(text: str) -> int:
    """``strtou32_or_err``: the -c value or ``ValueError`` with util-linux's message."""
    m = re.fullmatch(r"\s*([+-]?)(\d+)", text)
    if m is None:
        raise ValueError(f"invalid columns argument: '{text}'")
    value = int(m.group(1) + m.group(2))
    if value < 0 or value > 0xFFFFFFFF:
        raise ValueError(f"invalid columns argument: '{text}': Numerical result out of range")
    return value


def run(ctx: CommandContext) -> int:
    """Columnate the inputs."""
    parsed = parse_command_line(ctx, SPEC, HELP)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    table = fill_rows = False
    termwidth: int | None = None
    out_sep = "  "
    separators: str | None = None
    for key, value in opts:
        if key == "h":
            ctx.stdout.write(HELP.encode())
            return 0
        if key == "V":
            ctx.stdout.write(f"{VERSION}\n".encode())
            return 0
        if key == "c":
            try:
                termwidth = _parse_width(value or "")
            except ValueError as err:
                ctx.error(str(err))
                return 1
        elif key == "o":
            out_sep = decode_line((value or "").encode("utf-8", "surrogateescape"))
        elif key == "s":
            separators = decode_line((value or "").encode("utf-8", "surrogateescape"))
        elif key == "t":
            table = True
        elif key == "x":
            fill_rows = True
    if termwidth is None:
        env = ctx.env.get("COLUMNS", "")
        termwidth = int(env) if env.isdigit() and 0 < int(env) < (1 << 31) else 80
    entries: list[str] = []
    status = 0
    for operand in operands or [None]:
        try:
            data = ctx.stdin.read() if operand is None else ctx.read_bytes(operand)
        except FSError as err:
            if err.errno == errno.EISDIR:
                ctx.error(f"read failed: {err}")
            else:
                ctx.error(f"{operand}: {err}")
            status = 1
            continue
        lines = data.split(b"\n")
        if lines[-1] == b"":
            lines.pop()
        for raw in lines:
            text = decode_line(raw)
            if text and not _blank(text):
                entries.append(text)
        ctx.budget.check_time()
    if table:
        if not entries:
            return status
        _table(ctx, entries, separators, out_sep)
        return 0
    if not entries:
        return status
    widths = [text_width(e) for e in entries]
    maxlength = max(widths)
    if maxlength >= termwidth:
        ctx.stdout.write(("\n".join(entries) + "\n").encode("utf-8", "surrogateescape"))
        return status
    if fill_rows:
        _fill_rows(ctx, entries, widths, maxlength, termwidth)
    else:
        _fill_columns(ctx, entries, widths, maxlength, termwidth)
    return status


def _tabs_to(chcnt: int, endcol: int) -> tuple[str, int]:
    """The tabs util-linux writes to move from column ``chcnt`` towards ``endcol``."""
    out = []
    while True:
        cnt = (chcnt + 8) & ~7
        if cnt > endcol:
            return "".join(out), chcnt
        out.append("\t")
        chcnt = cnt


def _fill_columns(ctx: CommandContext, entries: list[str], widths: list[int], maxlength: int,
                  termwidth: int) -> None:
    maxlength = (maxlength + 8) & ~7
    numcols = max(1, termwidth // maxlength)
    nents = len(entries)
    numrows = nents // numcols + (1 if nents % numcols else 0)
    out: list[str] = []
    for row in range(numrows):
        endcol = maxlength
        base = row
        chcnt = 0
        for _ in range(numcols):
            out.append(entries[base])
            chcnt += widths[base]
            base += numrows
            if base >= nents:
                break
            tabs, chcnt = _tabs_to(chcnt, endcol)
            out.append(tabs)
            endcol += maxlength
        out.append("\n")
    ctx.stdout.write("".join(out).encode("utf-8", "surrogateescape"))


def _fill_rows(ctx: CommandContext, entries: list[str], widths: list[int], maxlength: int,
               termwidth: int) -> None:
    maxlength = (maxlength + 8) & ~7
    numcols = termwidth // maxlength  # may be 0: util-linux then never wraps
    out: list[str] = []
    chcnt = col = 0
    endcol = maxlength
    for k, entry in enumerate(entries):
        out.append(entry)
        chcnt += widths[k]
        if k == len(entries) - 1:
            break
        col += 1
        if col == numcols:
            chcnt = col = 0
            endcol = maxlength
            out.append("\n")
        else:
            tabs, chcnt = _tabs_to(chcnt, endcol)
            out.append(tabs)
            endcol += maxlength
    if chcnt:
        out.append("\n")
    ctx.stdout.write("".join(out).encode("utf-8", "surrogateescape"))


def _table(ctx: CommandContext, entries: list[str], separators: str | None, out_sep: str) -> None:
    if separators is None:
        rows = [[c for c in _BLANKS.split(e) if c] for e in entries]
    elif separators:
        pattern = re.compile("[" + re.escape(separators) + "]")
        rows = [pattern.split(e) for e in entries]
    else:
        rows = [[e] for e in entries]
    ncols = max(len(r) for r in rows)
    widths = [0] * ncols
    cell_widths = []
    for r in rows:
        ws = [text_width(c) for c in r]
        cell_widths.append(ws)
        for i, w in enumerate(ws):
            if w > widths[i]:
                widths[i] = w
    out: list[str] = []
    for r, ws in zip(rows, cell_widths):
        pieces = []
        for i in range(ncols):
            cell = r[i] if i < len(r) else ""
            if i < ncols - 1:
                pad = widths[i] - (ws[i] if i < len(r) else 0)
                pieces.append(cell + " " * pad)
            else:
                pieces.append(cell)
        out.append(out_sep.join(pieces) + "\n")
    ctx.stdout.write("".join(out).encode("utf-8", "surrogateescape"))
