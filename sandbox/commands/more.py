"""``more`` (util-linux 2.38.1) as it behaves when stdout is not a terminal: it copies.

The sandbox's stdin is never a terminal, so, as util-linux does then, stdin is copied first
(without a header) and every named FILE follows under a ``::::::::::::::`` / NAME /
``::::::::::::::`` banner. A directory prints ``*** NAME: directory ***`` on stdout, a file
starting with an a.out or ELF magic number ``******** NAME: Not a text file ********``, a file
that cannot be opened ``more: cannot open NAME: REASON`` on stderr; the exit status is 0.

Options are parsed as util-linux does: first every ``-NUM``, ``+NUM`` and ``+/PATTERN`` word is
taken out (checked as a 16-bit / 32-bit number), then getopt_long reads ``dflcpsun:eVh`` and the
long forms; the ``MORE`` environment variable is parsed the same way first. Paging options have
no effect on a copy; ``+NUM``/``+/PATTERN`` too (they apply to the first file, and stdin is
always the first input here).
"""

from __future__ import annotations

import errno

from sandbox.commands._records import copy_stream
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, UsageError, parse
from sandbox.fs.base import FSError

SPEC = OptionSpec("dflcpsun:eVh", {
    "silent": (NO_ARG, "d"), "logical": (NO_ARG, "f"), "no-pause": (NO_ARG, "l"),
    "print-over": (NO_ARG, "c"), "clean-print": (NO_ARG, "p"), "exit-on-eof": (NO_ARG, "e"),
    "squeeze": (NO_ARG, "s"), "plain": (NO_ARG, "u"), "lines": (REQUIRED, "n"),
    "version": (NO_ARG, "V"), "help": (NO_ARG, "h"),
})

VERSION = "more from util-linux 2.38.1\n"

USAGE = """
Usage:
 more [options] <file>...

A file perusal filter for CRT viewing.

Options:
 -d, --silent          display help instead of ringing bell
 -f, --logical         count logical rather than screen lines
 -l, --no-pause        suppress pause after form feed
 -c, --print-over      do not scroll, display text and clean line ends
 -p, --clean-print     do not scroll, clean screen and display text
 -e, --exit-on-eof     exit on end-of-file
 -s, --squeeze         squeeze multiple blank lines into one
 -u, --plain           suppress underlining and bold
 -n, --lines <number>  the number of lines per screenful
 -<number>             same as --lines
 +<number>             display file beginning from line number
 +/<pattern>           display file beginning from pattern match

 -h, --help            display this help
 -V, --version         display version

For more details see more(1).
"""

#: First two bytes (little-endian) that mark a file as "Not a text file": a.out and ELF.
BINARY_MAGIC = {0o407, 0o410, 0o413, 0o405, 0o411, 0o177545, 0x457F}

_ERANGE = "Numerical result out of range"
_C_SPACE = " \t\n\v\f\r"


class _Exit(Exception):
    """Ends the run with ``status`` (after the message has been written)."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


def _strtoimax(text: str) -> tuple[int | None, bool]:
    """C ``strtoimax(text, &end, 10)``: (value or None if no digits, whole string consumed)."""
    i = 0
    while i < len(text) and text[i] in _C_SPACE:
        i += 1
    j = i
    if j < len(text) and text[j] in "+-":
        j += 1
    k = j
    while k < len(text) and "0" <= text[k] <= "9":
        k += 1
    if k == j:
        return None, False
    return int(text[i:k]), k == len(text)


def _fail(ctx: CommandContext, message: str, value: str, erange: bool) -> None:
    tail = f": {_ERANGE}" if erange else ""
    ctx.error(f"{message}: '{value}'{tail}")
    raise _Exit(1)


def _lines_value(ctx: CommandContext, value: str) -> int:
    """util-linux ``strtou16_or_err(value, "argument error")``."""
    num, whole = _strtoimax(value)
    if num is None:
        _fail(ctx, "argument error", value, False)
    assert num is not None
    if num < 0 or num >= 1 << 64:
        _fail(ctx, "argument error", value, True)
    if not whole:
        _fail(ctx, "argument error", value, False)
    if num > 0xFFFF:
        _fail(ctx, "argument error", value, True)
    return num


def _isdigit_string(text: str) -> bool:
    return text != "" and all("0" <= c <= "9" for c in text)


def _argscan(ctx: CommandContext, argv: list[str]) -> list[str]:
    """util-linux ``argscan``: returns the FILE operands; raises ``_Exit`` when done."""
    kept = []
    for word in argv:
        if word.startswith("-") and _isdigit_string(word[1:]):
            if not -(1 << 15) <= int(word) < 1 << 15:
                _fail(ctx, "failed to parse number", word, True)
        elif word.startswith("+") and _isdigit_string(word[1:]):
            if int(word) >= 1 << 31:
                _fail(ctx, "failed to parse number", word, True)
        elif word.startswith("+/"):
            pass
        else:
            kept.append(word)
            continue
    args = kept[1:]
    error = None
    try:
        opts, operands = parse(SPEC, args)
    except UsageError as err:
        error = str(err)
        opts, operands = [], []
        for k in range(1, len(args) + 1):
            try:
                parse(SPEC, args[:k])
            except UsageError as cut:
                if str(cut) == error:
                    try:
                        opts, operands = parse(SPEC, args[: k - 1])
                    except UsageError:
                        pass
                    break
    for key, value in opts:
        if key == "n":
            _lines_value(ctx, value or "")
        elif key == "V":
            ctx.stdout.write(VERSION.encode())
            raise _Exit(0)
        elif key == "h":
            ctx.stdout.write(USAGE.encode())
            raise _Exit(0)
    if error is not None:
        ctx.stderr.write(f"{kept[0]}: {error}\n".encode("utf-8", "surrogateescape"))
        ctx.stderr.write(f"Try '{ctx.prog} --help' for more information.\n".encode())
        raise _Exit(1)
    return operands


def _show(ctx: CommandContext, name: str) -> None:
    """util-linux ``checkf`` + ``display_file`` (banner always on: stdin came first)."""
    try:
        st = ctx.stat(name)
        if st.is_dir:
            ctx.stdout.write(f"\n*** {name}: directory ***\n\n".encode("utf-8", "surrogateescape"))
            return
        stream = ctx.open_read(name)
    except FSError as e:
        ctx.error(f"cannot open {name}: {e.strerror}")
        return
    try:
        head = stream.read(2)
        if len(head) == 2 and head[0] + (head[1] << 8) in BINARY_MAGIC:
            ctx.stdout.write(f"\n******** {name}: Not a text file ********\n\n"
                             .encode("utf-8", "surrogateescape"))
            return
        ctx.stdout.write(b"::::::::::::::\n" + name.encode("utf-8", "surrogateescape")
                         + b"\n::::::::::::::\n")
        ctx.stdout.write(head)
        copy_stream(ctx, stream)
    except FSError as e:
        if e.errno != errno.EISDIR:
            ctx.error(f"{name}: {e.strerror}")
    finally:
        stream.close()


def run(ctx: CommandContext) -> int:
    """Run ``more``."""
    try:
        env = ctx.env.get("MORE")
        if env is not None:
            words = env.replace("\n", " ").replace("\t", " ").split(" ")
            _argscan(ctx, ["MORE environment variable"] + [w for w in words if w])
        files = _argscan(ctx, [ctx.prog] + ctx.args)
    except _Exit as done:
        return done.status
    copy_stream(ctx, ctx.stdin)
    for name in files:
        ctx.budget.check_time()
        _show(ctx, name)
    return 0
