"""``column``: columnate lists (util-linux 2.38): the default fill-columns mode, ``-x`` (fill
rows), ``-t`` (table) with ``-s SEPARATORS`` and ``-o STRING``, ``-c WIDTH``.

As util-linux: a line is cut at a NUL, invalid UTF-8 bytes show as ``\\xNN``, empty and
all-whitespace lines are skipped, widths are display columns (non-printable characters count
0); the output width is ``-c``, else ``$COLUMNS``, else 80, and entries wider than it are
printed one per line. In table mode blanks (runs of spaces and tabs) separate cells, or each
character of ``-s`` separates exactly one cell (empty cells kept); every column but the last
is padded, joined with ``-o`` (two spaces by default). ``-`` is a file name, as in util-linux.
``-J`` prints the table as JSON (names from ``-N``, required; ``-n NAME`` names the table).
``-H`` hides columns (numbers or ``-N`` names, ``0`` all); ``-e`` (repeat the header on each
page of a terminal) changes nothing here. The other util-linux options (``-O -E -T -W -r -i
-p``) are refused as unknown.
"""

from __future__ import annotations

import errno
import re

from sandbox.commands._locale import utf8_ctype
from sandbox.commands._wcwidth import is_space, width as char_width
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    short="c:o:s:txhVN:R:H:l:dJn:Le",
    long={
        "table-hide": (REQUIRED, "H"),
        "table-header-repeat": (NO_ARG, "e"),
        "keep-empty-lines": (NO_ARG, "L"),
        "table-columns": (REQUIRED, "N"),
        "table-right": (REQUIRED, "R"),
        "table-columns-limit": (REQUIRED, "l"),
        "table-noheadings": (NO_ARG, "d"),
        "json": (NO_ARG, "J"),
        "table-name": (REQUIRED, "n"),
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
 -n, --table-name <name>          table name for JSON output
 -O, --table-order <columns>      specify order of output columns
 -N, --table-columns <names>      comma separated columns names
 -l, --table-columns-limit <num>  maximal number of input columns
 -E, --table-noextreme <columns>  don't count long text from the columns to column width
 -d, --table-noheadings           don't print header
 -e, --table-header-repeat        repeat header for each page
 -H, --table-hide <columns>       don't print the columns
 -R, --table-right <columns>      right align text in these columns
 -T, --table-truncate <columns>   truncate text in the columns when necessary
 -W, --table-wrap <columns>       wrap text in the columns when necessary
 -L, --keep-empty-lines           don't ignore empty lines
 -J, --json                       use JSON output format for table

 -r, --tree <column>              column to use tree-like output for the table
 -i, --tree-id <column>           line ID to specify child-parent relation
 -p, --tree-parent <column>       parent to specify child-parent relation

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


def decode_line(raw: bytes, single_byte: bool = False, escape: bool = True) -> str:
    """A line as util-linux holds it: cut at NUL, invalid bytes as ``\\xNN``. In a
    single-byte locale every byte above 0x7F is invalid; an option's text (``escape`` False)
    keeps those bytes, as surrogates of no width."""
    nul = raw.find(b"\0")
    if nul >= 0:
        raw = raw[:nul]
    if single_byte:
        text = raw.decode("ascii", "surrogateescape")
        if not escape or text.isascii():
            return text
        return "".join(f"\\x{ord(ch) - 0xDC00:02x}" if ord(ch) >= 0xDC80 else ch for ch in text)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("utf-8", "surrogateescape")
        return "".join(f"\\x{ord(ch) - 0xDC00:02x}" if 0xDC80 <= ord(ch) <= 0xDCFF else ch for ch in text)


def _option_text(value: str | None, single_byte: bool) -> str:
    """An option's text as util-linux holds it (see ``decode_line``)."""
    return decode_line((value or "").encode("utf-8", "surrogateescape"), single_byte, False)


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


def _parse_u32(text: str, what: str) -> int:
    """util-linux ``strtou32_or_err``: the value or ``ValueError`` with its message."""
    m = re.fullmatch(r"\s*([+-]?)(\d+)", text)
    if m is None:
        raise ValueError(f"{what}: '{text}'")
    value = int(m.group(1) + m.group(2))
    if value < 0 or value > 0xFFFFFFFF:
        raise ValueError(f"{what}: '{text}': Numerical result out of range")
    return value


def _parse_width(text: str) -> int:
    """``strtou32_or_err``: the -c value or ``ValueError`` with util-linux's message."""
    return _parse_u32(text, "invalid columns argument")


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
    names: list[str] | None = None
    right: str | None = None
    hide: str | None = None
    limit = 0
    headings = True
    json = False
    table_name: str | None = None
    keep_empty = False
    single_byte = not utf8_ctype(ctx.env)
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
            out_sep = _option_text(value, single_byte)
        elif key == "s":
            separators = _option_text(value, single_byte)
        elif key == "t":
            table = True
        elif key == "x":
            fill_rows = True
        elif key == "N":
            text = _option_text(value, single_byte)
            names = [n for n in text.split(",") if n] if text else [""]
        elif key == "R":
            right = _option_text(value, single_byte)
        elif key == "H":
            hide = _option_text(value, single_byte)
        elif key == "l":
            try:
                limit = _parse_u32(value or "", "invalid columns limit argument")
            except ValueError as err:
                ctx.error(str(err))
                return 1
            if limit == 0:
                ctx.error("columns limit must be greater than zero")
                return 1
        elif key == "J":
            json = table = True
        elif key == "n":
            table_name = _option_text(value, single_byte)
        elif key == "d":
            headings = False
        elif key == "L":
            keep_empty = True
    if not table and (names is not None or right is not None or hide is not None
                      or table_name is not None):
        ctx.error("option --table required for all --table-*")
        return 1
    if json and names is None:
        ctx.error("option --table-columns required for --json")
        return 1
    if single_byte and separators is not None and not separators.isascii():
        # util-linux turns the separators into wide characters, which fails in the C locale
        ctx.error("failed to use input separator: Invalid or incomplete multibyte or wide "
                  "character")
        return 1
    if termwidth is None:
        env = ctx.env.get("COLUMNS", "")
        termwidth = int(env) if env.isdigit() and 0 < int(env) < (1 << 31) else 80
    entries: list[str] = []
    status = 0
    for operand in operands or [None]:
        try:
            data = ctx.stdin.read() if operand is None else ctx.read_bytes(operand)
        except FSError as err:
            if err.errno in (errno.EISDIR, errno.EBADF) or operand is None:  # a read of stdin
                ctx.error(f"read failed: {err}")
            else:
                ctx.error(f"{operand}: {err}")
            status = 1
            continue
        lines = data.split(b"\n")
        if lines[-1] == b"":
            lines.pop()
        for raw in lines:
            text = decode_line(raw, single_byte)
            if text and not _blank(text):
                entries.append(text)
            elif keep_empty:  # -L: a blank line is an empty entry (an empty table row)
                entries.append("")
        ctx.budget.check_time()
    if table:
        if not entries:
            return status
        if not json and not any(entries):
            return 1  # nothing but blank lines (-L): a table of no columns, util-linux fails
        layout = Table(separators, out_sep, names or [], limit, headings)
        try:
            layout.set_right(right or "")
            layout.set_hidden(hide or "")
        except ValueError as err:
            ctx.error(str(err))
            return 1
        if json:
            try:
                ctx.stdout.write(layout.json(entries, table_name or "table").encode(
                    "utf-8", "surrogateescape"))
            except ValueError as err:
                ctx.error(str(err))
                return 1
            return 0
        layout.write(ctx, entries)
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


_JSON_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n",
                 "\r": "\\r", "\t": "\\t"}


def _json_string(text: str) -> str:
    """A JSON string as libsmartcols writes one: quotes, backslashes and control characters
    escaped, everything else as it is (UTF-8)."""
    out = []
    for ch in text:
        if ch in _JSON_ESCAPES:
            out.append(_JSON_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _fold(name: str) -> str:
    """``strcasecmp``'s view of a name: ASCII letters folded, nothing else."""
    return name.translate(_ASCII_LOWER)


def split_cells(text: str, separators: str | None, limit: int) -> list[str]:
    """The cells of one table line as util-linux 2.38 cuts them: runs of blanks separate
    cells (``wcstok``), or each character of ``-s`` ends one (empty cells kept); with
    ``-l N`` the N-th cell is the rest of the line after the character that ended the cell
    before it (nothing when that rest is empty), and ``-l 1`` is the whole line."""
    if limit == 1:
        return [text]
    cells: list[str] = []
    n = len(text)
    pos = 0
    state: int | None = 0
    greedy = separators is None
    seps = " \t" if separators is None else separators
    while True:
        if limit and len(cells) + 1 == limit:
            if state is not None and state < n:
                cells.append(text[state:])
            return cells
        if greedy:
            while pos < n and text[pos] in seps:
                pos += 1
            if pos >= n:
                return cells
            end = pos
            while end < n and text[end] not in seps:
                end += 1
            cells.append(text[pos:end])
            state = end + 1 if end < n else None
            pos = end + 1
        else:
            if state is None:
                return cells
            end = pos
            while end < n and text[end] not in seps:
                end += 1
            cells.append(text[pos:end])
            state = end + 1 if end < n else None
            pos = end + 1


class Table:
    """``column -t``: cells, column names (``-N``), right-aligned columns (``-R``), the
    column limit (``-l``) and whether the header is printed (``-d`` hides it; its names
    still count for the widths)."""

    def __init__(self, separators: str | None, out_sep: str, names: list[str], limit: int,
                 headings: bool):
        self.separators = separators
        self.out_sep = out_sep
        self.names = names
        self.limit = limit
        self.headings = headings
        self.right_spec = ""
        self.hide_spec = ""
        self.right: set[int] = set()

    def set_right(self, spec: str) -> None:
        """Remember ``-R``'s list (names are checked now, numbers once the columns exist);
        ``ValueError`` with util-linux's message for an unknown name or a bad number."""
        self.right_spec = spec
        self._check_columns(spec)

    def set_hidden(self, spec: str) -> None:
        """Remember ``-H``'s list, checked as ``-R``'s."""
        self.hide_spec = spec
        self._check_columns(spec)

    def _check_columns(self, spec: str) -> None:
        for item in (x for x in spec.split(",") if x and spec != "0"):
            if item.isascii() and item.isdigit():
                _parse_u32(item, "failed to parse column")
            elif not any(_fold(n) == _fold(item) for n in self.names):
                raise ValueError(f"undefined column name '{item}'")

    def _right_columns(self, ncols: int) -> set[int]:
        return self._columns(self.right_spec, ncols)

    def _columns(self, spec: str, ncols: int) -> set[int]:
        if spec == "0":  # the whole list "0": every column
            return set(range(ncols))
        out: set[int] = set()
        for item in (x for x in spec.split(",") if x):
            if item.isascii() and item.isdigit():
                k = int(item) - 1
            else:
                k = next(i for i, n in enumerate(self.names) if _fold(n) == _fold(item))
            if 0 <= k < ncols:
                out.add(k)
        return out

    def json(self, entries: list[str], name: str) -> str:
        """``-J``: the table as libsmartcols prints JSON (three-space indents, records joined
        by ``},{``, names with ASCII letters in lower case, every cell a string, an empty or
        missing cell ``null``); nothing for no input. ``ValueError`` with
        util-linux's message when a line has more cells than there are names."""
        if not entries:
            return ""
        records = []
        for k, e in enumerate(entries):
            cells = (split_cells(e, self.separators or None, self.limit)
                     if self.separators != "" else [e])
            if len(cells) > len(self.names):
                raise ValueError(f"line {k + 2}: for JSON the name of the column "
                                 f"{len(self.names) + 1} is required")
            fields = []
            hidden = self._columns(self.hide_spec, len(self.names))
            for i, key in enumerate(self.names):
                if i in hidden:
                    continue
                cell = cells[i] if i < len(cells) else ""
                value = _json_string(cell) if cell else "null"
                fields.append(f"         {_json_string(_fold(key))}: {value}")
            records.append("{\n" + ",\n".join(fields) + "\n      }")
        return ("{\n   " + _json_string(_fold(name)) + ": [\n      " + ",".join(records)
                + "\n   ]\n}\n")

    def write(self, ctx: CommandContext, entries: list[str]) -> None:
        """Print the table of ``entries`` (nothing at all when there are none)."""
        if not entries:
            return
        rows = [split_cells(e, self.separators or None, self.limit) if self.separators != ""
                else [e] for e in entries]
        header = list(self.names)
        ncols = max(max(len(r) for r in rows), len(header))
        widths = [0] * ncols
        for i, name in enumerate(header):
            widths[i] = text_width(name)
        cell_widths = []
        for r in rows:
            ws = [text_width(c) for c in r]
            cell_widths.append(ws)
            for i, w in enumerate(ws):
                if w > widths[i]:
                    widths[i] = w
        right = self._right_columns(ncols)
        out: list[str] = []
        shown = ([(header, [text_width(n) for n in header])] if header and self.headings
                 else []) + list(zip(rows, cell_widths))
        hidden = self._columns(self.hide_spec, ncols)
        visible = [i for i in range(ncols) if i not in hidden]
        last = visible[-1] if visible else -1
        for r, ws in shown:
            pieces = []
            for i in visible:
                cell = r[i] if i < len(r) else ""
                pad = widths[i] - (ws[i] if i < len(r) else 0)
                if i == last and (cell == "" or i not in right):
                    pieces.append(cell)
                elif i in right:
                    pieces.append(" " * pad + cell)
                else:
                    pieces.append(cell + " " * pad)
            out.append(self.out_sep.join(pieces) + "\n")
        ctx.stdout.write("".join(out).encode("utf-8", "surrogateescape"))
