"""``nl``: number lines (GNU coreutils 9.1).

Options: ``-b/-h/-f STYLE`` (``a``, ``t``, ``n``, ``pBRE``), ``-d CC`` (section delimiters,
GNU's one/two/many-character rules, ``''`` disables them), ``-i N``, ``-l N``, ``-n ln|rn|rz``,
``-p``, ``-s STRING``, ``-v N``, ``-w N``, with GNU's messages and range checks (``Numerical
result out of range`` / ``Value too large for defined data type``) and ``line number
overflow``. All inputs form one stream; a last line without a newline gets one, as GNU's
``readlinebuffer`` does. Blocks without section delimiters are numbered by the C accelerator
where it is built (``number_lines``), else with C-level joins.
"""

from __future__ import annotations

import itertools
import re
from typing import Callable

from sandbox._native import linescan
from sandbox.commands._lineblocks import line_blocks
from sandbox.commands._quoting import quote, quotef
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError
from sandbox.regex import RegexError, compile_regex

SPEC = OptionSpec(
    short="b:d:f:h:i:l:n:ps:v:w:",
    long={
        "body-numbering": (REQUIRED, "b"),
        "section-delimiter": (REQUIRED, "d"),
        "footer-numbering": (REQUIRED, "f"),
        "header-numbering": (REQUIRED, "h"),
        "line-increment": (REQUIRED, "i"),
        "join-blank-lines": (REQUIRED, "l"),
        "number-format": (REQUIRED, "n"),
        "no-renumber": (NO_ARG, "p"),
        "number-separator": (REQUIRED, "s"),
        "starting-line-number": (REQUIRED, "v"),
        "number-width": (REQUIRED, "w"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

HELP = """Usage: nl [OPTION]... [FILE]...
Write each FILE to standard output, with line numbers added.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --body-numbering=STYLE      use STYLE for numbering body lines
  -d, --section-delimiter=CC      use CC for logical page delimiters
  -f, --footer-numbering=STYLE    use STYLE for numbering footer lines
  -h, --header-numbering=STYLE    use STYLE for numbering header lines
  -i, --line-increment=NUMBER     line number increment at each line
  -l, --join-blank-lines=NUMBER   group of NUMBER empty lines counted as one
  -n, --number-format=FORMAT      insert line numbers according to FORMAT
  -p, --no-renumber               do not reset line numbers for each section
  -s, --number-separator=STRING   add STRING after (possible) line number
  -v, --starting-line-number=NUMBER  first line number for each section
  -w, --number-width=NUMBER       use NUMBER columns for line numbers
      --help        display this help and exit
      --version     output version information and exit

Default options are: -bt -d'\\:' -fn -hn -i1 -l1 -n'rn' -s<TAB> -v1 -w6

CC are two delimiter characters used to construct logical page delimiters;
a missing second character implies ':'.  As a GNU extension one can specify
more than two characters, and also specifying the empty string (-d '')
disables section matching.

STYLE is one of:

  a      number all lines
  t      number only nonempty lines
  n      number no lines
  pBRE   number only lines that contain a match for the basic regular
         expression, BRE

FORMAT is one of:

  ln     left justified, no leading zeros
  rn     right justified, no leading zeros
  rz     right justified, leading zeros

"""

VERSION = """nl (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Scott Bartram and David MacKenzie."""
INTMAX = (1 << 63) - 1
INTMIN = -(1 << 63)
INT_MAX = (1 << 31) - 1
_NUMBER = re.compile(r"[ \t\n\v\f\r]*([+-]?)([0-9]+)(.*)", re.DOTALL)


class NlError(Exception):
    """A fatal error; ``str()`` is the message, ``usage`` whether GNU adds the Try line."""

    def __init__(self, message: str, usage: bool = False):
        super().__init__(message)
        self.usage = usage
        self.partial = b""


def dec_to_int(text: str, low: int, high: int, what: str) -> int:
    """gnulib ``xdectoimax``: a decimal in [low, high] or ``NlError`` with GNU's wording."""
    m = _NUMBER.fullmatch(text)
    if m is None:
        raise NlError(f"{what}: {quote(text)}")
    value = int(m.group(1) + m.group(2))
    overflow = not INTMIN <= value <= INTMAX
    if m.group(3):
        raise NlError(f"{what}: {quote(text)}")
    if overflow:
        raise NlError(f"{what}: {quote(text)}: Value too large for defined data type")
    if not low <= value <= high:
        reason = "Value too large for defined data type" if not -INT_MAX - 1 <= value <= INT_MAX else "Numerical result out of range"
        raise NlError(f"{what}: {quote(text)}: {reason}")
    return value


class Style:
    """A numbering style: ``kind`` is ``a t n p``; ``regex`` for ``p``."""

    def __init__(self, spec: str, section: str):
        if spec in ("a", "t", "n"):
            self.kind, self.regex = spec, None
        elif spec.startswith("p"):
            self.kind = "p"
            try:
                self.regex = compile_regex(spec[1:].encode("utf-8", "surrogateescape"))
            except RegexError as err:
                raise NlError(str(err)) from None
        else:
            raise NlError(f"invalid {section} numbering style: {quote(spec)}", usage=True)


class Numberer:
    """The state of one nl run: settings, the current section, the line number."""

    def __init__(self, ctx: CommandContext, styles: dict[str, Style], settings: dict):
        self.ctx = ctx
        self.styles = styles
        self.start: int = settings["start"]
        self.incr: int = settings["incr"]
        self.join: int = settings["join"]
        self.renumber: bool = settings["renumber"]
        self.sep: bytes = settings["sep"]
        width: int = settings["width"]
        fmt = settings["format"]
        flag = {"ln": "-", "rn": "", "rz": "0"}[fmt]
        self.width, self.flag = width, ord(flag) if flag else 0
        self.fmt = f"%{flag}{width}d".encode() + self.sep.replace(b"%", b"%%")
        self.blank = b" " * (width + len(self.sep))
        self.line_no = self.start
        self.overflow = False
        self.style = styles["body"]
        self.blank_run = 0
        delim = settings["delim"]
        self.delims: dict[bytes, str] = {}
        if len(delim) >= 2:
            self.delims = {delim * 3: "header", delim * 2: "body", delim: "footer"}
        self.delim_prefix = delim[:2]

    def number(self) -> bytes:
        """The prefix of a numbered line, advancing the counter."""
        if self.overflow:
            raise NlError("line number overflow")
        prefix = self.fmt % self.line_no
        self.line_no += self.incr
        if not INTMIN <= self.line_no <= INTMAX:
            self.overflow = True
        return prefix

    def line(self, text: bytes) -> bytes:
        """One output line for input line ``text`` (without its newline)."""
        if self.delims and text.startswith(self.delim_prefix):
            section = self.delims.get(text)
            if section is not None:
                self.style = self.styles[section]
                if self.renumber:
                    self.line_no = self.start
                    self.overflow = False
                return b"\n"
        kind = self.style.kind
        if kind == "a":
            if self.join > 1:
                if text:
                    self.blank_run = 0
                    return self.number() + text + b"\n"
                self.blank_run += 1
                if self.blank_run == self.join:
                    self.blank_run = 0
                    return self.number() + b"\n"
                return self.blank + b"\n"
            return self.number() + text + b"\n"
        if kind == "t":
            return (self.number() if text else self.blank) + text + b"\n"
        if kind == "n":
            return self.blank + text + b"\n"
        assert self.style.regex is not None
        matched = self.style.regex.search(text) is not None
        return (self.number() if matched else self.blank) + text + b"\n"

    def block(self, lines: list[bytes]) -> bytes:
        """Output for a block of whole lines."""
        kind = self.style.kind
        simple = kind in ("t", "n") or (kind == "a" and self.join <= 1)
        if simple and not self.overflow and not (self.delims and self._has_delims(lines)):
            count = len(lines) if kind == "a" else (0 if kind == "n" else len(lines) - lines.count(b""))
            last = self.line_no + self.incr * count
            if count == 0 or INTMIN <= last - self.incr <= INTMAX:
                return self._fast(lines, kind, count)
        done: list[bytes] = []
        try:
            for text in lines:
                done.append(self.line(text))
        except NlError as err:
            err.partial = b"".join(done)
            raise
        return b"".join(done)

    def native_block(self, number_lines: Callable, block: bytes) -> bytes | None:
        """Output for a block of whole lines by the C accelerator, or None where its rules
        don't hold (a style other than ``a``/``t``, joined blank lines, a section delimiter
        in the block, a number leaving the 64-bit range): ``block`` then goes line by line."""
        kind = self.style.kind
        if kind not in ("a", "t") or (kind == "a" and self.join > 1) or self.overflow:
            return None
        prefix = self.delim_prefix
        if self.delims and (block.startswith(prefix) or b"\n" + prefix in block):
            return None
        done = number_lines(block, kind == "a", self.line_no, self.incr, self.width, self.flag,
                            self.sep, self.blank)
        if done is None:
            return None
        out, self.line_no = done
        return out

    def _has_delims(self, lines: list[bytes]) -> bool:
        prefix = self.delim_prefix
        return any(x.startswith(prefix) and x in self.delims for x in lines)

    def _fast(self, lines: list[bytes], kind: str, count: int) -> bytes:
        """A block without section delimiters or overflow, formatted by one ``%`` in C: the
        format holds ``NUMBER-FORMAT %b\\n`` for each numbered line and the blank prefix for
        each other one; the arguments are the numbers interleaved with the numbered lines."""
        if kind == "n":
            blank = self.blank
            return blank + (b"\n" + blank).join(lines) + b"\n"
        start, incr = self.line_no, self.incr
        numbers = range(start, start + incr * count, incr) if incr else itertools.repeat(start, count)
        self.line_no += incr * count
        if not INTMIN <= self.line_no <= INTMAX:
            self.overflow = True
        unit = self.fmt + b"%b\n"
        if kind == "a":
            form = unit * len(lines)
            numbered = lines
        else:
            form = b"".join(map((self.blank + b"\n", unit).__getitem__, map(bool, lines)))
            numbered = filter(None, lines)
        return form % tuple(itertools.chain.from_iterable(zip(numbers, numbered)))


def _apply(key: str, value: str, styles: dict[str, Style], settings: dict, bad: list[str]) -> None:
    """Apply one option; a bad style or format is added to ``bad`` (GNU goes on parsing)."""
    if key in "bhf":
        section = {"b": "body", "h": "header", "f": "footer"}[key]
        try:
            styles[section] = Style(value, section)
        except NlError as err:
            if not err.usage:
                raise
            bad.append(str(err))
    elif key == "d":
        raw = value.encode("utf-8", "surrogateescape")
        settings["delim"] = raw + settings["delim"][1:2] if len(raw) == 1 else raw
    elif key == "i":
        settings["incr"] = dec_to_int(value, INTMIN, INTMAX, "invalid line number increment")
    elif key == "l":
        settings["join"] = dec_to_int(value, 1, INTMAX, "invalid line number of blank lines")
    elif key == "n":
        if value in ("ln", "rn", "rz"):
            settings["format"] = value
        else:
            bad.append(f"invalid line numbering format: {quote(value)}")
    elif key == "p":
        settings["renumber"] = False
    elif key == "s":
        settings["sep"] = value.encode("utf-8", "surrogateescape")
    elif key == "v":
        settings["start"] = dec_to_int(value, INTMIN, INTMAX, "invalid starting line number")
    elif key == "w":
        settings["width"] = dec_to_int(value, 1, INT_MAX, "invalid line number field width")


def _parse(ctx: CommandContext, opts: list[tuple[str, str | None]]) -> tuple[dict[str, Style], dict]:
    styles = {"body": Style("t", "body"), "header": Style("n", "header"), "footer": Style("n", "footer")}
    settings: dict = {"start": 1, "incr": 1, "join": 1, "renumber": True, "sep": b"\t",
                      "width": 6, "format": "rn", "delim": b"\\:"}
    bad: list[str] = []
    try:
        for key, value in opts:
            _apply(key, value or "", styles, settings, bad)
    except NlError:
        for message in bad:
            ctx.error(message)
        raise
    if bad:
        for message in bad[:-1]:
            ctx.error(message)
        raise NlError(bad[-1], usage=True)
    return styles, settings


def run(ctx: CommandContext) -> int:
    """Number the lines of the inputs."""
    parsed = parse_command_line(ctx, SPEC, HELP, version=VERSION)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    try:
        styles, settings = _parse(ctx, opts)
    except NlError as err:
        if err.usage:
            return ctx.usage_error(str(err))
        ctx.error(str(err))
        return 1
    ctx.budget.check_string(settings["width"] + len(settings["sep"]))
    numberer = Numberer(ctx, styles, settings)
    status = 0
    try:
        for operand in operands or ["-"]:
            try:
                stream = ctx.stdin if operand == "-" else ctx.open_read(operand)
            except FSError as err:
                ctx.error(f"{quotef(operand)}: {err}")
                status = 1
                continue
            try:
                _number_stream(ctx, numberer, stream)
            except FSError as err:
                ctx.error(f"{quotef(operand)}: {err}")
                status = 1
            finally:
                if stream is not ctx.stdin:
                    stream.close()
    except NlError as err:
        ctx.error(str(err))
        return 1
    return status


def _number_stream(ctx: CommandContext, numberer: Numberer, stream) -> None:
    native = getattr(linescan(), "number_lines", None)
    for block, whole in line_blocks(ctx, stream):
        if whole and native is not None:
            out = numberer.native_block(native, block)
            if out is not None:
                ctx.stdout.write(out)
                continue
        lines = block.split(b"\n")
        if whole:
            lines.pop()
        _emit(ctx, numberer, lines)


def _emit(ctx: CommandContext, numberer: Numberer, lines: list[bytes]) -> None:
    """Write a block, keeping the lines numbered before an overflow error."""
    try:
        ctx.stdout.write(numberer.block(lines))
    except NlError as err:
        ctx.stdout.write(err.partial)
        raise
