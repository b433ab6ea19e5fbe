"""``shuf``: random permutations (GNU coreutils 9.1): ``-e``, ``-i LO-HI``, ``-n COUNT``,
``-r``, ``-z``, ``-o FILE``, ``--random-source=FILE``.

With ``--random-source`` the output is GNU's exactly: the bytes of FILE are consumed as gnulib's
``randint_genmax`` consumes them (big-endian bytes appended to the pending number, rejection of
the unusable top of the range, the leftover randomness kept), permutations are gnulib's
``randperm_new`` (a partial Fisher-Yates), and standard input with ``-n`` is sampled with
shuf's reservoir (a choice drawn before each line read, even the one that finds the end).
Running out of FILE is GNU's ``shuf: ‘FILE’: end of file``. Without it a fresh random
generator is used. ``-r`` without ``-n`` stops at the sandbox's output limit.
"""

from __future__ import annotations

import errno
import random
import re
from typing import BinaryIO

from sandbox.commands._quoting import quote, quotef
from sandbox.commands._writing import operands_of
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    short="ei:n:o:rz",
    long={
        "echo": (NO_ARG, "e"),
        "input-range": (REQUIRED, "i"),
        "head-count": (REQUIRED, "n"),
        "output": (REQUIRED, "o"),
        "random-source": (REQUIRED, "random-source"),
        "repeat": (NO_ARG, "r"),
        "zero-terminated": (NO_ARG, "z"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

HELP = """Usage: shuf [OPTION]... [FILE]
  or:  shuf -e [OPTION]... [ARG]...
  or:  shuf -i LO-HI [OPTION]...
Write a random permutation of the input lines to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -e, --echo                treat each ARG as an input line
  -i, --input-range=LO-HI   treat each number LO through HI as an input line
  -n, --head-count=COUNT    output at most COUNT lines
  -o, --output=FILE         write result to FILE instead of standard output
      --random-source=FILE  get random bytes from FILE
  -r, --repeat              output lines can be repeated
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
"""

VERSION = "shuf (GNU coreutils) 9.1"
SIZE_MAX = (1 << 64) - 1
_MASK = (1 << 64) - 1
_UNSIGNED = re.compile(r"[ \t\n\v\f\r]*\+?([0-9]+)")


class ShufError(Exception):
    """A fatal error: ``str()`` is the message, ``usage`` adds GNU's Try line."""

    def __init__(self, message: str, usage: bool = False):
        super().__init__(message)
        self.usage = usage


def writes(args: list[str]) -> list[str]:
    """The ``-o FILE`` this command line writes."""
    opts, _ = operands_of(SPEC, args)
    return [v for k, v in opts if k == "o" and v is not None]


class ByteSource:
    """gnulib ``randint_source`` over the bytes of a file, read as they are needed (so
    ``/dev/urandom`` serves): ``choose(n)`` is ``randint_choose``."""

    def __init__(self, stream: BinaryIO, name: str):
        self.stream = stream
        self.name = name
        self.randnum = 0
        self.randmax = 0

    def _read(self, count: int) -> bytes:
        try:
            piece = self.stream.read(count)
        except FSError as err:
            raise ShufError(f"{quote(self.name)}: read error: {err.strerror}") from None
        if len(piece) < count:
            raise ShufError(f"{quote(self.name)}: end of file")
        return piece

    def genmax(self, genmax: int) -> int:
        """A uniform integer in [0, genmax], exactly as ``randint_genmax``."""
        randnum, randmax = self.randnum, self.randmax
        choices = genmax + 1
        while True:
            if randmax < genmax:
                i = 0
                rmax = randmax
                while True:
                    rmax = ((rmax << 8) + 255) & _MASK
                    i += 1
                    if rmax >= genmax:
                        break
                buf = self._read(i)
                k = 0
                while True:
                    randnum = ((randnum << 8) + buf[k]) & _MASK
                    randmax = ((randmax << 8) + 255) & _MASK
                    k += 1
                    if randmax >= genmax:
                        break
            if randmax == genmax:
                self.randnum = self.randmax = 0
                return randnum
            excess = randmax - genmax
            unusable = excess % choices
            last_usable = randmax - unusable
            reduced = randnum % choices
            if randnum <= last_usable:
                self.randnum = randnum // choices
                self.randmax = excess // choices
                return reduced
            randnum = reduced
            randmax = unusable - 1

    def choose(self, n: int) -> int:
        """``randint_choose``: uniform in [0, n)."""
        return self.genmax(n - 1)


class SystemSource:
    """Randomness without ``--random-source``: Python's generator, freshly seeded."""

    def __init__(self) -> None:
        self.rng = random.Random()

    def choose(self, n: int) -> int:
        """Uniform in [0, n)."""
        return self.rng.randrange(n)


def randperm(src, h: int, n: int) -> list[int]:
    """gnulib ``randperm_new``: the first ``h`` entries of a random permutation of range(n)."""
    if h == 0:
        return []
    if h == 1:
        return [src.choose(n)]
    v: dict[int, int] = {}
    out: list[int] = []
    for i in range(h):
        j = i + src.choose(n - i)
        vi, vj = v.get(i, i), v.get(j, j)
        v[i], v[j] = vj, vi
        out.append(vj)
    return out


def _count(text: str) -> int:
    m = _UNSIGNED.fullmatch(text)
    if m is None:
        raise ShufError(f"invalid line count: {quote(text)}")
    return min(int(m.group(1)), SIZE_MAX)


def _range_part(part: str) -> int:
    m = _UNSIGNED.fullmatch(part)
    if m is None:
        raise ShufError(f"invalid input range: {quote(part)}")
    value = int(m.group(1))
    if value > SIZE_MAX:
        raise ShufError(f"invalid input range: {quote(part)}: Value too large for defined data type")
    return value


def _range(text: str) -> tuple[int, int]:
    """``-i LO-HI`` as shuf parses it (each part with ``xdectoumax``, then the range check)."""
    lo_text, dash, hi_text = text.partition("-")
    if not dash:
        _range_part(text)
        raise ShufError(f"invalid input range: {quote(text)}")
    lo, hi = _range_part(lo_text), _range_part(hi_text)
    count = (hi - lo + 1) & SIZE_MAX
    if (lo <= hi) == (count == 0):
        raise ShufError(f"invalid input range: {quote(text)}")
    return lo, hi


def run(ctx: CommandContext) -> int:
    """Shuffle the input."""
    parsed = parse_command_line(ctx, SPEC, HELP, version=VERSION)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    try:
        return _run(ctx, opts, operands)
    except ShufError as err:
        if err.usage:
            return ctx.usage_error(str(err))
        ctx.error(str(err))
        return 1


def _run(ctx: CommandContext, opts: list[tuple[str, str | None]], operands: list[str]) -> int:
    echo = repeat = False
    head = SIZE_MAX
    irange: tuple[int, int] | None = None
    output: str | None = None
    source_name: str | None = None
    eol = b"\n"
    for key, value in opts:
        value = value or ""
        if key == "e":
            echo = True
        elif key == "i":
            if irange is not None:
                raise ShufError("multiple -i options specified")
            irange = _range(value)
        elif key == "n":
            head = min(head, _count(value))
        elif key == "o":
            if output is not None and output != value:
                raise ShufError("multiple output files specified")
            output = value
        elif key == "random-source":
            if source_name is not None and source_name != value:
                raise ShufError("multiple random sources specified")
            source_name = value
        elif key == "r":
            repeat = True
        elif key == "z":
            eol = b"\0"
    if echo and irange is not None:
        raise ShufError("cannot combine -e and -i options", usage=True)
    if irange is not None and operands:
        raise ShufError(f"extra operand {quote(operands[0])}", usage=True)
    if not echo and irange is None and len(operands) > 1:
        raise ShufError(f"extra operand {quote(operands[1])}", usage=True)
    lines: list[bytes] = []
    from_pipe = False
    if echo:
        lines = [a.encode("utf-8", "surrogateescape") + eol for a in operands]
    elif irange is None:
        name = operands[0] if operands else "-"
        try:
            stream = ctx.stdin if name == "-" else ctx.open_read(name)
        except FSError as err:
            if err.errno != errno.EISDIR:  # GNU opens a directory; its read fails (below)
                raise ShufError(f"{quotef(name)}: {err}") from None
            stream = None
        try:
            if stream is None:
                raise FSError(errno.EISDIR, name)
            data = stream.read()
        except FSError as err:  # GNU's read_input: ``read error``, no file name
            raise ShufError(f"read error: {err}") from None
        finally:
            if stream is not None and stream is not ctx.stdin:
                stream.close()
        from_pipe = name == "-"
        if data:
            if not data.endswith(eol):
                data += eol
            lines = [piece + eol for piece in data.split(eol)[:-1]]
    src = ByteSource(_open_source(ctx, source_name), source_name) if source_name is not None else SystemSource()
    out: list[bytes] = []
    try:
        _generate(ctx, src, lines, irange, head, repeat, from_pipe, eol, out, output)
    finally:
        if isinstance(src, ByteSource):
            src.stream.close()
        _emit(ctx, out, output)
    return 0


def _open_source(ctx: CommandContext, name: str) -> BinaryIO:
    try:
        return ctx.open_read(name)
    except FSError as err:
        if err.errno == errno.EISDIR:  # GNU opens a directory; its first read fails
            return _Unreadable(err)
        raise ShufError(f"{quotef(name)}: {err}") from None


class _Unreadable:
    """A random source whose every read fails with ``err`` (a directory)."""

    def __init__(self, err: FSError):
        self.err = err

    def read(self, count: int) -> bytes:
        """Raise the error."""
        raise self.err

    def close(self) -> None:
        """Nothing to close."""


def _emit(ctx: CommandContext, out: list[bytes], output: str | None) -> None:
    data = b"".join(out)
    out.clear()
    if output is None:
        ctx.stdout.write(data)
        return
    try:
        ctx.write_bytes(output, data)
    except FSError as err:
        raise ShufError(f"{quotef(output)}: {err}") from None


def _generate(ctx: CommandContext, src, lines: list[bytes], irange: tuple[int, int] | None, head: int,
              repeat: bool, from_pipe: bool, eol: bytes, out: list[bytes], output: str | None) -> None:
    n = (irange[1] - irange[0] + 1) if irange is not None else len(lines)
    if repeat:
        if head == 0:
            return
        if n == 0:
            raise ShufError("no lines to repeat")
        count = 0
        while count < head:
            j = src.choose(n)
            out.append(b"%d%s" % (irange[0] + j, eol) if irange is not None else lines[j])
            count += 1
            if len(out) >= 4096:
                if output is None:
                    _emit(ctx, out, None)  # the pipe or the output limit bounds an endless -r
                else:
                    ctx.budget.check_string(sum(map(len, out)))
                ctx.budget.check_time()
        return
    if from_pipe and head != SIZE_MAX:
        lines = _reservoir(src, lines, head)
        n = len(lines)
        perm = randperm(src, n, n)
    else:
        perm = randperm(src, min(head, n), n)
    for index in perm:
        out.append(b"%d%s" % (irange[0] + index, eol) if irange is not None else lines[index])


def _reservoir(src, lines: list[bytes], k: int) -> list[bytes]:
    """shuf's ``read_input_reservoir_sampling`` over lines already read."""
    if k == 0 or len(lines) < k:  # the end was met while filling: no choice drawn
        return list(lines[:k])
    rsrv = list(lines[:k])
    n_lines = k
    rest = lines[k:]
    at = 0
    while True:
        j = src.choose(n_lines + 1)
        if at >= len(rest):
            break
        if j < k:
            rsrv[j] = rest[at]
        at += 1
        n_lines += 1
    return rsrv
