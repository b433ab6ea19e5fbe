"""GNU (gnulib ``quotearg``) quoting of file names and arguments in messages, C.UTF-8 locale.

coreutils prints operands in messages with three styles:

- ``quotef`` (``cat: 'a b': No such file or directory``): shell-escape style, quoted only when
  needed, ``:`` also forces quotes;
- ``quoteaf`` (``rm: cannot remove 'x': ...``): shell-escape style, always quoted;
- ``quote`` (``head: invalid number of lines: ‘x’``): locale style, curly quotes in UTF-8.

Control and invalid bytes become ``$'\\n'`` / ``$'\\377'`` pieces as GNU prints them.
"""

from __future__ import annotations

import unicodedata

#: Bytes gnulib's shell-escape quoting leaves bare.
SAFE_BYTES = frozenset(b"%+,-./0123456789:ABCDEFGHIJKLMNOPQRSTUVWXYZ]_abcdefghijklmnopqrstuvwxyz")
#: Bytes that make gnulib quote a name (shell metacharacters).
SHELL_SPECIAL_BYTES = frozenset(b"!\"$&()*;<=>[^`|?")
_NAMED_ESCAPES = {7: "a", 8: "b", 12: "f", 10: "n", 13: "r", 9: "t", 11: "v"}


def _to_bytes(text: str | bytes) -> bytes:
    return text if isinstance(text, bytes) else text.encode("utf-8", "surrogateescape")


def _char_at(data: bytes, i: int) -> tuple[int, bool]:
    """Length of the UTF-8 character at ``i`` and whether it is printable (invalid: 1, False)."""
    lead = data[i]
    if lead < 0x80:
        return 1, 0x20 <= lead < 0x7F
    size = 2 if 0xC2 <= lead <= 0xDF else 3 if 0xE0 <= lead <= 0xEF else 4 if 0xF0 <= lead <= 0xF4 else 0
    if size == 0 or i + size > len(data):
        return 1, False
    try:
        ch = data[i : i + size].decode("utf-8")
    except UnicodeDecodeError:
        return 1, False
    return size, unicodedata.category(ch) not in ("Cc", "Cs", "Cn", "Zl", "Zp")


def _needs_quotes(data: bytes, colon: bool) -> bool:
    if not data:
        return True
    i = 0
    n = len(data)
    while i < n:
        c = data[i]
        if c in SAFE_BYTES:
            if colon and c == 0x3A:
                return True
            i += 1
            continue
        if c in (0x7B, 0x7D):  # { } only when alone
            if n == 1:
                return True
        elif c in (0x23, 0x7E):  # # ~ only first
            if i == 0:
                return True
        elif c in SHELL_SPECIAL_BYTES or c in (0x20, 0x27, 0x5C):
            return True
        else:
            size, printable = _char_at(data, i)
            if not printable:
                return True
            i += size
            continue
        i += 1
    return False


def _shell_always(data: bytes) -> str:
    """shell_escape_always: '...' with '\\'' for quotes and '$'\\n'' for unprintables."""
    compat = True
    has_quote = False
    out: list[str] = ["'"]
    pending = False  # inside a $'...' piece
    i = 0
    n = len(data)
    while i < n:
        c = data[i]
        if c in _NAMED_ESCAPES or c < 0x20 or c == 0x7F or c >= 0x80:
            if c < 0x80 or c in _NAMED_ESCAPES:
                size, printable = 1, False
            else:
                size, printable = _char_at(data, i)
            if printable:
                if pending:
                    out.append("''")
                    pending = False
                out.append(data[i : i + size].decode("utf-8"))
                i += size
                continue
            compat = False
            if not pending:
                out.append("'$'")
                pending = True
            name = _NAMED_ESCAPES.get(c)
            out.append("\\" + name if name else "\\%03o" % c)
            i += 1
            continue
        if pending:
            out.append("''")
            pending = False
        if c == 0x27:
            has_quote = True
            out.append("'\\''")
        else:
            if c in SHELL_SPECIAL_BYTES or c == 0x5C:
                compat = False
            elif c in (0x7B, 0x7D):
                compat = compat and n == 1
            elif c in (0x23, 0x7E):
                compat = compat and i == 0
            out.append(chr(c))
        i += 1
    out.append("'")
    if has_quote and compat:
        return '"' + data.decode("utf-8", "surrogateescape") + '"'
    return "".join(out)


def quotef(name: str | bytes) -> str:
    """A file name as coreutils' ``quotef`` prints it (quoted only when needed)."""
    data = _to_bytes(name)
    if not _needs_quotes(data, colon=True):
        return data.decode("utf-8", "surrogateescape")
    return _shell_always(data)


def quoteaf(name: str | bytes) -> str:
    """A file name as coreutils' ``quoteaf`` prints it (always quoted)."""
    return _shell_always(_to_bytes(name))


def quote(arg: str | bytes) -> str:
    """An argument as gnulib's ``quote`` prints it in a UTF-8 locale: ‘...’ with C escapes."""
    data = _to_bytes(arg)
    out = ["\u2018"]
    i = 0
    while i < len(data):
        c = data[i]
        if c == 0x5C:
            out.append("\\\\")
        elif c in _NAMED_ESCAPES:
            out.append("\\" + _NAMED_ESCAPES[c])
        elif c < 0x20 or c == 0x7F:
            out.append("\\%03o" % c)
        elif c >= 0x80:
            size, printable = _char_at(data, i)
            if printable:
                piece = data[i : i + size].decode("utf-8")
                out.append("\\" + piece if piece == "\u2019" else piece)
                i += size
                continue
            out.append("\\%03o" % c)
        else:
            out.append(chr(c))
        i += 1
    out.append("\u2019")
    return "".join(out)
