"""``head``: output the first part of files (GNU coreutils 9.1).

Options: ``-n [-]NUM``, ``-c [-]NUM`` (with GNU's multiplier suffixes ``b k K m M G ...``),
``-q``, ``-v``, ``-z``, the obsolete first-argument form ``-NUM[bcklmqvz]``, and headers
``==> f <==`` for several files. ``head -n N`` stops reading after the N-th line, so
``cat big | head -n 1`` never reads the whole input; ``-n -N`` / ``-c -N`` keep only N lines
or bytes in memory.
"""

from __future__ import annotations

import errno
from collections import deque
from typing import BinaryIO

from sandbox.commands._numbers import OVERFLOW_MESSAGE, CountError, first_digit_option, parse_count
from sandbox.commands._quoting import quote, quoteaf
from sandbox.commands._records import iter_blocks, iter_records
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, UsageError, parse
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    "c:n:qvz0123456789",
    {
        "bytes": (REQUIRED, "c"),
        "lines": (REQUIRED, "n"),
        "quiet": (NO_ARG, "q"),
        "silent": (NO_ARG, "q"),
        "verbose": (NO_ARG, "v"),
        "zero-terminated": (NO_ARG, "z"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: head [OPTION]... [FILE]...
Print the first 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -c, --bytes=[-]NUM       print the first NUM bytes of each file;
                             with the leading '-', print all but the last
                             NUM bytes of each file
  -n, --lines=[-]NUM       print the first NUM lines instead of the first 10;
                             with the leading '-', print all but the last
                             NUM lines of each file
  -q, --quiet, --silent    never print headers giving file names
  -v, --verbose            always print headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

NUM may have a multiplier suffix:
b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,
GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E, Z, Y.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.
"""


class _Bad(Exception):
    """A command-line error already worded for the user."""


def _count(ctx: CommandContext, text: str, lines: bool) -> int:
    what = "lines" if lines else "bytes"
    try:
        return parse_count(text)
    except CountError as e:
        detail = f": {OVERFLOW_MESSAGE}" if e.overflow else ""
        raise _Bad(f"invalid number of {what}: {quote(text)}{detail}") from None


def _first(ctx: CommandContext, stream: BinaryIO, count: int, lines: bool, delim: bytes) -> None:
    if count == 0:
        return
    if not lines:
        left = count
        while left > 0:
            block = stream.read(min(left, 1 << 16))
            if not block:
                return
            ctx.stdout.write(block)
            left -= len(block)
            ctx.budget.check_time()
        return
    if delim == b"\n" and hasattr(stream, "readline"):
        seen = 0
        out: list[bytes] = []
        size = 0
        while seen < count:
            piece = stream.readline(1 << 16)
            if not piece:
                break
            if piece.endswith(b"\n"):
                seen += 1
            out.append(piece)
            size += len(piece)
            if size >= 1 << 16:
                ctx.stdout.write(b"".join(out))
                out.clear()
                size = 0
                ctx.budget.check_time()
        if out:
            ctx.stdout.write(b"".join(out))
        return
    seen = 0
    for record in iter_records(stream, delim, ctx.budget):
        ctx.stdout.write(record)
        seen += 1
        if seen >= count:
            return


def _all_but_last(ctx: CommandContext, stream: BinaryIO, count: int, lines: bool, delim: bytes) -> None:
    if not lines:
        held = bytearray()
        for block in iter_blocks(stream, ctx.budget):
            held += block
            if len(held) > count:
                cut = len(held) - count
                ctx.stdout.write(bytes(held[:cut]))
                del held[:cut]
        return
    if count == 0:
        for block in iter_blocks(stream, ctx.budget):
            ctx.stdout.write(block)
        return
    window: deque[bytes] = deque()
    for record in iter_records(stream, delim, ctx.budget):
        window.append(record)
        if len(window) > count:
            ctx.stdout.write(window.popleft())


def _parse_args(ctx: CommandContext) -> tuple[dict, list[str]]:
    args = list(ctx.args)
    settings = {"count": 10, "lines": True, "elide": False, "headers": None, "delim": b"\n"}
    if args and len(args[0]) > 1 and args[0][0] == "-" and args[0][1].isdigit() and args[0][1].isascii():
        first = args.pop(0)
        k = 1
        while k < len(first) and "0" <= first[k] <= "9":
            k += 1
        digits = first[1:k]
        multiplier = ""
        for ch in first[k:]:
            if ch == "c":
                settings["lines"], multiplier = False, ""
            elif ch in "bkm":
                settings["lines"], multiplier = False, ch
            elif ch == "l":
                settings["lines"] = True
            elif ch == "q":
                settings["headers"] = False
            elif ch == "v":
                settings["headers"] = True
            elif ch == "z":
                settings["delim"] = b"\0"
            else:
                raise UsageError(f"invalid trailing option -- {ch}")
        settings["count"] = _count(ctx, digits + multiplier, settings["lines"])
    try:
        opts, operands = parse(SPEC, args)
    except UsageError:
        digit = first_digit_option(args, "cn", "cnqvz0123456789")
        if digit is not None:
            raise UsageError(f"invalid trailing option -- {digit}") from None
        raise
    for key, value in opts:
        if key in ("c", "n"):
            assert value is not None
            settings["lines"] = key == "n"
            settings["elide"] = value.startswith("-")
            settings["count"] = _count(ctx, value[1:] if settings["elide"] else value, key == "n")
        elif key == "q":
            settings["headers"] = False
        elif key == "v":
            settings["headers"] = True
        elif key == "z":
            settings["delim"] = b"\0"
        elif key in ("help", "version"):
            settings[key] = True
            return settings, operands
        else:  # a digit: only valid in the obsolete first argument
            raise UsageError(f"invalid trailing option -- {key}")
    return settings, operands


def run(ctx: CommandContext) -> int:
    """Run ``head``."""
    try:
        settings, operands = _parse_args(ctx)
    except UsageError as e:
        return ctx.usage_error(str(e))
    except _Bad as e:
        ctx.error(str(e))
        return 1
    if settings.get("help"):
        ctx.stdout.write(USAGE.encode())
        return 0
    if settings.get("version"):
        ctx.stdout.write(b"head (GNU coreutils) 9.1\n")
        return 0
    operands = operands or ["-"]
    headers = settings["headers"] if settings["headers"] is not None else len(operands) > 1
    status = 0
    first_header = True
    for operand in operands:
        name = "standard input" if operand == "-" else operand
        try:
            stream = ctx.stdin if operand == "-" else ctx.open_read(operand)
        except FSError as e:
            if e.errno == errno.EISDIR:  #: GNU opens directories and fails on read
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
            if settings["count"] == 0 and not settings["elide"]:
                continue  # GNU reads nothing at all
            ctx.error(f"error reading {quoteaf(operand)}: Is a directory")
            status = 1
            continue
        try:
            if settings["elide"]:
                _all_but_last(ctx, stream, settings["count"], settings["lines"], settings["delim"])
            else:
                _first(ctx, stream, settings["count"], settings["lines"], settings["delim"])
        except FSError as e:
            ctx.error(f"error reading {quoteaf(operand)}: {e}")
            status = 1
        finally:
            if stream is not ctx.stdin:
                stream.close()
    return status
