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
        self.tail = bytearray()

    def add(self, data: bytes) -> None:
        """Decoded bytes: whole windows are passed on, the rest is held."""
        if not data:
            return
        self.pending += data
        self.tail += data
        if len(self.tail) > 2 * WSIZE:
            del self.tail[:-WSIZE]
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


def inflate_member(inp: GzipInput, sink: WindowSink, check: Callable[[], None],
                   slide: bytearray) -> None:
    """Decode one raw deflate stream from ``inp`` into ``sink``; leave ``inp`` at the byte
    after it. Valid data goes through zlib; when zlib refuses the data or the input ends,
    the member is decoded again by ``GnuInflater`` for gzip's own output and verdict.
    ``slide`` is gzip's window as the previous members left it (updated here). Raises
    ``InputEOF`` (after flushing what gzip flushes) or ``BadData``."""
    d = zlib.decompressobj(-15)
    data = inp.take_rest()
    saved = [data]
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
            _replay(inp, sink, check, slide, saved)
            return
        if d.eof:
            inp.unread(len(d.unused_data))
            _keep_window(slide, sink.size + len(sink.pending), sink.tail)
            return
        try:
            data = inp.refill()
        except InputEOF:
            _replay(inp, sink, check, slide, saved)
            return
        saved.append(data)


def _keep_window(slide: bytearray, size: int, tail: bytes) -> None:
    """Leave in ``slide`` what gzip's window holds after ``size`` bytes ending in ``tail``."""
    tail = tail[-WSIZE:]
    if not tail:
        return
    start = (size - len(tail)) % WSIZE
    first = tail[: WSIZE - start]
    slide[start:start + len(first)] = first
    rest = tail[len(first):]
    slide[: len(rest)] = rest


def _replay(inp: GzipInput, sink: WindowSink, check: Callable[[], None], slide: bytearray,
            saved: list[bytes]) -> None:
    src = bytearray(b"".join(saved))
    saved.clear()
    idx = 0

    def nextbyte() -> int:
        nonlocal idx, src
        if idx >= len(src):
            src += inp.refill()
        b = src[idx]
        idx += 1
        return b

    skip = sink.size
    sink.pending.clear()

    def put(data: bytes) -> None:
        nonlocal skip
        if skip >= len(data):
            skip -= len(data)
            return
        sink._out(data[skip:])
        skip = 0

    g = GnuInflater(nextbyte, put, slide, check)
    if g.inflate():
        raise BadData()
    unread = len(src) - idx + g.unread_bits()
    if unread <= len(inp.buf):
        inp.unread(unread)
    else:
        inp.buf = bytes(src[len(src) - unread:])
        inp.pos = 0


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


# -- gzip 1.12's own inflate, for the inputs zlib refuses -----------------------------------------
#
# zlib and gzip's inflate.c agree on valid data but not on damaged data: gzip reads a distance
# past the start of the output from its stale window (and later reports a CRC error), accepts a
# repeat code first in the code lengths and a one-code incomplete code-length code, decodes
# a block without an end code until the input ends, and at the end of the input it stops where
# its table lookups want more bits. ``GnuInflater`` follows inflate.c's tables (huft_build),
# bit reads (NEEDBITS) and window flushes, so the output and the message are gzip's.

_BORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
_CPLENS = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99,
           115, 131, 163, 195, 227, 258, 0, 0]
_CPLEXT = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
           99, 99]
_CPDIST = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025,
           1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
_CPDEXT = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12,
           12, 13, 13]
_BMAX = 16
_INVALID = (99, 1, 0)


def huft_build(lens: list[int], n: int, s: int, d: list[int] | None, e: list[int] | None,
               m: int) -> tuple[int, list, int]:
    """inflate.c's ``huft_build``: (status 0 ok / 1 incomplete / 2 bad, table, lookup bits).
    A table entry is (e, bits, value-or-subtable) with gzip's meaning of ``e``."""
    c = [0] * (_BMAX + 1)
    for i in range(n):
        c[lens[i]] += 1
    if c[0] == n:
        return 0, [_INVALID, _INVALID], 1
    j = 1
    while j <= _BMAX and not c[j]:
        j += 1
    k = j
    l = max(m, j)
    i = _BMAX
    while i and not c[i]:
        i -= 1
    g = i
    l = min(l, i)
    y = 1 << j
    while j < i:
        y -= c[j]
        if y < 0:
            return 2, [], l
        j += 1
        y <<= 1
    y -= c[i]
    if y < 0:
        return 2, [], l
    c[i] += y
    x = [0] * (_BMAX + 1)
    j = 0
    for idx in range(1, g):
        j += c[idx]
        x[idx + 1] = j
    v = [0] * 288
    for idx in range(n):
        jj = lens[idx]
        if jj:
            v[x[jj]] = idx
            x[jj] += 1
    nv = x[g]
    x[0] = i = 0
    p = 0
    h = -1
    w = -l
    u: list = [None] * _BMAX
    q: list = []
    z = 0
    root: list = []
    while k <= g:
        a = c[k]
        while a:
            a -= 1
            while k > w + l:
                h += 1
                w += l
                z = min(g - w, l)
                jj = k - w
                f = 1 << jj
                if f > a + 1:
                    f -= a + 1
                    xp = k
                    if jj < z:
                        jj += 1
                        while jj < z:
                            f <<= 1
                            xp += 1
                            if f <= c[xp]:
                                break
                            f -= c[xp]
                            jj += 1
                z = 1 << jj
                q = [_INVALID] * z
                u[h] = q
                if h:
                    x[h] = i
                    u[h - 1][i >> (w - l)] = (16 + jj, l, q)
                else:
                    root = q
            if p >= nv:
                r = (99, k - w, 0)
            elif v[p] < s:
                r = (16 if v[p] < 256 else 15, k - w, v[p])
                p += 1
            else:
                assert d is not None and e is not None
                r = (e[v[p] - s], k - w, d[v[p] - s])
                p += 1
            f = 1 << (k - w)
            for jj in range(i >> w, z, f):
                q[jj] = r
            jj = 1 << (k - 1)
            while i & jj:
                i ^= jj
                jj >>= 1
            i ^= jj
            while (i & ((1 << w) - 1)) != x[h]:
                h -= 1
                w -= l
        k += 1
    return (1 if y != 0 and g != 1 else 0), root, l


class GnuInflater:
    """inflate.c over ``nextbyte`` (raises ``InputEOF``): output goes to ``put`` in gzip's
    32 KiB flushes; ``slide`` is gzip's window, kept from one member (and file) to the next."""

    def __init__(self, nextbyte: Callable[[], int], put: Callable[[bytes], None],
                 slide: bytearray, check: Callable[[], None]):
        self.nextbyte = nextbyte
        self.put = put
        self.slide = slide
        self.check = check
        self.bb = 0
        self.bk = 0
        self.wp = 0
        self.w = 0

    def _need(self, n: int) -> None:
        while self.bk < n:
            try:
                byte = self.nextbyte()
            except InputEOF:
                self.wp = self.w
                self.flush()
                raise
            self.bb |= byte << self.bk
            self.bk += 8

    def _dump(self, n: int) -> None:
        self.bb >>= n
        self.bk -= n

    def flush(self) -> None:
        """``flush_window``: pass on slide[0:wp]."""
        if self.wp:
            self.put(bytes(self.slide[: self.wp]))
            self.wp = 0

    def _out(self, byte: int) -> None:
        self.slide[self.w] = byte
        self.w += 1
        if self.w == WSIZE:
            self.wp = WSIZE
            self.flush()
            self.w = 0
            self.check()

    def inflate(self) -> int:
        """Decode one deflate stream; 0 when done, else inflate.c's error code."""
        self.wp = self.w = 0
        self.bk = self.bb = 0
        while True:
            self._need(1)
            last = self.bb & 1
            self._dump(1)
            self._need(2)
            kind = self.bb & 3
            self._dump(2)
            if kind == 2:
                r = self._dynamic()
            elif kind == 0:
                r = self._stored()
            elif kind == 1:
                r = self._fixed()
            else:
                r = 2
            if r:
                return r
            if last:
                break
        self.wp = self.w
        self.flush()
        return 0

    def unread_bits(self) -> int:
        """Whole bytes read ahead past the end of the stream (``inptr--`` for each)."""
        n = 0
        while self.bk >= 8:
            self.bk -= 8
            n += 1
        return n

    def _stored(self) -> int:
        self._dump(self.bk & 7)
        self._need(16)
        n = self.bb & 0xFFFF
        self._dump(16)
        self._need(16)
        if n != (~self.bb) & 0xFFFF:
            return 1
        self._dump(16)
        while n:
            n -= 1
            self._need(8)
            self._out(self.bb & 0xFF)
            self._dump(8)
        self.wp = self.w
        return 0

    def _fixed(self) -> int:
        lens = [8] * 144 + [9] * 112 + [7] * 24 + [8] * 8
        st, tl, bl = huft_build(lens, 288, 257, _CPLENS, _CPLEXT, 7)
        if st:
            return st
        st, td, bd = huft_build([5] * 30, 30, 0, _CPDIST, _CPDEXT, 5)
        if st > 1:
            return st
        return 1 if self._codes(tl, td, bl, bd) else 0

    def _dynamic(self) -> int:
        self._need(5)
        nl = 257 + (self.bb & 0x1F)
        self._dump(5)
        self._need(5)
        nd = 1 + (self.bb & 0x1F)
        self._dump(5)
        self._need(4)
        nb = 4 + (self.bb & 0xF)
        self._dump(4)
        if nl > 286 or nd > 30:
            return 1
        ll = [0] * (286 + 30)
        for j in range(nb):
            self._need(3)
            ll[_BORDER[j]] = self.bb & 7
            self._dump(3)
        st, tl, bl = huft_build(ll, 19, 19, None, None, 7)
        if st:
            return st
        n = nl + nd
        m = (1 << bl) - 1
        i = last = 0
        while i < n:
            self._need(bl)
            ent = tl[self.bb & m]
            self._dump(ent[1])
            if ent[0] == 99:
                return 2
            j = ent[2]
            if j < 16:
                ll[i] = last = j
                i += 1
            elif j == 16:
                self._need(2)
                j = 3 + (self.bb & 3)
                self._dump(2)
                if i + j > n:
                    return 1
                ll[i:i + j] = [last] * j
                i += j
            else:
                bits, base = (3, 3) if j == 17 else (7, 11)
                self._need(bits)
                j = base + (self.bb & ((1 << bits) - 1))
                self._dump(bits)
                if i + j > n:
                    return 1
                ll[i:i + j] = [0] * j
                i += j
                last = 0
        st, tl, bl = huft_build(ll, nl, 257, _CPLENS, _CPLEXT, 9)
        if st:
            return st
        st, td, bd = huft_build(ll[nl:nl + nd] + [0] * 0, nd, 0, _CPDIST, _CPDEXT, 6)
        if st:
            return st
        return 1 if self._codes(tl, td, bl, bd) else 0

    def _lookup(self, table: list, bits: int) -> tuple | None:
        self._need(bits)
        t = table[self.bb & ((1 << bits) - 1)]
        e = t[0]
        while e > 16:
            if e == 99:
                return None
            self._dump(t[1])
            e -= 16
            self._need(e)
            t = t[2][self.bb & ((1 << e) - 1)]
            e = t[0]
        self._dump(t[1])
        return t

    def _codes(self, tl: list, td: list, bl: int, bd: int) -> int:
        slide = self.slide
        while True:
            t = self._lookup(tl, bl)
            if t is None:
                return 1
            e = t[0]
            if e == 16:
                self._out(t[2])
                continue
            if e == 15:
                break
            self._need(e)
            n = t[2] + (self.bb & ((1 << e) - 1))
            self._dump(e)
            t = self._lookup(td, bd)
            if t is None:
                return 1
            e = t[0]
            self._need(e)
            d = (self.w - t[2] - (self.bb & ((1 << e) - 1))) & (WSIZE - 1)
            self._dump(e)
            for _ in range(n):
                self._out(slide[d])
                d = (d + 1) & (WSIZE - 1)
        self.wp = self.w
        return 0
