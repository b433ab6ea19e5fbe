"""The gzip file format pieces shared by ``gzip``, ``gunzip`` and ``zcat`` (GNU gzip 1.12).

``GzipInput`` reads a compressed stream the way gzip's ``fill_inbuf`` does (whole 32 KiB
buffers, ``bytes_in`` counting what was read), so header offsets, ``-l`` sizes and ``-v``
ratios come out as GNU's. ``inflate_member`` decodes one deflate stream with ``zlib`` in
bounded pieces (never more than 32 KiB of output at a time: a decompression bomb is stopped
by the sink's limits, not by memory) and hands output on in the 32 KiB windows gzip flushes.
``deflate_bytes`` produces the deflate stream with zlib's parameters closest to gzip's
(``memLevel`` 8: the same 15-bit hash and match search).
"""

from __future__ import annotations

import struct
import zlib
from typing import BinaryIO, Callable

#: gzip's input buffer size: reads are of this many bytes (``INBUFSIZ``).
INBUFSIZ = 0x8000
#: gzip's sliding window: decompressed data is flushed in pieces of this size (``WSIZE``).
WSIZE = 0x8000

GZIP_MAGIC = b"\x1f\x8b"
OLD_GZIP_MAGIC = b"\x1f\x9e"
PKZIP_MAGIC = b"PK\x03\x04"
PACK_MAGIC = b"\x1f\x1e"
LZW_MAGIC = b"\x1f\x9d"
LZH_MAGIC = b"\x1f\xa0"

HEADER_CRC = 0x02
EXTRA_FIELD = 0x04
ORIG_NAME = 0x08
COMMENT = 0x10
ENCRYPTED = 0x20
RESERVED = 0xC0

#: End of input where more was needed (gzip's ``read_error`` with errno 0).
EOF = -1


class InputEOF(Exception):
    """The compressed input ended where gzip needed another byte."""


class BadData(Exception):
    """The deflate data is invalid (``invalid compressed data--format violated``)."""


class GzipInput:
    """A compressed input read in gzip's 32 KiB buffers (``inbuf``, ``inptr``, ``insize``)."""

    def __init__(self, stream: BinaryIO, check: Callable[[], None] | None = None):
        self.stream = stream
        self.buf = b""
        self.pos = 0
        self.bytes_in = 0
        self.check = check

    def _read_full(self) -> bytes:
        pieces: list[bytes] = []
        got = 0
        while got < INBUFSIZ:
            piece = self.stream.read(INBUFSIZ - got)
            if not piece:
                break
            pieces.append(piece)
            got += len(piece)
        if self.check is not None:
            self.check()
        return b"".join(pieces)

    def fill(self, eof_ok: bool) -> int:
        """``fill_inbuf``: read the next buffer and return its first byte (or ``EOF``)."""
        data = self._read_full()
        self.buf = data
        self.pos = 0
        if not data:
            if eof_ok:
                return EOF
            raise InputEOF()
        self.bytes_in += len(data)
        self.pos = 1
        return data[0]

    def get_byte(self) -> int:
        """The next byte; ``InputEOF`` at the end."""
        if self.pos < len(self.buf):
            b = self.buf[self.pos]
            self.pos += 1
            return b
        return self.fill(False)

    def try_byte(self) -> int:
        """The next byte, or ``EOF``."""
        if self.pos < len(self.buf):
            b = self.buf[self.pos]
            self.pos += 1
            return b
        return self.fill(True)

    def at_eof(self) -> bool:
        """gzip's ``input_eof`` for one more member."""
        if self.pos == len(self.buf):
            if len(self.buf) != INBUFSIZ or self.fill(True) == EOF:
                return True
            self.pos = 0
        return False

    def take_rest(self) -> bytes:
        """The unread part of the current buffer (consumed)."""
        rest = self.buf[self.pos:]
        self.pos = len(self.buf)
        return rest

    def refill(self) -> bytes:
        """Read the next buffer whole for a decoder (``InputEOF`` at the end)."""
        self.fill(False)
        self.pos = len(self.buf)
        return self.buf

    def unread(self, count: int) -> None:
        """Give back the last ``count`` bytes of the current buffer."""
        self.pos = len(self.buf) - count


class WindowSink:
    """gzip's ``flush_window``: output leaves in whole 32 KiB windows of the member, the
    last partial window at the member's end or when the input runs out."""

    def __init__(self, emit: Callable[[bytes], None]):
        self.emit = emit
        self.pending = bytearray()
        self.crc = 0
        self.size = 0

    def add(self, data: bytes) -> None:
        """Decoded bytes: whole windows are passed on, the rest is held."""
        if not data:
            return
        self.pending += data
        if len(self.pending) >= WSIZE:
            cut = len(self.pending) - len(self.pending) % WSIZE
            self._out(bytes(self.pending[:cut]))
            del self.pending[:cut]

    def flush(self) -> None:
        """Pass on the partial window (member end, or gzip's flush before a read error)."""
        if self.pending:
            self._out(bytes(self.pending))
            self.pending.clear()

    def _out(self, data: bytes) -> None:
        self.crc = zlib.crc32(data, self.crc)
        self.size += len(data)
        self.emit(data)


def inflate_member(inp: GzipInput, sink: WindowSink, check: Callable[[], None]) -> None:
    """Decode one raw deflate stream from ``inp`` into ``sink``; leave ``inp`` at the byte
    after it. Raises ``InputEOF`` (after flushing what was decoded, as gzip does) or
    ``BadData`` (without flushing the partial window)."""
    d = zlib.decompressobj(-15)
    data = inp.take_rest()
    while True:
        try:
            while True:
                out = d.decompress(data, WSIZE)
                sink.add(out)
                check()
                data = d.unconsumed_tail
                if d.eof:
                    break
                if not data and len(out) < WSIZE:
                    break
        except zlib.error:
            raise BadData() from None
        if d.eof:
            inp.unread(len(d.unused_data))
            return
        try:
            data = inp.refill()
        except InputEOF:
            sink.flush()
            raise


def deflate_bytes(chunks, level: int, emit: Callable[[bytes], None]) -> tuple[int, int]:
    """Deflate the byte pieces of ``chunks`` at ``level``; return (crc32, size)."""
    c = zlib.compressobj(level, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY)
    crc = 0
    size = 0
    for piece in chunks:
        crc = zlib.crc32(piece, crc)
        size += len(piece)
        out = c.compress(piece)
        if out:
            emit(out)
    emit(c.flush())
    return crc, size


def header(name: bytes | None, stamp: int, level: int) -> bytes:
    """The gzip member header gzip writes (FNAME when ``name`` is given, XFL 4/2 for -1/-9)."""
    flags = ORIG_NAME if name is not None else 0
    xfl = 4 if level == 1 else 2 if level == 9 else 0
    head = GZIP_MAGIC + bytes([8, flags]) + struct.pack("<I", stamp) + bytes([xfl, 3])
    if name is not None:
        head += name + b"\x00"
    return head


def trailer(crc: int, size: int) -> bytes:
    """CRC32 and ISIZE (the size modulo 2**32)."""
    return struct.pack("<II", crc & 0xFFFFFFFF, size & 0xFFFFFFFF)
