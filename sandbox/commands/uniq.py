"""``uniq``: report or omit repeated adjacent lines (GNU coreutils 9.1).

Options: ``-c -d -D[=none|prepend|separate] -u -i -f N -s N -w N -z --group[=METHOD]`` and the
obsolete ``-N`` (skip N fields). Operands ``[INPUT [OUTPUT]]``. Fields are runs of blanks then
non-blanks; ``-s``/``-w`` count bytes; ``-i`` folds ASCII case, as GNU does in C.UTF-8. Input is
streamed; output lines always end with the delimiter.
"""

from __future__ import annotations

import errno
import operator
import re
from itertools import chain, compress, islice, repeat
from typing import BinaryIO, Callable, Iterator

from sandbox.commands._lineblocks import line_blocks
from sandbox.commands._quoting import quote, quoteaf
from sandbox.commands._textutil import (
    ArgmatchError,
    argmatch,
    file_error,
    iter_record_batches,
    open_operand,
)
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, UsageError, parse, parse_command_line
from sandbox.fs.base import FSError

#: What ``--version`` prints (GNU's text).
VERSION = """uniq (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Richard M. Stallman and David MacKenzie."""

SPEC = OptionSpec(
    short="0123456789cdDf:is:uw:z",
    long={
        "version": (NO_ARG, "version"),
        "count": (NO_ARG, "c"),
        "repeated": (NO_ARG, "d"),
        "all-repeated": (OPTIONAL, "D"),
        "group": (OPTIONAL, "group"),
        "ignore-case": (NO_ARG, "i"),
        "unique": (NO_ARG, "u"),
        "skip-fields": (REQUIRED, "f"),
        "skip-chars": (REQUIRED, "s"),
        "check-chars": (REQUIRED, "w"),
        "zero-terminated": (NO_ARG, "z"),
    },
)

_INT_RE = re.compile(r"[ \t\n\v\f\r]*([+-]?)(\d+)\Z")
_SIZE_MAX = (1 << 64) - 1
_ONE_FIELD = re.compile(rb"[ \t\n]*[^ \t\n]*")



HELP = '''Usage: uniq [OPTION]... [INPUT [OUTPUT]]
Filter adjacent matching lines from INPUT (or standard input),
writing to OUTPUT (or standard output).

  -c, --count           prefix lines by the number of occurrences
  -d, --repeated        only print duplicate lines, one for each group
  -D                    print all duplicate lines
      --all-repeated[=METHOD]  like -D, delimiting groups (none, prepend, separate)
  -f, --skip-fields=N   avoid comparing the first N fields
      --group[=METHOD]  show all items, separating groups (separate, prepend, append, both)
  -i, --ignore-case     ignore differences in case when comparing
  -s, --skip-chars=N    avoid comparing the first N characters
  -u, --unique          only print unique lines
  -z, --zero-terminated line delimiter is NUL, not newline
  -w, --check-chars=N   compare no more than N characters in lines
'''

def writes(args: list[str]) -> list[str]:
    """The OUTPUT operand, if any (the second operand)."""
    try:
        _, operands = parse(SPEC, args)
    except UsageError:
        return []
    return operands[1:2] if len(operands) >= 2 and operands[1] != "-" else []


def _size_opt(text: str) -> int | None:
    """GNU's ``size_opt``: a non-negative decimal, clamped; None if invalid."""
    match = _INT_RE.match(text)
    if not match or match.group(1) == "-":
        return None
    digits = match.group(2).lstrip("0") or "0"
    return _SIZE_MAX if len(digits) > 20 else min(int(digits), _SIZE_MAX)


def _key_function(skip_fields: int, skip_chars: int, check_chars: int | None,
                  ignore_case: bool) -> Callable[[bytes], bytes] | None:
    """The comparison key of a line, or None when the whole line is the key."""
    if not skip_fields and not skip_chars and check_chars is None and not ignore_case:
        return None
    field_re = re.compile(rb"(?:[ \t\n]*[^ \t\n]*){%d}" % skip_fields) if 0 < skip_fields <= 1000 else None
    end = None if check_chars is None else check_chars

    def skip_many_fields(line: bytes) -> int:
        pos = 0
        for _ in range(skip_fields):
            if pos >= len(line):
                break
            pos = _ONE_FIELD.match(line, pos).end()  # type: ignore[union-attr]
        return pos

    def key(line: bytes) -> bytes:
        if field_re is not None:
            start = field_re.match(line).end()  # type: ignore[union-attr]
        elif skip_fields:
            start = skip_many_fields(line)
        else:
            start = 0
        start += skip_chars
        part = line[start : None if end is None else start + end]
        return part.upper() if ignore_case else part

    return key


def _lines(ctx: CommandContext, stream: BinaryIO, eol: bytes) -> Iterator[bytes]:
    """Every record of ``stream`` without its delimiter."""
    for records, _ in iter_record_batches(ctx, stream, eol):
        yield from records


def run(ctx: CommandContext) -> int:
    """Filter adjacent duplicate lines."""
    parsed = parse_command_line(ctx, SPEC, HELP, version=VERSION, early_help=True)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    count = False
    out_unique = out_first = True
    out_later = False
    delimit = "none"
    grouping: str | None = None
    skip_fields = skip_chars = 0
    check_chars: int | None = None
    ignore_case = False
    eol = b"\n"
    digits = ""
    for key, value in opts:
        if key.isdigit():
            digits += key
            skip_fields = _SIZE_MAX if len(digits) > 20 else min(int(digits), _SIZE_MAX)
            continue
        digits = ""
        if key == "c":
            count = True
        elif key == "d":
            out_unique = False
        elif key == "D":
            out_unique = False
            out_later = True
            delimit = "none"
            if value is not None:
                try:
                    delimit = argmatch("--all-repeated", value, ["none", "prepend", "separate"])
                except ArgmatchError as err:
                    return ctx.usage_error(str(err))
        elif key == "group":
            grouping = "separate"
            if value is not None:
                try:
                    grouping = argmatch("--group", value, ["prepend", "append", "separate", "both"])
                except ArgmatchError as err:
                    return ctx.usage_error(str(err))
        elif key == "u":
            out_first = False
        elif key == "i":
            ignore_case = True
        elif key == "z":
            eol = b"\0"
        elif key in "fsw":
            number = _size_opt(value or "")
            if number is None:
                what = {"f": "fields to skip", "s": "bytes to skip", "w": "bytes to compare"}[key]
                ctx.error(f"{value}: invalid number of {what}")
                return 1
            if key == "f":
                skip_fields = number
            elif key == "s":
                skip_chars = number
            else:
                check_chars = number
    if len(operands) > 2:
        return ctx.usage_error(f"extra operand {quote(operands[2])}")
    if grouping is not None and (count or not out_unique or not out_first or out_later):
        return ctx.usage_error("--group is mutually exclusive with -c/-d/-D/-u")
    if count and out_later:
        return ctx.usage_error("printing all duplicated lines and repeat counts is meaningless")
    source = operands[0] if operands else "-"
    try:
        stream = open_operand(ctx, source)
    except FSError as err:
        if err.errno == errno.EISDIR:
            ctx.error(f"error reading {quoteaf(source)}")
        else:
            file_error(ctx, source, err)
        return 1
    output = operands[1] if len(operands) > 1 and operands[1] != "-" else None
    chunks: list[bytes] = []
    write: Callable[[bytes], object] = chunks.append if output is not None else ctx.stdout.write
    key_of = _key_function(skip_fields, skip_chars, check_chars, ignore_case)
    try:
        with stream:
            lines = _lines(ctx, stream, eol)
            if out_unique and out_first and not count and not out_later and grouping is None:
                _plain_batches(ctx, stream, key_of, eol, write)
            elif out_unique and out_first and not count and not out_later:
                _plain(lines, key_of, grouping, eol, write)
            elif not out_later:
                _groups(ctx, stream, key_of, count, out_unique, out_first, eol, write)
            else:
                _general(lines, key_of, count, out_unique, out_first, out_later, delimit, eol, write)
    except FSError:  # GNU: ``error reading FILE``, without the errno
        ctx.error(f"error reading {quoteaf(source)}")
        if output is not None:  # GNU opened (created) OUTPUT before reading
            try:
                ctx.write_bytes(output, b"".join(chunks))
            except FSError:
                pass
        return 1
    if output is not None:
        try:
            ctx.write_bytes(output, b"".join(chunks))
        except FSError as err:
            file_error(ctx, output, err)
            return 1
    return 0


def _plain_batches(ctx: CommandContext, stream: BinaryIO, key_of: Callable[[bytes], bytes] | None,
                   eol: bytes, write: Callable[[bytes], object]) -> None:
    """Plain ``uniq`` (first line of each group) a block of lines at a time: a line is kept
    when its key differs from the previous line's, found by C-level ``map``/``compress``; a
    block without two equal neighbours is written as it came."""
    prev: bytes | None = None  # the key of the line before the block
    for block, whole in line_blocks(ctx, stream, eol):
        records = block.split(eol)
        if whole:
            records.pop()
        keys = records if key_of is None else list(map(key_of, records))
        if keys[0] != prev and not any(map(operator.eq, keys, islice(keys, 1, None))):
            write(block if whole else block + eol)
        else:
            kept = list(compress(records, map(operator.ne, chain((prev,), keys), keys)))
            if kept:
                kept.append(b"")
                write(eol.join(kept))
        prev = keys[-1]


def _groups(ctx: CommandContext, stream: BinaryIO, key_of: Callable[[bytes], bytes] | None, count: bool,
            out_unique: bool, out_first: bool, eol: bytes, write: Callable[[bytes], object]) -> None:
    """``-c``, ``-d``, ``-u`` (not ``-D``) a batch of lines at a time. The lines equal to the
    line before them are found by C-level ``map``/``compress``; only those runs are looked at
    one by one, the single lines between them are written with one join per stretch (all
    ``"      1 "``-prefixed under ``-c``). The last group of a batch stays open into the next."""
    unit = b"%7d %b" + eol
    between = eol + b"      1 " if count else eol
    head = b"      1 " if count else b""
    open_line: bytes | None = None  # the first line of the group still open
    open_key: bytes | None = None
    open_count = 0
    pieces: list[bytes] = []

    def group(size: int, line: bytes) -> None:
        if size == 1:
            if out_unique:
                pieces.append(head + line + eol)
        elif out_first:
            pieces.append(unit % (size, line) if count else line + eol)

    def singles(lines: list[bytes]) -> None:
        if lines and out_unique:
            pieces.extend((head, between.join(lines), eol))

    for records, _ in iter_record_batches(ctx, stream, eol):
        keys = records if key_of is None else list(map(key_of, records))
        n = len(records)
        dups = list(compress(range(1, n), map(operator.eq, islice(keys, 1, None), keys)))
        k = 0  # dups[k:] are still to be read
        start = 0  # the first line not yet in a group
        if open_line is not None:
            if keys[0] == open_key:
                while k < len(dups) and dups[k] == k + 1:
                    k += 1
                start = k + 1
                open_count += start
                if start == n:
                    continue
            group(open_count, open_line)
        while k < len(dups):
            first = dups[k] - 1  # a run of equal lines from ``first``
            end = dups[k] + 1
            k += 1
            while k < len(dups) and dups[k] == end:
                end += 1
                k += 1
            singles(records[start:first])
            if end == n:
                start = first
                break
            group(end - first, records[first])
            start = end
        if start < n:
            if dups and dups[-1] == n - 1 and start < n - 1:
                open_line, open_key, open_count = records[start], keys[start], n - start
            else:
                singles(records[start:n - 1])
                open_line, open_key, open_count = records[n - 1], keys[n - 1], 1
        if pieces:
            write(b"".join(pieces))
            pieces.clear()
    if open_line is not None:
        group(open_count, open_line)
        if pieces:
            write(b"".join(pieces))


def _plain(lines: Iterator[bytes], key_of: Callable[[bytes], bytes] | None, grouping: str | None,
           eol: bytes, write: Callable[[bytes], object]) -> None:
    """GNU's simple loop: one line per group, or every line with group delimiters."""
    out: list[bytes] = []
    prev_key: bytes | None = None
    first_printed = False
    for line in lines:
        key = line if key_of is None else key_of(line)
        new_group = prev_key is None or key != prev_key
        if new_group and grouping is not None and (
            grouping in ("prepend", "both") or (first_printed and grouping in ("append", "separate"))
        ):
            out.append(b"")
        if new_group or grouping is not None:
            out.append(line)
            prev_key = key
            first_printed = True
        if len(out) >= 4096:
            write(eol.join(out) + eol)
            out.clear()
    if grouping in ("both", "append") and first_printed:
        out.append(b"")
    if out:
        write(eol.join(out) + eol)


def _general(lines: Iterator[bytes], key_of: Callable[[bytes], bytes] | None, count: bool,
             out_unique: bool, out_first: bool, out_later: bool, delimit: str, eol: bytes,
             write: Callable[[bytes], object]) -> None:
    """GNU's counting loop for -c, -d, -u and -D."""
    out: list[bytes] = []

    def emit(line: bytes, match: bool, linecount: int) -> None:
        wanted = out_unique if linecount == 0 else (out_later if match else out_first)
        if not wanted:
            return
        if count:
            out.append(b"%7d " % (linecount + 1) + line + eol)
        else:
            out.append(line + eol)

    iterator = iter(lines)
    prev = next(iterator, None)
    if prev is None:
        return
    prev_key = prev if key_of is None else key_of(prev)
    match_count = 0
    first_delimiter = True
    for line in iterator:
        key = line if key_of is None else key_of(line)
        match = key == prev_key
        if match:
            match_count += 1
        if delimit != "none":
            if not match:
                if match_count:
                    first_delimiter = False
            elif match_count == 1:
                if delimit == "prepend" or (delimit == "separate" and not first_delimiter):
                    out.append(eol)
        if not match or out_later:
            emit(prev, match, match_count)
            prev, prev_key = line, key
            if not match:
                match_count = 0
        if len(out) >= 4096:
            write(b"".join(out))
            out.clear()
    emit(prev, False, match_count)
    if out:
        write(b"".join(out))
