"""``od``: dump files in octal and other formats (GNU coreutils 9.1).

Options: ``-A RADIX`` (d o x n), ``-j SKIP``, ``-N BYTES`` (GNU's number forms: ``0x``/octal,
``b K KB KiB M ...``), ``-t TYPE`` (``a``, ``c``, ``d o u x`` with sizes 1 2 4 8 or C S I L,
``f`` with 4 8 16 or F D L (x87 long doubles, see ``_longdouble``), each optionally followed
by ``z``), ``-v``, ``-w[BYTES]``, ``-S BYTES``/``--strings`` and the
traditional ``-a -b -c -d -f -i -l -o -s -x -B -D -e -F -h -H -I -L -O -X``. Column layout, duplicate-line ``*`` suppression,
partial last blocks and float formatting (shortest round-trip, as gnulib's ftoastr) are GNU's.
Input is streamed; output is bounded by the run's output limit.

Without a modern option the POSIX form ``od [FILE] [+]OFFSET[b]`` reads the offset as GNU does.
``--traditional`` takes the operands as ``FILE [[+]OFFSET[.][b] [[+]LABEL[.][b]]]`` (at most
one file), and a LABEL prints each address with its pseudo-address in parentheses.
``--endian=big|little`` swaps multi-byte data.
"""

from __future__ import annotations

import errno

import math
import struct
from dataclasses import dataclass
from typing import Callable, Iterator

from sandbox.commands._cnumbers import scan_number
from sandbox.commands._longdouble import long_double_text
from sandbox.commands._numbers import CountError, parse_count
from sandbox.commands._quoting import quote, quotef
from sandbox.commands._textutil import ArgmatchError, argmatch
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    "A:j:N:S:t:vw::abcdfilosxBDeFhHILOX",
    {
        "address-radix": (REQUIRED, "A"),
        "skip-bytes": (REQUIRED, "j"),
        "read-bytes": (REQUIRED, "N"),
        "format": (REQUIRED, "t"),
        "output-duplicates": (NO_ARG, "v"),
        "strings": (OPTIONAL, "S"),
        "endian": (REQUIRED, "endian"),
        "width": (OPTIONAL, "w"),
        "traditional": (NO_ARG, "traditional"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: od [OPTION]... [FILE]...
Write an unambiguous representation, octal bytes by default,
of FILE to standard output.  With more than one FILE argument,
concatenate them in the listed order to form the input.

  -A, --address-radix=RADIX   output format for file offsets; RADIX is one
                                of [doxn], for Decimal, Octal, Hex or None
  -j, --skip-bytes=BYTES      skip BYTES input bytes first
  -N, --read-bytes=BYTES      limit dump to BYTES input bytes
  -S BYTES, --strings[=BYTES]  show only NUL terminated strings
                                of at least BYTES (3) printable characters
  -t, --format=TYPE           select output format or formats
  -v, --output-duplicates     do not use * to mark line suppression
  -w[BYTES], --width[=BYTES]  output BYTES bytes per output line;
                                32 is implied when BYTES is not specified
      --help     display this help and exit
      --version  output version information and exit
"""

_DIGITS = {  # bytes -> field width
    "o": {1: 3, 2: 6, 4: 11, 8: 22},
    "d": {1: 4, 2: 6, 4: 11, 8: 20},
    "u": {1: 3, 2: 5, 4: 10, 8: 20},
    "x": {1: 2, 2: 4, 4: 8, 8: 16},
    "f": {4: 15, 8: 24, 16: 29},
}
_INT_LETTERS = {"C": 1, "S": 2, "I": 4, "L": 8}
_FLOAT_LETTERS = {"F": 4, "D": 8, "L": 16}
_NAMES = ("nul soh stx etx eot enq ack bel bs ht nl vt ff cr so si dle dc1 dc2 dc3 dc4 nak syn "
          "etb can em sub esc fs gs rs us sp").split()
_C_ESCAPES = {0: "\\0", 7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v"}
_TRADITIONAL = {"a": "a", "b": "o1", "c": "c", "d": "u2", "f": "fF", "i": "dI", "l": "dL", "o": "o2",
                "s": "d2", "x": "x2", "B": "o2", "D": "u4", "e": "fD", "F": "fD", "h": "x2", "H": "x4",
                "I": "dL", "L": "dL", "O": "o4", "X": "x4"}


class _Fatal(Exception):
    """A message GNU prints before exiting with status 1 (no ``Try`` line)."""


@dataclass
class _Type:
    """One output format: its kind letter, datum size, field width and ``z`` trailer."""

    kind: str
    size: int
    width: int
    trailer: bool
    fields: Callable[[bytes], list[str]]
    pad: int = 0


def _float_text(x: float, size: int) -> str:
    if math.isnan(x):
        return "-nan" if math.copysign(1.0, x) < 0 else "nan"
    if math.isinf(x):
        return "-inf" if x < 0 else "inf"
    tiny = 1.1754943508222875e-38 if size == 4 else 2.2250738585072014e-308
    start = 1 if abs(x) < tiny else (6 if size == 4 else 15)
    for prec in range(start, 18):
        text = "%.*g" % (prec, x)
        back = float(text)
        if size == 4:
            back = struct.unpack("<f", struct.pack("<f", back))[0]
        if back == x:
            return text
    return "%.17g" % x


def _make_fields(kind: str, size: int, big: bool = False) -> Callable[[bytes], list[str]]:
    if kind == "a":
        return lambda b: [_NAMES[c & 0x7F] if (c & 0x7F) <= 32 else ("del" if (c & 0x7F) == 127 else chr(c & 0x7F)) for c in b]
    if kind == "c":
        return lambda b: [_C_ESCAPES.get(c) or (chr(c) if 32 <= c < 127 else "%03o" % c) for c in b]
    if kind == "f" and size == 16:
        if big:
            return lambda b: [long_double_text(b[i:i + 16][::-1]) for i in range(0, len(b), 16)]
        return lambda b: [long_double_text(b[i:i + 16]) for i in range(0, len(b), 16)]
    if kind == "f":
        code = (">" if big else "<") + ("f" if size == 4 else "d")
        return lambda b: [_float_text(v, size) for (v,) in struct.iter_unpack(code, b)]
    signed = kind == "d"
    order = "big" if big else "little"
    digits = _DIGITS[kind][size]
    conv = {"o": "o", "x": "x", "d": "d", "u": "d"}[kind]
    fmt = f"%0{digits}{conv}" if kind in "ox" else f"%{conv}"

    def fields(b: bytes) -> list[str]:
        return [fmt % int.from_bytes(b[i:i + size], order, signed=signed) for i in range(0, len(b), size)]
    return fields


def parse_types(text: str, big: bool = False) -> list[_Type]:
    """The formats of one ``-t`` argument; raises ``_Fatal`` with GNU's message."""
    types: list[_Type] = []
    i = 0
    while i < len(text):
        kind = text[i]
        i += 1
        if kind not in "acdfoux":
            raise _Fatal(f"invalid character '{kind}' in type string {quote(text)}")
        size = 1
        if kind in "doux" or kind == "f":
            letters = _FLOAT_LETTERS if kind == "f" else _INT_LETTERS
            size = 8 if kind == "f" else 4
            if i < len(text) and text[i] in letters:
                size = letters[text[i]]
                i += 1
            elif i < len(text) and text[i].isdigit():
                j = i
                while j < len(text) and text[j].isdigit():
                    j += 1
                size = int(text[i:j]) if j - i < 20 else 1 << 70
                i = j
                if size not in _DIGITS[kind if kind == "f" else "x"]:
                    what = "floating point" if kind == "f" else "integral"
                    raise _Fatal(f"invalid type string {quote(text)};\nthis system doesn't provide a {size}-byte {what} type")
        width = 3 if kind in "ac" else _DIGITS[kind][size]
        trailer = i < len(text) and text[i] == "z"
        if trailer:
            i += 1
        types.append(_Type(kind, size, width, trailer, _make_fields(kind, size, big)))
    return types


def parse_offset(text: str, option: str) -> int:
    """xstrtoumax with base 0 and od's suffixes; raises ``_Fatal`` with GNU's message."""
    s = text.lstrip(" \t\n\v\f\r")
    bad = _Fatal(f"invalid {option} argument '{text}'")
    if s.startswith("-"):
        raise bad
    s = s[1:] if s.startswith("+") else s
    value, rest = scan_number(s)
    if value is None:
        if not s or s[0] not in "bEGKkMmPTYZ":
            raise bad
        value = 1
    try:
        if rest:
            value *= parse_count("1" + rest, "bEGKkMmPTYZ0")
    except CountError as e:
        if e.overflow:
            raise _Fatal(f"{option} argument '{text}' too large") from None
        raise bad from None
    if value > (1 << 64) - 1:
        raise _Fatal(f"{option} argument '{text}' too large")
    return value


def parse_old_offset(text: str) -> int | None:
    """GNU ``parse_old_offset``: ``[+]OFFSET[b|B]``, octal (``0x``: hexadecimal), or None.
    (GNU's ``OFFSET.`` decimal form is refused by its own number parser, so it is here too.)"""
    s = text[1:] if text.startswith("+") else text
    if not text or "." in s:
        return None
    s = s.lstrip(" \t\n\v\f\r")
    if s.startswith("-"):
        return None
    hexa = s[:2] in ("0x", "0X")
    digits = "0123456789abcdefABCDEF" if hexa else "01234567"
    body = s[2:] if hexa else s
    j = 0
    while j < len(body) and body[j] in digits:
        j += 1
    rest = body[j:]
    if hexa and j == 0:
        return None
    value = int(body[:j], 16 if hexa else 8) if j else 1
    if j == 0 and rest[:1] not in ("b", "B"):
        return None
    if rest:
        if rest not in ("b", "B"):
            return None
        value *= 512 if rest == "b" else 1024
    return value if value < 1 << 64 else None


class _Unreadable:
    """An opened directory: every read fails with ``err``."""

    def __init__(self, err: FSError):
        self.err = err

    def read(self, n: int) -> bytes:
        """Raise the read error."""
        raise self.err

    def close(self) -> None:
        """Nothing to close."""


class _Input:
    """The operands read as one stream (``-`` and no operand are stdin)."""

    def __init__(self, ctx: CommandContext, operands: list[str]):
        self.ctx = ctx
        self.pending = list(operands or ["-"])
        self.stream = None
        self.ok = True

    def _next_stream(self) -> bool:
        while self.pending:
            name = self.pending.pop(0)
            try:
                self.stream = self.ctx.open_read("/dev/stdin" if name == "-" else name)
                self.name = name
                return True
            except FSError as e:
                if e.errno == errno.EISDIR:  # GNU opens a directory; its first read fails
                    self.stream, self.name = _Unreadable(e), name
                    return True
                self.ctx.error(f"{quotef(name)}: {e}")
                self.ok = False
        return False

    def read(self, n: int) -> bytes:
        """Up to ``n`` bytes, crossing file boundaries; fewer only at the end of the input."""
        out = bytearray()
        while len(out) < n:
            if self.stream is None and not self._next_stream():
                break
            try:
                data = self.stream.read(n - len(out))
            except FSError as e:  # GNU's read_block: ``NAME: strerror``, stdin 'standard input'
                name = "standard input" if self.name == "-" else self.name
                self.ctx.error(f"{quotef(name)}: {e}")
                self.ok, data = False, b""
            if not data:
                self.stream.close()
                self.stream = None
                continue
            out += data
        return bytes(out)


def _skip(inp: _Input, skip: int, ctx: CommandContext) -> None:
    while skip:
        got = inp.read(min(skip, 1 << 20))
        if not got:
            raise _Fatal("cannot skip past end of combined input")
        skip -= len(got)
        ctx.budget.check_time()


def _blocks(inp: _Input, limit: int | None, size: int, ctx: CommandContext) -> Iterator[bytes]:
    left = limit
    while left is None or left > 0:
        want = size if left is None else min(size, left)
        block = inp.read(want)
        if not block:
            return
        if left is not None:
            left -= len(block)
        yield block
        ctx.budget.check_time()
        if len(block) < want:
            return


def _render(types: list[_Type], block: bytes, bpb: int, address: str, addr_pad: int) -> str:
    lines = []
    padded = block + b"\0" * (bpb - len(block))
    for n, t in enumerate(types):
        fields_per_block = bpb // t.size
        blank = (bpb - len(block)) // t.size
        values = t.fields(padded)
        parts = [address if n == 0 else " " * addr_pad]
        pad_remaining = t.pad
        for k, i in enumerate(range(fields_per_block, blank, -1)):
            next_pad = t.pad * (i - 1) // fields_per_block
            parts.append(values[k].rjust(pad_remaining - next_pad + t.width))
            pad_remaining = next_pad
        if t.trailer:
            parts.append(" " * (blank * t.width + t.pad * blank // fields_per_block))
            parts.append("  >" + "".join(chr(c) if 32 <= c < 127 else "." for c in block) + "<")
        lines.append("".join(parts) + "\n")
    return "".join(lines)


def _dump_strings(ctx: CommandContext, inp: _Input, minimum: int, skip: int, limit: int | None,
                  radix: str) -> int:
    """``od -S N``: NUL-terminated runs of at least N printable characters (GNU dump_strings).

    As GNU's, a run cut by the ``-N`` limit is printed too, at its start less one (which wraps
    to 2**64-1 for a run at offset 0)."""
    pieces: list[bytes] = []
    wanted = limit
    while wanted is None or wanted > 0:  # in pieces: a read of 2**62 bytes would allocate them
        piece = inp.read(1 << 20 if wanted is None else min(wanted, 1 << 20))
        if not piece:
            break
        pieces.append(piece)
        if wanted is not None:
            wanted -= len(piece)
        ctx.budget.check_time()
    data = b"".join(pieces)
    n = len(data)
    pad = {"o": 7, "d": 7, "x": 6, "n": 0}[radix]
    conv = {"o": "o", "d": "d", "x": "x", "n": ""}[radix]
    out: list[str] = []

    def emit(address: int, text: bytes) -> None:
        shown = "" if radix == "n" else ("%0" + str(pad) + conv) % (address % (1 << 64)) + " "
        out.append(shown + text.decode("ascii") + "\n")

    i = 0
    while True:
        if limit is not None and (limit < minimum or limit - minimum <= i):
            break
        run = 0
        while run < minimum:
            if i >= n:
                ctx.stdout.write("".join(out).encode())
                return 0 if inp.ok else 1
            c = data[i]
            i += 1
            if not 32 <= c < 127:
                run = -1
                break
            run += 1
        if run < 0:
            continue
        start = i - minimum
        terminated = False
        while limit is None or i < limit:
            if i >= n:
                ctx.stdout.write("".join(out).encode())
                return 0 if inp.ok else 1
            c = data[i]
            i += 1
            if c == 0:
                terminated = True
                break
            if not 32 <= c < 127:
                start = -1
                break
        if start < 0:
            continue
        if terminated:
            emit(skip + start, data[start:i - 1])
        else:
            emit(skip + start - 1, data[start:i])
        if len(out) > 1000:
            ctx.stdout.write("".join(out).encode())
            out = []
            ctx.budget.check_time()
    ctx.stdout.write("".join(out).encode())
    return 0 if inp.ok else 1


def run(ctx: CommandContext) -> int:
    """Run ``od``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="od (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    radix, skip, limit, width, verbose = "o", 0, None, None, False
    strings_min: int | None = None
    types: list[_Type] = []
    big = False
    for key, value in opts:
        if key == "endian":
            try:
                big = argmatch("--endian", value or "", ["little", "big"]) == "big"
            except ArgmatchError as e:
                return ctx.usage_error(str(e))
    try:
        for key, value in opts:
            if key == "A":
                v = value or ""
                if len(v) != 1 or v not in "doxn":
                    raise _Fatal(f"invalid output address radix '{v[:1]}'; it must be one character from [doxn]")
                radix = v
            elif key == "j":
                skip = parse_offset(value or "", "-j")
            elif key == "N":
                limit = parse_offset(value or "", "-N")
            elif key == "S":
                strings_min = 3 if value is None else parse_offset(value, "-S")
            elif key == "t":
                types += parse_types(value or "", big)
            elif key == "v":
                verbose = True
            elif key == "w":
                width = 32 if value is None else parse_offset(value, "-w")
            elif key in _TRADITIONAL:
                types += parse_types(_TRADITIONAL[key], big)
    except _Fatal as e:
        ctx.error(str(e))
        return 1
    traditional = any(k == "traditional" for k, _ in opts)
    pseudo: int | None = None
    if traditional or not any(k in ("A", "j", "N", "S", "t", "v", "w") for k, _ in opts):
        # POSIX's old form (GNU's rules in od.c): od [FILE] [+]OFFSET, and with --traditional
        # od [FILE] OFFSET LABEL
        n = len(operands)
        if n == 1 and (traditional or operands[0].startswith("+")):
            offset = parse_old_offset(operands[0])
            if offset is not None:
                skip, operands = offset, []
        elif n == 2 and (traditional or operands[1][:1] in ("+", *"0123456789")):
            second = parse_old_offset(operands[1])
            if second is not None:
                first = parse_old_offset(operands[0]) if traditional else None
                if first is not None:
                    skip, pseudo, operands = first, second, []
                else:
                    skip, operands = second, operands[:1]
        elif n == 3 and traditional:
            first, second = parse_old_offset(operands[1]), parse_old_offset(operands[2])
            if first is not None and second is not None:
                skip, pseudo, operands = first, second, operands[:1]
        if traditional and len(operands) > 1:
            ctx.error(f"extra operand {quote(operands[1])}")
            return ctx.usage_error("compatibility mode supports at most one file")
    if strings_min is not None and types:
        ctx.error("no type may be specified when dumping strings")
        return 1
    types = types or parse_types("o2", big)
    inp = _Input(ctx, operands)
    if not inp._next_stream():
        return 1  # no operand opens: GNU dumps nothing, not even the end offset
    try:
        _skip(inp, skip, ctx)
    except _Fatal as e:
        ctx.error(str(e))
        return 1
    if strings_min is not None:
        return _dump_strings(ctx, inp, strings_min, skip, limit, radix)
    lcm = 1
    for t in types:
        lcm = lcm * t.size // math.gcd(lcm, t.size)
    bpb = 16 if width is None else width
    if width is not None and (width == 0 or width % lcm):
        ctx.error(f"warning: invalid width {width}; using {lcm} instead")
        bpb = lcm
    if bpb % lcm:
        bpb = lcm
    width_per_block = max((t.width + 1) * (bpb // t.size) for t in types)
    for t in types:
        t.pad = width_per_block - t.width * (bpb // t.size)
    addr_pad = {"o": 7, "d": 7, "x": 6, "n": 0}[radix]
    fmt = {"o": "o", "d": "d", "x": "x", "n": ""}[radix]

    pseudo_offset = None if pseudo is None else pseudo - skip

    def addr(offset: int) -> str:
        if pseudo_offset is not None:  # --traditional's LABEL: GNU's format_address_label/paren
            if radix == "n":
                return "(%07o)" % offset  # GNU prints the address itself here
            return (("%0" + str(addr_pad) + fmt) % offset + " ("
                    + ("%0" + str(addr_pad) + fmt) % (offset + pseudo_offset) + ")")
        return "" if radix == "n" else ("%0" + str(addr_pad) + fmt) % offset

    offset = skip
    prev: bytes | None = None
    star = False
    try:
        for block in _blocks(inp, limit, bpb, ctx):
            if not verbose and prev is not None and len(block) == bpb and block == prev:
                if not star:
                    ctx.stdout.write(b"*\n")
                    star = True
            else:
                star = False
                ctx.stdout.write(_render(types, block, bpb, addr(offset), addr_pad).encode())
            prev = block
            offset += len(block)
    except _Fatal as e:
        ctx.error(str(e))
        return 1
    if radix != "n" or pseudo_offset is not None:
        ctx.stdout.write((addr(offset) + "\n").encode())
    return 0 if inp.ok else 1
