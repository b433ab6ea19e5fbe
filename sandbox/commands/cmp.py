"""``cmp``: compare two files byte by byte (GNU diffutils 3.8).

Usage ``cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]``; options ``-b``, ``-i SKIP[:SKIP2]``,
``-l``, ``-n LIMIT``, ``-s``; SKIP and LIMIT take C-style bases and GNU's ``kB K MB M ...``
suffixes. Messages and statuses are diffutils': ``A B differ: byte N, line M`` (with ``-b``
``is OOO C OOO C``), ``cmp: EOF on A after byte N, line M`` / ``..., in line M`` / ``... which is
empty``, exit 0 same, 1 different, 2 trouble. Comparison works on whole blocks and finds the
first difference with a binary search over slices, so large equal stretches cost C speed.
"""

from __future__ import annotations

import errno

from sandbox.commands._numbers import CountError, parse_count
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, UsageError, parse
from sandbox.fs.base import FSError
from sandbox.fs.vfs import ENDLESS

SPEC = OptionSpec(
    short="bci:ln:sv",
    long={
        "print-bytes": (NO_ARG, "b"),
        "print-chars": (NO_ARG, "b"),
        "ignore-initial": (REQUIRED, "i"),
        "verbose": (NO_ARG, "l"),
        "bytes": (REQUIRED, "n"),
        "quiet": (NO_ARG, "s"),
        "silent": (NO_ARG, "s"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "v"),
    },
)

HELP = """Usage: cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]
Compare two files byte by byte.

The optional SKIP1 and SKIP2 specify the number of bytes to skip
at the beginning of each file (zero by default).

Mandatory arguments to long options are mandatory for short options too.
  -b, --print-bytes          print differing bytes
  -i, --ignore-initial=SKIP         skip first SKIP bytes of both inputs
  -i, --ignore-initial=SKIP1:SKIP2  skip first SKIP1 bytes of FILE1 and
                                      first SKIP2 bytes of FILE2
  -l, --verbose              output byte numbers and differing byte values
  -n, --bytes=LIMIT          compare at most LIMIT bytes
  -s, --quiet, --silent      suppress all normal output
      --help                 display this help and exit
  -v, --version              output version information and exit

SKIP values may be followed by the following multiplicative suffixes:
kB 1000, K 1024, MB 1,000,000, M 1,048,576,
GB 1,000,000,000, G 1,073,741,824, and so on for T, P, E, Z, Y.

If a FILE is '-' or missing, read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.
"""

VERSION = """cmp (GNU diffutils) 3.8
Copyright (C) 2021 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Torbj\u00f6rn Granlund and David MacKenzie."""
OFF_MAX = (1 << 63) - 1
_SUFFIXES = "kKMGTPEZY0"


class _Trouble(Exception):
    """A usage error: ``str()`` is the message (status 2 with the Try line)."""


def _try(message: str) -> _Trouble:
    return _Trouble(message)


def parse_number(text: str, what: str) -> int:
    """``xstrtoumax(text, base 0, "kKMGTPEZY0")``: bases 8/10/16 and GNU's suffixes."""
    body = text.lstrip(" \t\n\v\f\r")
    sign = ""
    if body.startswith("+"):
        sign, body = "+", body[1:]
    if body[:2] in ("0x", "0X") and body[2:3] and body[2:3] in "0123456789abcdefABCDEF":
        k = 2
        while k < len(body) and body[k] in "0123456789abcdefABCDEF":
            k += 1
        body = str(int(body[2:k], 16)) + body[k:]
    elif body.startswith("0") and len(body) > 1 and body[1] in "01234567":
        k = 1
        while k < len(body) and body[k] in "01234567":
            k += 1
        body = str(int(body[1:k], 8)) + body[k:]
    try:
        return parse_count(sign + body, _SUFFIXES)
    except CountError:
        raise _try(f"invalid {what} value '{text}'") from None


def _skip_value(text: str) -> int:
    value = parse_number(text, "--ignore-initial")
    if value > OFF_MAX:
        raise _try(f"invalid --ignore-initial value '{text}'")
    return value


def sprintc(c: int) -> str:
    """diffutils' printable form of a byte: ``^X``, ``M-X``, ``^?``."""
    out = ""
    if c >= 128:
        out = "M-"
        c -= 128
    if c < 32:
        return out + "^" + chr(c + 64)
    if c == 127:
        return out + "^?"
    return out + chr(c)


def run(ctx: CommandContext) -> int:
    """Compare two inputs."""
    try:
        return _run(ctx)
    except _Trouble as err:
        ctx.error(str(err))
        ctx.error("Try 'cmp --help' for more information.")
        return 2


def _run(ctx: CommandContext) -> int:
    try:
        opts, operands = parse(SPEC, ctx.args)
    except UsageError as err:
        raise _try(str(err).replace("‘", "'").replace("’", "'")) from None
    mode = "first"
    print_bytes = False
    skips = [0, 0]
    limit = OFF_MAX
    for key, value in opts:
        if key == "help":
            ctx.stdout.write(HELP.encode())
            return 0
        if key == "v":
            ctx.stdout.write(f"{VERSION}\n".encode())
            return 0
        if key in "bc":
            print_bytes = True
        elif key == "i":
            text = value or ""
            first, colon, second = text.partition(":")
            if not first and colon:
                raise _try(f"invalid --ignore-initial value '{text}'")
            one = _skip_value(first)
            two = _skip_value(second) if colon else one
            skips[0], skips[1] = max(skips[0], one), max(skips[1], two)  # diffutils keeps the largest
        elif key == "l":
            if mode == "status":
                raise _try("options -l and -s are incompatible")
            mode = "all"
        elif key == "n":
            limit = min(parse_number(value or "", "--bytes"), OFF_MAX)
        elif key == "s":
            if mode == "all":
                raise _try("options -l and -s are incompatible")
            mode = "status"
    if not operands:
        raise _try("missing operand after 'cmp'")
    names = [operands[0], operands[1] if len(operands) > 1 else "-"]
    for k in (0, 1):
        if len(operands) > 2 + k:
            skips[k] = max(skips[k], _skip_value(operands[2 + k]))
    if len(operands) > 4:
        raise _try(f"extra operand '{operands[4]}'")
    # GNU opens both operands before reading either: a missing second file is reported
    # before a first one that cannot be read (``cmp - x < dir``), and a directory opens.
    opened: list[object] = []
    try:
        for name in names:
            if name == "-":
                opened.append(None)
                continue
            try:
                opened.append(ctx.open_read(name))
            except FSError as err:
                if err.errno != errno.EISDIR:
                    if mode != "status":  # -s: a file that can't be opened exits 2 silently
                        ctx.error(f"{name}: {err}")
                    return 2
                opened.append(err)  # its read fails (below)
        if skips[0] == skips[1] and _same_file(ctx, names[0], names[1]):
            return 0
        datas: list[bytes] = [b"", b""]
        stdin_data: bytes | None = None
        # An endless device (/dev/zero) is read last, only as far as a difference can be.
        endless = [_is_endless(ctx, name) for name in names]
        for k in sorted((0, 1), key=lambda k: endless[k]):
            name, stream = names[k], opened[k]
            try:
                if isinstance(stream, FSError):
                    raise stream
                if stream is not None:
                    cap = skips[k] + limit if limit < OFF_MAX else -1
                    if endless[k] and not endless[1 - k]:
                        other = max(0, len(datas[1 - k]) - skips[1 - k]) + 1
                        cap = skips[k] + min(other, limit)
                    datas[k] = stream.read(cap)
                elif stdin_data is None:
                    stdin_data = ctx.stdin.read()
                    datas[k] = stdin_data
            except FSError as err:
                ctx.error(f"{name}: {err}")
                return 2
    finally:
        for stream in opened:
            if stream is not None and not isinstance(stream, FSError):
                stream.close()
    a = datas[0][skips[0]:]
    b = datas[1][skips[1]:]
    if limit < len(a):
        a = a[:limit]
    if limit < len(b):
        b = b[:limit]
    return _compare(ctx, names, a, b, mode, print_bytes, limit, [_unsized(ctx, n) for n in names])


def _unsized(ctx: CommandContext, name: str) -> bool:
    """Whether ``name`` is not a regular file (a pipe, a device): GNU's ``-l`` column width
    counts only regular files' sizes. ``-`` is what fd 0 reads (a pipe unless redirected)."""
    if name == "-":
        name = getattr(ctx.stdin, "redirected_from", None) or ""
        if not name:
            return True
    try:
        return not ctx.stat(name).is_file or _is_endless(ctx, name)
    except FSError:
        return True


def _is_endless(ctx: CommandContext, name: str) -> bool:
    """True when the operand is ``/dev/zero``, ``/dev/random`` or ``/dev/urandom``."""
    try:
        return name != "-" and ctx.path(name) in ENDLESS
    except FSError:
        return False


def _same_file(ctx: CommandContext, a: str, b: str) -> bool:
    """True when both operands name the same file (GNU compares no bytes then)."""
    if a == "-" or b == "-":
        return a == b
    try:
        return ctx.path(a) == ctx.path(b)
    except FSError:
        return False


def _first_difference(a: bytes, b: bytes, start: int, end: int) -> int:
    """Index of the first byte in [start, end) where ``a`` and ``b`` differ, or ``end``."""
    step = 1 << 16
    pos = start
    while pos < end:
        stop = min(pos + step, end)
        if a[pos:stop] != b[pos:stop]:
            lo, hi = pos, stop
            while hi - lo > 64:
                mid = (lo + hi) // 2
                if a[lo:mid] != b[lo:mid]:
                    hi = mid
                else:
                    lo = mid
            for k in range(lo, hi):
                if a[k] != b[k]:
                    return k
        pos = stop
    return end


def _compare(ctx: CommandContext, names: list[str], a: bytes, b: bytes, mode: str, print_bytes: bool,
             limit: int, pipes: list[bool]) -> int:
    common = min(len(a), len(b))
    first = _first_difference(a, b, 0, common)
    status = 0
    if first < common:
        status = 1
        if mode == "status":
            return 1
        if mode == "first":
            line = a.count(b"\n", 0, first) + 1
            msg = f"{names[0]} {names[1]} differ: byte {first + 1}, line {line}"
            if print_bytes:
                c0, c1 = a[first], b[first]
                msg += f" is {c0:3o} {sprintc(c0)} {c1:3o} {sprintc(c1)}"
            ctx.stdout.write((msg + "\n").encode("utf-8", "surrogateescape"))
            return 1
        width_max = limit
        for k, data in enumerate((a, b)):
            if not pipes[k]:
                width_max = min(width_max, len(data))
        width = len(str(width_max))
        out: list[str] = []
        pos = first
        while pos < common:
            c0, c1 = a[pos], b[pos]
            if print_bytes:
                out.append(f"{pos + 1:>{width}} {c0:3o} {sprintc(c0):<4} {c1:3o} {sprintc(c1)}\n")
            else:
                out.append(f"{pos + 1:>{width}} {c0:3o} {c1:3o}\n")
            if len(out) >= 4096:
                ctx.stdout.write("".join(out).encode("utf-8", "surrogateescape"))
                out.clear()
                ctx.budget.check_time()
            pos = _first_difference(a, b, pos + 1, common)
        ctx.stdout.write("".join(out).encode("utf-8", "surrogateescape"))
    if len(a) != len(b):
        if mode != "status":
            short = 0 if len(a) < len(b) else 1
            data = a if short == 0 else b
            name = names[short]
            if not data:
                msg = f"cmp: EOF on {name} which is empty"
            elif mode == "all":
                msg = f"cmp: EOF on {name} after byte {len(data)}"
            else:
                lines = data.count(b"\n")
                where = f"line {lines}" if data.endswith(b"\n") else f"in line {lines + 1}"
                msg = f"cmp: EOF on {name} after byte {len(data)}, {where}"
            ctx.stderr.write((msg + "\n").encode("utf-8", "surrogateescape"))
        return 1
    return status
