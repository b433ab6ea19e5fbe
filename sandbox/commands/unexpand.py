"""``unexpand``: convert blanks to tabs (GNU coreutils 9.1): ``-a``, ``--first-only``,
``-t LIST`` (enables ``-a``), the obsolete ``-N[,LIST]``.

GNU's state machine, byte for byte: pending blanks become a tab when they reach a stop, a single
blank just before a stop stays a blank, a backspace steps back a column, blanks past the last
stop of a list end conversion on that line; all inputs form one stream. Lines without blanks
pass through untouched.
"""

from __future__ import annotations

from sandbox.commands._tabstops import UINTMAX, TabError, TabStops
from sandbox.commands.base import CommandContext
from sandbox.commands.expand import each_stream
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line

SPEC = OptionSpec(
    short=",0123456789at:",
    long={
        "all": (NO_ARG, "a"),
        "first-only": (NO_ARG, "first-only"),
        "tabs": (REQUIRED, "t"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

HELP = """Usage: unexpand [OPTION]... [FILE]...
Convert blanks in each FILE to tabs, writing to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -a, --all        convert all blanks, instead of just initial blanks
      --first-only  convert only leading sequences of blanks (overrides -a)
  -t, --tabs=N     have tabs N characters apart instead of 8 (enables -a)
  -t, --tabs=LIST  use comma separated list of tab positions.
                     The last specified position can be prefixed with '/'
                     to specify a tab size to use after the last
                     explicitly specified tab stop.  Also a prefix of '+'
                     can be used to align remaining tab stops relative to
                     the last specified tab stop instead of the first column
      --help        display this help and exit
      --version     output version information and exit
"""

VERSION = """unexpand (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by David MacKenzie."""


class Unexpander:
    """GNU ``unexpand()``'s per-line state, kept across blocks and inputs."""

    def __init__(self, tabs: TabStops, entire: bool):
        self.tabs = tabs
        self.entire = entire
        self._new_line()

    def _new_line(self) -> None:
        self.convert = True
        self.column = 0
        self.next_tab = 0
        self.pending = bytearray()
        self.one_blank = False
        self.prev_blank = True
        self.index = 0

    def text(self, data: bytes) -> bytes:
        """Convert ``data`` (whole lines and perhaps a partial last one)."""
        lines = data.split(b"\n")
        out = []
        for k, piece in enumerate(lines):
            if k:
                out.append(self._flush() + b"\n")
                self._new_line()
            out.append(self._piece(piece))
        return b"".join(out)

    def finish(self) -> bytes:
        """Pending blanks at the end of all input."""
        return self._flush()

    def _flush(self) -> bytes:
        """A non-blank (newline or end of input) arrives: GNU's pending-blank output."""
        out = b""
        if self.pending:
            if len(self.pending) > 1 and self.one_blank:
                self.pending[0] = 9
            out = bytes(self.pending)
            self.pending.clear()
            self.one_blank = False
        return out

    def _piece(self, piece: bytes) -> bytes:
        if not self.convert or (b" " not in piece and b"\t" not in piece and not self.pending):
            if self.convert and piece:
                return self._slow(piece) if b"\b" in piece or not self.entire else self._plain(piece)
            return piece
        return self._slow(piece)

    def _plain(self, piece: bytes) -> bytes:
        self.column += len(piece)
        self.prev_blank = False
        return piece

    def _slow(self, piece: bytes) -> bytes:
        out = bytearray()
        tabs = self.tabs
        for pos, c in enumerate(piece):
            if not self.convert:
                out += piece[pos:]
                break
            blank = c in (32, 9)
            if blank:
                self.next_tab, self.index, last = tabs.next_column(self.column, self.index)
                if last:
                    self.convert = False
                if self.convert:
                    if c == 9:
                        self.column = self.next_tab
                        if self.pending:
                            self.pending[0] = 9
                    else:
                        self.column += 1
                        if not (self.prev_blank and self.column == self.next_tab):
                            if self.column == self.next_tab:
                                self.one_blank = True
                            self.pending.append(c)
                            self.prev_blank = True
                            continue
                        self.pending[0:1] = b"\t"
                        c = 9
                    del self.pending[1 if self.one_blank else 0:]
                    if not self.one_blank:
                        self.pending.clear()
            elif c == 8:
                self.column = self.column - 1 if self.column else 0
                self.next_tab = self.column
                self.index = self.index - 1 if self.index else 0
            else:
                self.column += 1
            if self.pending:
                if len(self.pending) > 1 and self.one_blank:
                    self.pending[0] = 9
                out += self.pending
                self.pending.clear()
                self.one_blank = False
            self.prev_blank = blank
            self.convert = self.convert and (self.entire or blank)
            out.append(c)
        return bytes(out)


def _parse_tabs(ctx: CommandContext, opts: list[tuple[str, str | None]]) -> TabStops | int:
    """unexpand's tab options: ``-t LIST`` as expand, and the obsolete digit and ``,`` options,
    each a flag of its own, that build one more number (``-2 -4`` is 24) added at a ``,``."""
    tabs = TabStops()
    value: int | None = None
    try:
        for key, text in opts:
            if key == "t":
                tabs.parse(text or "")
            elif key == ",":
                if value is not None:
                    tabs.stops.append(value)
                value = None
            elif key.isdigit():
                value = (value or 0) * 10 + int(key)
                if value > UINTMAX:
                    raise TabError(["tab stop value is too large"])
        if value is not None:
            tabs.stops.append(value)
        tabs.finalize()
    except TabError as err:
        for message in err.messages:
            ctx.error(message)
        return 1
    return tabs


def run(ctx: CommandContext) -> int:
    """Unexpand blanks in the inputs."""
    parsed = parse_command_line(ctx, SPEC, HELP, version=VERSION)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    entire = first_only = False
    for key, _ in opts:
        if key in ("a", "t"):
            entire = True
        elif key == "first-only":
            first_only = True
    if first_only:
        entire = False
    tabs = _parse_tabs(ctx, opts)
    if isinstance(tabs, int):
        return tabs
    worker = Unexpander(tabs, entire)
    status = each_stream(ctx, operands, worker.text)
    ctx.stdout.write(worker.finish())
    return status
