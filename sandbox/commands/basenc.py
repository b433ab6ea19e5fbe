"""``basenc``: encode or decode with one of several alphabets (GNU coreutils 9.1).

Encodings: ``--base64 --base64url --base32 --base32hex --base16 --base2msbf --base2lsbf --z85``
(the last one given wins; none is ``missing encoding type``); ``-d``, ``-i``, ``-w COLS``.
base64 and base32 decode with gnulib's decoder (shared with ``base64``/``base32`` in
``_basenc``); base64url and base32hex translate to those alphabets as GNU does, including its
quirks: base64url rejects a whole 5600-byte read that holds ``+`` or ``/`` (nothing of it is
written), and base32hex passes the plain base32 letters ``W``-``Z`` through as plain base32.
base16, base2 and z85 decode byte by byte like GNU's own decoders: what decoded before the first
bad byte is written, then ``invalid input``. z85 encoding of a length that is not a multiple of
4 writes GNU's whole 30720-byte blocks first, then fails.
"""

from __future__ import annotations

import base64
import binascii
from typing import BinaryIO, Callable

from sandbox.commands._basenc import CODECS, _Decoder, _wrap_size, with_operand
from sandbox.commands._quoting import quote
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_in_order

_ENCODINGS = ("base64", "base64url", "base32", "base32hex", "base16", "base2msbf", "base2lsbf", "z85")

SPEC = OptionSpec(
    "diw:",
    {
        "decode": (NO_ARG, "d"),
        "wrap": (REQUIRED, "w"),
        "ignore-garbage": (NO_ARG, "i"),
        **{name: (NO_ARG, name) for name in _ENCODINGS},
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: basenc [OPTION]... [FILE]
basenc encode or decode FILE, or standard input, to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
      --base64          same as 'base64' program (RFC4648 section 4)
      --base64url       file- and url-safe base64 (RFC4648 section 5)
      --base32          same as 'base32' program (RFC4648 section 6)
      --base32hex       extended hex alphabet base32 (RFC4648 section 7)
      --base16          hex encoding (RFC4648 section 8)
      --base2msbf       bit string with most significant bit (msb) first
      --base2lsbf       bit string with least significant bit (lsb) first
  -d, --decode          decode data
  -i, --ignore-garbage  when decoding, ignore non-alphabet characters
  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).
                          Use 0 to disable line wrapping
      --z85             ascii85-like encoding (ZeroMQ spec:32/Z85);
                        when encoding, input length must be a multiple of 4;
                        when decoding, input length must be a multiple of 5
      --help        display this help and exit
      --version     output version information and exit

When decoding, the input may contain newlines in addition to the bytes of
the formal alphabet.  Use --ignore-garbage to attempt to recover
from any other non-alphabet bytes in the encoded stream.
"""

#: GNU's encode block (a multiple of every group size; z85 fails only in the last one).
ENC_BLOCK = 1024 * 3 * 10
#: GNU's decode block, in decoded bytes; a read is ``encoded_length(DEC_BLOCK)`` input bytes.
DEC_BLOCK = 4200
_READ_BLOCKS = 16

_B32 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_B32HEX = b"0123456789ABCDEFGHIJKLMNOPQRSTUV"
_Z85 = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"
_Z85_VALUE = {c: i for i, c in enumerate(_Z85)}

_TO_URL = bytes.maketrans(b"+/", b"-_")
_FROM_URL = bytes.maketrans(b"-_", b"+/")
_NORM_TO_HEX = bytes.maketrans(_B32, _B32HEX)
_HEX_TO_NORM = bytes.maketrans(_B32HEX, _B32)

#: The bytes ``-i`` keeps for each encoding (its alphabet and ``=``).
_ALPHABETS = {
    "base64": b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
    "base64url": b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
    "base32": _B32,
    "base32hex": _B32HEX,
    "base16": b"0123456789ABCDEF",
    "base2msbf": b"01",
    "base2lsbf": b"01",
    "z85": _Z85,
}


def _encoded_length(name: str, n: int) -> int:
    """GNU's ``base_length`` for ``n`` raw bytes."""
    if name.startswith("base64"):
        return (n + 2) // 3 * 4
    if name.startswith("base32"):
        return (n + 4) // 5 * 8
    if name == "base16":
        return n * 2
    if name.startswith("base2"):
        return n * 8
    return n * 5 // 4


def _base2_encode(data: bytes, lsb_first: bool) -> bytes:
    if not data:
        return b""
    if lsb_first:
        return format(int.from_bytes(data[::-1], "big"), f"0{len(data) * 8}b")[::-1].encode()
    return format(int.from_bytes(data, "big"), f"0{len(data) * 8}b").encode()


def _z85_encode(data: bytes) -> bytes:
    out = bytearray()
    for i in range(0, len(data), 4):
        value = int.from_bytes(data[i : i + 4], "big")
        group = bytearray(5)
        for j in range(4, -1, -1):
            value, c = divmod(value, 85)
            group[j] = _Z85[c]
        out += group
    return bytes(out)


_ENCODERS: dict[str, Callable[[bytes], bytes]] = {
    "base64": base64.b64encode,
    "base64url": lambda d: base64.b64encode(d).translate(_TO_URL),
    "base32": base64.b32encode,
    "base32hex": lambda d: base64.b32encode(d).translate(_NORM_TO_HEX),
    "base16": lambda d: binascii.hexlify(d).upper(),
    "base2msbf": lambda d: _base2_encode(d, False),
    "base2lsbf": lambda d: _base2_encode(d, True),
    "z85": _z85_encode,
}


class _Wrapper:
    """GNU's ``wrap_write``: text in lines of ``wrap`` columns (0: one line, no newline)."""

    def __init__(self, ctx: CommandContext, wrap: int):
        self.ctx = ctx
        self.wrap = wrap
        self.column = 0

    def write(self, text: bytes) -> None:
        """Write encoded text, breaking lines where GNU does."""
        if not self.wrap:
            self.ctx.stdout.write(text)
            return
        pieces = []
        i = 0
        while i < len(text):
            if self.column == self.wrap:
                pieces.append(b"\n")
                self.column = 0
            take = min(self.wrap - self.column, len(text) - i)
            pieces.append(text[i : i + take])
            self.column += take
            i += take
        self.ctx.stdout.write(b"".join(pieces))

    def finish(self) -> None:
        """End the last line."""
        if self.wrap and self.column:
            self.ctx.stdout.write(b"\n")


def _read_full(stream: BinaryIO, size: int) -> bytes:
    """Up to ``size`` bytes, short only at end of input (``fread``)."""
    parts = []
    got = 0
    while got < size:
        piece = stream.read(size - got)
        if not piece:
            break
        parts.append(piece)
        got += len(piece)
    return b"".join(parts)


def _encode(ctx: CommandContext, stream: BinaryIO, name: str, wrap: int) -> int:
    encoder = _ENCODERS[name]
    out = _Wrapper(ctx, wrap)
    while True:
        data = _read_full(stream, ENC_BLOCK * _READ_BLOCKS)
        if name == "z85" and len(data) % 4:
            whole = len(data) - len(data) % ENC_BLOCK
            out.write(encoder(data[:whole]))
            ctx.error("invalid input (length must be multiple of 4 characters)")
            return 1
        if data:
            out.write(encoder(data))
        ctx.budget.check_time()
        if len(data) < ENC_BLOCK * _READ_BLOCKS:
            break
    out.finish()
    return 0


class _ByteDecoder:
    """GNU's base16, base2 and z85 decoders: state carried byte by byte across reads."""

    def __init__(self, name: str):
        self.name = name
        self.carry = b""

    def feed(self, data: bytes) -> tuple[bytes, bool]:
        """Decoded bytes of ``data`` up to its first invalid byte, and whether there was none."""
        data = self.carry + data.replace(b"\n", b"")
        alphabet = _ALPHABETS[self.name]
        ok = not data.translate(None, alphabet)
        if not ok:
            data = data[: next(i for i, c in enumerate(data) if c not in alphabet)]
        group = {"base16": 2, "base2msbf": 8, "base2lsbf": 8, "z85": 5}[self.name]
        cut = len(data) - len(data) % group
        self.carry = data[cut:] if ok else b""
        body = data[:cut]
        if self.name == "base16":
            return bytes.fromhex(body.decode()), ok
        if self.name == "base2msbf":
            return (int(body, 2).to_bytes(cut // 8, "big") if body else b""), ok
        if self.name == "base2lsbf":
            return (int(body[::-1], 2).to_bytes(cut // 8, "big")[::-1] if body else b""), ok
        out = bytearray()
        for i in range(0, cut, 5):
            value = 0
            for c in body[i : i + 5]:
                value = value * 85 + _Z85_VALUE[c]
            if value >> 32:
                return bytes(out), False
            out += value.to_bytes(4, "big")
        return bytes(out), ok

    def finish(self) -> tuple[bytes, bool]:
        """At end of input: a partial group is invalid."""
        return b"", not self.carry


class _TranslatingDecoder:
    """base64url and base32hex: translate each read to the plain alphabet, then gnulib's decoder."""

    def __init__(self, name: str):
        self.name = name
        self.inner = _Decoder(CODECS["base64" if name == "base64url" else "base32"], False)

    def feed(self, data: bytes) -> tuple[bytes, bool]:
        """Decode one read."""
        if self.name == "base64url":
            if b"+" in data or b"/" in data:
                return b"", False
            return self.inner.feed(data.translate(_FROM_URL))
        return self.inner.feed(data.translate(_HEX_TO_NORM))

    def finish(self) -> tuple[bytes, bool]:
        """The partial last group, if any."""
        return self.inner.finish()


def _decode(ctx: CommandContext, stream: BinaryIO, name: str, ignore: bool) -> int:
    if name in ("base64", "base32"):
        decoder: object = _Decoder(CODECS[name], False)
    elif name in ("base64url", "base32hex"):
        decoder = _TranslatingDecoder(name)
    else:
        decoder = _ByteDecoder(name)
    read_size = _encoded_length(name, DEC_BLOCK)
    # (GNU's isz85 is a strchr() that also finds the string's terminating NUL: -i keeps NULs.)
    keep = _ALPHABETS[name] + b"=" + (b"\0" if name == "z85" else b"")
    drop = bytes(c for c in range(256) if c not in keep) if ignore else b""
    pending = b""
    at_end = False
    while not at_end:
        # One GNU read: ``read_size`` bytes that survive ``-i``'s filter (or end of input).
        while len(pending) < read_size and not at_end:
            piece = stream.read(read_size * _READ_BLOCKS)
            if not piece:
                at_end = True
                break
            pending += piece.translate(None, drop) if drop else piece
        chunks = [pending[i : i + read_size] for i in range(0, len(pending), read_size)]
        if not at_end and chunks and len(chunks[-1]) < read_size:
            pending = chunks.pop()
        else:
            pending = b""
        for chunk in chunks:
            out, ok = decoder.feed(chunk)  # type: ignore[attr-defined]
            ctx.stdout.write(out)
            if not ok:
                ctx.error("invalid input")
                return 1
        ctx.budget.check_time()
    out, ok = decoder.finish()  # type: ignore[attr-defined]
    ctx.stdout.write(out)
    if not ok:
        ctx.error("invalid input")
        return 1
    return 0


def run(ctx: CommandContext) -> int:
    """Run ``basenc``."""

    def check(key: str, value: str | None) -> int | None:
        if key == "w" and _wrap_size(value or "") is None:
            ctx.error(f"invalid wrap size: {quote(value or '')}")
            return 1
        return None

    parsed = parse_in_order(ctx, SPEC, USAGE, "basenc (GNU coreutils) 9.1", check)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    decode = ignore = False
    wrap = 76
    name = None
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
        elif key in _ENCODINGS:
            name = key
    if name is None:
        return ctx.usage_error("missing encoding type")
    if len(operands) > 1:
        return ctx.usage_error(f"extra operand {quote(operands[1])}")
    operand = operands[0] if operands else "-"

    def work(stream: BinaryIO) -> int:
        if decode:
            return _decode(ctx, stream, name, ignore)
        return _encode(ctx, stream, name, wrap)
    return with_operand(ctx, operand, work)
