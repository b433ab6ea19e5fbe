"""Reading records (RS) and splitting fields (FS) the way gawk does."""

from __future__ import annotations

import errno
import re

from sandbox.commands.awk.awkregex import compile_gawk
from sandbox.fs.base import FSError

CHUNK = 1 << 18


class DirectoryInput(Exception):
    """A read of an input failed with EISDIR (``awk 1 < dir``): gawk sees the directory when
    it opens the input (``fstat``), before reading, and skips it; the caller does the same."""


class RecordReader:
    """Records of one input stream.

    Modes: ``"\\n"`` or another single character (split on it), ``""`` (paragraph mode:
    records separated by blank lines), or a regexp (gawk's multi-character RS). ``rt`` holds
    the text that ended the last record (RT).
    """

    def __init__(self, stream, rs: bytes, icase: bool, budget, limit: int,
                 single_byte: bool = False):
        self.stream = stream
        self.single_byte = single_byte  # a multi-character RS matches bytes (C locale, -b)
        self.buf = b""
        self.pos = 0
        self.eof = False
        self.rt = b""
        self.budget = budget
        self.limit = limit
        self.first = True
        self.clean = False
        self.set_rs(rs, icase)

    def set_rs(self, rs: bytes, icase: bool) -> None:
        self.rs = rs
        self.rx = None
        if len(rs) > 1 or (len(rs) == 1 and icase and rs.isalpha()):
            self.mode = "re"
            self.rx = compile_gawk(rs, icase, self.budget, self.single_byte)
        elif rs == b"":
            self.mode = "para"
        else:
            self.mode = "char"

    def set_rs_if_changed(self, rt) -> None:
        if rt.rs != self.rs:
            self.set_rs(rt.rs, rt.icase)

    def _fill(self) -> bool:
        """Read more data; False at end of input."""
        if self.eof:
            return False
        try:
            data = self.stream.read(CHUNK)
        except FSError as err:
            if err.errno == errno.EISDIR:
                raise DirectoryInput() from None
            raise
        self.budget.check_time()
        if not data:
            self.eof = True
            return False
        if self.pos:
            self.buf = self.buf[self.pos:] + data
            self.pos = 0
        else:
            self.buf += data
        if len(self.buf) > self.limit:
            from sandbox.errors import LimitExceeded
            raise LimitExceeded("string_length",
                                f"awk: record longer than the string length limit of "
                                f"{self.limit} bytes")
        return True

    def lines(self):
        """All complete records now buffered, for single-character RS (the fast path);
        None at end of input."""
        sep = self.rs
        while True:
            buf = self.buf
            pos = self.pos
            end = buf.rfind(sep, pos)
            if end >= 0:
                if pos == 0 and end == len(buf) - 1:
                    recs = buf.split(sep)
                    recs.pop()
                    self.clean = not (b"\r" in buf or b"\x0b" in buf or b"\x0c" in buf)
                else:
                    recs = buf[pos:end].split(sep)
                    self.clean = not (b"\r" in buf or b"\x0b" in buf or b"\x0c" in buf)
                self.pos = end + 1
                self.rt = sep
                return recs
            if not self._fill():
                if self.pos < len(self.buf):
                    rec = self.buf[self.pos:]
                    self.buf = b""
                    self.pos = 0
                    self.rt = b""
                    self.clean = False
                    return [rec]
                self.buf = b""
                self.pos = 0
                return None

    def raw(self):
        """(data, final): buffered data up to its last separator (single-character RS), or
        the unterminated rest at end of input (final True); None when exhausted."""
        sep = self.rs
        while True:
            buf = self.buf
            pos = self.pos
            end = buf.rfind(sep, pos)
            if end >= 0:
                data = buf if pos == 0 and end == len(buf) - 1 else buf[pos:end + 1]
                self.pos = end + 1
                return data, False
            if not self._fill():
                if self.pos < len(self.buf):
                    data = self.buf[self.pos:]
                    self.buf = b""
                    self.pos = 0
                    return data, True
                self.buf = b""
                self.pos = 0
                return None

    def next(self):
        """The next record, or None at end of input (sets ``rt``)."""
        mode = self.mode
        if mode == "char":
            sep = self.rs
            while True:
                k = self.buf.find(sep, self.pos)
                if k >= 0:
                    rec = self.buf[self.pos:k]
                    self.pos = k + 1
                    self.rt = sep
                    return rec
                if not self._fill():
                    return self._last()
        if mode == "para":
            return self._para()
        return self._regex()

    def _last(self):
        if self.pos < len(self.buf):
            rec = self.buf[self.pos:]
            self.buf = b""
            self.pos = 0
            self.rt = b""
            return rec
        self.buf = b""
        self.pos = 0
        return None

    def _para(self):
        # skip leading newlines (at the start of the input and between records)
        while True:
            buf = self.buf
            p = self.pos
            n = len(buf)
            while p < n and buf[p] == 10:
                p += 1
            self.pos = p
            if p < n or not self._fill():
                break
        while True:
            buf = self.buf
            k = buf.find(b"\n\n", self.pos)
            if k >= 0:
                e = k + 2
                n = len(buf)
                while e < n and buf[e] == 10:
                    e += 1
                if e < n or self.eof:
                    rec = buf[self.pos:k]
                    self.rt = buf[k:e]
                    self.pos = e
                    return rec
            if not self._fill():
                if self.pos < len(self.buf):
                    rec = self.buf[self.pos:]
                    self.buf = b""
                    self.pos = 0
                    stripped = rec.rstrip(b"\n")
                    self.rt = rec[len(stripped):]
                    return stripped
                self.buf = b""
                self.pos = 0
                return None

    def _regex(self):
        rx = self.rx
        while True:
            buf = self.buf
            m = rx.search(buf, self.pos)
            while m is not None and m.end() == m.start():
                # an empty match never ends a record
                if m.start() >= len(buf):
                    m = None
                    break
                m = rx.search(buf, m.start() + 1)
            if m is not None and (m.end() < len(buf) or self.eof):
                rec = buf[self.pos:m.start()]
                self.rt = buf[m.start():m.end()]
                self.pos = m.end()
                return rec
            if not self._fill():
                if m is not None:
                    rec = self.buf[self.pos:m.start()]
                    self.rt = self.buf[m.start():m.end()]
                    self.pos = m.end()
                    return rec
                r = self._last()
                return r


_BLANKS = re.compile(rb"[ \t\n]+")


def split_default(rec: bytes) -> list:
    """Fields with the default FS: runs of blanks, tabs and newlines separate; ends trimmed."""
    if b"\r" in rec or b"\x0b" in rec or b"\x0c" in rec:
        return [f for f in _BLANKS.split(rec) if f]
    return rec.split()


def split_chars(rec: bytes) -> list:
    """Fields with an empty FS: one per character (UTF-8)."""
    if rec.isascii():
        return [rec[i:i + 1] for i in range(len(rec))]
    return [c.encode("utf-8", "surrogateescape") for c in rec.decode("utf-8", "surrogateescape")]


def split_bytes(rec: bytes) -> list:
    """Fields with an empty FS in a single-byte locale (or ``-b``): one per byte."""
    return [rec[i:i + 1] for i in range(len(rec))]


def split_regex(rec: bytes, rx) -> list:
    """gawk: fields separated by non-empty matches of the FS regexp (a leading match makes an
    empty first field)."""
    if not rec:
        return []
    out = []
    start = 0
    pos = 0
    n = len(rec)
    while pos <= n:
        m = rx.search(rec, pos, not_bol=pos > 0)
        if m is None:
            break
        s, e = m.span()
        if e == s:
            # an empty match separates nothing: look further
            if s >= n:
                break
            pos = s + 1
            continue
        out.append(rec[start:s])
        start = e
        pos = e
    out.append(rec[start:])
    return out
