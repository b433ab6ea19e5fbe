"""Small helpers shared by the text commands (wc, sort, uniq, cut, tr, date, seq, basename,
dirname): the ``prog: NAME: strerror`` message, argmatch and the "each operand, ``-`` is
stdin" readers. Quoting of names in messages is ``_quoting``'s.

Not a command (the leading underscore keeps it out of the registry).
"""

from __future__ import annotations

from typing import BinaryIO, Iterator

from sandbox.commands._quoting import quote, quotef
from sandbox.commands._records import iter_blocks
from sandbox.commands.base import CommandContext
from sandbox.fs.base import FSError

#: Read size for streaming commands: large enough that per-chunk Python overhead vanishes.
CHUNK = 1 << 20


def file_error(ctx: CommandContext, operand: str, err: FSError) -> None:
    """Print ``prog: NAME: strerror`` the way coreutils does."""
    ctx.error(f"{quotef(operand)}: {err}")


def open_operand(ctx: CommandContext, operand: str) -> BinaryIO:
    """Open an input operand for reading; ``-`` is stdin. Raises ``FSError``."""
    if operand == "-":
        return ctx.open_read("/dev/stdin")
    return ctx.open_read(operand)


def iter_record_batches(
    ctx: CommandContext, stream: BinaryIO, delim: bytes = b"\n"
) -> Iterator[tuple[list[bytes], bool]]:
    """Yield batches of records without their delimiter, as ``(records, terminated)``.

    Every batch is ``terminated`` (each record was followed by ``delim``) except possibly the
    last, a single record that ended at end of input without a delimiter.
    """
    rest = b""
    for chunk in iter_blocks(stream, ctx.budget, CHUNK):
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
