"""``paste``: merge lines of files (GNU coreutils 9.1): ``-d LIST``, ``-s``, ``-z``.

The delimiter LIST takes GNU's escapes (``\\0`` empty, ``\\\\ \\b \\f \\n \\r \\t \\v``, any other
``\\X`` is X) and is used byte by byte, cycling from its start on each output line (each file
with ``-s``). ``-`` operands share standard input, one line per slot. Files are opened before
any output (a missing one stops paste at once); a directory reads as empty with GNU's ``Is a
directory`` error. Parallel output for distinct files is assembled with C-level joins.
"""

from __future__ import annotations

import errno
import itertools

from sandbox.commands._quoting import quotef
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    short="d:sz",
    long={
        "delimiters": (REQUIRED, "d"),
        "serial": (NO_ARG, "s"),
        "zero-terminated": (NO_ARG, "z"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

HELP = """Usage: paste [OPTION]... [FILE]...
Write lines consisting of the sequentially corresponding lines from
each FILE, separated by TABs, to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -d, --delimiters=LIST   reuse characters from LIST instead of TABs
  -s, --serial            paste one file at a time instead of in parallel
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
"""

VERSION = """paste (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by David M. Ihnat and David MacKenzie."""
_ESCAPES = {ord("b"): b"\b", ord("f"): b"\f", ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t",
            ord("v"): b"\v", ord("\\"): b"\\", ord("0"): b""}
_C_ESCAPES = {7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v", 34: '\\"', 92: "\\\\"}


class DelimiterError(Exception):
    """A delimiter list ending with an unescaped backslash."""


def parse_delimiters(raw: bytes) -> list[bytes]:
    """GNU ``collapse_escapes``: the list of delimiters (``b""`` for ``\\0``)."""
    out: list[bytes] = []
    i = 0
    while i < len(raw):
        c = raw[i]
        if c == 0x5C:
            if i + 1 >= len(raw):
                raise DelimiterError()
            nxt = raw[i + 1]
            out.append(_ESCAPES.get(nxt, bytes([nxt])))
            i += 2
        else:
            out.append(bytes([c]))
            i += 1
    return out


def c_maybe_quote(raw: bytes) -> str:
    """gnulib's ``c_maybe_quoting_style``: as is, or in double quotes with C escapes when some
    byte needs one (a backslash alone does not)."""
    text = raw.decode("utf-8", "surrogateescape")
    pieces: list[str] = []
    needed = False
    for ch in text:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:
            pieces.append(f"\\{code - 0xDC00:03o}")
            needed = True
        elif code in _C_ESCAPES:
            pieces.append(_C_ESCAPES[code])
            needed = needed or code != 92
        elif code < 32 or code == 127 or (0x80 <= code < 0xA0):
            for byte in ch.encode("utf-8"):
                pieces.append(f"\\{byte:03o}")
            needed = True
        else:
            pieces.append(ch)
    return f'"{"".join(pieces)}"' if needed else text


def _lines(data: bytes, eol: bytes) -> list[bytes]:
    if not data:
        return []
    lines = data.split(eol)
    if lines[-1] == b"":
        lines.pop()
    return lines


def run(ctx: CommandContext) -> int:
    """Paste the inputs side by side (or one after another with ``-s``)."""
    parsed = parse_command_line(ctx, SPEC, HELP, version=VERSION)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    delim_text = b"\t"
    serial = False
    eol = b"\n"
    for key, value in opts:
        if key == "d":
            delim_text = (value or "").encode("utf-8", "surrogateescape")
        elif key == "s":
            serial = True
        elif key == "z":
            eol = b"\0"
    try:
        delims = parse_delimiters(delim_text) or [b""]
    except DelimiterError:
        ctx.error(f"delimiter list ends with an unescaped backslash: {c_maybe_quote(delim_text)}")
        return 1
    operands = operands or ["-"]
    status = 0
    contents: list[bytes | None] = []
    read_ok: dict[str, bytes] = {}
    # Read errors (a directory, ``paste < dir``), reported in operand order after every file
    # is open, as GNU's reads come after its opens; the input then counts as empty.
    read_errors: dict[int, str] = {}
    for operand in operands:
        if operand == "-":
            contents.append(None)
            continue
        if operand in read_ok:
            contents.append(read_ok[operand])  # a file named twice is read once
            continue
        try:
            contents.append(ctx.read_bytes(operand))
            read_ok[operand] = contents[-1]
        except FSError as err:
            if err.errno != errno.EISDIR:
                ctx.error(f"{quotef(operand)}: {err}")
                return 1
            read_errors[len(contents)] = f"{quotef(operand)}: {err}"
            status = 1
            contents.append(b"")
    stdin_lines: list[bytes] | None = None
    if any(c is None for c in contents):
        try:
            stdin_lines = _lines(ctx.stdin.read(), eol)
        except FSError as err:
            stdin_lines = []
            for i, c in enumerate(contents):
                if c is None:
                    read_errors[i] = f"-: {err}"
            status = 1
    for i in sorted(read_errors):
        ctx.error(read_errors[i])
    if serial:
        _serial(ctx, contents, stdin_lines, delims, eol)
    else:
        _parallel(ctx, contents, stdin_lines, delims, eol)
    return status


def _serial(ctx: CommandContext, contents: list[bytes | None], stdin_lines: list[bytes] | None,
            delims: list[bytes], eol: bytes) -> None:
    for data in contents:
        if data is None:
            lines, stdin_lines = stdin_lines or [], []
        else:
            lines = _lines(data, eol)
        if len(set(delims)) == 1:
            ctx.stdout.write(delims[0].join(lines) + eol)
        else:
            pieces = itertools.chain.from_iterable(zip(lines, itertools.cycle(delims)))
            body = list(pieces)
            if body:
                body.pop()
            ctx.stdout.write(b"".join(body) + eol)
        ctx.budget.check_time()


def _parallel(ctx: CommandContext, contents: list[bytes | None], stdin_lines: list[bytes] | None,
              delims: list[bytes], eol: bytes) -> None:
    columns: list[list[bytes]] = []
    stdin_slots = [i for i, c in enumerate(contents) if c is None]
    split_cache: dict[int, list[bytes]] = {}
    for data in contents:
        if data is None:
            columns.append([])
            continue
        key = id(data)
        if key not in split_cache:  # the same file named twice is split once (lists are not mutated)
            split_cache[key] = _lines(data, eol)
        columns.append(split_cache[key])
    if stdin_slots and stdin_lines:
        k = len(stdin_slots)
        for j, slot in enumerate(stdin_slots):
            columns[slot] = stdin_lines[j::k]
    rows = max((len(c) for c in columns), default=0)
    if rows == 0:
        return
    columns = [col if len(col) == rows else col + [b""] * (rows - len(col)) for col in columns]
    n = len(columns)
    seps = [delims[i % len(delims)] for i in range(n - 1)]
    if n == 1:
        ctx.stdout.write(eol.join(columns[0]) + eol)
        return
    step = 1 << 15  # rows per write: small joins stay in cache
    for start in range(0, rows, step):
        streams: list = []
        end = min(rows, start + step)
        for i, col in enumerate(columns):
            streams.append(col[start:end])
            streams.append(itertools.repeat(seps[i] if i < n - 1 else eol, end - start))
        ctx.stdout.write(b"".join(itertools.chain.from_iterable(zip(*streams))))
        ctx.budget.check_time()
