"""The archive as GNU tar's buffer sees it: 10240-byte records of 512-byte blocks read from a
file or a pipe (``find_next_block``, ``skip_file`` with ``seek_archive`` on regular files),
compression filters (gzip as gzip 1.12 writes it, bzip2, xz) and the writer that pads to a record."""

from __future__ import annotations

import bz2
import lzma
import zlib
from typing import BinaryIO

from sandbox.commands._gzipfmt import deflate_bytes, header, trailer
from sandbox.commands.tar.format import BLOCK, RECORD

GZIP_MAGIC = b"\x1f\x8b"
BZIP2_MAGIC = b"BZh"
XZ_MAGIC = b"\xfd7zXZ\x00"
#: How GNU names each filter program in its messages, and the option that selects it.
PROGRAMS = {"gzip": "-z", "bzip2": "-j", "xz": "-J"}
#: Archive name suffixes and their filters (``-a``, and reading a file GNU can't identify).
SUFFIXES = {".tar.gz": "gzip", ".tgz": "gzip", ".taz": "gzip", ".gz": "gzip",
            ".tar.bz2": "bzip2", ".tbz": "bzip2", ".tbz2": "bzip2", ".tz2": "bzip2",
            ".bz2": "bzip2",
            ".tar.xz": "xz", ".txz": "xz", ".xz": "xz"}
_CHUNK = 1 << 16
_MAGICS = {"gzip": GZIP_MAGIC, "bzip2": BZIP2_MAGIC, "xz": XZ_MAGIC}
_BZIP2_TAIL = ("\tInput file = (stdin), output file = (stdout)\n\n"
               "It is possible that the compressed file(s) have become corrupted.\n"
               "You can use the -tvv option to test integrity of such files.\n\n"
               "You can use the `bzip2recover' program to attempt to recover\n"
               "data from undamaged sections of corrupted files.\n\n")
_BZIP2_MESSAGES = {
    "is not a bzip2 file.": "bzip2: (stdin) is not a bzip2 file.\n",
    "truncated": ("\nbzip2: Compressed file ends unexpectedly;\n\tperhaps it is corrupted?  "
                  "*Possible* reason follows.\nbzip2: Inappropriate ioctl for device\n"
                  + _BZIP2_TAIL),
    "corrupt": "\nbzip2: Data integrity error when decompressing.\n" + _BZIP2_TAIL,
}


class Fatal(Exception):
    """An unrecoverable error: tar prints the lines, then "Error is not recoverable"; with
    ``child`` lines, the forked tar that feeds a compression filter printed those first
    (``tar (child): ...``, and its own "Error is not recoverable")."""

    def __init__(self, *lines: str, raw: bytes = b"", epilogue: bool = True,
                 child: list[str] | None = None):
        super().__init__(lines[0] if lines else "")
        self.lines = list(lines)
        self.raw = raw  # bytes a filter program would have printed first (gzip's messages)
        self.epilogue = epilogue
        self.child = list(child or [])


#: What each filter prints when its input ends before anything came (the archive was a
#: directory the child tar could not read).
EMPTY_INPUT = {"gzip": b"\ngzip: stdin: unexpected end of file\n",
               "bzip2": None, "xz": b"xz: (stdin): File format not recognized\n"}


def child_fatal(kind: str, *child: str, filter_ran: bool = False) -> Fatal:
    """GNU's error when the child tar between the archive and the filter ``kind`` fails:
    its lines, the filter's complaint about its empty input (``filter_ran``), and
    "Child returned status 2"."""
    raw = b""
    if filter_ran:
        raw = EMPTY_INPUT[kind] or _BZIP2_MESSAGES["truncated"].encode()
    return Fatal("Child returned status 2", raw=raw, child=list(child))


def detect(head: bytes) -> str | None:
    """The compression a file's first bytes show, as GNU's ``check_compressed_archive``."""
    if head.startswith(GZIP_MAGIC):
        return "gzip"
    if head.startswith(BZIP2_MAGIC):
        return "bzip2"
    if head.startswith(XZ_MAGIC):
        return "xz"
    return None


class Decompressed:
    """A read-only stream of the decompressed bytes of ``raw``; a corrupt or truncated input
    raises ``Fatal`` with the filter program's message and tar's "Child returned status".
    Output is produced in bounded pieces, so a decompression bomb costs time, not memory."""

    def __init__(self, raw: BinaryIO, kind: str, budget: object = None):
        self.raw = raw
        self.kind = kind
        self.budget = budget
        self.pending = b""
        self.raw_pending = b""
        self.done = False
        self.started = False
        self.dec: object = None
        self.error: Fatal | None = None

    def _new(self) -> object:
        if self.kind == "gzip":
            return zlib.decompressobj(16 + zlib.MAX_WBITS)
        if self.kind == "bzip2":
            return bz2.BZ2Decompressor()
        return lzma.LZMADecompressor()

    def _fail(self, what: str) -> Fatal:
        """The filter program's message and its exit status, as tar reports them."""
        if self.kind == "gzip":
            text = f"\ngzip: stdin: {what}\n"
            status = 1
        elif self.kind == "bzip2":
            text = _BZIP2_MESSAGES.get(what, f"bzip2: (stdin) {what}\n")
            status = 2
        else:
            text = f"xz: (stdin): {what}\n"
            status = 1
        return Fatal(f"Child returned status {status}", raw=text.encode())

    def _truncated(self) -> Fatal:
        if not self.started:
            return self._fail({"gzip": "unexpected end of file", "bzip2": "is not a bzip2 file.",
                               "xz": "File format not recognized"}[self.kind])
        return self._fail({"gzip": "unexpected end of file", "bzip2": "truncated",
                           "xz": "Unexpected end of input"}[self.kind])

    def _step(self) -> None:
        if self.budget is not None:
            self.budget.check_time()  # type: ignore[attr-defined]
        dec = self.dec
        more_out = (dec is not None and self.kind != "gzip"
                    and not getattr(dec, "needs_input") and not getattr(dec, "eof"))
        if more_out:  # bzip2/xz hold output back for the next call
            data = b""
        else:
            if not self.raw_pending:
                self.raw_pending = self.raw.read(4096)
                if not self.raw_pending:
                    if dec is not None or not self.started:
                        raise self._truncated()
                    self.done = True
                    return
            data, self.raw_pending = self.raw_pending, b""
        if dec is None:
            if not self.started and not data.startswith(_MAGICS[self.kind]) and len(data) >= 3:
                raise self._fail({"gzip": "not in gzip format", "bzip2": "is not a bzip2 file.",
                                  "xz": "File format not recognized"}[self.kind])
            if self.started and not data.strip(b"\0"):
                return  # trailing zeros after the last member: ignored
            if self.started and not data.startswith(_MAGICS[self.kind]):
                self.done = True  # trailing garbage: ignored
                return
            dec = self.dec = self._new()
            self.started = True
        try:
            out = dec.decompress(data, _CHUNK)  # type: ignore[attr-defined]
        except (zlib.error, OSError, EOFError, lzma.LZMAError) as err:
            text = str(err)
            if self.kind == "gzip":
                what = ("not in gzip format" if "header" in text else
                        "invalid compressed data--crc error" if "data check" in text else
                        "invalid compressed data--format violated")
            else:
                what = "Compressed data is corrupt" if self.kind == "xz" else "corrupt"
            raise self._fail(what) from None
        self.pending += out
        if self.kind == "gzip":
            self.raw_pending = dec.unconsumed_tail  # type: ignore[attr-defined]
        if dec.eof:  # type: ignore[attr-defined]
            self.raw_pending = dec.unused_data + self.raw_pending  # type: ignore[attr-defined]
            self.dec = None

    def read(self, n: int = -1) -> bytes:
        """Up to ``n`` decompressed bytes (b"" at the end). A filter error comes after the
        bytes decompressed before it, as tar reads them from the program's pipe."""
        if self.error is not None and not self.pending:
            raise self.error
        while not self.done and self.error is None and (n < 0 or len(self.pending) < n):
            try:
                self._step()
            except Fatal as err:
                if not self.pending:
                    raise
                self.error = err
        if n < 0:
            out, self.pending = self.pending, b""
        else:
            out, self.pending = self.pending[:n], self.pending[n:]
        return out


class Reader:
    """GNU's read buffer: ``block()`` is ``find_next_block`` (None at the end), ``advance()``
    is ``set_next_block_after``, ``skip(size)`` is ``skip_file``."""

    def __init__(self, stream: BinaryIO | Decompressed, seekable: bool, budget: object = None):
        self.stream = stream
        self.seekable = seekable
        self.budget = budget
        self.record = b""
        self.pos = 0  # current block within the record
        self.nblocks = 0
        self.hit_eof = False
        self.file_pos = 0
        self.record_ordinal = 0  # block number of the record's start
        self.error: Fatal | None = None
        #: Records read or sought over (GNU's ``records_read``, for ``--totals``).
        self.records_read = 0

    def _read_full(self) -> bytes:
        if self.error is not None:
            raise self.error
        chunks: list[bytes] = []
        got = 0
        while got < RECORD:
            try:
                data = self.stream.read(RECORD - got)
            except Fatal as err:
                if not chunks:
                    raise
                self.error = err  # the filter failed: first the bytes it gave, then its error
                break
            if not data:
                break
            chunks.append(data)
            got += len(data)
        return b"".join(chunks)

    def _flush(self) -> None:
        if self.budget is not None:
            self.budget.check_time()  # type: ignore[attr-defined]
        self.record_ordinal += self.nblocks  # GNU: by the blocks the last read gave
        data = self._read_full()
        if data:
            self.records_read += 1
        self.file_pos += len(data)
        usable = len(data) // BLOCK
        self.record = data[: usable * BLOCK]
        self.nblocks = usable
        self.pos = 0

    def block(self) -> bytes | None:
        """The current block, reading the next record when needed; None at the end."""
        if self.pos >= self.nblocks:
            if self.hit_eof:
                return None
            self._flush()
            if self.pos >= self.nblocks:
                if self.error is not None:
                    raise self.error
                self.hit_eof = True
                return None
        return self.record[self.pos * BLOCK : (self.pos + 1) * BLOCK]

    def advance(self, blocks: int = 1) -> None:
        """Mark ``blocks`` blocks as used."""
        self.pos += blocks

    def ordinal(self) -> int:
        """GNU ``current_block_ordinal``."""
        return self.record_ordinal + self.pos

    def chunk(self, size: int) -> bytes | None:
        """The data from the current block to the end of the record, at most ``size`` bytes
        (``available_space_after``); consumed. None at the end of the archive."""
        if self.block() is None:
            return None
        start = self.pos * BLOCK
        data = self.record[start : start + min(size, (self.nblocks - self.pos) * BLOCK)]
        self.pos += (len(data) + BLOCK - 1) // BLOCK
        return data

    def skip(self, size: int) -> None:
        """Skip ``size`` bytes of member data (seeking whole records on a regular file);
        raises ``Fatal`` at an early end."""
        if self.seekable and size > 0:
            skipped = (RECORD // BLOCK - self.pos) * BLOCK
            if size > skipped:
                nrec = (size - skipped) // RECORD
                if nrec:
                    start = self.ordinal()
                    offset = self.file_pos + nrec * RECORD
                    if offset % RECORD:
                        raise Fatal("rmtlseek not stopped at a record boundary")
                    self.stream.seek(offset)  # type: ignore[union-attr]
                    self.file_pos = offset
                    self.records_read += nrec
                    nblk = offset // BLOCK - start
                    self.record_ordinal = offset // BLOCK - self.nblocks
                    self.pos = self.nblocks
                    size -= nblk * BLOCK
        while size > 0:
            if self.block() is None:
                raise Fatal("Unexpected EOF in archive")
            self.advance()
            size -= BLOCK


def gzip_bytes(data: bytes) -> bytes:
    """``gzip -6`` of a pipe, as GNU tar's -z runs it: a header with no name and time 0 (OS
    Unix), the deflate stream gzip 1.12 writes (``_gzipfmt``), CRC32 and length."""
    pieces: list[bytes] = []
    crc, size = deflate_bytes([data], 6, pieces.append)
    return header(None, 0, 6) + b"".join(pieces) + trailer(crc, size)


def compress(data: bytes, kind: str | None) -> bytes:
    """The archive bytes through the filter ``kind`` (None: as they are)."""
    if kind == "gzip":
        return gzip_bytes(data)
    if kind == "bzip2":
        return bz2.compress(data, 9)
    if kind == "xz":
        return lzma.compress(data, preset=6)
    return data


def records(blocks: bytes) -> bytes:
    """The archive's blocks, the two end-of-archive zero blocks, and zeros to the record."""
    data = blocks + bytes(2 * BLOCK)
    rest = len(data) % RECORD
    return data + bytes(RECORD - rest) if rest else data
