"""The signatures ``file`` knows, as file 5.44 describes them: JSON (its lenient parser,
newline-delimited too), CSV (its field counter), tar (``is_tar``'s checksum), PNG, JPEG
(JFIF/segment walk), PDF, gzip, zip, ``#!`` scripts of common interpreters, HTML, and the text classes of ``encoding.c`` / ``ascmagic.c`` (ASCII, UTF-8 with or without
BOM, ISO-8859, non-ISO extended ASCII; line terminators, very long lines, escapes,
overstriking). Anything else is ``data``.

``describe(buf)`` returns (description, mime type, mime encoding) for a buffer of at least two
bytes (``file`` itself handles empty and one-byte files).
"""

from __future__ import annotations

import re
import struct
import time

# -- text classes (file's encoding.c) --------------------------------------------------------------

_T = bytes(range(7, 14)) + b"\x1b" + bytes(range(0x20, 0x7F)) + b"\x85"
_I = bytes(range(0xA0, 0x100))
_NOT_ASCII = re.compile(b"[^" + re.escape(_T) + b"]")
_NOT_LATIN1 = re.compile(b"[^" + re.escape(_T + _I) + b"]")
_F = re.compile(b"[\x00-\x06\x0e-\x1a\x1c-\x1f\x7f]")
_ASCII_NOT_TEXT = re.compile(b"[\x00-\x06\x0e-\x1a\x1c-\x1f\x7f]")
MAXLINELEN = 300


def encoding(buf: bytes) -> tuple[str, str, str] | None:
    """(description code, mime charset, text as code points) if ``buf`` looks like text."""
    if not _NOT_ASCII.search(buf):
        return "ASCII", "us-ascii", buf.decode("latin-1")
    if not _ASCII_NOT_TEXT.search(buf):
        body = buf[3:] if buf.startswith(b"\xef\xbb\xbf") else None
        for data, code in ((body, "Unicode text, UTF-8 (with BOM)"), (buf, "Unicode text, UTF-8")):
            if data is None:
                continue
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            if code.endswith("BOM)") or not text.isascii():
                return code, "utf-8", text
    if not _NOT_LATIN1.search(buf):
        return "ISO-8859", "iso-8859-1", buf.decode("latin-1")
    if not _F.search(buf):
        return "Non-ISO extended-ASCII", "unknown-8bit", buf.decode("latin-1")
    return None


def text_notes(text: str) -> str:
    """ascmagic's notes: very long lines, line terminators, escapes, overstriking."""
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    nel = text.count("\x85")
    notes = ""
    longest = max((len(line) for line in re.split("[\r\n\x85]", text)), default=0)
    if longest > MAXLINELEN:
        notes += f", with very long lines ({longest})"
    if not (crlf or cr or lf or nel):
        notes += ", with no line terminators"
    elif crlf or cr or nel:
        kinds = [name for name, n in (("CRLF", crlf), ("CR", cr), ("LF", lf), ("NEL", nel)) if n]
        notes += ", with " + ", ".join(kinds) + " line terminators"
    if "\x1b" in text:
        notes += ", with escape sequences"
    if "\b" in text:
        notes += ", with overstriking"
    return notes


# -- JSON (file's is_json.c) ------------------------------------------------------------------------

_SPACE = b" \t\n\r"


class _Json:
    def __init__(self, buf: bytes):
        self.buf = buf
        self.end = len(buf)
        self.arrays = 0
        self.objects = 0

    def skip(self, i: int) -> int:
        while i < self.end and self.buf[i] in _SPACE:
            i += 1
        return i

    def value(self, i: int, lvl: int) -> tuple[bool, int]:
        i = self.skip(i)
        if i == self.end or lvl > 500:
            return False, i
        c = self.buf[i]
        i += 1
        if c == 0x22:
            ok, i = self.string(i)
        elif c == 0x5B:
            ok, i = self.array(i, lvl + 1)
        elif c == 0x7B:
            ok, i = self.object(i, lvl + 1)
            if ok:
                self.objects += 1
        elif c in b"tfn":
            word = {0x74: b"true", 0x66: b"false", 0x6E: b"null"}[c]
            ok, j = True, i
            for expected in word[1:]:
                if j >= self.end:
                    break
                if self.buf[j] != expected:
                    ok = False
                    break
                j += 1
            i = min(i + len(word) - 1, self.end)
        else:
            ok, i = self.number(i - 1)
        return ok, self.skip(i)

    def string(self, i: int) -> tuple[bool, int]:
        buf, end = self.buf, self.end
        while i < end:
            c = buf[i]
            i += 1
            if c == 0:
                return False, i
            if c == 0x5C:
                if i == end:
                    return False, i
                e = buf[i]
                i += 1
                if e in b'"\\/bfnrt':
                    continue
                if e == 0x75:
                    if end - i < 4:
                        return False, end
                    for _ in range(4):
                        if buf[i] not in b"0123456789abcdefABCDEF":
                            return False, i + 1
                        i += 1
                    continue
                return False, i
            if c == 0x22:
                return True, i
        return False, i

    def number(self, i: int) -> tuple[bool, int]:
        buf, end = self.buf, self.end
        got = False
        if i < end and buf[i] == 0x2D:
            i += 1
        while i < end and 0x30 <= buf[i] <= 0x39:
            i, got = i + 1, True
        if i == end:
            return got, i
        if buf[i] == 0x2E:
            i += 1
        while i < end and 0x30 <= buf[i] <= 0x39:
            i, got = i + 1, True
        if i == end:
            return got, i
        if got and buf[i] in b"eE":
            i += 1
            got = False
            if i == end:
                return got, i
            if buf[i] in b"+-":
                i += 1
            while i < end and 0x30 <= buf[i] <= 0x39:
                i, got = i + 1, True
        return got, i

    def array(self, i: int, lvl: int) -> tuple[bool, int]:
        while i < self.end:
            i = self.skip(i)
            if i == self.end:
                return False, i
            if self.buf[i] == 0x5D:
                self.arrays += 1
                return True, i + 1
            ok, i = self.value(i, lvl + 1)
            if not ok or i == self.end:
                return False, i
            if self.buf[i] == 0x2C:
                i += 1
                continue
            if self.buf[i] == 0x5D:
                self.arrays += 1
                return True, i + 1
            return False, i
        return False, i

    def object(self, i: int, lvl: int) -> tuple[bool, int]:
        while i < self.end:
            i = self.skip(i)
            if i == self.end:
                return False, i
            if self.buf[i] == 0x7D:
                return True, i + 1
            if self.buf[i] != 0x22:
                return False, i + 1
            ok, i = self.string(i + 1)
            if not ok:
                return False, i
            i = self.skip(i)
            if i == self.end or self.buf[i] != 0x3A:
                return False, i + 1
            ok, i = self.value(i + 1, lvl + 1)
            if not ok or i == self.end:
                return False, i
            c = self.buf[i]
            i += 1
            if c == 0x2C:
                continue
            if c == 0x7D:
                return True, i
            return False, i - 1
        return False, i


def json_kind(buf: bytes) -> int:
    """0: not JSON; 1: JSON text; 2: newline-delimited JSON (file's top-level rule)."""
    parser = _Json(buf)
    start = parser.skip(0)
    try:
        ok, i = parser.value(0, 0)
    except RecursionError:  # deeper than this thread's stack allows: not reported as JSON
        return 0
    if not ok:
        return 0
    if i == parser.end:
        return 1 if parser.arrays or parser.objects else 0
    if start < parser.end and buf[start] == buf[i] and parser.value(i, 1)[0]:
        return 2 if parser.arrays or parser.objects else 0
    return 0


def is_csv(buf: bytes) -> bool:
    """file's csv_parse over the first 10 lines: the same number (>0) of commas each line."""
    fields = total = lines = 0
    i, end = 0, len(buf)
    while i < end:
        c = buf[i]
        i += 1
        if c == 0x22:
            quote = False
            while i < end:
                ch = buf[i]
                i += 1
                if ch != 0x22:
                    if quote:
                        i -= 1
                        break
                    continue
                quote = not quote
            else:
                i = end
        elif c == 0x2C:
            fields += 1
        elif c == 0x0A:
            lines += 1
            if lines == 10:
                return total != 0 and total == fields
            if total == 0:
                if fields == 0:
                    return False
                total = fields
            elif total != fields:
                return False
            fields = 0
    return total != 0 and lines > 2


# -- binary signatures -----------------------------------------------------------------------------

_PNG_COLOURS = {0: "grayscale,", 2: "\b/color RGB,", 3: "colormap,", 4: "gray+alpha,", 6: "\b/color RGBA,"}
_GZIP_OS = ["FAT filesystem (MS-DOS, OS/2, NT)", "Amiga", "VMS", "Unix", "VM/CMS", "Atari",
            "HPFS filesystem (OS/2, NT)", "MacOS", "Z-System", "CP/M", "TOPS-20", "NTFS filesystem (NT)",
            "QDOS", "Acorn RISCOS"]


def _join(parts: list[str]) -> str:
    """Magic's concatenation: pieces separated by a space unless one starts with ``\\b``."""
    out = ""
    for part in parts:
        out += part[1:] if part.startswith("\b") else (" " if out else "") + part
    return out


def _png(buf: bytes) -> str | None:
    if not buf.startswith(b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR") or len(buf) < 29:
        return None
    width, height = struct.unpack(">ii", buf[16:24])
    parts = ["PNG image data", f"\b, {width} x", f"{height},", f"{buf[24]}-bit"]
    if buf[25] in _PNG_COLOURS:
        parts.append(_PNG_COLOURS[buf[25]])
    if buf[28] in (0, 1):
        parts.append(("non-" if buf[28] == 0 else "") + "interlaced")
    return _join(parts)


def _be16(buf: bytes, at: int) -> int | None:
    return struct.unpack(">H", buf[at:at + 2])[0] if at + 2 <= len(buf) else None


def _jpeg(buf: bytes) -> str | None:
    if not buf.startswith(b"\xff\xd8"):
        return None
    parts = ["JPEG image data"]
    if buf[6:10] == b"JFIF" and len(buf) >= 20:
        parts += ["\b, JFIF standard", f"\b {buf[11]}.", f"\b{buf[12]:02d}"]
        parts += [{0: "\b, aspect ratio", 1: "\b, resolution (DPI)", 2: "\b, resolution (DPCM)"}.get(buf[13], "")]
        parts += [f"\b, density {_be16(buf, 14)}x", f"\b{_be16(buf, 16)}", f"\b, segment length {_be16(buf, 4)}"]
        if buf[18]:
            parts += [f"\b, thumbnail {buf[18]}x", f"\b{buf[19]}"]
    length = _be16(buf, 4)
    if length is not None:
        parts += _jpeg_segments(buf, length + 4, 0)
    return _join([p for p in parts if p])


def _jpeg_segments(buf: bytes, at: int, depth: int) -> list[str]:
    marker = _be16(buf, at)
    size = _be16(buf, at + 2)
    if marker is None or depth > 50:
        return []
    nxt = at + 2 + size + 0 if size is not None else None
    if marker == 0xFFFE and size is not None:
        text = buf[at + 4: at + 2 + size].split(b"\0", 1)[0]
        rest = _jpeg_segments(buf, nxt, depth + 1) if nxt is not None else []
        return [f'\b, comment: "{_chars(text)}"'] + rest
    if marker in (0xFFC0, 0xFFC1, 0xFFC2) and size is not None:
        rest = _jpeg_segments(buf, nxt, depth + 1) if nxt is not None else []
        kind = {0xFFC0: "baseline", 0xFFC1: "extended sequential", 0xFFC2: "progressive"}[marker]
        if at + 10 > len(buf):
            return rest
        return rest + [f"\b, {kind}, precision {buf[at + 4]}", f"\b, {_be16(buf, at + 7)}x",
                       f"\b{_be16(buf, at + 5)}", f"\b, components {buf[at + 9]}"]
    if marker in (0xFFC4, 0xFFDB, 0xFFDD) or 0xFFE0 <= marker <= 0xFFEF and marker != 0xFFE1:
        return _jpeg_segments(buf, nxt, depth + 1) if nxt is not None else []
    return []


def _pdf(buf: bytes) -> str | None:
    if not buf.startswith(b"%PDF-"):
        return None
    text = "PDF document"
    if len(buf) > 5:
        text += f", version {_chars(buf[5:6])}"
    if len(buf) > 7:
        text += f".{_chars(buf[7:8])}"
    return text


def _chars(data: bytes) -> str:
    """Bytes a magic ``%s``/``%c`` prints: up to a NUL, unprintable ones as ``\\ooo``."""
    data = data.split(b"\0", 1)[0]
    return "".join(chr(b) if 0x20 <= b < 0x7F else "\\%03o" % b for b in data)


def _gzip(buf: bytes) -> str | None:
    if not buf.startswith(b"\x1f\x8b") or len(buf) < 10:
        return None
    parts = ["gzip compressed data"]
    method, flags = buf[2], buf[3]
    if method < 8:
        parts.append("\b, reserved method")
    elif method > 8:
        parts.append("\b, unknown method")
    if flags & 0x01:
        parts.append("\b, ASCII")
    if flags & 0x02:
        parts.append("\b, has CRC")
    if flags & 0x04:
        parts.append("\b, extra field")
    if flags & 0x0C == 0x08:
        name = buf[10:].split(b"\0", 1)[0]
        parts.append(f'\b, was "{_chars(name)}"')
    if flags & 0x10:
        parts.append("\b, has comment")
    if flags & 0x20:
        parts.append("\b, encrypted")
    mtime = struct.unpack("<i", buf[4:8])[0]
    if mtime > 0:
        parts.append("\b, last modified: " + time.strftime("%a %b %e %H:%M:%S %Y", time.gmtime(mtime)))
    if buf[8] == 2:
        parts.append("\b, max compression")
    elif buf[8] == 4:
        parts.append("\b, max speed")
    if buf[9] < len(_GZIP_OS):
        parts.append(f"\b, from {_GZIP_OS[buf[9]]}")
    parts.append(f"\b, original size modulo 2^32 {struct.unpack('<I', buf[-4:])[0]}")
    return _join(parts)


_ZIP_METHODS = {0: "store", 8: "deflate", 9: "deflate64", 12: "bzip2", 14: "lzma", 93: "zstd", 95: "xz"}


def _zip(buf: bytes) -> str | None:
    if not buf.startswith(b"PK\x03\x04") or len(buf) < 30:
        return None
    version, method = struct.unpack("<H", buf[4:6])[0], struct.unpack("<H", buf[8:10])[0]
    text = f"Zip archive data, at least v{version // 10}.{version % 10} to extract"
    if method in _ZIP_METHODS:
        text += f", compression method={_ZIP_METHODS[method]}"
    return text


#: Interpreters file 5.44 names (``#!`` prefixes, blanks after ``#!`` optional): description
#: and mime type; ``{enc}`` is the text class.
_SCRIPTS = [
    (("/bin/sh",), "POSIX shell script, {enc} text executable", "text/x-shellscript"),
    (("/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash", "/usr/bin/env bash"),
     "Bourne-Again shell script, {enc} text executable", "text/x-shellscript"),
    (("/bin/zsh", "/usr/bin/zsh", "/usr/local/bin/zsh", "/usr/bin/env zsh"),
     "Paul Falstad's zsh script, {enc} text executable", "text/x-shellscript"),
    (("/usr/bin/python", "/usr/local/bin/python", "/usr/bin/env python"),
     "Python script, {enc} text executable", "text/x-script.python"),
    (("/usr/bin/ruby", "/usr/local/bin/ruby", "/usr/bin/env ruby"), "Ruby script, {enc} text executable",
     "text/x-ruby"),
    (("/usr/bin/awk", "/bin/awk"), "awk script, {enc} text executable", "text/x-awk"),
    (("/usr/bin/perl", "/usr/local/bin/perl", "/usr/bin/env perl"), "Perl script text executable", "text/x-perl"),
    (("/usr/bin/env node", "/usr/bin/node"), "Node.js script executable, {enc} text", "application/javascript"),
]


def _script(buf: bytes, enc: tuple[str, str, str]) -> tuple[str, str] | None:
    """A ``#!`` text file: (description with the text notes, mime type), or None."""
    if not buf.startswith(b"#!"):
        return None
    line = buf[2:].split(b"\n", 1)[0].lstrip(b" \t")
    notes = text_notes(enc[2])
    for prefixes, description, mime in _SCRIPTS:
        if any(line.startswith(p.encode()) for p in prefixes):
            if "{enc}" not in description:  # file's perl entry: no text class, no notes
                return description, mime
            return description.format(enc=enc[0]) + notes, mime
    words = line.split()
    if not words:
        return None
    name = words[1] if words[0] == b"/usr/bin/env" and len(words) > 1 else words[0]
    return f"a {_chars(name)} script, {enc[0]} text executable{notes}", "text/plain"


#: file's sgml magic: any of these (case-insensitive) in the first 4096 bytes of a text makes
#: it an HTML document.
_HTML_TOKENS = (b"<!doctype html", b"<head>", b"<head ", b"<title>", b"<title ", b"<html>", b"<html ",
                b"<script>", b"<script ", b"<style>", b"<style ", b"<table>", b"<table ", b"<a href=")


def _html(buf: bytes, enc: tuple[str, str, str]) -> tuple[str, str] | None:
    head = buf[:4096].lower()
    if any(token in head for token in _HTML_TOKENS):
        return f"HTML document, {enc[0]} text{text_notes(enc[2])}", "text/html"
    return None


def _tar_octal(field: bytes) -> int:
    """file's ``from_oct``: leading blanks, then octal digits ending in a blank or NUL (-1
    otherwise, or when the field is all blanks)."""
    i, end = 0, len(field)
    while i < end and field[i : i + 1].isspace():
        i += 1
    if i == end:
        return -1
    value = 0
    while i < end and 0x30 <= field[i] <= 0x37:
        value = (value << 3) | (field[i] - 0x30)
        i += 1
    if i < end and field[i] and not field[i : i + 1].isspace():
        return -1
    return value


def _tar(buf: bytes) -> str | None:
    """file's ``is_tar``: a 512-byte header whose checksum (its own field counted as blanks)
    holds; the magic at 257 tells GNU's, POSIX's and the old format apart."""
    if len(buf) < 512:
        return None
    if sum(buf[:512]) - sum(buf[148:156]) + 8 * 0x20 != _tar_octal(buf[148:156]):
        return None
    if buf[257:265] == b"ustar  \0":
        return "POSIX tar archive (GNU)"
    if buf[257:263] == b"ustar\0":
        return "POSIX tar archive"
    return "tar archive"


SIGNATURES = [(_png, "image/png"), (_jpeg, "image/jpeg"), (_pdf, "application/pdf"),
              (_gzip, "application/gzip"), (_zip, "application/zip")]


def describe(buf: bytes) -> tuple[str, str, str]:
    """(description, mime type, mime encoding) of a buffer of two bytes or more."""
    enc = encoding(buf)
    charset = enc[1] if enc else "binary"
    kind = json_kind(buf)
    if kind:
        return ("JSON text data" if kind == 1 else "New Line Delimited JSON text data",
                "application/json" if kind == 1 else "application/x-ndjson", charset)
    if enc and is_csv(buf):
        return "CSV text", "text/csv", charset
    tar = _tar(buf)
    if tar is not None:
        return tar, "application/x-tar", charset
    for probe, mime in SIGNATURES:
        found = probe(buf)
        if found is not None:
            return found, mime, charset
    if enc:
        script = _script(buf, enc) or _html(buf, enc)
        if script is not None:
            return script[0], script[1], charset
        return f"{enc[0]} text{text_notes(enc[2])}", "text/plain", charset
    return "data", "application/octet-stream", "binary"
