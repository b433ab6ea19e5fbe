"""``tail``: output the last part of files (GNU coreutils 9.1).

Options: ``-n [+|-]NUM``, ``-c [+|-]NUM`` (GNU multiplier suffixes), ``-q``, ``-v``, ``-z``, the
obsolete forms ``-NUM[bcl]`` / ``+NUM[bcl]`` (only as the first argument with at most one file,
as GNU accepts them), and ``==> f <==`` headers. On a seekable file ``tail -n N`` reads
backwards from the end in blocks, so its cost does not depend on the file's size. Following
(``-f``/``-F``) is refused: a sandboxed command must end.
"""

from __future__ import annotations

import io
from collections import deque
from typing import BinaryIO

from sandbox.commands._numbers import BadArgument, count_argument
from sandbox.commands._quoting import quote
from sandbox.commands._records import (
    OUTPUT_FLAGS,
    copy_stream,
    each_input,
    iter_blocks,
    parse_rejecting_digits,
    parse_settings,
    seekable_size,
)
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec

SPEC = OptionSpec(
    "c:n:fFqs:vz0123456789",
    {
        "bytes": (REQUIRED, "c"),
        "lines": (REQUIRED, "n"),
        "follow": (OPTIONAL, "f"),
        "retry": (NO_ARG, "retry"),
        "pid": (REQUIRED, "pid"),
        "sleep-interval": (REQUIRED, "s"),
        "max-unchanged-stats": (REQUIRED, "max-unchanged-stats"),
        "quiet": (NO_ARG, "q"),
        "silent": (NO_ARG, "q"),
        "verbose": (NO_ARG, "v"),
        "zero-terminated": (NO_ARG, "z"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

BLOCK = 1 << 16
_NO_FOLLOW = "following files (-f) is not supported in the sandbox"

USAGE = """Usage: tail [OPTION]... [FILE]...
Print the last 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -c, --bytes=[+]NUM       output the last NUM bytes; or use -c +NUM to
                             output starting with byte NUM of each file
  -n, --lines=[+]NUM       output the last NUM lines, instead of the last 10;
                             or use -n +NUM to skip NUM-1 lines at the start
  -q, --quiet, --silent    never output headers giving file names
  -v, --verbose            always output headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

NUM may have a multiplier suffix:
b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,
GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E, Z, Y.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

Following (-f, -F) is not available in the sandbox.
"""


def _obsolete(args: list[str]) -> dict | None:
    """GNU's parse_obsolete_option: ``-NUM[bcl]`` / ``+NUM[bcl]`` with at most one file."""
    if not (len(args) == 1 or (len(args) == 2 and not (args[1].startswith("-") and len(args[1]) > 1))):
        return None
    arg = args[0]
    if not arg or arg[0] not in "+-":
        return None
    body = arg[1:]
    if arg[0] == "-" and not (body[1:2] if body[:1] == "c" else body[:1]):
        return None
    k = 0
    while k < len(body) and "0" <= body[k] <= "9":
        k += 1
    digits, rest = body[:k], body[k:]
    lines, multiplier = True, 1
    if rest[:1] == "b":
        multiplier, lines, rest = 512, False, rest[1:]
    elif rest[:1] == "c":
        lines, rest = False, rest[1:]
    elif rest[:1] == "l":
        rest = rest[1:]
    follow = rest[:1] == "f"
    if follow:
        rest = rest[1:]
    if rest:
        return None
    if digits:
        trimmed = digits.lstrip("0") or "0"
        value = (1 << 64) if len(trimmed) > 25 else int(trimmed)
        count = min(value * multiplier, (1 << 64) - 1) if value <= (1 << 64) - 1 else None
        if count is None:
            raise BadArgument(f"invalid number: {quote(args[0])}: Numerical result out of range")
    else:
        count = 10 * multiplier
    return {"count": count, "lines": lines, "from_start": arg[0] == "+", "follow": follow}


def _parse_args(ctx: CommandContext) -> tuple[dict, list[str]]:
    settings = {"count": 10, "lines": True, "from_start": False, "headers": None, "delim": b"\n"}
    args = list(ctx.args)
    old = _obsolete(args)
    if old is not None:
        if old.pop("follow"):
            raise BadArgument(_NO_FOLLOW)
        settings.update(old)
        if settings["from_start"] and settings["count"]:
            settings["count"] -= 1
        return settings, args[1:]
    opts, operands = parse_rejecting_digits(
        SPEC, args, lambda digit: BadArgument(f"option used in invalid context -- {digit}")
    )
    for key, value in opts:
        if key in ("c", "n"):
            assert value is not None
            settings["lines"] = key == "n"
            if value.startswith("+"):
                settings["from_start"] = True  # sticky, as in GNU: a later -n N keeps it
            elif value.startswith("-"):
                value = value[1:]
            settings["count"] = count_argument(value, key == "n")
        elif key in OUTPUT_FLAGS:
            settings.update(OUTPUT_FLAGS[key])
        elif key in ("f", "F"):
            raise BadArgument(_NO_FOLLOW)
        elif key in ("help", "version"):
            settings[key] = True
            return settings, operands
        elif key.isdigit():
            raise BadArgument(f"option used in invalid context -- {key}")
        # -s, --pid, --retry, --max-unchanged-stats only matter when following: ignored.
    if any(key == "retry" for key, _ in opts):
        ctx.error("warning: --retry ignored; --retry is useful only when following")
    if settings["from_start"] and settings["count"]:
        settings["count"] -= 1  # +N starts at item N; +0 is +1 for Unix compatibility
    return settings, operands


def _last_lines_seekable(ctx: CommandContext, stream: BinaryIO, start: int, size: int, count: int, delim: bytes) -> None:
    """Print the last ``count`` records of ``stream[start:start+size]`` reading from the end."""
    end = start + size
    if count == 0 or size == 0:
        return
    stream.seek(end - 1)
    search_end = end - 1 if stream.read(1) == delim else end  # a final delimiter ends the last line
    found = 0
    pos = search_end
    first = start
    while pos > start:
        block_start = max(start, pos - BLOCK)
        stream.seek(block_start)
        block = stream.read(pos - block_start)
        idx = len(block)
        while True:
            idx = block.rfind(delim, 0, idx)
            if idx < 0:
                break
            found += 1
            if found == count:
                first = block_start + idx + 1
                break
        if found == count:
            break
        pos = block_start
        ctx.budget.check_time()
    stream.seek(first)
    _copy_range(ctx, stream, end - first)


def _copy_range(ctx: CommandContext, stream: BinaryIO, length: int) -> None:
    while length > 0:
        block = stream.read(min(BLOCK, length))
        if not block:
            return
        ctx.stdout.write(block)
        length -= len(block)
        ctx.budget.check_time()


def _tail(ctx: CommandContext, stream: BinaryIO, settings: dict) -> None:
    count, lines, delim = settings["count"], settings["lines"], settings["delim"]
    size = seekable_size(stream)
    if settings["from_start"]:
        if not lines:
            if size is not None:
                stream.seek(min(count, size), io.SEEK_CUR)
            else:
                left = count
                while left > 0:
                    block = stream.read(min(BLOCK, left))
                    if not block:
                        return
                    left -= len(block)
            copy_stream(ctx, stream)
            return
        left = count
        for block in iter_blocks(stream, ctx.budget):
            if left == 0:
                ctx.stdout.write(block)
                continue
            idx = -1
            while left:
                idx = block.find(delim, idx + 1)
                if idx < 0:
                    break
                left -= 1
            if left == 0 and idx + 1 < len(block):
                ctx.stdout.write(block[idx + 1 :])
        return
    if size is not None:
        start = stream.tell()
        if lines:
            _last_lines_seekable(ctx, stream, start, size, count, delim)
        else:
            first = start + max(0, size - count)
            stream.seek(first)
            _copy_range(ctx, stream, size - (first - start))
        return
    if not lines:
        held = bytearray()
        for block in iter_blocks(stream, ctx.budget):
            held += block
            if len(held) > count:
                del held[: len(held) - count]
        ctx.stdout.write(bytes(held))
        return
    if count == 0:
        for _ in iter_blocks(stream, ctx.budget):
            pass
        return
    # A pipe: keep the last blocks, not records (counting delimiters with bytes.count), then
    # find where the last ``count`` records start as in a file.
    blocks: deque[tuple[bytes, int]] = deque()
    delims = 0  # delimiters in the kept blocks
    for block in iter_blocks(stream, ctx.budget):
        found = block.count(delim)
        blocks.append((block, found))
        delims += found
        # The oldest block can go once the others hold count + 1 delimiters: the last
        # ``count`` records (a final one without a delimiter included) start after those.
        while len(blocks) > 1 and delims - blocks[0][1] > count:
            delims -= blocks.popleft()[1]
    data = b"".join(block for block, _ in blocks)
    _last_lines_seekable(ctx, io.BytesIO(data), 0, len(data), count, delim)


#: What ``--version`` prints (GNU's text).
VERSION = """tail (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Paul Rubin, David MacKenzie, Ian Lance Taylor,
and Jim Meyering."""


def run(ctx: CommandContext) -> int:
    """Run ``tail``."""
    parsed = parse_settings(ctx, _parse_args, USAGE, VERSION)
    if isinstance(parsed, int):
        return parsed
    settings, operands = parsed
    if settings["count"] == 0 and not settings["from_start"]:
        return 0  # GNU: nothing will be output, so nothing is opened or read
    return each_input(ctx, operands, settings["headers"], lambda stream: _tail(ctx, stream, settings))
