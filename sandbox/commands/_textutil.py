"""Small helpers shared by the text commands (wc, sort, uniq, cut, tr, date, seq, basename,
dirname): GNU's two ways of quoting a name in a message, the option-error wrapper and the
"each operand, ``-`` is stdin" reader.

Not a command (the leading underscore keeps it out of the registry).
"""

from __future__ import annotations

from typing import BinaryIO, Iterator

from sandbox.commands.base import CommandContext
from sandbox.commands.options import OptionSpec, UsageError, parse
from sandbox.fs.base import FSError

#: Read size for streaming commands: large enough that per-chunk Python overhead vanishes.
CHUNK = 1 << 20

_SHELL_SPECIAL = set(" !\"$&()*;<=>[^`|\\?'")
_QUOTE_COMPAT = set("%+,-./:]_ ") | set("0123456789") | set(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
)
_C_ESCAPES = {7: "a", 8: "b", 12: "f", 10: "n", 13: "r", 9: "t", 11: "v"}


def _units(raw: bytes) -> list[tuple[str, bool]]:
    """Split bytes into (text, printable) units: a valid printable UTF-8 character is one
    printable unit; a control character or an invalid byte is one non-printable unit."""
    units: list[tuple[str, bool]] = []
    i = 0
    n = len(raw)
    while i < n:
        b = raw[i]
        if b < 0x80:
            units.append((chr(b), 0x20 <= b < 0x7F))
            i += 1
            continue
        length = 2 if 0xC2 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF else 4 if 0xF0 <= b <= 0xF4 else 0
        if length:
            try:
                ch = raw[i : i + length].decode("utf-8")
            except UnicodeDecodeError:
                ch = ""
            if len(ch) == 1 and ch.isprintable():
                units.append((ch, True))
                i += length
                continue
        units.append((f"\\{b:03o}", False))
        i += 1
    return units


def quotef(name: str) -> str:
    """A file name as GNU's ``quotef`` prints it in messages (shell-escape quoting, colon
    included): bare when safe, else ``'...'``, ``"..."`` or ``$'\\ooo'`` pieces."""
    raw = name.encode("utf-8", "surrogateescape")
    if raw == b"":
        return "''"
    units = _units(raw)
    needs = False
    for idx, (text, printable) in enumerate(units):
        if not printable or text in _SHELL_SPECIAL or text == ":":
            needs = True
        elif text in "#~" and idx == 0:
            needs = True
        elif text in "{}" and len(units) == 1:
            needs = True
    if not needs:
        return "".join(t for t, _ in units)
    has_single = any(t == "'" for t, _ in units)
    has_escape = any(not p for _, p in units)
    if has_single and not has_escape:
        if all(p and (t in _QUOTE_COMPAT or t == "'" or ord(t[0]) >= 0x80) for t, p in units):
            return '"' + "".join(t for t, _ in units) + '"'
    out = ["''" if (has_single and has_escape) else "", "'"]
    open_quote = True
    for text, printable in units:
        if printable:
            if not open_quote:
                out.append("'")
                open_quote = True
            out.append("'\\''" if text == "'" else text)
        else:
            if open_quote:
                out.append("'")
            code = int(text[1:], 8)
            esc = _C_ESCAPES.get(code)
            out.append(f"$'\\{esc}'" if esc else f"$'{text}'")
            open_quote = False
    if open_quote:
        out.append("'")
    return "".join(out)


def quoteaf(name: str) -> str:
    """A file name as GNU's ``quoteaf`` prints it: like ``quotef`` but always quoted."""
    shown = quotef(name)
    return shown if shown != name else f"'{name}'"


def quote(text: str) -> str:
    """A value as GNU's ``quote`` prints it in the C.UTF-8 locale: ``‘value’`` with C escapes."""
    raw = text.encode("utf-8", "surrogateescape")
    parts: list[str] = []
    for unit, printable in _units(raw):
        if printable:
            parts.append("\\\\" if unit == "\\" else unit)
        else:
            esc = _C_ESCAPES.get(int(unit[1:], 8))
            parts.append(f"\\{esc}" if esc else unit)
    return "\u2018" + "".join(parts) + "\u2019"


def parse_options(
    ctx: CommandContext, spec: OptionSpec
) -> tuple[list[tuple[str, str | None]], list[str]] | None:
    """Parse ``ctx.args`` with ``spec``; on a usage error print GNU's two lines and return None."""
    try:
        return parse(spec, ctx.args)
    except UsageError as err:
        ctx.usage_error(str(err))
        return None


def file_error(ctx: CommandContext, operand: str, err: FSError) -> None:
    """Print ``prog: NAME: strerror`` the way coreutils does."""
    ctx.error(f"{quotef(operand)}: {err}")


def open_operand(ctx: CommandContext, operand: str) -> BinaryIO:
    """Open an input operand for reading; ``-`` is stdin. Raises ``FSError``."""
    if operand == "-":
        return ctx.open_read("/dev/stdin")
    return ctx.open_read(operand)


def iter_chunks(ctx: CommandContext, stream: BinaryIO, size: int = CHUNK) -> Iterator[bytes]:
    """Read ``stream`` in large chunks, checking the time budget between them."""
    while True:
        ctx.budget.check_time()
        chunk = stream.read(size)
        if not chunk:
            return
        yield chunk


def iter_records(ctx: CommandContext, stream: BinaryIO, delim: bytes = b"\n") -> Iterator[bytes]:
    """Yield records of ``stream`` each with its delimiter (the last one may lack it),
    reading in large chunks."""
    rest = b""
    for chunk in iter_chunks(ctx, stream):
        data = rest + chunk if rest else chunk
        parts = data.split(delim)
        rest = parts.pop()
        for part in parts:
            yield part + delim
    if rest:
        yield rest


def iter_record_batches(
    ctx: CommandContext, stream: BinaryIO, delim: bytes = b"\n"
) -> Iterator[tuple[list[bytes], bool]]:
    """Yield batches of records without their delimiter, as ``(records, terminated)``.

    Every batch is ``terminated`` (each record was followed by ``delim``) except possibly the
    last, a single record that ended at end of input without a delimiter.
    """
    rest = b""
    for chunk in iter_chunks(ctx, stream):
        data = rest + chunk if rest else chunk
        parts = data.split(delim)
        rest = parts.pop()
        if parts:
            yield parts, True
    if rest:
        yield [rest], False


class ArgmatchError(Exception):
    """An option argument GNU's ``argmatch`` refuses; ``str()`` is the full message block
    (without the program name on the first line and without the ``Try`` line)."""


def argmatch(ctx_option: str, value: str, choices: list[str]) -> str:
    """GNU ``XARGMATCH``: the choice ``value`` names exactly or as an unambiguous prefix.

    Raises ``ArgmatchError`` with GNU's ``invalid argument`` / ``ambiguous argument`` text and
    its list of valid arguments.
    """
    if value in choices:
        return value
    matches = [c for c in choices if c.startswith(value)]
    if len(matches) == 1:
        return matches[0]
    kind = "ambiguous" if len(matches) > 1 else "invalid"
    lines = [f"{kind} argument {quote(value)} for {quote(ctx_option)}", "Valid arguments are:"]
    lines += [f"  - {quote(c)}" for c in choices]
    raise ArgmatchError("\n".join(lines))


def wants_help(args: list[str]) -> bool:
    """True if ``--help`` (or an unambiguous prefix of it, ``--he``) comes before ``--``."""
    for arg in args:
        if arg == "--":
            return False
        if len(arg) >= 4 and "--help".startswith(arg):
            return True
    return False


def print_help(ctx: CommandContext, text: str) -> int:
    """Print a command's usage summary (our own short text, not GNU's manual) and return 0."""
    ctx.stdout.write(text.encode())
    return 0
