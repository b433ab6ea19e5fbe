"""``tac``: write each FILE last record first (GNU coreutils 9.1): ``-b``, ``-r``, ``-s SEP``.

Records are found from the end backwards, as GNU does: each separator match must lie wholly
before the start of the one found after it, so overlapping separators (``-s XX`` over ``XXX``)
and regular expressions (``-r``, GNU's Emacs syntax: ``+ ?`` operators, ``\\| \\( \\)``,
literal braces) split exactly as GNU's. Without ``-b`` a separator ends its record, with it the
separator starts the next one. Each file is reversed on its own.
"""

from __future__ import annotations

import errno

from sandbox.commands._quoting import quoteaf, quotef
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError
from sandbox.regex import Regex, RegexError, compile_regex

SPEC = OptionSpec(
    short="brs:",
    long={
        "before": (NO_ARG, "b"),
        "regex": (NO_ARG, "r"),
        "separator": (REQUIRED, "s"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

HELP = """Usage: tac [OPTION]... [FILE]...
Write each FILE to standard output, last line first.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --before             attach the separator before instead of after
  -r, --regex              interpret the separator as a regular expression
  -s, --separator=STRING   use STRING as the separator instead of newline
      --help        display this help and exit
      --version     output version information and exit
"""

VERSION = """tac (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Jay Lepreau and David MacKenzie."""


def emacs_to_ere(pattern: bytes) -> bytes:
    """Rewrite a GNU Emacs-syntax regular expression (what ``re_compile_pattern`` reads by
    default: ``+ ?`` operators, ``\\( \\) \\|`` groups and alternation, braces and bare
    parentheses literal, ``^``/``$`` anchors only in anchor position) as the equivalent ERE."""
    out = bytearray()
    i = 0
    n = len(pattern)
    at_start = True
    while i < n:
        c = pattern[i]
        if c == 0x5C and i + 1 < n:
            nxt = pattern[i + 1]
            i += 2
            if nxt in b"()|":
                out.append(nxt)
                at_start = nxt != 0x29
                continue
            if nxt in b"wWbB<>`'123456789":
                out += bytes([0x5C, nxt])
            elif chr(nxt).isalnum() or nxt >= 0x80:
                out.append(nxt)
            else:
                out += bytes([0x5C, nxt])
            at_start = False
            continue
        if c == 0x5B:
            end = _bracket_end(pattern, i)
            out += pattern[i : end + 1]
            i = end + 1
            at_start = False
            continue
        if c in b"(){}|":
            out += bytes([0x5C, c])
        elif c in b"*+?":
            out += bytes([0x5C, c]) if at_start else bytes([c])
        elif c == 0x5E:
            out += b"^" if at_start else b"\\^"
        elif c == 0x24:
            rest = pattern[i + 1 :]
            out += b"$" if not rest or rest.startswith((b"\\)", b"\\|")) else b"\\$"
        else:
            out.append(c)
        at_start = c == 0x5E and at_start
        i += 1
    return bytes(out)


def _bracket_end(pattern: bytes, start: int) -> int:
    """Index of the ``]`` closing the bracket expression at ``start``."""
    j = start + 1
    if pattern[j : j + 1] == b"^":
        j += 1
    if pattern[j : j + 1] == b"]":
        j += 1
    while j < len(pattern):
        if pattern[j : j + 1] == b"]":
            return j
        j += 1
    raise RegexError("Unmatched [, [^, [:, [., or [=")


def _has_border(sep: bytes) -> bool:
    return any(sep[:k] == sep[-k:] for k in range(1, len(sep)))


def reverse_fixed(data: bytes, sep: bytes, before: bool) -> bytes:
    """``data``'s records, split on the fixed string ``sep``, last first."""
    return b"".join(reverse_fixed_pieces(data, sep, before))


def reverse_fixed_pieces(data: bytes, sep: bytes, before: bool, block: int = 1 << 20):
    """The output of ``reverse_fixed`` as a sequence of pieces, produced block by block from
    the end (each block whole records, split and joined in C), so memory stays small."""
    if not _has_border(sep) and not before:
        last = data.rfind(sep)
        if last < 0:
            yield data
            return
        cut = last + len(sep)
        if cut < len(data):
            yield data[cut:]
        pos = cut
        while pos > 0:
            start = 0
            if pos > block:
                start = data.rfind(sep, 0, pos - block) + len(sep)
                if start < len(sep):
                    start = 0
            parts = data[start : pos - len(sep)].split(sep)
            parts.reverse()
            yield sep.join(parts)
            yield sep
            pos = start
        return
    if not _has_border(sep):
        parts = data.split(sep)
        if len(parts) == 1:
            yield data
            return
        first = parts[0]
        del parts[0]
        parts.reverse()
        yield sep
        yield sep.join(parts)
        yield first
        return
    spans: list[tuple[int, int]] = []
    limit = len(data)
    while True:
        at = data.rfind(sep, 0, limit)
        if at < 0:
            break
        spans.append((at, at + len(sep)))
        limit = at
    yield _assemble(data, spans, before)


def reverse_regex(ctx: CommandContext, data: bytes, regex: Regex, before: bool) -> bytes:
    """``data``'s records, split on matches of ``regex`` found backwards, last first.

    As GNU's ``re_search`` over the text before the previous match, each try sees the text
    only up to that match (so ``$`` matches there); the window of text handed to the matcher
    grows from the limit backwards, so the cost stays near the distance between matches.
    """
    spans: list[tuple[int, int]] = []
    limit = len(data)
    pos = limit - 1
    window_start, window_end, window = 0, -1, b""
    size = 256
    steps = 0
    while pos >= 0:
        if window_end != limit or (pos <= window_start and window_start > 0):
            if window_end != limit:
                size = 256
            window_start, window_end = max(0, pos - size), limit
            window = data[window_start:limit]
            size *= 2
        m = regex.match(window, pos - window_start)
        if m is not None:
            spans.append((pos, m.end() + window_start))
            limit = pos
        pos -= 1
        steps += 1
        if steps & 1023 == 0:
            ctx.budget.check_time()
    return _assemble(data, spans, before)


def _assemble(data: bytes, spans: list[tuple[int, int]], before: bool) -> bytes:
    """Join the records that the separator ``spans`` (rightmost first) delimit, last first."""
    out: list[bytes] = []
    past = len(data)
    for start, end in spans:
        cut = start if before else end
        out.append(data[cut:past])
        past = cut
    out.append(data[:past])
    return b"".join(out)


def run(ctx: CommandContext) -> int:
    """Reverse the records of each input."""
    parsed = parse_command_line(ctx, SPEC, HELP, version=VERSION)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    before = use_regex = False
    sep = b"\n"
    for key, value in opts:
        if key == "b":
            before = True
        elif key == "r":
            use_regex = True
        elif key == "s":
            sep = (value or "").encode("utf-8", "surrogateescape")
    regex = None
    if use_regex:
        if not sep:
            ctx.error("separator cannot be empty")
            return 1
        try:
            regex = compile_regex(emacs_to_ere(sep), extended=True, multiline=True, budget=ctx.budget)
        except RegexError as err:
            ctx.error(str(err))
            return 1
    status = 0
    sep = sep or b"\0"  # GNU 9.1: an empty fixed separator is the NUL byte
    for operand in operands or ["-"]:
        try:
            if operand == "-":
                data = ctx.stdin.read()
            else:
                data = ctx.read_bytes(operand)
        except FSError as err:
            if err.errno == errno.EISDIR:  # GNU names stdin 'standard input' here
                name = "standard input" if operand == "-" else operand
                ctx.error(f"{quotef(name)}: read error: Invalid argument")
            else:
                ctx.error(f"failed to open {quoteaf(operand)} for reading: {err}")
            status = 1
            continue
        if regex is not None:
            ctx.stdout.write(reverse_regex(ctx, data, regex, before))
        else:
            for piece in reverse_fixed_pieces(data, sep, before):
                ctx.stdout.write(piece)
                ctx.budget.check_time()
    return status
