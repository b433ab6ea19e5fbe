"""``cut``: print selected bytes, characters or fields of each line (GNU coreutils 9.1).

Options: ``-b LIST``, ``-c LIST`` (bytes, as GNU 9.1 does), ``-f LIST``, ``-d DELIM``, ``-s``,
``--complement``, ``--output-delimiter=STRING``, ``-z``, ``-n`` (ignored). LIST is GNU's: comma
or blank separated ``N``, ``N-``, ``-M``, ``N-M``; overlapping ranges merge, adjacent ones stay
apart (so ``--output-delimiter`` is printed between them, as GNU does). Input is streamed.
"""

from __future__ import annotations

import operator
import re
import sys

from itertools import repeat
from typing import BinaryIO, Callable

from sandbox._native import linescan
from sandbox.commands._lineblocks import line_blocks
from sandbox.commands._quoting import quote
from sandbox.commands._textutil import file_error, iter_record_batches, open_operand
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

#: What ``--version`` prints (GNU's text).
VERSION = """cut (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by David M. Ihnat, David MacKenzie, and Jim Meyering."""

SPEC = OptionSpec(
    short="b:c:d:f:nsz",
    long={
        "version": (NO_ARG, "version"),
        "bytes": (REQUIRED, "b"),
        "characters": (REQUIRED, "c"),
        "delimiter": (REQUIRED, "d"),
        "fields": (REQUIRED, "f"),
        "only-delimited": (NO_ARG, "s"),
        "zero-terminated": (NO_ARG, "z"),
        "complement": (NO_ARG, "complement"),
        "output-delimiter": (REQUIRED, "output-delimiter"),
    },
)

#: Open-ended upper bound of a range (``N-``).
END = 1 << 64
_MAX_VALUE = (1 << 64) - 1


class ListError(Exception):
    """A LIST that GNU refuses; ``str()`` is GNU's message."""



HELP = '''Usage: cut OPTION... [FILE]...
Print selected parts of lines from each FILE to standard output.

  -b, --bytes=LIST        select only these bytes
  -c, --characters=LIST   select only these characters (bytes, as GNU cut 9.1)
  -d, --delimiter=DELIM   use DELIM instead of TAB for field delimiter
  -f, --fields=LIST       select only these fields
  -n                      (ignored)
      --complement        complement the set of selected bytes, characters or fields
  -s, --only-delimited    do not print lines not containing delimiters
      --output-delimiter=STRING  use STRING as the output delimiter
  -z, --zero-terminated   line delimiter is NUL, not newline

LIST is one or more ranges separated by commas: N, N-, N-M, -M.
'''

def parse_list(spec: str, positions: bool) -> list[tuple[int, int]]:
    """Parse a LIST into sorted, overlap-merged 1-based inclusive ranges (GNU's set_fields)."""
    what_from_1 = "byte/character positions are numbered from 1" if positions else "fields are numbered from 1"
    ranges: list[tuple[int, int]] = []
    value = 0
    lhs = rhs = dash = in_digits = False
    initial = 0
    num_start = 0
    i = 0
    text = spec + "\0"
    while True:
        ch = text[i]
        if ch == "-":
            in_digits = False
            if dash:
                raise ListError("invalid byte or character range" if positions else "invalid field range")
            dash = True
            if lhs and not value:
                raise ListError(what_from_1)
            initial = value if lhs else 1
            value = 0
        elif ch in ", \t\0":
            in_digits = False
            if dash:
                dash = False
                if not lhs and not rhs:
                    raise ListError("invalid range with no endpoint: -")
                if not rhs:
                    ranges.append((initial, END))
                else:
                    if value < initial:
                        raise ListError("invalid decreasing range")
                    ranges.append((initial, value))
                value = 0
            else:
                if value == 0:
                    raise ListError(what_from_1)
                ranges.append((value, value))
                value = 0
            if ch == "\0" and i == len(text) - 1:
                break
            lhs = rhs = False
        elif "0" <= ch <= "9":
            if not in_digits:
                num_start = i
            in_digits = True
            if dash:
                rhs = True
            else:
                lhs = True
            value = value * 10 + ord(ch) - 48
            if value >= _MAX_VALUE:
                end = num_start
                while end < len(spec) and "0" <= spec[end] <= "9":
                    end += 1
                number = quote(spec[num_start:end])
                raise ListError(
                    f"byte/character offset {number} is too large" if positions
                    else f"field number {number} is too large"
                )
        else:
            rest = quote(spec[i:])
            raise ListError(
                f"invalid byte/character position {rest}" if positions else f"invalid field value {rest}"
            )
        i += 1
    ranges.sort()
    merged: list[tuple[int, int]] = []
    for lo, hi in ranges:
        if merged and lo <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged


def complement(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """GNU's complement_rp: the gaps between (and around) ``ranges``."""
    out: list[tuple[int, int]] = []
    if ranges[0][0] > 1:
        out.append((1, ranges[0][0] - 1))
    for prev, cur in zip(ranges, ranges[1:]):
        if prev[1] + 1 == cur[0]:
            continue
        out.append((prev[1] + 1, cur[0] - 1))
    if ranges[-1][1] < END:
        out.append((ranges[-1][1] + 1, END))
    return out


def _byte_cutter(ranges: list[tuple[int, int]], out_delim: bytes | None) -> Callable[[bytes], bytes]:
    slices = [slice(lo - 1, None if hi >= END else hi) for lo, hi in ranges]
    cutter: Callable[[bytes], bytes]
    if len(slices) == 1:
        only = slices[0]
        cutter = lambda line: line[only]  # noqa: E731
        cutter.slice = only  # type: ignore[attr-defined]
    elif out_delim is None:
        cutter = lambda line: b"".join([line[s] for s in slices])  # noqa: E731
    else:
        cutter = lambda line: out_delim.join([piece for piece in (line[s] for s in slices) if piece])  # noqa: E731
    # what the C accelerator's cut_slices takes for the same cut (hi -1: to the end; no line
    # reaches sys.maxsize, so larger bounds mean the end)
    cutter.native = (tuple((min(s.start, sys.maxsize), -1 if s.stop is None or s.stop > sys.maxsize  # type: ignore[attr-defined]
                            else s.stop) for s in slices), out_delim if len(slices) > 1 else None)
    return cutter


def _field_cutter(ranges: list[tuple[int, int]], delim: bytes, out_delim: bytes) -> Callable[[bytes], bytes]:
    if len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        index = ranges[0][0]

        def single(line: bytes) -> bytes:
            if index > len(line) + 1:
                return b""
            parts = line.split(delim, index)
            return parts[index - 1] if len(parts) >= index else b""

        single.field_index = index  # type: ignore[attr-defined]
        return single
    slices = [slice(lo - 1, None if hi >= END else hi) for lo, hi in ranges]
    last_needed = None if any(hi >= END for _, hi in ranges) else min(max(hi for _, hi in ranges), 1 << 62)

    def many(line: bytes) -> bytes:
        parts = line.split(delim) if last_needed is None else line.split(delim, last_needed)
        if last_needed is not None and len(parts) > last_needed:
            parts.pop()
        chosen: list[bytes] = []
        for s in slices:
            chosen.extend(parts[s])
        return out_delim.join(chosen)

    return many


def run(ctx: CommandContext) -> int:
    """Cut each input line."""
    parsed = parse_command_line(ctx, SPEC, HELP, version=VERSION, early_help=True)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    mode: str | None = None
    spec_list = ""
    delim: bytes | None = None
    out_delim: bytes | None = None
    only_delimited = False
    do_complement = False
    eol = b"\n"
    for key, value in opts:
        if key in "bcf":
            if mode is not None:
                return ctx.usage_error("only one list may be specified")
            mode = "f" if key == "f" else "b"
            spec_list = value or ""
        elif key == "d":
            raw = (value or "").encode("utf-8", "surrogateescape")
            if len(raw) > 1:
                return ctx.usage_error("the delimiter must be a single character")
            delim = raw or b"\0"
        elif key == "s":
            only_delimited = True
        elif key == "z":
            eol = b"\0"
        elif key == "complement":
            do_complement = True
        elif key == "output-delimiter":
            raw = (value or "").encode("utf-8", "surrogateescape")
            out_delim = raw or b"\0"
    if mode is None:
        return ctx.usage_error("you must specify a list of bytes, characters, or fields")
    if delim is not None and mode != "f":
        return ctx.usage_error("an input delimiter may be specified only when operating on fields")
    if only_delimited and mode != "f":
        return ctx.usage_error("suppressing non-delimited lines makes sense\n\tonly when operating on fields")
    try:
        ranges = parse_list(spec_list, positions=mode == "b")
    except ListError as err:
        return ctx.usage_error(str(err))
    if do_complement:
        ranges = complement(ranges)
    in_delim = delim if delim is not None else b"\t"
    if mode == "f":
        cutter = _field_cutter(ranges, in_delim, out_delim if out_delim is not None else in_delim) if ranges else (lambda line: b"")
    else:
        cutter = _byte_cutter(ranges, out_delim) if ranges else (lambda line: b"")
    native = getattr(linescan(), "cut_slices", None) if mode == "b" else None
    status = 0
    for operand in operands or ["-"]:
        try:
            stream = open_operand(ctx, operand)
        except FSError as err:
            file_error(ctx, operand, err)
            status = 1
            continue
        with stream:
            try:
                if mode == "f" and in_delim == eol:
                    first = any(lo <= 1 <= hi for lo, hi in ranges)
                    _cut_one_record(ctx, stream, cutter, in_delim, only_delimited, first)
                elif native is not None and hasattr(cutter, "native"):
                    _cut_bytes_native(ctx, stream, cutter, native, eol)
                else:
                    _cut_stream(ctx, stream, cutter, mode == "f", in_delim, only_delimited, eol)
            except FSError as err:
                file_error(ctx, operand, err)
                status = 1
    return status


def _cut_stream(ctx: CommandContext, stream: BinaryIO, cutter: Callable[[bytes], bytes], fields: bool,
                delim: bytes, only_delimited: bool, eol: bytes) -> None:
    """Cut every record of ``stream`` and write the results."""
    index = getattr(cutter, "field_index", None) if fields else None
    if index == 1 and not only_delimited:
        _cut_first_field(ctx, stream, delim, eol)
        return
    for records, _ in iter_record_batches(ctx, stream, eol):
        if index is not None:
            # One field (-fN): a batch at a time, each line split by C-level map. A line
            # without the delimiter splits into itself alone: printed whole (field 1 of it),
            # or dropped under -s.
            i = index - 1
            joined = eol.join(records)
            if delim not in joined:  # no record has a second field: all whole, or none
                if not only_delimited:
                    ctx.stdout.write(joined)
                    ctx.stdout.write(eol)
                continue
            if only_delimited:
                split = map(bytes.split, records, repeat(delim), repeat(min(index, 1 << 62)))
                out = [p[i] if len(p) > i else b"" for p in split if len(p) > 1]
            else:
                split = map(bytes.split, records, repeat(delim), repeat(min(index, 1 << 62)))
                if i == 0:
                    out = [p[0] for p in split]
                else:
                    out = [p[i] if len(p) > i else (p[0] if len(p) == 1 else b"") for p in split]
        elif fields:
            out = []
            for line in records:
                if delim in line:
                    out.append(cutter(line))
                elif not only_delimited:
                    out.append(line)
        elif hasattr(cutter, "slice"):
            out = list(map(operator.getitem, records, repeat(cutter.slice)))  # type: ignore[attr-defined]
        else:
            out = [cutter(line) for line in records]
        if out:
            ctx.stdout.write(eol.join(out) + eol)


def _cut_bytes_native(ctx: CommandContext, stream: BinaryIO, cutter: Callable[[bytes], bytes],
                      cut_slices: Callable[..., bytes], eol: bytes) -> None:
    """-b/-c with the C accelerator: a block of whole lines at a time; an unterminated last
    line through the Python cutter (it gets its newline, as GNU's)."""
    slices, out_delim = cutter.native  # type: ignore[attr-defined]
    for block, whole in line_blocks(ctx, stream, eol):
        ctx.stdout.write(cut_slices(block, eol[0], slices, out_delim) if whole else cutter(block) + eol)


def _cut_first_field(ctx: CommandContext, stream: BinaryIO, delim: bytes, eol: bytes) -> None:
    """``-f1`` (without ``-s``): each record loses everything from its first delimiter, one
    ``re.sub`` with an empty replacement per block (a record without the delimiter is
    field 1 whole, as GNU prints it)."""
    rest = re.compile(re.escape(delim) + b"[^" + re.escape(eol) + b"]*")
    for block, whole in line_blocks(ctx, stream, eol):
        cut = rest.sub(b"", block)
        ctx.stdout.write(cut if whole else cut + eol)


def _cut_one_record(ctx: CommandContext, stream: BinaryIO, cutter: Callable[[bytes], bytes],
                    delim: bytes, only_delimited: bool, first_selected: bool) -> None:
    """Fields when the delimiter is the line terminator (``-d $'\\n'``): as GNU, the whole
    input is one record whose fields are its lines; input with no terminator at all is an
    undelimited line."""
    chunks: list[bytes] = []
    size = 0
    while True:
        block = stream.read(1 << 16)
        if not block:
            break
        size += len(block)
        ctx.budget.check_string(size)
        ctx.budget.check_time()
        chunks.append(block)
    data = b"".join(chunks)
    if not data:
        return
    if delim not in data:
        if not only_delimited:
            ctx.stdout.write(data + delim)
        return
    record = data[:-1] if data.endswith(delim) else data
    if delim in record:
        ctx.stdout.write(cutter(record) + delim)
        return
    # One field, delimited by the terminator itself: only field 1 can be selected.
    if first_selected:
        ctx.stdout.write(record + delim)
    elif not only_delimited:
        ctx.stdout.write(delim)
