"""``comm``: compare two sorted files line by line (GNU coreutils 9.1).

Options: ``-1 -2 -3``, ``--check-order``, ``--nocheck-order``, ``--output-delimiter=STR``
(empty means a NUL byte, as GNU), ``--total``, ``-z``. Lines compare as bytes (C.UTF-8's
code-point order); without ``--check-order`` disorder is only looked for once an unpairable line
has been seen, warned about once per file and reported at the end (exit 1), as GNU does.
"""

from __future__ import annotations

from sandbox.commands._quoting import quote, quotef
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    short="123z",
    long={
        "check-order": (NO_ARG, "check-order"),
        "nocheck-order": (NO_ARG, "nocheck-order"),
        "output-delimiter": (REQUIRED, "output-delimiter"),
        "total": (NO_ARG, "total"),
        "zero-terminated": (NO_ARG, "z"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

HELP = """Usage: comm [OPTION]... FILE1 FILE2
Compare sorted files FILE1 and FILE2 line by line.

When FILE1 or FILE2 (not both) is -, read standard input.

With no options, produce three-column output.  Column one contains
lines unique to FILE1, column two contains lines unique to FILE2,
and column three contains lines common to both files.

  -1                      suppress column 1 (lines unique to FILE1)
  -2                      suppress column 2 (lines unique to FILE2)
  -3                      suppress column 3 (lines that appear in both files)

      --check-order       check that the input is correctly sorted, even
                            if all input lines are pairable
      --nocheck-order     do not check that the input is correctly sorted
      --output-delimiter=STR  separate columns with STR
      --total             output a summary
  -z, --zero-terminated   line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Note, comparisons honor the rules specified by 'LC_COLLATE'.

Examples:
  comm -12 file1 file2  Print only lines present in both file1 and file2.
  comm -3 file1 file2  Print lines in file1 not in file2, and vice versa.
"""

VERSION = """comm (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Richard M. Stallman and David MacKenzie."""


def split_lines(data: bytes, eol: bytes) -> list[bytes]:
    """Records of ``data`` without their terminator (a last one may lack it)."""
    if not data:
        return []
    lines = data.split(eol)
    if lines[-1] == b"":
        lines.pop()
    return lines


def read_operands(ctx: CommandContext, names: list[str]) -> list[bytes] | None:
    """Contents of the two operands (``-`` is stdin, read once), or None after an error."""
    out: list[bytes] = []
    stdin_used = False
    for name in names:
        try:
            if name == "-":
                out.append(b"" if stdin_used else ctx.stdin.read())
                stdin_used = True
            else:
                out.append(ctx.read_bytes(name))
        except FSError as err:
            ctx.error(f"{quotef(name)}: {err}")
            return None
    return out


def operand_error(ctx: CommandContext, operands: list[str]) -> int | None:
    """GNU's ``missing operand`` / ``extra operand`` for a two-file command, or None."""
    if len(operands) < 2:
        if not operands:
            return ctx.usage_error("missing operand")
        return ctx.usage_error(f"missing operand after {quote(operands[-1])}")
    if len(operands) > 2:
        return ctx.usage_error(f"extra operand {quote(operands[2])}")
    return None


def run(ctx: CommandContext) -> int:
    """Compare two sorted inputs."""
    parsed = parse_command_line(ctx, SPEC, HELP, version=VERSION)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    show = {1: True, 2: True, 3: True}
    check: bool | None = None
    delim: bytes | None = None
    total = False
    eol = b"\n"
    for key, value in opts:
        if key in "123":
            show[int(key)] = False
        elif key == "z":
            eol = b"\0"
        elif key == "check-order":
            check = True
        elif key == "nocheck-order":
            check = False
        elif key == "total":
            total = True
        elif key == "output-delimiter":
            raw = (value or "").encode("utf-8", "surrogateescape") or b"\0"
            if delim is not None and delim != raw:
                ctx.error("multiple output delimiters specified")
                return 1
            delim = raw
    bad = operand_error(ctx, operands)
    if bad is not None:
        return bad
    contents = read_operands(ctx, operands)
    if contents is None:
        return 1
    sep = b"\t" if delim is None else delim
    files = [split_lines(contents[0], eol), split_lines(contents[1], eol)]
    prefix2 = sep if show[1] else b""
    prefix3 = (sep if show[1] else b"") + (sep if show[2] else b"")
    out: list[bytes] = []
    counts = [0, 0, 0]
    warned = [False, False]
    seen_unpairable = False
    a, b = files
    i = j = 0
    na, nb = len(a), len(b)

    def check_order(lines: list[bytes], k: int, which: int) -> None:
        if check is False or warned[which] or not (check or seen_unpairable):
            return
        if lines[k - 1] > lines[k]:
            ctx.stdout.write(b"".join(out))
            out.clear()
            ctx.error(f"file {which + 1} is not in sorted order")
            if check:
                raise _Fatal()
            warned[which] = True

    try:
        while i < na or j < nb:
            if i >= na:
                order = 1
            elif j >= nb:
                order = -1
            else:
                x, y = a[i], b[j]
                order = 0 if x == y else (-1 if x < y else 1)
            if order == 0:
                counts[2] += 1
                if show[3]:
                    out.append(prefix3 + a[i] + eol)
            else:
                seen_unpairable = True
                if order < 0:
                    counts[0] += 1
                    if show[1]:
                        out.append(a[i] + eol)
                else:
                    counts[1] += 1
                    if show[2]:
                        out.append(prefix2 + b[j] + eol)
            # At end of file GNU checks the last two lines again: an unpairable line may
            # have turned up since they were read.
            if order <= 0:
                i += 1
                if i < na or na >= 2:
                    check_order(a, min(i, na - 1), 0)
            if order >= 0:
                j += 1
                if j < nb or nb >= 2:
                    check_order(b, min(j, nb - 1), 1)
            if len(out) >= 4096:
                ctx.stdout.write(b"".join(out))
                out.clear()
                ctx.budget.check_time()
    except _Fatal:
        return 1
    ctx.stdout.write(b"".join(out))
    if total:
        ctx.stdout.write(b"%d%s%d%s%d%stotal%s" % (counts[0], sep, counts[1], sep, counts[2], sep, eol))
    if warned[0] or warned[1]:
        ctx.error("input is not in sorted order")
        return 1
    return 0


class _Fatal(Exception):
    """``--check-order`` met a line out of order."""
