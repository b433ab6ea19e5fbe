"""``head``: output the first part of files (GNU coreutils 9.1).

Options: ``-n [-]NUM``, ``-c [-]NUM`` (with GNU's multiplier suffixes ``b k K m M G ...``),
``-q``, ``-v``, ``-z``, the obsolete first-argument form ``-NUM[bcklmqvz]``, and headers
``==> f <==`` for several files. ``head -n N`` stops reading after the N-th line, so
``cat big | head -n 1`` never reads the whole input; ``-n -N`` / ``-c -N`` keep only N lines
or bytes in memory.
"""

from __future__ import annotations

from collections import deque
from typing import BinaryIO

from sandbox.commands._numbers import count_argument
from sandbox.commands._records import (
    OUTPUT_FLAGS,
    copy_stream,
    each_input,
    iter_blocks,
    iter_records,
    parse_rejecting_digits,
    parse_settings,
)
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, UsageError

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


#: Read size of the line-counting loop.
BLOCK = 1 << 16
#: GNU head's read size (BUFSIZ) on input it can't seek back in.
PIPE_READ = 8192


def _first_lines_in_blocks(ctx: CommandContext, stream: BinaryIO, count: int, delim: bytes) -> bool:
    """The first ``count`` lines, a block at a time (newlines counted in C), consuming
    exactly those lines as GNU does on seekable input: a seekable stream is read ahead and
    sought back, a pipe with ``peek`` is consumed only as far as written. False (nothing
    done) for a stream that offers neither."""
    try:
        seekable = stream.seekable()
    except (AttributeError, OSError, ValueError):
        seekable = False
    peek = getattr(stream, "peek", None)
    if not seekable and peek is None:
        return False
    seen = 0
    while seen < count:
        block = stream.read(BLOCK) if seekable else peek(BLOCK)[:BLOCK]
        if not block:
            break
        n = block.count(delim)
        if seen + n < count:
            if not seekable:
                stream.read(len(block))
            ctx.stdout.write(block)
            seen += n
            ctx.budget.check_time()
            continue
        pos = -1
        for _ in range(count - seen):
            pos = block.find(delim, pos + 1)
        cut = pos + 1
        if seekable:
            stream.seek(cut - len(block), 1)
        else:
            # GNU reads a pipe BUFSIZ bytes at a time and can't seek back: the rest of the
            # read that held the last line is gone for the next reader (`{ head -n1; cat; }`)
            stream.read(min(len(block), -(-cut // PIPE_READ) * PIPE_READ))
        ctx.stdout.write(block[:cut])
        break
    return True


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
    if _first_lines_in_blocks(ctx, stream, count, delim):
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
        copy_stream(ctx, stream)
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
            elif ch in OUTPUT_FLAGS:
                settings.update(OUTPUT_FLAGS[ch])
            else:
                raise UsageError(f"invalid trailing option -- {ch}")
        settings["count"] = count_argument(digits + multiplier, settings["lines"])
    opts, operands = parse_rejecting_digits(
        SPEC, args, lambda digit: UsageError(f"invalid trailing option -- {digit}")
    )
    for key, value in opts:
        if key in ("c", "n"):
            assert value is not None
            settings["lines"] = key == "n"
            settings["elide"] = value.startswith("-")
            settings["count"] = count_argument(value[1:] if settings["elide"] else value, key == "n")
        elif key in OUTPUT_FLAGS:
            settings.update(OUTPUT_FLAGS[key])
        elif key in ("help", "version"):
            settings[key] = True
            return settings, operands
        else:  # a digit: only valid in the obsolete first argument
            raise UsageError(f"invalid trailing option -- {key}")
    return settings, operands


#: What ``--version`` prints (GNU's text).
VERSION = """head (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by David MacKenzie and Jim Meyering."""


def run(ctx: CommandContext) -> int:
    """Run ``head``."""
    parsed = parse_settings(ctx, _parse_args, USAGE, VERSION)
    if isinstance(parsed, int):
        return parsed
    settings, operands = parsed
    count, lines, delim = settings["count"], settings["lines"], settings["delim"]

    def process(stream: BinaryIO) -> None:
        if settings["elide"]:
            _all_but_last(ctx, stream, count, lines, delim)
        else:
            _first(ctx, stream, count, lines, delim)

    # GNU reads nothing at all for -n 0 / -c 0, so a directory is no error then
    skip_directories = count == 0 and not settings["elide"]
    return each_input(ctx, operands, settings["headers"], process, skip_directories=skip_directories)
