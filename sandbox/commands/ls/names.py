"""How ``ls`` prints a name: gnulib's quoting styles as ls 9.1 applies them, ``-q``'s ``?``
for unprintable characters, the displayed width (gnulib ``mbsnwidth``) and type indicators."""

from __future__ import annotations

from sandbox.commands import _wcwidth
from sandbox.commands._quoting import _needs_quotes, _shell_always, quote
from sandbox.fs.base import FIFO, LINK, SOCKET, FileStat

STYLES = ["literal", "shell", "shell-always", "shell-escape", "shell-escape-always", "c", "c-maybe",
          "escape", "locale", "clocale"]
_C_ESCAPES = {7: "a", 8: "b", 12: "f", 10: "n", 13: "r", 9: "t", 11: "v"}


def _chars(data: bytes):
    """(piece, code point or None for an invalid byte) for each character of ``data``."""
    i, n = 0, len(data)
    while i < n:
        c = data[i]
        if c < 0x80:
            yield data[i:i + 1], c
            i += 1
            continue
        size = 2 if 0xC2 <= c <= 0xDF else 3 if 0xE0 <= c <= 0xEF else 4 if 0xF0 <= c <= 0xF4 else 0
        piece = data[i:i + size] if size else b""
        try:
            cp = ord(piece.decode("utf-8")) if size and len(piece) == size else None
        except UnicodeDecodeError:
            cp = None
        if cp is None:
            yield data[i:i + 1], None
            i += 1
        else:
            yield piece, cp
            i += size


def _printable(cp: int | None) -> bool:
    return cp is not None and _wcwidth.is_printable(cp)


def _c_escape(data: bytes, quote_char: str, extra: str) -> str:
    """gnulib's c / escape styles: backslash escapes, octal for unprintable bytes."""
    out = []
    for piece, cp in _chars(data):
        if cp is not None and cp in _C_ESCAPES:
            out.append("\\" + _C_ESCAPES[cp])
        elif cp == 0x5C or (quote_char and cp == ord(quote_char)) or (cp is not None and chr(cp) in extra):
            out.append("\\" + chr(cp))
        elif _printable(cp):
            out.append(piece.decode("utf-8"))
        else:
            out.extend("\\%03o" % b for b in piece)
    return "".join(out)


def _shell(data: bytes, always: bool) -> str:
    """gnulib's shell / shell-always: '...' (``'\\''`` for a quote), other bytes as they are;
    of the unprintable characters only \\n \\r \\t make the shell style quote."""
    tame = b"".join(piece if _printable(cp) or cp in (9, 10, 13) else b"a" for piece, cp in _chars(data))
    force = always or not data or _needs_quotes(tame, colon=False)
    if not force:
        return data.decode("utf-8", "surrogateescape")
    if b"'" in data and not _needs_quotes(data.replace(b"'", b""), colon=False) and data.replace(b"'", b""):
        return '"' + data.decode("utf-8", "surrogateescape") + '"'
    return "'" + data.decode("utf-8", "surrogateescape").replace("'", "'\\''") + "'"


def quote_name(data: bytes, style: str, qmark: bool, indicators: str = "") -> str:
    """``data`` (a file name) as ls prints it in ``style``; ``qmark`` (-q) turns each
    unprintable character into ``?``; ``indicators`` are characters the escape and c styles
    backslash too (ls does so for the -F/--file-type indicator characters)."""
    if style == "literal":
        text = data.decode("utf-8", "surrogateescape")
    elif style in ("shell-escape", "shell-escape-always"):
        if style == "shell-escape" and not _needs_quotes(data, colon=False):
            text = data.decode("utf-8", "surrogateescape")
        else:
            text = _shell_always(data)
    elif style in ("shell", "shell-always"):
        text = _shell(data, style == "shell-always")
    elif style == "c":
        text = '"' + _c_escape(data, '"', indicators) + '"'
    elif style == "c-maybe":
        inner = _c_escape(data, '"', indicators)
        text = inner if inner == data.decode("utf-8", "surrogateescape") else '"' + inner + '"'
    elif style == "escape":
        text = _c_escape(data, "", " " + indicators)
    else:  # locale, clocale
        text = quote(data)
    if qmark:
        raw = text.encode("utf-8", "surrogateescape")
        text = "".join(piece.decode("utf-8") if _printable(cp) else "?" for piece, cp in _chars(raw))
    return text


def is_quoted(name: bytes, shown: str) -> bool:
    """GNU's test of whether quoting changed a name (for the outer-quote alignment)."""
    return shown.encode("utf-8", "surrogateescape") != name


def display_width(text: str) -> int:
    """gnulib ``mbsnwidth(..., 0)``: columns ``text`` takes (controls 0, invalid bytes 1)."""
    total = 0
    for _, cp in _chars(text.encode("utf-8", "surrogateescape")):
        if cp is None:
            total += 1
        elif 0x20 <= cp < 0x7F:
            total += 1
        else:
            w = _wcwidth.width(cp)
            if w >= 0:
                total += w
            elif not (cp < 0x20 or 0x7F <= cp < 0xA0):
                total += 1
    return total


def indicator(st: FileStat | None, style: str) -> str:
    """The character -F (classify), --file-type or -p (slash) appends, or ``""``."""
    if st is None or style == "none":
        return ""
    if st.is_dir:
        return "/"
    if style in ("classify", "file-type") and not st.is_file:
        return {LINK: "@", FIFO: "|", SOCKET: "="}.get(st.kind, "")
    if style == "classify" and st.is_file and st.mode & 0o111:
        return "*"
    return ""
