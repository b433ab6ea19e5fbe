"""``hexdump``: display file contents in hexadecimal and other formats (util-linux 2.38).

Formats: the default (``%07.7_ax`` then eight ``%04x`` units), ``-C`` (canonical hex+ASCII),
``-x -d -o`` (two-byte hex, decimal, octal), ``-b`` (one-byte octal), ``-c`` (characters);
several may be given and each prints its line of every block, in order. ``-n LENGTH``,
``-s OFFSET`` (util-linux size forms: ``0x``, ``K KiB KB M ...``), ``-v`` (no ``*`` for repeated
lines). Files are read as one stream.

Without a file operand stdin is read (``-`` is a file name, as in util-linux); ``-s`` on a
stdin that cannot seek (a pipe) fails with ``stdin: Illegal seek`` as util-linux does.
``-e``/``-f`` (format strings) are refused in one line: not supported in the sandbox.
"""

from __future__ import annotations

import errno
from dataclasses import dataclass
from typing import Callable

from sandbox.commands._cnumbers import scan_number
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    "bcCde:f:L::n:os:vxV",
    {
        "one-byte-octal": (NO_ARG, "b"),
        "one-byte-char": (NO_ARG, "c"),
        "canonical": (NO_ARG, "C"),
        "two-bytes-decimal": (NO_ARG, "d"),
        "two-bytes-octal": (NO_ARG, "o"),
        "two-bytes-hex": (NO_ARG, "x"),
        "format": (REQUIRED, "e"),
        "format-file": (REQUIRED, "f"),
        "length": (REQUIRED, "n"),
        "skip": (REQUIRED, "s"),
        "no-squeezing": (NO_ARG, "v"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "V"),
    },
)

USAGE = """
Usage:
 hexdump [options] <file>...

Display file contents in hexadecimal, decimal, octal, or ascii.

Options:
 -b, --one-byte-octal      one-byte octal display
 -c, --one-byte-char       one-byte character display
 -C, --canonical           canonical hex+ASCII display
 -d, --two-bytes-decimal   two-byte decimal display
 -o, --two-bytes-octal     two-byte octal display
 -x, --two-bytes-hex       two-byte hexadecimal display
 -n, --length <length>     interpret only length bytes of input
 -s, --skip <offset>       skip offset bytes from the beginning
 -v, --no-squeezing        output identical lines

 -h, --help                display this help
 -V, --version             display version
"""

_ESC = {0: "\\0", 7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v"}
_SUFFIXES = "KMGTPEZY"


@dataclass(frozen=True)
class _Format:
    """One display: its address width and the text of a 16-byte block (``len(block) <= 16``)."""

    addr_width: int
    render: Callable[[bytes], str]


def _units(size: int, width: int, conv: Callable[[int], str]) -> Callable[[bytes], str]:
    def render(block: bytes) -> str:
        parts = []
        for i in range(0, 16, size):
            piece = block[i:i + size]
            if piece:
                value = int.from_bytes(piece + b"\0" * (size - len(piece)), "little")
                parts.append(conv(value).rjust(width))
            else:
                parts.append(" " * width)
        return "".join(parts)
    return render


def _char(c: int) -> str:
    return _ESC.get(c) or (chr(c) if 32 <= c < 127 else "%03o" % c)


def _canonical(block: bytes) -> str:
    cells = [("%02x " % block[i]) if i < len(block) else "   " for i in range(16)]
    text = "".join(chr(c) if 32 <= c < 127 else "." for c in block)
    return "  " + "".join(cells[:8]) + " " + "".join(cells[8:]) + " |" + text + "|"


FORMATS = {
    "default": _Format(7, _units(2, 5, lambda v: "%04x" % v)),
    "x": _Format(7, _units(2, 8, lambda v: "%04x" % v)),
    "d": _Format(7, _units(2, 8, lambda v: "%05u" % v)),
    "o": _Format(7, _units(2, 8, lambda v: "%06o" % v)),
    "b": _Format(7, _units(1, 4, lambda v: "%03o" % v)),
    "c": _Format(7, _units(1, 4, _char)),
    "C": _Format(8, _canonical),
}


class _SizeError(ValueError):
    """A size util-linux's ``strtosize`` refuses."""


def parse_size(text: str) -> int:
    """util-linux ``strtosize``: a base-0 number with an optional K/KiB/KB... suffix."""
    s = text.strip(" \t")
    if not s or s[0] == "-":
        raise _SizeError(text)
    value, rest = scan_number(s)
    if value is None:
        raise _SizeError(text)
    if rest:
        k = _SUFFIXES.find(rest[0].upper())
        if k < 0 or rest[1:] not in ("", "iB", "B", "ib", "b"):
            raise _SizeError(text)
        power = 1000 if rest[1:] in ("B", "b") else 1024
        value *= power ** (k + 1)
    return value


def run(ctx: CommandContext) -> int:
    """Run ``hexdump``."""
    parsed = parse_command_line(ctx, SPEC, USAGE)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    formats: list[_Format] = []
    length: int | None = None
    skip = 0
    verbose = False
    for key, value in opts:
        if key in FORMATS:
            formats.append(FORMATS[key])
        elif key in ("e", "f"):
            ctx.error("format strings (-e, -f) are not supported in the sandbox; use -C, -x, -c, -d, -o or -b")
            return 1
        elif key == "V":
            ctx.stdout.write(b"hexdump from util-linux 2.38.1\n")
            return 0
        elif key in ("n", "s"):
            try:
                number = parse_size(value or "")
            except _SizeError:
                what = "length" if key == "n" else "offset"
                ctx.error(f"failed to parse {what}: '{value}': Invalid argument")
                return 1
            if key == "n":
                length = number
            else:
                skip = number
        elif key == "v":
            verbose = True
    formats = formats or [FORMATS["default"]]
    streams = []
    failed = 0
    if not operands:
        if skip and not _seekable(ctx.stdin):
            ctx.error("stdin: Illegal seek")
            return 1
        # util-linux names a failed read ``_argv[-1]``: with no operand, the last argument
        streams.append((ctx.argv[-1], ctx.open_read("/dev/stdin")))
    for name in operands:
        try:
            streams.append((name, ctx.open_read(name)))
        except FSError as e:
            if e.errno == errno.EISDIR:  # freopen succeeds on a directory; fread fails
                streams.append((name, e))
                continue
            ctx.error(f"{name}: {e}")
            failed += 1
    if operands and failed == len(operands):
        ctx.error("all input file arguments failed")
        return 1
    data_iter = _reader(ctx, streams)
    offset = 0
    while skip > offset:
        chunk = data_iter(min(skip - offset, 1 << 20))
        if not chunk:
            break
        offset += len(chunk)
    prev = None
    star = False
    printed = False
    remaining = length
    while remaining is None or remaining > 0:
        want = 16 if remaining is None else min(16, remaining)
        block = data_iter(want)
        if not block:
            break
        if remaining is not None:
            remaining -= len(block)
        printed = True
        if not verbose and block == prev and len(block) == 16:
            if not star:
                ctx.stdout.write(b"*\n")
                star = True
        else:
            star = False
            lines = []
            for f in formats:
                lines.append(("%0*x" % (f.addr_width, offset)) + f.render(block) + "\n")
            ctx.stdout.write("".join(lines).encode())
        prev = block
        offset += len(block)
        ctx.budget.check_time()
        if len(block) < want:
            break
    if printed or offset:
        ctx.stdout.write(("%0*x\n" % (formats[-1].addr_width, offset)).encode())
    return 1 if failed else 0


def _seekable(stream: object) -> bool:
    try:
        return bool(stream.seekable())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return False


def _reader(ctx: CommandContext, streams: list) -> Callable[[int], bytes]:
    """Reads across the (name, stream) inputs; a failed read (a directory) is reported as
    util-linux's ``warn`` does, without changing the exit status, and ends that input."""
    pending = list(streams)

    def read(n: int) -> bytes:
        out = bytearray()
        while len(out) < n and pending:
            name, stream = pending[0]
            try:
                if isinstance(stream, FSError):
                    raise stream
                data = stream.read(n - len(out))
            except FSError as e:
                ctx.error(f"{name}: {e}")
                data = b""
            if not data:
                pending.pop(0)
                if not isinstance(stream, FSError):
                    stream.close()
                continue
            out += data
        return bytes(out)
    return read
