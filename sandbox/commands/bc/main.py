"""Command line and driver of ``bc``: options, sources (files, then stdin), messages.

GNU bc 1.07.1's main.c/util.c: ``-l`` defines the math library (``libmath.py``) first,
``-s`` makes POSIX extensions errors and ``-w`` warnings (``NAME LINE: Error: ...`` / ``(Warning) ...``),
``-i`` prints the banner (not with ``-q``) and echoes each non-empty line of standard input
as readline does when it reads it; ``BC_ENV_ARGS`` holds more arguments (read first) and
``POSIXLY_CORRECT`` means ``-s``; a missing file is ``File X is unavailable.`` (status 1).
Syntax and runtime errors do not change the exit status (0), as in GNU bc.
"""

from __future__ import annotations

from sandbox.commands.base import CommandContext
from sandbox.commands.bc import libmath
from collections.abc import Iterator

from sandbox.commands.bc.compiler import Abort, Names, Parser, Quit, Scanner, Token
from sandbox.commands.bc.machine import Function, Halt, Machine, Output, Refused
from sandbox.commands.bc.number import NumberLimit
from sandbox.commands.options import NO_ARG, OptionSpec, UsageError, parse
from sandbox.fs.base import FSError

SPEC = OptionSpec("hilqswv", {
    "help": (NO_ARG, "h"), "interactive": (NO_ARG, "i"), "mathlib": (NO_ARG, "l"),
    "quiet": (NO_ARG, "q"), "standard": (NO_ARG, "s"), "warn": (NO_ARG, "w"),
    "version": (NO_ARG, "v")})

USAGE = """usage: {prog} [options] [file ...]
  -h  --help         print this usage and exit
  -i  --interactive  force interactive mode
  -l  --mathlib      use the predefined math routines
  -q  --quiet        don't print initial banner
  -s  --standard     non-standard bc constructs are errors
  -w  --warn         warn about non-standard bc constructs
  -v  --version      print version information and exit
"""

VERSION = ("bc 1.07.1\nCopyright 1991-1994, 1997, 1998, 2000, 2004, 2006, 2008, 2012-2017 "
           "Free Software Foundation, Inc.\n")

BANNER = VERSION + "This is free software with ABSOLUTELY NO WARRANTY.\nFor details type `warranty'. \n"

WARRANTY = '\nbc 1.07.1\nCopyright 1991-1994, 1997, 1998, 2000, 2004, 2006, 2008, 2012-2017 Free Software Foundation, Inc.\n\n    This program is free software; you can redistribute it and/or modify\n    it under the terms of the GNU General Public License as published by\n    the Free Software Foundation; either version 3 of the License , or\n    (at your option) any later version.\n\n    This program is distributed in the hope that it will be useful,\n    but WITHOUT ANY WARRANTY; without even the implied warranty of\n    MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the\n    GNU General Public License for more details.\n\n    You should have received a copy of the GNU General Public License\n    along with this program. If not, write to\n\n       The Free Software Foundation, Inc.\n       51 Franklin Street, Fifth Floor\n       Boston, MA 02110-1335  USA\n\n'

LIMITS = """BC_BASE_MAX     = 2147483647
BC_DIM_MAX      = 16777215
BC_SCALE_MAX    = 2147483647
BC_STRING_MAX   = 2147483647
MAX Exponent    = 9223372036854775807
Number of vars  = 32767
"""


def line_length(env: dict[str, str]) -> int:
    """BC_LINE_LENGTH as main.c reads it (atoi; below 3 and not 0 means 70)."""
    value = env.get("BC_LINE_LENGTH")
    if value is None:
        return 70
    text = value.lstrip(" \t\n\v\f\r")
    sign = 1
    if text[:1] in "+-" and text:
        sign = -1 if text[0] == "-" else 1
        text = text[1:]
    digits = ""
    for ch in text:
        if not ch.isascii() or not ch.isdigit():
            break
        digits += ch
    n = sign * int(digits[:18]) if digits else 0
    if n < 3 and n != 0:
        return 70
    return n


class _Session:
    """One bc run: the names, the machine and the parser, fed source after source."""

    def __init__(self, ctx: CommandContext, std_only: bool, warn: bool):
        self.ctx = ctx
        self.std_only = std_only
        self.warn = warn
        self.source_name = "(standard_in)"
        self.scanner: Scanner | None = None
        self.at_end = False
        self.interactive = False
        self.names = Names()
        self.out = Output(ctx.stdout.write, line_length(ctx.env))
        self.machine = Machine(self.out, self.err, self.names.f_names, self.names.v_names,
                               self.names.a_names, ctx.budget.check_time, std_only)
        self.parser = Parser(self.names, self.yyerror, self.ct_warn, self.run_item,
                             self.special, ctx.budget.check_time)
        self.parser.std_only = std_only
        self.parser.warn = warn
        self.machine.warn = warn

    def err(self, text: str) -> None:
        """Write a message to stderr."""
        self.out.flush()
        self.ctx.stderr.write(text.encode("latin-1", "replace"))

    def _line(self) -> int:
        if self.at_end or self.scanner is None:
            return 1
        return self.scanner.line_no

    def yyerror(self, message: str) -> None:
        """``NAME LINE: message``; the current item will not run."""
        self.err(f"{self.source_name} {self._line()}: {message}\n")
        self.parser.had_error = True

    def ct_warn(self, message: str) -> None:
        """A POSIX-extension notice: an error under -s, a warning under -w."""
        if self.std_only:
            self.err(f"{self.source_name} {self._line()}: Error: {message}\n")
            self.parser.had_error = True
        elif self.warn:
            self.err(f"{self.source_name} {self._line()}: (Warning) {message}\n")

    def special(self, which: str) -> None:
        """``warranty`` and ``limits`` act while parsing."""
        self.out.put(WARRANTY if which == "warranty" else LIMITS)  # printf: no column count
        self.out.flush()

    def run_item(self, code: list[str], ok: bool) -> None:
        """``run_code``: load the item and run the main program if it compiled."""
        if not ok:
            return
        m = self.machine
        m.init_load()
        for piece in code:
            m.load_code(piece)
        m.execute()

    def load_library(self) -> None:
        """``-l``: functions e l s a c j (numbers 1..6, our native ones), then ``scale=20``."""
        for name in libmath.NAMES:
            n = self.names.func(name)
            self.machine.functions[n] = Function(
                name, defined=True, params=list(libmath.PARAMS[name]),
                native=lambda args, scale, check, name=name: libmath.call(name, args, scale, check))
        self.machine.scale = 20

    def tokens(self, operands: list[str]) -> Iterator[Token]:
        """The files' tokens, then standard input's, then EOF for ever (flex's yywrap)."""
        for operand in operands:
            try:
                data = self.ctx.read_bytes(operand)
            except FSError:
                raise Unavailable(operand) from None
            self._start(operand, data)
            assert self.scanner is not None
            yield from self.scanner.tokens()
        self._start("(standard_in)", self.ctx.stdin.read())
        assert self.scanner is not None
        if self.interactive:
            self.scanner.echo = self.out.put
        yield from self.scanner.tokens()
        self.at_end = True
        self.source_name = "(standard_in)"
        while True:
            yield Token("EOF")

    def _start(self, name: str, data: bytes) -> None:
        self.source_name = name
        self.scanner = Scanner(data.decode("latin-1"), lambda msg: self.yyerror(msg),
                               self.std_only, self.ctx.budget.check_time)
        self.scanner.report_raw = self.err  # type: ignore[method-assign]


class Unavailable(Exception):
    """A file operand cannot be read."""


def run(ctx: CommandContext) -> int:
    """bc's main."""
    env_args = ctx.env.get("BC_ENV_ARGS", "").split()
    try:
        opts, operands = parse(SPEC, env_args + ctx.args)
    except UsageError as e:
        ctx.error(str(e))
        ctx.stdout.write(USAGE.format(prog=ctx.prog).encode())
        return 1
    keys = {k for k, _ in opts}
    if "h" in keys:
        ctx.stdout.write(USAGE.format(prog=ctx.prog).encode())
        return 0
    if "v" in keys:
        ctx.stdout.write(VERSION.encode())
        return 0
    session = _Session(ctx, "s" in keys or "POSIXLY_CORRECT" in ctx.env, "w" in keys)
    if "i" in keys:
        session.interactive = True
        if "q" not in keys:
            session.out.put(BANNER)
    try:
        try:
            if "l" in keys:
                session.load_library()
            session.parser.parse_source(session.tokens(operands))
        except Unavailable as e:
            session.err(f"File {e} is unavailable.\n")
            return 1
        except (Quit, Halt, Abort):
            pass
        except RecursionError:
            session.out.flush()
            session.err("bc: program nested too deeply (refused)\n")
            return 1
        except (Refused, NumberLimit) as e:
            session.out.flush()
            msg = str(e)
            if not msg.startswith("bc: "):
                msg = f"bc: refused: {msg} is beyond the sandbox's limits"
            session.err(msg + "\n")
            return 1
    finally:
        session.out.flush()
    return 0
