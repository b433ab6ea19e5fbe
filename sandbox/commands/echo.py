"""``echo [-neE] [arg...]``: bash's builtin echo (the interpreter runs it as a builtin).

``-n`` no trailing newline, ``-e`` interpret backslash escapes (``\\c`` stops all output),
``-E`` don't (the default). An argument is an option only if it is made of those letters.
"""

from __future__ import annotations

from sandbox.commands.base import CommandContext


_SIMPLE = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r",
           "t": "\t", "v": "\v", "\\": "\\"}
_OCTAL = "01234567"
_HEX = "0123456789abcdefABCDEF"


def byte_char(value: int) -> str:
    """A raw byte as text: ASCII as is, other bytes as surrogate escapes (lossless)."""
    return chr(value) if value < 0x80 else bytes([value]).decode("utf-8", "surrogateescape")


def utf8_raw(code: int) -> str:
    """bash's ``u32cconv`` in a UTF-8 locale: the (original, up to 31-bit) UTF-8 bytes of
    ``code``, surrogates and values past U+10FFFF included; nothing beyond 31 bits."""
    if code < 0x80:
        return chr(code)
    if code < 0x110000 and not 0xD800 <= code < 0xE000:
        return chr(code)
    for nbytes, top in ((3, 0x10000), (4, 0x200000), (5, 0x4000000), (6, 0x80000000)):
        if code < top:
            break
    else:
        return ""
    lead = (0xFF00 >> nbytes) & 0xFF
    out = [lead | (code >> (6 * (nbytes - 1)))]
    for k in range(nbytes - 2, -1, -1):
        out.append(0x80 | ((code >> (6 * k)) & 0x3F))
    return bytes(out).decode("utf-8", "surrogateescape")


def hex_run(text: str, i: int, most: int) -> tuple[int | None, int]:
    """Up to ``most`` hex digits at ``text[i]``: (value or None if there are none, end)."""
    j = i
    while j < len(text) and j < i + most and text[j] in _HEX:
        j += 1
    return (int(text[i:j], 16) if j > i else None), j


def echo_escapes(text: str) -> tuple[str, bool]:
    r"""``echo -e``'s escapes (bash's ``ansicstr`` for echo): ``\0nnn`` octal (``\1`` is
    not an escape), ``\xHH``, ``\uHHHH``, ``\UHHHHHHHH``, ``\c`` stops all output;
    an unknown escape keeps its backslash. Returns (text, stopped by ``\c``)."""
    if "\\" not in text:
        return text, False
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        c = text[i + 1]
        i += 2
        if c in _SIMPLE:
            out.append(_SIMPLE[c])
        elif c == "0":
            j = i
            while j < n and j < i + 3 and text[j] in _OCTAL:
                j += 1
            out.append(byte_char(int("0" + text[i:j], 8) & 0xFF))
            i = j
        elif c == "x":
            value, i = hex_run(text, i, 2)
            out.append("\\x" if value is None else byte_char(value))
        elif c in "uU":
            value, i = hex_run(text, i, 4 if c == "u" else 8)
            out.append("\\" + c if value is None else utf8_raw(value))
        elif c == "c":
            return "".join(out), True
        else:
            out.append("\\" + c)
    return "".join(out), False


def run(ctx: CommandContext) -> int:
    """Write the arguments separated by spaces, then a newline unless ``-n``."""
    args = ctx.args
    newline = True
    escapes = False
    k = 0
    while k < len(args):
        a = args[k]
        if len(a) < 2 or a[0] != "-" or any(ch not in "neE" for ch in a[1:]):
            break
        for ch in a[1:]:
            if ch == "n":
                newline = False
            elif ch == "e":
                escapes = True
            else:
                escapes = False
        k += 1
    words = args[k:]
    text = " ".join(words)
    if escapes:
        text, stopped = echo_escapes(text)
        if stopped:
            ctx.stdout.write(text.encode("utf-8", "surrogateescape"))
            return 0
    if newline:
        text += "\n"
    ctx.stdout.write(text.encode("utf-8", "surrogateescape"))
    return 0
