"""``expand``: convert tabs to spaces (GNU coreutils 9.1): ``-t LIST`` (``N``, lists, ``/N``,
``+N``), ``-i``, the obsolete ``-N[,LIST]``.

Columns are bytes as in GNU 9.1 (a backspace steps one back); a tab past the last stop of a
list becomes one space; all inputs form one stream. Lines without tab pass through; lines
with a single tab size and no backspace or carriage return use ``bytes.expandtabs``.
"""

from __future__ import annotations

from sandbox.commands._lineblocks import line_blocks
from sandbox.commands._quoting import quotef
from sandbox.commands._tabstops import TabError, TabStops, tab_options
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    short="it:" + "".join(f"{d}::" for d in "0123456789"),
    long={
        "initial": (NO_ARG, "i"),
        "tabs": (REQUIRED, "t"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

HELP = """Usage: expand [OPTION]... [FILE]...
Convert tabs in each FILE to spaces, writing to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -i, --initial    do not convert tabs after non blanks
  -t, --tabs=N     have tabs N characters apart, not 8
  -t, --tabs=LIST  use comma separated list of tab positions.
                     The last specified position can be prefixed with '/'
                     to specify a tab size to use after the last
                     explicitly specified tab stop.  Also a prefix of '+'
                     can be used to align remaining tab stops relative to
                     the last specified tab stop instead of the first column
      --help        display this help and exit
      --version     output version information and exit
"""

VERSION = """expand (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by David MacKenzie."""


class Expander:
    """The state of one expand run: the column carries across inputs, as in GNU."""

    def __init__(self, tabs: TabStops, initial: bool, budget=None):
        self.budget = budget
        self.tabs = tabs
        self.initial = initial
        self.column = 0
        self.index = 0
        self.convert = True

    def text(self, data: bytes) -> bytes:
        """Expand ``data`` (whole lines and perhaps a partial last one)."""
        lines = data.split(b"\n")
        out = [self._line(lines[0])]
        for piece in lines[1:]:
            self.column, self.index, self.convert = 0, 0, True
            out.append(self._line(piece))
        return b"\n".join(out)

    def _line(self, piece: bytes) -> bytes:
        if b"\t" not in piece and b"\b" not in piece:
            if piece:
                self._advance_plain(piece)
            return piece
        size = self.tabs.size if self.tabs.size < (1 << 20) else 0  # expandtabs takes a C int
        if size and self.column == 0 and self.convert and b"\b" not in piece and b"\r" not in piece:
            if not self.initial:
                out = piece.expandtabs(size)
                self.column = len(out)
                self.convert = True
                return out
            lead = len(piece) - len(piece.lstrip(b" \t"))
            head = piece[:lead].expandtabs(size)
            if lead < len(piece):
                self.convert = False
            self.column = len(head) + len(piece) - lead
            return head + piece[lead:]
        return self._slow(piece)

    def _advance_plain(self, piece: bytes) -> None:
        self.column += len(piece)
        if self.initial and piece.strip(b" \t"):
            self.convert = False

    def _slow(self, piece: bytes) -> bytes:
        out = bytearray()
        for c in piece:
            if self.convert and c == 9:
                nxt, self.index, last = self.tabs.next_column(self.column, self.index)
                if last:
                    nxt = self.column + 1
                if self.budget is not None:
                    self.budget.check_string(nxt - self.column)  # a tab stop far away: bounded
                out += b" " * (nxt - self.column)
                self.column = nxt
                continue
            if c == 8:
                if self.column:
                    self.column -= 1
                if self.index:
                    self.index -= 1
            else:
                self.column += 1
            if self.initial and c not in (32, 9):
                self.convert = False
            out.append(c)
        return bytes(out)


def parse_tabs(ctx: CommandContext, opts: list[tuple[str, str | None]]) -> TabStops | int:
    """The tab stops the options give, or the exit status after GNU's messages."""
    tabs = TabStops()
    try:
        for key, value in opts:
            text = tab_options(key, value)
            if text is not None:
                tabs.parse(text)
        tabs.finalize()
    except TabError as err:
        for message in err.messages:
            ctx.error(message)
        return 1
    return tabs


def each_stream(ctx: CommandContext, operands: list[str], handle) -> int:
    """Call ``handle(block)`` for every block of every input (``-`` is stdin); the status."""
    status = 0
    for operand in operands or ["-"]:
        try:
            stream = ctx.stdin if operand == "-" else ctx.open_read(operand)
        except FSError as err:
            ctx.error(f"{quotef(operand)}: {err}")
            status = 1
            continue
        try:
            for block, _ in line_blocks(ctx, stream):
                ctx.stdout.write(handle(block))
        except FSError as err:
            ctx.error(f"{quotef(operand)}: {err}")
            status = 1
        finally:
            if stream is not ctx.stdin:
                stream.close()
    return status


def run(ctx: CommandContext) -> int:
    """Expand tabs in the inputs."""
    parsed = parse_command_line(ctx, SPEC, HELP, version=VERSION)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    tabs = parse_tabs(ctx, opts)
    if isinstance(tabs, int):
        return tabs
    expander = Expander(tabs, any(key == "i" for key, _ in opts), ctx.budget)
    return each_stream(ctx, operands, expander.text)
