"""``echo [-neE] [arg...]``: bash's builtin echo (the interpreter runs it as a builtin).

``-n`` no trailing newline, ``-e`` interpret backslash escapes (``\\c`` stops all output),
``-E`` don't (the default). An argument is an option only if it is made of those letters.
"""

from __future__ import annotations

from sandbox.commands.base import CommandContext
from sandbox.parse.parser import decode_escape


def expand_escapes(text: str) -> tuple[str, bool]:
    """Interpret echo -e / printf %b escapes; return (text, stopped_by_\\c)."""
    if "\\" not in text:
        return text, False
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n:
            if text[i + 1] == "c":
                return "".join(out), True
            piece, i = decode_escape(text, i + 1, ansi_c=False)
            out.append(piece)
        else:
            out.append(c)
            i += 1
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
        text, stopped = expand_escapes(text)
        if stopped:
            ctx.stdout.write(text.encode("utf-8", "surrogateescape"))
            return 0
    if newline:
        text += "\n"
    ctx.stdout.write(text.encode("utf-8", "surrogateescape"))
    return 0
