"""``csplit``: split a file into pieces at context lines, inside the jail (GNU coreutils 9.1).

Patterns: ``N`` (copy up to line N), ``/RE/[OFFSET]``, ``%RE%[OFFSET]`` (skip), each optionally
followed by ``{N}`` or ``{*}``; options ``-f PREFIX``, ``-b FORMAT`` (a printf integer format,
validated as GNU's ``max_out`` does), ``-n DIGITS``, ``-s``/``-q``, ``-k``, ``-z``,
``--suppress-matched``. The control flow is a port of GNU's ``process_regexp`` /
``process_line_count`` / ``write_to_file`` over a lazily read line store, so byte counts,
messages (``‘N’: line number out of range on repetition R``, ``match not found``), exit statuses
and the files left behind (removed on error unless ``-k``; kept after ``input disappeared``,
as GNU's ``die`` keeps them) are GNU's. Regular expressions are GNU BREs (``sandbox.regex``).
Every piece is written through the context's write API (policy and write budget apply).
"""

from __future__ import annotations

import errno
from dataclasses import dataclass
from typing import BinaryIO

from sandbox.commands._numbers import CountError, parse_count, xstrtoimax
from sandbox.commands._quoting import quote, quoteaf, quotef
from sandbox.commands._writing import operands_of
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_in_order
from sandbox.fs.base import FSError
from sandbox.regex import Regex, RegexError, compile_regex

SPEC = OptionSpec(
    "f:b:kn:sqz",
    {
        "digits": (REQUIRED, "n"),
        "quiet": (NO_ARG, "q"),
        "silent": (NO_ARG, "s"),
        "keep-files": (NO_ARG, "k"),
        "elide-empty-files": (NO_ARG, "z"),
        "prefix": (REQUIRED, "f"),
        "suffix-format": (REQUIRED, "b"),
        "suppress-matched": (NO_ARG, "suppress-matched"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: csplit [OPTION]... FILE PATTERN...
Output pieces of FILE separated by PATTERN(s) to files 'xx00', 'xx01', ...,
and output byte counts of each piece to standard output.

Read standard input if FILE is -

Mandatory arguments to long options are mandatory for short options too.
  -b, --suffix-format=FORMAT  use sprintf FORMAT instead of %02d
  -f, --prefix=PREFIX        use PREFIX instead of 'xx'
  -k, --keep-files           do not remove output files on errors
      --suppress-matched     suppress the lines matching PATTERN
  -n, --digits=DIGITS        use specified number of digits instead of 2
  -s, --quiet, --silent      do not print counts of output file sizes
  -z, --elide-empty-files    remove empty output files
      --help        display this help and exit
      --version     output version information and exit

Each PATTERN may be:
  INTEGER            copy up to but not including specified line number
  /REGEXP/[OFFSET]   copy up to but not including a matching line
  %REGEXP%[OFFSET]   skip to, but not including a matching line
  {INTEGER}          repeat the previous pattern specified number of times
  {*}                repeat the previous pattern as many times as possible

A line OFFSET is an integer optionally preceded by '+' or '-'
"""

INTMAX = (1 << 63) - 1
INT_MAX = (1 << 31) - 1
_READ = 64 * 1024
_FLUSH = 256 * 1024


class Fatal(Exception):
    """Stop: ``args[0]`` is the message (or None), ``cleanup`` whether GNU's cleanup runs."""

    def __init__(self, message: str | None, cleanup: bool = True):
        super().__init__(message)
        self.cleanup = cleanup


class _Exit(Exception):
    """``exit(EXIT_SUCCESS)`` from inside ``{*}`` processing."""


def _strtoimax(text: str) -> tuple[str, int]:
    """gnulib ``xstrtoimax`` with no suffixes: ("ok" | "overflow" | "invalid", value)."""
    status, value = xstrtoimax(text)
    return ("invalid", 0) if status == "suffix" else (status, value)


def _strtoumax(text: str) -> int | None:
    """gnulib ``xstrtoumax`` (no suffixes) limited to INTMAX_MAX, or None."""
    try:
        value = parse_count(text, "")
    except CountError:
        return None
    return value if value <= INTMAX else None


# -- the -b suffix format ---------------------------------------------------------------------

@dataclass
class _Suffix:
    """A validated printf format with one integer conversion."""

    before: str
    flags: str
    width: int
    precision: int | None
    conv: str
    after: str

    def format(self, num: int) -> str:
        """``sprintf(format, num)`` for a non-negative ``num`` in the C locale."""
        if self.conv in "diu":
            digits = str(num)
        elif self.conv == "o":
            digits = format(num, "o")
        else:
            digits = format(num, "x" if self.conv == "x" else "X")
        prefix = ""
        if self.precision is not None:
            digits = "" if self.precision == 0 and num == 0 else digits.rjust(self.precision, "0")
        if "#" in self.flags:
            if self.conv == "o" and not digits.startswith("0"):
                digits = "0" + digits
            elif self.conv in "xX" and num:
                prefix = "0" + self.conv
        body = prefix + digits
        if len(body) < self.width:
            if "-" in self.flags:
                body = body.ljust(self.width)
            elif "0" in self.flags and self.precision is None:
                body = prefix + digits.rjust(self.width - len(prefix), "0")
            else:
                body = body.rjust(self.width)
        return self.before + body + self.after


def _literal(text: str) -> str:
    return text.replace("%%", "%")


def parse_suffix(fmt: str) -> _Suffix:
    """Validate ``-b FORMAT`` as GNU's ``max_out``; raises ``Fatal`` with GNU's message."""
    spec: _Suffix | None = None
    i = 0
    while i < len(fmt):
        if fmt[i] != "%":
            i += 1
            continue
        i += 1
        if i < len(fmt) and fmt[i] == "%":
            i += 1
            continue
        if spec is not None:
            raise Fatal("too many % conversion specifications in suffix", cleanup=False)
        start = i - 1
        flags = ""
        while i < len(fmt) and fmt[i] in "-0'#":
            flags += fmt[i]
            i += 1
        w = i
        while i < len(fmt) and fmt[i].isascii() and fmt[i].isdigit():
            i += 1
        width = int(fmt[w:i]) if i > w else 0
        precision = None
        if i < len(fmt) and fmt[i] == ".":
            i += 1
            p = i
            while i < len(fmt) and fmt[i].isascii() and fmt[i].isdigit():
                i += 1
            precision = int(fmt[p:i] or "0")
        if i >= len(fmt):
            raise Fatal("missing conversion specifier in suffix", cleanup=False)
        conv = fmt[i]
        compatible = "'"
        if conv in "di":
            pass
        elif conv == "u":
            conv = "d"
        elif conv in "oxX":
            compatible = "#"
        else:
            code = ord(conv) if ord(conv) < 0x80 else conv.encode("utf-8", "surrogateescape")[0]
            if 0x20 <= code < 0x7F:
                raise Fatal(f"invalid conversion specifier in suffix: {chr(code)}", cleanup=False)
            raise Fatal(f"invalid conversion specifier in suffix: \\{code:03o}", cleanup=False)
        bad = [f for f in "#'" if f in flags and f not in compatible]
        if bad:
            raise Fatal(f"invalid flags in conversion specification: %{bad[0]}{conv}", cleanup=False)
        spec = _Suffix(_literal(fmt[:start]), flags, width, precision, conv, fmt[i + 1:])
        i += 1
    if spec is None:
        raise Fatal("missing % conversion specification in suffix", cleanup=False)
    spec.after = _literal(spec.after)
    return spec


# -- patterns ---------------------------------------------------------------------------------

@dataclass
class _Control:
    """One pattern (GNU's ``struct control``)."""

    argnum: int
    text: str
    offset: int = 0
    lines_required: int = 0
    repeat: int = 0
    repeat_forever: bool = False
    ignore: bool = False
    regex: Regex | None = None


def parse_patterns(ctx: CommandContext, args: list[str]) -> list[_Control]:
    """GNU's ``parse_patterns``: raises ``Fatal`` on a bad pattern (warnings go to stderr)."""
    controls: list[_Control] = []
    last_val = 0
    i = 0
    while i < len(args):
        arg = args[i]
        if arg[:1] in ("/", "%"):
            delim = arg[0]
            close = arg.rfind(delim, 1)
            if close < 0:
                raise Fatal(f"{arg}: closing delimiter '{delim}' missing", cleanup=False)
            control = _Control(i, arg, ignore=delim == "%")
            try:
                control.regex = compile_regex(arg[1:close].encode("utf-8", "surrogateescape"),
                                              glibc_syntax=True, budget=ctx.budget)
            except RegexError as err:
                raise Fatal(f"{quote(arg)}: invalid regular expression: {err}") from None
            if close + 1 < len(arg):
                status, value = _strtoimax(arg[close + 1:])
                if status != "ok":
                    raise Fatal(f"{quote(arg)}: integer expected after delimiter", cleanup=False)
                control.offset = value
        else:
            control = _Control(i, arg)
            val = _strtoumax(arg)
            if val is None:
                raise Fatal(f"{quote(arg)}: invalid pattern", cleanup=False)
            if val == 0:
                raise Fatal(f"{arg}: line number must be greater than zero", cleanup=False)
            if val < last_val:
                raise Fatal(f"line number {quote(arg)} is smaller than preceding line number, "
                            f"{last_val}", cleanup=False)
            if val == last_val:
                ctx.error(f"warning: line number {quote(arg)} is the same as preceding line number")
            last_val = val
            control.lines_required = val
        controls.append(control)
        if i + 1 < len(args) and args[i + 1][:1] == "{":
            i += 1
            rep = args[i]
            if not rep.endswith("}") or len(rep) < 2:
                raise Fatal(f"{quote(rep)}: '}}' is required in repeat count", cleanup=False)
            inner = rep[1:-1]
            if inner == "*":
                control.repeat_forever = True
            else:
                val = _strtoumax(inner)
                if val is None:
                    raise Fatal(f"{quote(rep[:-1])}}}: integer required between '{{' and '}}'",
                                cleanup=False)
                control.repeat = val
        i += 1
    return controls


# -- input lines ------------------------------------------------------------------------------

class _Lines:
    """The input as numbered lines, read lazily; removed lines are dropped."""

    def __init__(self, ctx: CommandContext, stream: BinaryIO):
        self.ctx = ctx
        self.stream = stream
        self.lines: list[bytes] = []
        self.start = 0  # index in self.lines of the first available line
        self.first = 1  # its line number
        self.hold = b""
        self.eof = False

    def _load(self) -> bool:
        """Read until at least one more line is stored; False at end of input."""
        while not self.eof:
            self.ctx.budget.check_time()
            try:
                block = self.stream.read(_READ)
            except FSError as err:
                raise Fatal(f"read error: {err.strerror}") from None
            if not block:
                self.eof = True
                if self.hold:
                    self.lines.append(self.hold)
                    self.hold = b""
                    return True
                return False
            data = self.hold + block
            pieces = data.split(b"\n")
            self.hold = pieces.pop()
            if pieces:
                if self.start > 4096 and self.start * 2 > len(self.lines):
                    del self.lines[: self.start]
                    self.start = 0
                self.lines.extend(p + b"\n" for p in pieces)
                return True
        return False

    def available(self) -> int:
        """Lines stored and not yet removed."""
        return len(self.lines) - self.start

    def find(self, number: int) -> bytes | None:
        """Line ``number`` (not yet removed), reading more input as needed; None past the end."""
        while number >= self.first + self.available():
            if not self._load():
                return None
        return self.lines[self.start + number - self.first]

    def remove(self) -> bytes | None:
        """The first available line, now removed; None at end of input."""
        if not self.available() and not self._load():
            return None
        line = self.lines[self.start]
        self.start += 1
        self.first += 1
        return line


# -- the splitter (GNU's control flow) --------------------------------------------------------

class _Splitter:
    def __init__(self, ctx: CommandContext, lines: _Lines, prefix: str, suffix: _Suffix | None,
                 digits: int, quiet: bool, keep: bool, elide: bool, suppress: bool):
        self.ctx = ctx
        self.lines = lines
        self.prefix = prefix
        self.suffix = suffix
        self.digits = digits
        self.quiet = quiet
        self.keep = keep
        self.elide = elide
        self.suppress = suppress
        self.current_line = 0
        self.files_created = 0
        self.output: str | None = None
        self.buffer: list[bytes] = []
        self.buffered = 0
        self.bytes_written = 0

    def filename(self, num: int) -> str:
        """GNU's ``make_filename``."""
        if self.suffix is not None:
            return self.prefix + self.suffix.format(num)
        return self.prefix + str(num).zfill(self.digits)

    # output files
    def create(self) -> None:
        name = self.filename(self.files_created)
        try:
            self.ctx.write_bytes(name, b"")
        except FSError as err:
            raise Fatal(f"{quotef(name)}: {err.strerror}") from None
        self.files_created += 1
        self.output = name
        self.bytes_written = 0

    def save(self, line: bytes) -> None:
        self.buffer.append(line)
        self.buffered += len(line)
        self.bytes_written += len(line)
        if self.buffered >= _FLUSH:
            self._flush()

    def _flush(self) -> None:
        if self.buffer and self.output is not None:
            data = b"".join(self.buffer)
            self.buffer, self.buffered = [], 0
            try:
                self.ctx.append_bytes(self.output, data)
            except FSError as err:
                name, self.output = self.output, None
                raise Fatal(f"write error for {quoteaf(name)}: {err.strerror}") from None

    def close(self) -> None:
        if self.output is None:
            return
        self._flush()
        name, self.output = self.output, None
        if self.bytes_written == 0 and self.elide:
            self.files_created -= 1
            try:
                self.ctx.remove(name)
            except FSError as err:
                if err.errno != errno.ENOENT:
                    self.ctx.error(f"{quotef(name)}: {err.strerror}")
        elif not self.quiet:
            self.ctx.stdout.write(f"{self.bytes_written}\n".encode())

    def cleanup(self) -> None:
        """GNU's ``cleanup``: close the current file, remove every file made (unless -k)."""
        try:
            self.close()
        except Fatal:
            pass
        if self.keep:
            return
        for i in range(self.files_created - 1, -1, -1):
            name = self.filename(i)
            try:
                self.ctx.remove(name)
            except FSError as err:
                if err.errno != errno.ENOENT:
                    self.ctx.error(f"{quotef(name)}: {err.strerror}")
        self.files_created = 0

    # line access
    def remove_line(self) -> bytes | None:
        if not self.lines.available() and not self.lines._load():
            return None
        if self.current_line < self.lines.first:
            self.current_line = self.lines.first
        return self.lines.remove()

    def no_more_lines(self) -> bool:
        return self.lines.find(self.current_line + 1) is None

    def first_line_in_buffer(self) -> int:
        if not self.lines.available() and not self.lines._load():
            raise Fatal("input disappeared", cleanup=False)
        return self.lines.first

    def dump_rest(self) -> None:
        while True:
            line = self.remove_line()
            if line is None:
                return
            self.save(line)

    def write_to_file(self, last_line: int, ignore: bool, control: _Control) -> None:
        first_line = self.first_line_in_buffer()
        if first_line > last_line:
            raise Fatal(f"{quote(control.text)}: line number out of range")
        for _ in range(last_line - first_line):
            line = self.remove_line()
            if line is None:
                raise Fatal(f"{quote(control.text)}: line number out of range")
            if not ignore:
                self.save(line)
            self.ctx.budget.check_time()

    @staticmethod
    def _repetition(rep: int) -> str:
        return f" on repetition {rep}" if rep else ""

    def line_error(self, control: _Control, rep: int) -> Fatal:
        return Fatal(f"{quote(str(control.lines_required))}: line number out of range"
                     + self._repetition(rep))

    def process_line_count(self, control: _Control, rep: int) -> None:
        last_to_save = control.lines_required * (rep + 1)
        self.create()
        if self.suppress and self.no_more_lines():
            raise self.line_error(control, rep)
        linenum = self.first_line_in_buffer()
        while linenum < last_to_save:
            linenum += 1
            line = self.remove_line()
            if line is None:
                raise self.line_error(control, rep)
            self.save(line)
            self.ctx.budget.check_time()
        self.close()
        if self.suppress:
            self.remove_line()
        if not self.suppress and self.no_more_lines():
            raise self.line_error(control, rep)

    def regexp_error(self, control: _Control, rep: int, ignore: bool) -> Fatal:
        self.ctx.error(f"{quote(control.text)}: match not found{self._repetition(rep)}")
        if not ignore:
            self.dump_rest()
            self.close()
        return Fatal(None)

    def process_regexp(self, control: _Control, rep: int) -> None:
        ignore = control.ignore
        regex = control.regex
        assert regex is not None
        if not ignore:
            self.create()
        while True:
            self.current_line += 1
            line = self.lines.find(self.current_line)
            if line is None:
                if control.repeat_forever:
                    if not ignore:
                        self.dump_rest()
                        self.close()
                    raise _Exit()
                raise self.regexp_error(control, rep, ignore)
            self.ctx.budget.check_time()
            body = line[:-1] if line.endswith(b"\n") else line
            if regex.search(body) is not None:
                break
            if control.offset >= 0:
                removed = self.remove_line()
                if not ignore and removed is not None:
                    self.save(removed)
        break_line = self.current_line + control.offset
        self.write_to_file(break_line, ignore, control)
        if not ignore:
            self.close()
        if control.offset > 0:
            self.current_line = break_line
        if self.suppress:
            self.remove_line()

    def split(self, controls: list[_Control]) -> None:
        for control in controls:
            rep = 0
            while control.repeat_forever or rep <= control.repeat:
                if control.regex is not None:
                    self.process_regexp(control, rep)
                else:
                    self.process_line_count(control, rep)
                rep += 1
        self.create()
        self.dump_rest()
        self.close()


def writes(args: list[str]) -> list[str]:
    """The first file this command line would write (PREFIX plus the first suffix)."""
    opts, _ = operands_of(SPEC, args)
    prefix, suffix, digits = "xx", None, 2
    for key, value in opts:
        if key == "f":
            prefix = value or ""
        elif key == "b":
            suffix = value
        elif key == "n":
            status, number = _strtoimax(value or "")
            if status == "ok" and 0 <= number <= 64:
                digits = number
    if suffix is not None:
        try:
            return [prefix + parse_suffix(suffix).format(0)]
        except Fatal:
            return [prefix + "00"]
    return [prefix + "0".zfill(digits)]


def _digits(value: str) -> int:
    """``-n`` as GNU's ``xdectoimax(optarg, 0, INT_MAX)``; raises ``Fatal``."""
    status, number = _strtoimax(value)
    if status == "invalid":
        raise Fatal(f"invalid number: {quote(value)}", cleanup=False)
    if status == "overflow" or number > INT_MAX:
        raise Fatal(f"invalid number: {quote(value)}: Value too large for defined data type",
                    cleanup=False)
    if number < 0:
        raise Fatal(f"invalid number: {quote(value)}: Numerical result out of range", cleanup=False)
    return number


def run(ctx: CommandContext) -> int:
    """Run ``csplit``."""

    def check(key: str, value: str | None) -> int | None:
        if key == "n":
            try:
                _digits(value or "")
            except Fatal as fatal:
                ctx.error(str(fatal.args[0]))
                return 1
        return None

    parsed = parse_in_order(ctx, SPEC, USAGE, "csplit (GNU coreutils) 9.1", check)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    prefix, suffix_text, digits = "xx", None, 2
    quiet = keep = elide = suppress = False
    try:
        for key, value in opts:
            if key == "f":
                prefix = value or ""
            elif key == "b":
                suffix_text = value or ""
            elif key == "k":
                keep = True
            elif key == "n":
                digits = _digits(value or "")
            elif key in "sq":
                quiet = True
            elif key == "z":
                elide = True
            elif key == "suppress-matched":
                suppress = True
        if len(operands) < 2:
            if not operands:
                return ctx.usage_error("missing operand")
            return ctx.usage_error(f"missing operand after {quote(operands[-1])}")
        suffix = parse_suffix(suffix_text) if suffix_text is not None else None
        if digits > 100_000:
            raise Fatal("memory exhausted", cleanup=False)
        name = operands[0]
        try:
            stream = ctx.stdin if name == "-" else ctx.open_read(name)
        except FSError as err:
            if err.errno != errno.EISDIR:
                raise Fatal(f"cannot open {quoteaf(name)} for reading: {err.strerror}",
                            cleanup=False) from None
            stream = _Unreadable(err)
        controls = parse_patterns(ctx, operands[1:])
    except Fatal as fatal:
        if fatal.args[0] is not None:
            ctx.error(fatal.args[0])
        return 1
    splitter = _Splitter(ctx, _Lines(ctx, stream), prefix, suffix, digits, quiet, keep, elide,
                         suppress)
    try:
        splitter.split(controls)
    except _Exit:
        return 0
    except Fatal as fatal:
        if fatal.args[0] is not None:
            ctx.error(fatal.args[0])
        if fatal.cleanup:
            splitter.cleanup()
        else:
            splitter._flush()
        return 1
    finally:
        if stream is not ctx.stdin:
            stream.close()
    return 0


class _Unreadable:
    """A directory operand: GNU opens it, and the first read fails with EISDIR."""

    def __init__(self, err: FSError):
        self.err = err

    def read(self, n: int = -1) -> bytes:
        """Fail as ``read(2)`` on a directory does."""
        raise self.err

    def close(self) -> None:
        """Nothing to close."""
