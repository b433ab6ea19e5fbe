"""The string operations of parameter expansion that need no shell state: substrings
(``${v:off:len}``), case modification (``${v^^p}``), and the ``${v@X}`` transformations'
quoting (``@Q``, ``declare -p``'s value quoting)."""

from __future__ import annotations

from sandbox.interpreter import patterns
from sandbox.parse.parser import decode_escape, join_bytes


class SubstringError(Exception):
    """``${v:1:-9}`` where the end falls before the start: ``...: substring expression < 0``."""


def substring(value: str, offset: int, length: int | None, expr: str) -> str:
    """``${v:offset:length}`` on a string (negative offset from the end; negative length:
    an end offset from the end)."""
    n = len(value)
    if offset < 0:
        offset += n
        if offset < 0:
            return ""
    if offset > n:
        return ""
    if length is None:
        return value[offset:]
    if length < 0:
        end = n + length
        if end < offset:
            raise SubstringError(f"{expr}: substring expression < 0")
        return value[offset:end]
    return value[offset:offset + length]


def slice_list(items: list[str], offset: int, length: int | None, expr: str) -> list[str]:
    """``${@:off:len}`` / ``${a[@]:off:len}`` over a list of elements."""
    n = len(items)
    if offset < 0:
        offset += n
        if offset < 0:
            return []
    if length is None:
        return items[offset:]
    if length < 0:
        raise SubstringError(f"{expr}: substring expression < 0")
    return items[offset:offset + length]


def case_modify(value: str, op: str, chunks: tuple) -> str:
    """``^`` ``^^`` ``,`` ``,,`` ``~`` ``~~``: the first (or every) character matching the
    pattern (default: any) made upper (``^``) or lower (``,``) case, or toggled (``~``)."""
    upper = op[0] == "^"
    every = len(op) == 2
    out = []
    for k, c in enumerate(value):
        if (every or k == 0) and (not chunks or patterns.match(chunks, c)):
            c = c.swapcase() if op[0] == "~" else c.upper() if upper else c.lower()
        out.append(c)
        if not every and k == 0:
            out.append(value[1:])
            break
    return "".join(out)


def _printable(value: str) -> bool:
    return all(c.isprintable() or c == " " for c in value)


def quote(value: str) -> str:
    """``${v@Q}``: single quotes, or ``$'...'`` when the value holds control characters."""
    if not _printable(value):
        out = ["$'"]
        table = {"\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f",
                 "\r": "\\r", "\x1b": "\\E", "'": "\\'", "\\": "\\\\"}
        for c in value:
            if c in table:
                out.append(table[c])
            elif not c.isprintable() and c != " ":
                for b in c.encode("utf-8", "surrogateescape"):
                    out.append(f"\\{b:03o}")
            else:
                out.append(c)
        out.append("'")
        return "".join(out)
    return "'" + value.replace("'", "'\\''") + "'"


def dquote(value: str) -> str:
    """A value as ``declare -p`` prints array elements: double quotes, ``\\ " $ `` escaped
    (``$'...'`` when it holds control characters)."""
    if not _printable(value):
        return quote(value)
    return '"' + "".join("\\" + c if c in '\\"$`' else c for c in value) + '"'


def expand_escapes(value: str) -> str:
    """``${v@E}``: backslash escapes decoded as in ``$'...'``."""
    out = []
    i = 0
    n = len(value)
    while i < n:
        if value[i] == "\\" and i + 1 < n:
            text, i = decode_escape(value, i + 1, ansi_c=True)
            out.append(text)
        else:
            out.append(value[i])
            i += 1
    return join_bytes(out)
