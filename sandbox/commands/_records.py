"""Streaming helpers shared by the commands (blocks, records, copying a stream to stdout), and
head's and tail's start of ``run`` (settings, ``--help``, ``--version``) and their loop over
FILE operands with ``==> NAME <==`` headers."""

from __future__ import annotations

import errno
import io
import re
from typing import BinaryIO, Callable, Iterator

from sandbox.commands._numbers import BadArgument, first_digit_option
from sandbox.commands._quoting import quoteaf
from sandbox.commands.base import CommandContext
from sandbox.commands.options import OptionSpec, ParsedArgs, UsageError, parse
from sandbox.fs.base import FSError
from sandbox.limits import Budget

BLOCK = 1 << 16

#: head's and tail's ``-q`` (no headers), ``-v`` (always headers) and ``-z`` (NUL-terminated
#: records): the settings each one sets.
OUTPUT_FLAGS: dict[str, dict[str, object]] = {
    "q": {"headers": False},
    "v": {"headers": True},
    "z": {"delim": b"\0"},
}


def iter_blocks(stream: BinaryIO, budget: Budget, size: int = BLOCK) -> Iterator[bytes]:
    """Blocks of at most ``size`` bytes until EOF, checking the time budget."""
    read = getattr(stream, "read1", None) or stream.read
    while True:
        block = read(size)
        if not block:
            return
        yield block
        budget.check_time()


def copy_stream(ctx: CommandContext, stream: BinaryIO, size: int = BLOCK) -> None:
    """Write every block of ``stream`` to stdout, checking the time budget."""
    for block in iter_blocks(stream, ctx.budget, size):
        ctx.stdout.write(block)


def iter_records(stream: BinaryIO, delim: bytes, budget: Budget) -> Iterator[bytes]:
    """Whole records ending with ``delim`` (the last one may lack it), streamed."""
    if delim == b"\n" and hasattr(stream, "readline"):
        count = 0
        pending: list[bytes] = []
        while True:
            piece = stream.readline(BLOCK)
            if not piece:
                break
            count += 1
            if count & 1023 == 0:
                budget.check_time()
            if piece.endswith(b"\n"):
                if pending:
                    pending.append(piece)
                    piece = b"".join(pending)
                    pending.clear()
                yield piece
            else:
                pending.append(piece)
        if pending:
            yield b"".join(pending)
        return
    pending: list[bytes] = []  # pieces of a record longer than one block
    for block in iter_blocks(stream, budget):
        start = 0
        while True:
            end = block.find(delim, start)
            if end < 0:
                break
            piece = block[start : end + 1]
            if pending:
                pending.append(piece)
                piece = b"".join(pending)
                pending.clear()
            yield piece
            start = end + 1
        if start < len(block):
            pending.append(block[start:])
    if pending:
        yield b"".join(pending)


def seekable_size(stream: BinaryIO) -> int | None:
    """The size of a seekable regular stream (restoring its position), else None."""
    try:
        if not stream.seekable():
            return None
        here = stream.tell()
        size = stream.seek(0, io.SEEK_END)
        stream.seek(here)
        return size - here
    except (OSError, ValueError, AttributeError):
        return None


def parse_rejecting_digits(
    spec: OptionSpec, args: list[str], digit_error: Callable[[str], Exception]
) -> ParsedArgs:
    """``parse`` for head and tail, whose ``spec`` lists the digits only to refuse them: when
    the line does not parse, a digit option getopt would meet first is reported instead, as
    ``digit_error(digit)`` (GNU's wording differs between the two)."""
    try:
        return parse(spec, args)
    except UsageError:
        takes_arg = "".join(re.findall(r"(\w):(?!:)", spec.short))
        digit = first_digit_option(args, takes_arg, spec.short.replace(":", ""))
        if digit is not None:
            raise digit_error(digit) from None
        raise


def parse_settings(
    ctx: CommandContext,
    parse_args: Callable[[CommandContext], tuple[dict, list[str]]],
    usage: str,
    version: str,
) -> tuple[dict, list[str]] | int:
    """Run a head/tail argument parser; return ``(settings, operands)`` to go on with, or the
    exit status once done: 1 after a ``UsageError`` (with the ``Try`` line) or a
    ``BadArgument``, 0 after printing ``usage`` or the ``version`` line."""
    try:
        settings, operands = parse_args(ctx)
    except UsageError as e:
        return ctx.usage_error(str(e))
    except BadArgument as e:
        ctx.error(str(e))
        return 1
    if settings.get("help"):
        ctx.stdout.write(usage.encode())
        return 0
    if settings.get("version"):
        ctx.stdout.write(f"{version}\n".encode())
        return 0
    return settings, operands


def each_input(
    ctx: CommandContext,
    operands: list[str],
    headers: bool | None,
    process: Callable[[BinaryIO], None],
    *,
    skip_directories: bool = False,
) -> int:
    """Run ``process`` on each FILE operand's stream (none, or ``-``, is stdin) the way head and
    tail do; return the exit status.

    ``headers``: ``==> NAME <==`` before each input always (True), never (False), or when there
    are several (None). A file that cannot be opened is reported and skipped; a directory is
    reported as GNU's read error ``Is a directory`` after its header, or passed over silently
    with ``skip_directories``; an ``FSError`` while reading is reported as ``error reading``.
    """
    operands = operands or ["-"]
    if headers is None:
        headers = len(operands) > 1
    status = 0
    first_header = True
    for operand in operands:
        name = "standard input" if operand == "-" else operand
        try:
            stream = ctx.stdin if operand == "-" else ctx.open_read(operand)
        except FSError as e:
            if e.errno == errno.EISDIR:  # GNU opens directories and fails on read
                stream = None
            else:
                ctx.error(f"cannot open {quoteaf(operand)} for reading: {e}")
                status = 1
                continue
        if headers:
            prefix = b"" if first_header else b"\n"
            ctx.stdout.write(prefix + b"==> " + name.encode("utf-8", "surrogateescape") + b" <==\n")
            first_header = False
        if stream is None:
            if skip_directories:
                continue
            ctx.error(f"error reading {quoteaf(operand)}: Is a directory")
            status = 1
            continue
        try:
            process(stream)
        except FSError as e:
            ctx.error(f"error reading {quoteaf(name)}: {e}")
            status = 1
        finally:
            if stream is not ctx.stdin:
                stream.close()
    return status
