"""The gzip file format pieces shared by ``gzip``, ``gunzip`` and ``zcat`` (GNU gzip 1.12).

``GzipInput`` reads a compressed stream the way gzip's ``fill_inbuf`` does (whole 32 KiB
buffers, ``bytes_in`` counting what was read), so header offsets, ``-l`` sizes and ``-v``
ratios come out as GNU's. ``inflate_member`` decodes one deflate stream with ``zlib`` in
bounded pieces (never more than 32 KiB of output at a time: a decompression bomb is stopped
by the sink's limits, not by memory) and hands output on in the 32 KiB windows gzip flushes.
``deflate_bytes`` produces gzip's deflate stream: zlib at ``memLevel`` 8 (gzip's 15-bit hash
and match search, so gzip's LZ77 parse), re-split into gzip's blocks by ``gzip_deflate``
(with gzip's own parse, ``gzip_parse``, where zlib's stored blocks hide it).
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


#: Compressed bytes of one member kept for a second decoding by gzip's own inflate; past
#: this, a refused stream gets zlib's verdict (format violated / end of file) instead.
REPLAY_LIMIT = 32 << 20


def inflate_member(inp: GzipInput, sink: WindowSink, check: Callable[[], None],
                   slide: bytearray) -> None:
    """Decode one raw deflate stream from ``inp`` into ``sink``; leave ``inp`` at the byte
    after it. Valid data goes through zlib; when zlib refuses the data or the input ends,
    the member is decoded again by ``GnuInflater`` for gzip's own output and verdict.
    ``slide`` is gzip's window as the previous members left it (updated here). Raises
    ``InputEOF`` (after flushing what gzip flushes) or ``BadData``."""
    d = zlib.decompressobj(-15)
    data = inp.take_rest()
    saved: list[bytes] | None = [data]
    kept = len(data)
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
            if saved is None:
                raise BadData() from None
            _replay(inp, sink, check, slide, saved)
            return
        if d.eof:
            inp.unread(len(d.unused_data))
            _keep_window(slide, sink.size + len(sink.pending), sink.tail)
            return
        try:
            data = inp.refill()
        except InputEOF:
            if saved is None:
                sink.flush()
                raise
            _replay(inp, sink, check, slide, saved)
            return
        if saved is not None:
            saved.append(data)
            kept += len(data)
            if kept > REPLAY_LIMIT:
                saved = None


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


#: Inputs up to this size are coded exactly as gzip does (``gzip_deflate``); larger ones are
#: streamed through zlib, whose blocks may be split elsewhere.
EXACT_LIMIT = 4 << 20


def deflate_bytes(chunks, level: int, emit: Callable[[bytes], None],
                  check: Callable[[], None] | None = None) -> tuple[int, int]:
    """Deflate the byte pieces of ``chunks`` at ``level`` as gzip does; return (crc32, size).
    ``check`` is called now and then in long work (the run's time limit)."""
    crc = 0
    size = 0
    held: list[bytes] = []
    it = iter(chunks)
    for piece in it:
        crc = zlib.crc32(piece, crc)
        size += len(piece)
        held.append(piece)
        if size > EXACT_LIMIT:
            break
    else:
        emit(gzip_deflate(b"".join(held), level, check))
        return crc, size
    c = zlib.compressobj(level, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY)
    for piece in held:
        out = c.compress(piece)
        if out:
            emit(out)
    held.clear()
    for piece in it:
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


# -- gzip 1.12's block splitting, for inputs past zlib's 16383-symbol blocks ---------------------
#
# zlib at memLevel 8 makes gzip's LZ77 parse (same hash, same match search) but ends a block
# after 16383 symbols where gzip goes to 32767 (and, above -2, may end one early at a multiple
# of 4096 symbols: trees.c's ``ct_tally`` guess). ``gzip_deflate`` reads the parse back out of
# zlib's stream, splits it where gzip's ``ct_tally`` would, and codes each block with a port
# of trees.c (``build_tree``, ``gen_bitlen``, ``send_tree``, ``flush_block``).

_EXTRA_LBITS = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5,
                5, 0]
_EXTRA_DBITS = _CPDEXT
_EXTRA_BLBITS = [0] * 16 + [2, 3, 7]
_BL_ORDER = _BORDER
_BASE_LENGTH = [0] * 29
_LENGTH_CODE = [0] * 256
_BASE_DIST = [0] * 30
_DIST_CODE = [0] * 512


def _init_tables() -> None:
    length = 0
    for code in range(28):
        _BASE_LENGTH[code] = length
        for _ in range(1 << _EXTRA_LBITS[code]):
            _LENGTH_CODE[length] = code
            length += 1
    _LENGTH_CODE[length - 1] = 28
    dist = 0
    for code in range(16):
        _BASE_DIST[code] = dist
        for _ in range(1 << _EXTRA_DBITS[code]):
            _DIST_CODE[dist] = code
            dist += 1
    dist >>= 7
    for code in range(16, 30):
        _BASE_DIST[code] = dist << 7
        for _ in range(1 << (_EXTRA_DBITS[code] - 7)):
            _DIST_CODE[256 + dist] = code
            dist += 1


_init_tables()


def _d_code(dist: int) -> int:
    return _DIST_CODE[dist] if dist < 256 else _DIST_CODE[256 + (dist >> 7)]


def _bi_reverse(code: int, length: int) -> int:
    res = 0
    for _ in range(length):
        res = (res << 1) | (code & 1)
        code >>= 1
    return res


def _gen_codes(lens: list[int], max_code: int, bl_count: list[int]) -> list[int]:
    codes = [0] * len(lens)
    next_code = [0] * 16
    code = 0
    for bits in range(1, 16):
        code = (code + bl_count[bits - 1]) << 1
        next_code[bits] = code
    for n in range(max_code + 1):
        ln = lens[n]
        if ln:
            codes[n] = _bi_reverse(next_code[ln], ln)
            next_code[ln] += 1
    return codes


_STATIC_LLEN = [8] * 144 + [9] * 112 + [7] * 24 + [8] * 8
_STATIC_LCODE = _gen_codes(_STATIC_LLEN, 287, [0, 0, 0, 0, 0, 0, 0, 24, 152, 112, 0, 0, 0, 0, 0, 0])
_STATIC_DLEN = [5] * 30
_STATIC_DCODE = [_bi_reverse(n, 5) for n in range(30)]


class _Tree:
    """One tree of trees.c (``ct_data`` array and its ``tree_desc``)."""

    def __init__(self, elems: int, size: int, stree_len: list[int] | None, extra: list[int],
                 base: int, max_length: int):
        self.elems = elems
        self.freq = [0] * size
        self.len = [0] * size
        self.code = [0] * size
        self.stree_len = stree_len
        self.extra = extra
        self.base = base
        self.max_length = max_length
        self.max_code = 0


class _Trees:
    """trees.c's block state and bit output."""

    def __init__(self) -> None:
        self.out = bytearray()
        self.bitbuf = 0
        self.bitcnt = 0
        self.ltree = _Tree(286, 2 * 286 + 1, _STATIC_LLEN, _EXTRA_LBITS, 257, 15)
        self.dtree = _Tree(30, 2 * 30 + 1, _STATIC_DLEN, _EXTRA_DBITS, 0, 15)
        self.bltree = _Tree(19, 2 * 19 + 1, None, _EXTRA_BLBITS, 0, 7)
        self.opt_len = 0
        self.static_len = 0
        self.bl_count = [0] * 16

    def send_bits(self, value: int, length: int) -> None:
        """Append ``length`` bits of ``value``, least significant first."""
        self.bitbuf |= value << self.bitcnt
        self.bitcnt += length
        while self.bitcnt >= 8:
            self.out.append(self.bitbuf & 0xFF)
            self.bitbuf >>= 8
            self.bitcnt -= 8

    def bi_windup(self) -> None:
        """Pad the bits to a whole byte."""
        if self.bitcnt > 0:
            self.out.append(self.bitbuf & 0xFF)
        self.bitbuf = self.bitcnt = 0

    def build_tree(self, t: _Tree) -> None:
        """trees.c's ``build_tree``: Huffman code lengths and codes from the frequencies."""
        freq, tlen = t.freq, t.len
        depth = [0] * len(freq)
        heap = [0] * 574
        heap_len = 0
        heap_max = 573
        max_code = -1
        for n in range(t.elems):
            if freq[n]:
                heap_len += 1
                heap[heap_len] = max_code = n
                depth[n] = 0
            else:
                tlen[n] = 0
        while heap_len < 2:
            if max_code < 2:
                max_code += 1
                new = max_code
            else:
                new = 0
            heap_len += 1
            heap[heap_len] = new
            freq[new] = 1
            depth[new] = 0
            self.opt_len -= 1
            if t.stree_len is not None:
                self.static_len -= t.stree_len[new]
        t.max_code = max_code

        def smaller(a: int, b: int) -> bool:
            return freq[a] < freq[b] or (freq[a] == freq[b] and depth[a] <= depth[b])

        def down(k: int) -> None:
            v = heap[k]
            j = k << 1
            while j <= heap_len:
                if j < heap_len and smaller(heap[j + 1], heap[j]):
                    j += 1
                if smaller(v, heap[j]):
                    break
                heap[k] = heap[j]
                k = j
                j <<= 1
            heap[k] = v

        for n in range(heap_len // 2, 0, -1):
            down(n)
        node = t.elems
        dad = [0] * len(freq)
        while True:
            n = heap[1]
            heap[1] = heap[heap_len]
            heap_len -= 1
            down(1)
            m = heap[1]
            heap_max -= 1
            heap[heap_max] = n
            heap_max -= 1
            heap[heap_max] = m
            freq[node] = freq[n] + freq[m]
            depth[node] = max(depth[n], depth[m]) + 1
            dad[n] = dad[m] = node
            heap[1] = node
            node += 1
            down(1)
            if heap_len < 2:
                break
        heap_max -= 1
        heap[heap_max] = heap[1]
        self._gen_bitlen(t, heap, heap_max, dad)
        t.code = _gen_codes(tlen, max_code, self.bl_count)

    def _gen_bitlen(self, t: _Tree, heap: list[int], heap_max: int, dad: list[int]) -> None:
        freq, tlen = t.freq, t.len
        bl_count = self.bl_count
        for b in range(16):
            bl_count[b] = 0
        tlen[heap[heap_max]] = 0
        overflow = 0
        h = heap_max + 1
        while h < 573:
            n = heap[h]
            bits = tlen[dad[n]] + 1
            if bits > t.max_length:
                bits = t.max_length
                overflow += 1
            tlen[n] = bits
            h += 1
            if n > t.max_code:
                continue
            bl_count[bits] += 1
            xbits = t.extra[n - t.base] if n >= t.base else 0
            f = freq[n]
            self.opt_len += f * (bits + xbits)
            if t.stree_len is not None:
                self.static_len += f * (t.stree_len[n] + xbits)
        if overflow == 0:
            return
        while True:
            bits = t.max_length - 1
            while bl_count[bits] == 0:
                bits -= 1
            bl_count[bits] -= 1
            bl_count[bits + 1] += 2
            bl_count[t.max_length] -= 1
            overflow -= 2
            if overflow <= 0:
                break
        h = 573
        for bits in range(t.max_length, 0, -1):
            n = bl_count[bits]
            while n != 0:
                h -= 1
                m = heap[h]
                if m > t.max_code:
                    continue
                if tlen[m] != bits:
                    self.opt_len += (bits - tlen[m]) * freq[m]
                    tlen[m] = bits
                n -= 1

    def _scan_tree(self, t: _Tree, send: bool) -> None:
        tlen = t.len
        bl = self.bltree
        max_code = t.max_code
        prevlen = -1
        nextlen = tlen[0]
        count = 0
        max_count, min_count = (138, 3) if nextlen == 0 else (7, 4)
        if not send:
            tlen[max_code + 1] = 0xFFFF

        def code(c: int) -> None:
            self.send_bits(bl.code[c], bl.len[c])

        for n in range(max_code + 1):
            curlen = nextlen
            nextlen = tlen[n + 1]
            count += 1
            if count < max_count and curlen == nextlen:
                continue
            if count < min_count:
                if send:
                    for _ in range(count):
                        code(curlen)
                else:
                    bl.freq[curlen] += count
            elif curlen != 0:
                if send:
                    if curlen != prevlen:
                        code(curlen)
                        count -= 1
                    code(16)
                    self.send_bits(count - 3, 2)
                else:
                    if curlen != prevlen:
                        bl.freq[curlen] += 1
                    bl.freq[16] += 1
            elif count <= 10:
                if send:
                    code(17)
                    self.send_bits(count - 3, 3)
                else:
                    bl.freq[17] += 1
            else:
                if send:
                    code(18)
                    self.send_bits(count - 11, 7)
                else:
                    bl.freq[18] += 1
            count = 0
            prevlen = curlen
            if nextlen == 0:
                max_count, min_count = 138, 3
            elif curlen == nextlen:
                max_count, min_count = 6, 3
            else:
                max_count, min_count = 7, 4

    def flush_block(self, syms: list[int], raw: bytes | None, eof: bool) -> None:
        """trees.c's ``flush_block`` for one block's symbols (``raw``: its bytes, or None
        when gzip's window no longer holds them)."""
        lt, dt, bt = self.ltree, self.dtree, self.bltree
        for t in (lt, dt, bt):
            for i in range(len(t.freq)):
                t.freq[i] = 0
        self.opt_len = self.static_len = 0
        lt.freq[256] = 1
        for s in syms:
            if s < 256:
                lt.freq[s] += 1
            else:
                lc, dist = (s - 256) >> 15, (s - 256) & 0x7FFF
                lt.freq[_LENGTH_CODE[lc] + 257] += 1
                dt.freq[_d_code(dist)] += 1
        self.build_tree(lt)
        self.build_tree(dt)
        self._scan_tree(lt, False)
        self._scan_tree(dt, False)
        self.build_tree(bt)
        max_blindex = 18
        while max_blindex >= 3 and bt.len[_BL_ORDER[max_blindex]] == 0:
            max_blindex -= 1
        self.opt_len += 3 * (max_blindex + 1) + 14
        opt_lenb = (self.opt_len + 3 + 7) >> 3
        static_lenb = (self.static_len + 3 + 7) >> 3
        if static_lenb <= opt_lenb:
            opt_lenb = static_lenb
        stored_len = len(raw) if raw is not None else -1
        if raw is not None and stored_len + 4 <= opt_lenb:
            self.send_bits(0 + int(eof), 3)
            self.bi_windup()
            self.out += stored_len.to_bytes(2, "little") + (stored_len ^ 0xFFFF).to_bytes(2, "little")
            self.out += raw
        elif static_lenb == opt_lenb:
            self.send_bits(2 + int(eof), 3)
            self._compress(syms, _STATIC_LCODE, _STATIC_LLEN, _STATIC_DCODE, _STATIC_DLEN)
        else:
            self.send_bits(4 + int(eof), 3)
            self.send_bits(lt.max_code + 1 - 257, 5)
            self.send_bits(dt.max_code + 1 - 1, 5)
            self.send_bits(max_blindex + 1 - 4, 4)
            for rank in range(max_blindex + 1):
                self.send_bits(bt.len[_BL_ORDER[rank]], 3)
            self._scan_tree(lt, True)
            self._scan_tree(dt, True)
            self._compress(syms, lt.code, lt.len, dt.code, dt.len)
        if eof:
            self.bi_windup()

    def _compress(self, syms: list[int], lcode: list[int], llen: list[int], dcode: list[int],
                  dlen: list[int]) -> None:
        send = self.send_bits
        for s in syms:
            if s < 256:
                send(lcode[s], llen[s])
                continue
            lc, dist = (s - 256) >> 15, (s - 256) & 0x7FFF
            code = _LENGTH_CODE[lc]
            send(lcode[code + 257], llen[code + 257])
            extra = _EXTRA_LBITS[code]
            if extra:
                send(lc - _BASE_LENGTH[code], extra)
            code = _d_code(dist)
            send(dcode[code], dlen[code])
            extra = _EXTRA_DBITS[code]
            if extra:
                send(dist - _BASE_DIST[code], extra)
        send(lcode[256], llen[256])


def _canonical(lens: list[int]) -> tuple[list, int]:
    """A lookup table over ``max`` reversed bits: entry (symbol, length)."""
    maxlen = max(lens) if lens else 0
    if maxlen == 0:
        return [], 0
    counts = [0] * 16
    for ln in lens:
        counts[ln] += 1
    counts[0] = 0
    code = 0
    nxt = [0] * 16
    for bits in range(1, 16):
        code = (code + counts[bits - 1]) << 1
        nxt[bits] = code
    table: list = [None] * (1 << maxlen)
    for sym, ln in enumerate(lens):
        if ln:
            r = _bi_reverse(nxt[ln], ln)
            nxt[ln] += 1
            for k in range(r, 1 << maxlen, 1 << ln):
                table[k] = (sym, ln)
    return table, maxlen


def _parse_of(stream: bytes) -> tuple[list[int], list[int]] | None:
    """The LZ77 symbols of a valid raw deflate stream (literal < 256, else 256 +
    (length-3) << 15 | distance-1) and the symbol counts where its blocks end; None when
    the stream has a stored block (whose parse is not in the stream)."""
    syms: list[int] = []
    ends: list[int] = []
    pos = 0

    def bits(n: int) -> int:
        nonlocal pos
        v = (int.from_bytes(stream[pos >> 3:(pos >> 3) + 4], "little") >> (pos & 7)) & ((1 << n) - 1)
        pos += n
        return v

    while True:
        last = bits(1)
        kind = bits(2)
        if kind == 0:
            return None
        else:
            if kind == 1:
                ltab, lmax = _canonical(_STATIC_LLEN)
                dtab, dmax = _canonical(_STATIC_DLEN)
            else:
                nl = bits(5) + 257
                nd = bits(5) + 1
                nb = bits(4) + 4
                cl = [0] * 19
                for j in range(nb):
                    cl[_BORDER[j]] = bits(3)
                ctab, cmax = _canonical(cl)
                lens: list[int] = []
                while len(lens) < nl + nd:
                    sym, ln = ctab[(int.from_bytes(stream[pos >> 3:(pos >> 3) + 4], "little") >> (pos & 7)) & ((1 << cmax) - 1)]
                    pos += ln
                    if sym < 16:
                        lens.append(sym)
                    elif sym == 16:
                        lens.extend([lens[-1]] * (3 + bits(2)))
                    elif sym == 17:
                        lens.extend([0] * (3 + bits(3)))
                    else:
                        lens.extend([0] * (11 + bits(7)))
                ltab, lmax = _canonical(lens[:nl])
                dtab, dmax = _canonical(lens[nl:])
            lmask, dmask = (1 << lmax) - 1, (1 << dmax) - 1
            append = syms.append
            while True:
                word = int.from_bytes(stream[pos >> 3:(pos >> 3) + 8], "little") >> (pos & 7)
                sym, ln = ltab[word & lmask]
                pos += ln
                if sym < 256:
                    append(sym)
                    continue
                if sym == 256:
                    break
                word >>= ln
                code = sym - 257
                eb = _EXTRA_LBITS[code]
                lc = _BASE_LENGTH[code] + (word & ((1 << eb) - 1)) if code != 28 else 255
                word >>= eb
                pos += eb
                dsym, dl = dtab[word & dmask]
                word >>= dl
                db = _EXTRA_DBITS[dsym]
                dist = _BASE_DIST[dsym] + (word & ((1 << db) - 1))
                pos += dl + db
                append(256 + (lc << 15 | dist))
        ends.append(len(syms))
        if last:
            return syms, ends


def _gzip_blocks(syms: list[int], level: int, size: int) -> list[tuple[int, int, int, int, int]]:
    """Where gzip's deflate ends its blocks: (first symbol, end symbol, first byte, end byte,
    window slides before the flush)."""
    slow = level >= 4
    blocks = []
    last_lit = last_dist = 0
    dfreq = [0] * 30
    block_start = 0
    first = 0
    pos = 0
    # window slides: lm_init reads 64 KiB; fill_window runs at the end of an iteration when
    # fewer than 262 bytes are ahead, sliding when strstart >= 65274 (relative)
    slides = 0
    end = min(size, 65536)
    eofile = size < 262

    def iteration_end(e: int) -> None:
        nonlocal slides, end, eofile
        while not eofile and end - e < 262:
            if e - 32768 * slides >= 65274:
                slides += 1
            new_end = min(size, 32768 * slides + 65536)
            if new_end == end:
                eofile = True
            end = new_end

    nsyms = len(syms)
    for i, s in enumerate(syms):
        if s < 256:
            length = 1
        else:
            length = ((s - 256) >> 15) + 3
        final_lazy = slow and s < 256 and i == nsyms - 1
        if slow:
            iteration_end(pos + 1)  # the step before the one that emits this symbol
        last_lit += 1
        if s >= 256:
            last_dist += 1
            dfreq[_d_code((s - 256) & 0x7FFF)] += 1
        flush = False
        if not final_lazy:
            if level > 2 and (last_lit & 0xFFF) == 0:
                out_length = last_lit * 8
                for c in range(30):
                    out_length += dfreq[c] * (5 + _EXTRA_DBITS[c])
                out_length >>= 3
                in_length = pos + (1 if slow else 0) - block_start
                if last_dist < last_lit // 2 and out_length < in_length // 2:
                    flush = True
            if last_lit == 32767 or last_dist == 32768:
                flush = True
        start_pos = pos
        pos += length
        if flush:
            blocks.append((first, i + 1, block_start, pos, slides))
            first = i + 1
            block_start = pos
            last_lit = last_dist = 0
            dfreq = [0] * 30
        if not final_lazy:
            iteration_end(start_pos + 2 if slow and s < 256 else pos)
    blocks.append((first, nsyms, block_start, pos, slides))
    return blocks


def gzip_deflate(data: bytes, level: int, check: Callable[[], None] | None = None) -> bytes:
    """The raw deflate stream gzip 1.12 writes for ``data`` at ``level``."""
    c = zlib.compressobj(level, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY)
    stream = c.compress(data) + c.flush()
    if len(data) < 4096 or (level <= 2 and len(data) < 16383):
        return stream
    parsed = _parse_of(stream)
    if parsed is None:  # stored blocks: the parse is not in zlib's stream
        if len(data) > PARSE_LIMIT:
            return stream
        syms = gzip_parse(data, level, check)
        blocks = _gzip_blocks(syms, level, len(data))
    else:
        syms, zends = parsed
        blocks = _gzip_blocks(syms, level, len(data))
        if [b[1] for b in blocks] == zends:
            return stream
    trees = _Trees()
    for k, (first, last, start, stop, slides) in enumerate(blocks):
        raw = data[start:stop] if start - 32768 * slides >= 0 else None
        trees.flush_block(syms[first:last], raw, k == len(blocks) - 1)
    return bytes(trees.out)


# -- gzip's own LZ77 parse, for inputs whose zlib stream hides it ----------------------------
#
# Where zlib stores a block (incompressible data) its stream no longer shows the matches
# gzip's block splitting counts, so ``gzip_parse`` runs deflate.c's parse itself: its window
# and slides, ``longest_match``, ``deflate_fast`` (-1..-3) and the lazy ``deflate`` (-4..-9).

#: (good_length, max_lazy, nice_length, max_chain) of gzip's levels 1..9.
_CONFIG = [(0, 0, 0, 0), (4, 4, 8, 4), (4, 5, 16, 8), (4, 6, 32, 32), (4, 4, 16, 16),
           (8, 16, 32, 32), (8, 16, 128, 128), (8, 32, 128, 256), (32, 128, 258, 1024),
           (32, 258, 258, 4096)]
#: Inputs up to this size get gzip's own parse when zlib's stream has a stored block.
PARSE_LIMIT = 1 << 20


def gzip_parse(data: bytes, level: int, check: Callable[[], None] | None = None) -> list[int]:
    """deflate.c's LZ77 symbols for ``data`` (encoded as ``_parse_of``'s)."""
    good, max_lazy, nice, max_chain = _CONFIG[level]
    size = len(data)
    window = bytearray(2 * WSIZE + 2 * 258)
    head = [0] * 32768
    prev = [0] * 32768
    read = min(size, 2 * WSIZE)
    window[:read] = data[:read]
    lookahead = read
    eofile = read == 0
    offset = 0  # absolute position of window[0]
    strstart = 0
    match_start = 0
    syms: list[int] = []
    if not eofile and lookahead < 262:
        eofile = True
        window[read:read + 2] = b"\0\0"
    ins_h = 0
    for j in range(2):
        ins_h = ((ins_h << 5) ^ window[j]) & 0x7FFF

    def fill() -> None:
        nonlocal lookahead, eofile, strstart, match_start, offset, read
        more = 2 * WSIZE - lookahead - strstart
        if strstart >= WSIZE + 32506:
            window[:WSIZE] = window[WSIZE:2 * WSIZE]
            match_start -= WSIZE
            strstart -= WSIZE
            offset += WSIZE
            for n in range(32768):
                m = head[n]
                head[n] = m - WSIZE if m >= WSIZE else 0
                m = prev[n]
                prev[n] = m - WSIZE if m >= WSIZE else 0
            more += WSIZE
        if not eofile:
            n = min(more, size - read)
            at = strstart + lookahead
            if n <= 0:
                eofile = True
                window[at:at + 2] = b"\0\0"
            else:
                window[at:at + n] = data[read:read + n]
                read += n
                lookahead += n

    def longest_match(cur: int, prev_length: int) -> int:
        nonlocal match_start
        chain = max_chain
        best = prev_length
        limit = strstart - 32506 if strstart > 32506 else 0
        scan = strstart
        scan_end1 = window[scan + best - 1]
        scan_end = window[scan + best]
        if prev_length >= good:
            chain >>= 2
        wscan = bytes(window[scan:scan + 258])
        while True:
            if (window[cur + best] == scan_end and window[cur + best - 1] == scan_end1
                    and window[cur] == window[scan] and window[cur + 1] == window[scan + 1]):
                other = bytes(window[cur:cur + 258])
                if other == wscan:
                    length = 258
                else:
                    x = int.from_bytes(wscan, "little") ^ int.from_bytes(other, "little")
                    length = ((x & -x).bit_length() - 1) >> 3
                if length > best:
                    match_start = cur
                    best = length
                    if length >= nice:
                        break
                    scan_end1 = window[scan + best - 1]
                    scan_end = window[scan + best]
            cur = prev[cur & 0x7FFF]
            if cur <= limit:
                break
            chain -= 1
            if chain == 0:
                break
        return best

    if level <= 3:
        match_length = 0
        while lookahead:
            ins_h = ((ins_h << 5) ^ window[strstart + 2]) & 0x7FFF
            hash_head = head[ins_h]
            prev[strstart & 0x7FFF] = hash_head
            head[ins_h] = strstart
            if hash_head and strstart - hash_head <= 32506 and strstart <= 2 * WSIZE - 262:
                match_length = longest_match(hash_head, 2)
                if match_length > lookahead:
                    match_length = lookahead
            if match_length >= 3:
                syms.append(256 + ((match_length - 3) << 15 | (strstart - match_start - 1)))
                lookahead -= match_length
                if match_length <= max_lazy:
                    match_length -= 1
                    while True:
                        strstart += 1
                        ins_h = ((ins_h << 5) ^ window[strstart + 2]) & 0x7FFF
                        prev[strstart & 0x7FFF] = head[ins_h]
                        head[ins_h] = strstart
                        match_length -= 1
                        if match_length == 0:
                            break
                    strstart += 1
                else:
                    strstart += match_length
                    match_length = 0
                    ins_h = window[strstart]
                    ins_h = ((ins_h << 5) ^ window[strstart + 1]) & 0x7FFF
            else:
                syms.append(window[strstart])
                lookahead -= 1
                strstart += 1
            while lookahead < 262 and not eofile:
                fill()
            if check is not None and not len(syms) & 0xFFFF:
                check()
        return syms

    match_available = False
    match_length = 2
    prev_match = 0
    while lookahead:
        ins_h = ((ins_h << 5) ^ window[strstart + 2]) & 0x7FFF
        hash_head = head[ins_h]
        prev[strstart & 0x7FFF] = hash_head
        head[ins_h] = strstart
        prev_length, prev_match = match_length, match_start
        match_length = 2
        if (hash_head and prev_length < max_lazy and strstart - hash_head <= 32506
                and strstart <= 2 * WSIZE - 262):
            match_length = longest_match(hash_head, prev_length)
            if match_length > lookahead:
                match_length = lookahead
            if match_length == 3 and strstart - match_start > 4096:
                match_length -= 1
        if prev_length >= 3 and match_length <= prev_length:
            syms.append(256 + ((prev_length - 3) << 15 | (strstart - 1 - prev_match - 1)))
            lookahead -= prev_length - 1
            prev_length -= 2
            while True:
                strstart += 1
                ins_h = ((ins_h << 5) ^ window[strstart + 2]) & 0x7FFF
                prev[strstart & 0x7FFF] = head[ins_h]
                head[ins_h] = strstart
                prev_length -= 1
                if prev_length == 0:
                    break
            match_available = False
            match_length = 2
            strstart += 1
        elif match_available:
            syms.append(window[strstart - 1])
            strstart += 1
            lookahead -= 1
        else:
            match_available = True
            strstart += 1
            lookahead -= 1
        while lookahead < 262 and not eofile:
            fill()
        if check is not None and not len(syms) & 0xFFFF:
            check()
    if match_available:
        syms.append(window[strstart - 1])
    return syms
