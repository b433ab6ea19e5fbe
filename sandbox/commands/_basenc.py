"""``base64`` and ``base32`` (GNU coreutils 9.1): encode with wrapping (``-w COLS``, 0 = none),
decode (``-d``) with gnulib's decoder semantics (newlines ignored, groups decoded one at a time,
a bad or short group writes what it could and ends with ``invalid input``), ``-i`` drops
non-alphabet bytes first. Both stream their input in blocks.
"""

from __future__ import annotations

import base64
import errno
import binascii
import re
from dataclasses import dataclass
from typing import BinaryIO, Callable

from sandbox.commands._quoting import quote, quotef
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

BLOCK = 3 * 5 * 4 * 8 * 1024  # a multiple of every group size
INTMAX_MAX = (1 << 63) - 1

SPEC = OptionSpec(
    "diw:",
    {
        "decode": (NO_ARG, "d"),
        "ignore-garbage": (NO_ARG, "i"),
        "wrap": (REQUIRED, "w"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: {prog} [OPTION]... [FILE]
{Name} encode or decode FILE, or standard input, to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -d, --decode          decode data
  -i, --ignore-garbage  when decoding, ignore non-alphabet characters
  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).
                          Use 0 to disable line wrapping
      --help        display this help and exit
      --version     output version information and exit
"""

B64 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
B32 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


@dataclass(frozen=True)
class _Codec:
    name: str
    group: int  # encoded characters per group
    raw: int  # raw bytes per group
    alphabet: bytes
    encode: Callable[[bytes], bytes]
    fast_decode: Callable[[bytes], bytes]
    decode_group: Callable[[bytes, dict[int, int]], tuple[bytes, bool]]


def _decode_4(g: bytes, v: dict[int, int]) -> tuple[bytes, bool]:
    """gnulib ``decode_4``: (bytes written, ok) for one group of up to 4 characters."""
    out = bytearray()
    if len(g) < 2 or g[0] not in v or g[1] not in v:
        return bytes(out), False
    out.append(((v[g[0]] << 2) | (v[g[1]] >> 4)) & 0xFF)
    if len(g) == 2:
        return bytes(out), False
    if g[2] == 0x3D:
        return bytes(out), len(g) == 4 and g[3] == 0x3D
    if g[2] not in v:
        return bytes(out), False
    out.append(((v[g[1]] << 4) | (v[g[2]] >> 2)) & 0xFF)
    if len(g) == 3:
        return bytes(out), False
    if g[3] == 0x3D:
        return bytes(out), True
    if g[3] not in v:
        return bytes(out), False
    out.append(((v[g[2]] << 6) | v[g[3]]) & 0xFF)
    return bytes(out), True


def _decode_8(g: bytes, v: dict[int, int]) -> tuple[bytes, bool]:
    """gnulib base32 ``decode_8``: (bytes written, ok) for one group of up to 8 characters."""
    out = bytearray()
    if len(g) < 8 or g[0] not in v or g[1] not in v:
        return b"", False
    out.append(((v[g[0]] << 3) | (v[g[1]] >> 2)) & 0xFF)
    eq = 0x3D
    if g[2] == eq:
        return bytes(out), all(c == eq for c in g[3:8])
    if g[2] not in v or g[3] not in v:
        return bytes(out), False
    out.append(((v[g[1]] << 6) | (v[g[2]] << 1) | (v[g[3]] >> 4)) & 0xFF)
    if g[4] == eq:
        return bytes(out), all(c == eq for c in g[5:8])
    if g[4] not in v:
        return bytes(out), False
    out.append(((v[g[3]] << 4) | (v[g[4]] >> 1)) & 0xFF)
    if g[5] == eq:
        return bytes(out), g[6] == eq and g[7] == eq
    if g[5] not in v or g[6] not in v:
        return bytes(out), False
    out.append(((v[g[4]] << 7) | (v[g[5]] << 2) | (v[g[6]] >> 3)) & 0xFF)
    if g[7] == eq:
        return bytes(out), True
    if g[7] not in v:
        return bytes(out), False
    out.append(((v[g[6]] << 5) | v[g[7]]) & 0xFF)
    return bytes(out), True


_B64_OK = re.compile(rb"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?\Z")


def _fast64(data: bytes) -> bytes:
    if not _B64_OK.match(data):
        raise ValueError("not plain base64")
    return binascii.a2b_base64(data)


_B32_OK = re.compile(rb"(?:[A-Z2-7]{8})*(?:[A-Z2-7]{2}={6}|[A-Z2-7]{4}={4}|[A-Z2-7]{5}={3}|[A-Z2-7]{7}=)?\Z")


def _fast32(data: bytes) -> bytes:
    if not _B32_OK.match(data):
        raise ValueError("not plain base32")
    return base64.b32decode(data)


CODECS = {
    "base64": _Codec("base64", 4, 3, B64, base64.b64encode, _fast64, _decode_4),
    "base32": _Codec("base32", 8, 5, B32, base64.b32encode, _fast32, _decode_8),
}


def _wrap_size(text: str) -> int | None:
    body = text.lstrip(" \t\n\v\f\r")
    digits = body[1:] if body[:1] == "+" else body
    if not digits.isdigit():
        return None
    value = int(digits)
    return 0 if value > INTMAX_MAX else value


class _Decoder:
    """Streaming gnulib decoding: feed blocks, then ``finish``."""

    def __init__(self, codec: _Codec, ignore_garbage: bool):
        self.codec = codec
        self.values = {c: i for i, c in enumerate(codec.alphabet)}
        keep = bytes(codec.alphabet) + b"="
        self.drop = bytes(c for c in range(256) if c not in keep) if ignore_garbage else b"\n"
        self.carry = b""

    def feed(self, block: bytes) -> tuple[bytes, bool]:
        """Decoded bytes of the complete groups so far and whether they were all valid."""
        data = self.carry + block.translate(None, self.drop)
        g = self.codec.group
        cut = len(data) - len(data) % g
        self.carry = data[cut:]
        whole = data[:cut]
        try:
            return self.codec.fast_decode(whole), True
        except (binascii.Error, ValueError):
            pass
        out = bytearray()
        for i in range(0, cut, g):
            piece, ok = self.codec.decode_group(whole[i : i + g], self.values)
            out += piece
            if not ok:
                return bytes(out), False
        return bytes(out), True

    def finish(self) -> tuple[bytes, bool]:
        """The partial last group, if any: what it decodes to, and whether input was valid."""
        if not self.carry:
            return b"", True
        piece, _ = self.codec.decode_group(self.carry, self.values)
        return piece, False


def run_basenc(ctx: CommandContext, name: str) -> int:
    """Run ``base64`` or ``base32``."""
    codec = CODECS[name]
    usage = USAGE.format(prog=name, Name=name.capitalize())
    parsed = parse_command_line(ctx, SPEC, usage, version=f"{name} (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    decode = ignore = False
    wrap = 76
    for key, value in opts:
        if key == "d":
            decode = True
        elif key == "i":
            ignore = True
        elif key == "w":
            size = _wrap_size(value or "")
            if size is None:
                ctx.error(f"invalid wrap size: {quote(value or '')}")
                return 1
            wrap = size
    if len(operands) > 1:
        return ctx.usage_error(f"extra operand {quote(operands[1])}")
    operand = operands[0] if operands else "-"

    def work(stream: BinaryIO) -> int:
        if decode:
            return _decode(ctx, stream, codec, ignore)
        _encode(ctx, stream, codec, wrap)
        return 0
    return with_operand(ctx, operand, work)


def with_operand(ctx: CommandContext, operand: str, work: Callable[[BinaryIO], int]) -> int:
    """``work(stream)`` over the operand (``-``: stdin), with GNU's messages: ``NAME: error``
    when it can't be opened, ``read error: ...`` for a directory or a failed read (status 1)."""
    try:
        stream = ctx.open_read("/dev/stdin" if operand == "-" else operand)
    except FSError as e:
        if e.errno == errno.EISDIR:
            ctx.error(f"read error: {e}")
        else:
            ctx.error(f"{quotef(operand)}: {e}")
        return 1
    try:
        with stream:
            return work(stream)
    except FSError as e:
        ctx.error(f"read error: {e}")
        return 1


def _decode(ctx: CommandContext, stream, codec: _Codec, ignore: bool) -> int:
    decoder = _Decoder(codec, ignore)
    while True:
        block = stream.read(BLOCK)
        if not block:
            break
        out, ok = decoder.feed(block)
        ctx.stdout.write(out)
        if not ok:
            ctx.error("invalid input")
            return 1
        ctx.budget.check_time()
    out, ok = decoder.finish()
    ctx.stdout.write(out)
    if not ok:
        ctx.error("invalid input")
        return 1
    return 0


def _encode(ctx: CommandContext, stream, codec: _Codec, wrap: int) -> None:
    column = 0
    pending = b""
    while True:
        block = stream.read(BLOCK)
        if not block and not pending:
            break
        data = pending + block
        if block:
            cut = len(data) - len(data) % codec.raw
            pending, data = data[cut:], data[:cut]
        else:
            pending = b""
        text = codec.encode(data)
        if wrap == 0:
            ctx.stdout.write(text)
        else:
            pieces = []
            i = 0
            if column == wrap and text:
                pieces.append(b"\n")
                column = 0
            if column:
                take = min(wrap - column, len(text))
                pieces.append(text[:take])
                column += take
                i = take
            if i < len(text):
                if column:
                    pieces.append(b"\n")
                starts = range(i, len(text), wrap)
                pieces.append(b"\n".join([text[k:k + wrap] for k in starts]))
                column = len(text) - starts[-1]
            ctx.stdout.write(b"".join(pieces))
        ctx.budget.check_time()
        if not block:
            break
    if wrap and column:
        ctx.stdout.write(b"\n")
