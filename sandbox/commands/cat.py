"""``cat``: concatenate files to stdout (GNU coreutils 9.1).

Options: ``-A -b -e -E -n -s -t -T -u -v`` and their long forms. Without options the data is
copied in large blocks; with options it is processed line by line, with GNU's state carried
across files (line numbers, squeezed blank lines, a ``\\r`` before a ``\\n`` under ``-E``).
"""

from __future__ import annotations

import re
from typing import BinaryIO

from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_command_line
from sandbox.commands._quoting import quotef
from sandbox.commands._records import copy_stream
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    "AbeEnstTuv",
    {
        "show-all": (NO_ARG, "A"),
        "number-nonblank": (NO_ARG, "b"),
        "show-ends": (NO_ARG, "E"),
        "number": (NO_ARG, "n"),
        "squeeze-blank": (NO_ARG, "s"),
        "show-tabs": (NO_ARG, "T"),
        "show-nonprinting": (NO_ARG, "v"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

BLOCK = 1 << 16
LINE_PIECE = 1 << 16

USAGE = """Usage: cat [OPTION]... [FILE]...
Concatenate FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

  -A, --show-all           equivalent to -vET
  -b, --number-nonblank    number nonempty output lines, overrides -n
  -e                       equivalent to -vE
  -E, --show-ends          display $ at end of each line
  -n, --number             number all output lines
  -s, --squeeze-blank      suppress repeated empty output lines
  -t                       equivalent to -vT
  -T, --show-tabs          display TAB characters as ^I
  -u                       (ignored)
  -v, --show-nonprinting   use ^ and M- notation, except for LFD and TAB
      --help        display this help and exit
      --version     output version information and exit
"""


def _caret(byte: int) -> bytes:
    if byte < 32:
        return b"^" + bytes([byte + 64])
    if byte == 127:
        return b"^?"
    if byte >= 128:
        return b"M-" + _caret(byte - 128)
    return bytes([byte])


#: ``-v`` rendering of every byte (TAB and LF are left alone here).
NONPRINTING = [_caret(b) for b in range(256)]
_NONPRINTING_RE = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f-\xff]")
_NONPRINTING_TAB_RE = re.compile(rb"[\x00-\x08\x09\x0b-\x1f\x7f-\xff]")


class _Formatter:
    """Line-oriented cat with GNU's state kept across input files."""

    def __init__(self, ctx: CommandContext, number: bool, nonblank: bool, ends: bool,
                 squeeze: bool, tabs: bool, nonprinting: bool):
        self.ctx = ctx
        self.number = number or nonblank
        self.nonblank = nonblank
        self.ends = ends
        self.squeeze = squeeze
        self.tabs = tabs
        self.nonprinting = nonprinting
        self.line_no = 0
        self.at_start = True
        self.blank_run = 0
        self.pending_cr = False  # -E: a \r held back in case a \n follows
        self.out: list[bytes] = []
        self.out_size = 0
        pattern = _NONPRINTING_TAB_RE if tabs else _NONPRINTING_RE
        self.translate = pattern.sub if (nonprinting or tabs) else None

    def _render(self, match: re.Match[bytes]) -> bytes:
        byte = match.group()[0]
        if byte == 9:
            return b"^I"
        if not self.nonprinting:
            return bytes([byte])
        return NONPRINTING[byte]

    def emit(self, data: bytes) -> None:
        self.out.append(data)
        self.out_size += len(data)
        if self.out_size >= BLOCK:
            self.flush()

    def flush(self) -> None:
        if self.out:
            self.ctx.stdout.write(b"".join(self.out))
            self.out.clear()
            self.out_size = 0

    def feed(self, stream: BinaryIO) -> None:
        """Format one input stream."""
        budget = self.ctx.budget
        count = 0
        while True:
            piece = stream.readline(LINE_PIECE)
            if not piece:
                return
            count += 1
            if count & 1023 == 0:
                budget.check_time()
            self._piece(piece)

    def _piece(self, piece: bytes) -> None:
        if self.pending_cr:
            self.pending_cr = False
            if piece.startswith(b"\n") and not self.nonprinting:
                self.emit(b"^M")
            else:
                self.emit(b"\r")
        if self.at_start and piece == b"\n":
            self.blank_run += 1
            if self.squeeze and self.blank_run >= 2:
                return
            if self.number and not self.nonblank:
                self.line_no += 1
                self.emit(b"%6d\t" % self.line_no)
            self.emit(b"$\n" if self.ends else b"\n")
            return
        if self.at_start:
            self.blank_run = 0
            if self.number:
                self.line_no += 1
                self.emit(b"%6d\t" % self.line_no)
        newline = piece.endswith(b"\n")
        body = piece[:-1] if newline else piece
        if self.ends and not self.nonprinting and body.endswith(b"\r"):
            body = body[:-1]
            if newline:
                body += b"^M"
            else:
                self.pending_cr = True
        if self.translate is not None:
            body = self.translate(self._render, body)
        self.emit(body)
        if newline:
            self.emit(b"$\n" if self.ends else b"\n")
        self.at_start = newline

    def finish(self) -> None:
        if self.pending_cr:
            self.emit(b"\r")
            self.pending_cr = False
        self.flush()


def _is_output(ctx: CommandContext, operand: str, formatter: "_Formatter | None") -> bool:
    """GNU's check: a regular input that is the file stdout is redirected to (``> f``, ``>> f``:
    the shell's file writer says which, ``file_target``), read from offset 0 while that file
    already holds something (``cat f >> f``; ``cat f > f`` meets an empty file)."""
    target = getattr(ctx.stdout, "file_target", None)
    if target is None:
        return False
    try:
        vpath, pending = target()
        if ctx.path(operand) != vpath:
            return False
        st = ctx.stat(operand)
    except FSError:
        return False
    if not st.is_file:
        return False
    if formatter is not None:
        pending += sum(len(piece) for piece in formatter.out)
    return st.size + pending > 0


def run(ctx: CommandContext) -> int:
    """Run ``cat``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="cat (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    flags = {key for key, _ in opts}
    nonprinting = bool(flags & set("vAet"))
    ends = bool(flags & set("EAe"))
    tabs = bool(flags & set("TAt"))
    formatter = None
    if flags - {"u"}:
        formatter = _Formatter(ctx, "n" in flags, "b" in flags, ends, "s" in flags, tabs, nonprinting)
    status = 0
    for operand in operands or ["-"]:
        try:
            stream = ctx.stdin if operand == "-" else ctx.open_read(operand)
        except FSError as e:
            ctx.error(f"{quotef(operand)}: {e}")
            status = 1
            continue
        if operand != "-" and _is_output(ctx, operand, formatter):
            ctx.error(f"{quotef(operand)}: input file is output file")
            status = 1
            stream.close()
            continue
        try:
            if formatter is not None:
                formatter.feed(stream)
            else:
                copy_stream(ctx, stream, BLOCK)
        except FSError as e:
            ctx.error(f"{quotef(operand)}: {e}")
            status = 1
        finally:
            if stream is not ctx.stdin:
                stream.close()
    if formatter is not None:
        formatter.finish()
    return status
