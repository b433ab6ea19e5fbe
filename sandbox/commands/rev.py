"""``rev``: reverse each line character by character (util-linux 2.38, UTF-8 locale).

As util-linux's ``fgetws`` loop does: a NUL ends the text of its line and glues what follows the
next newline onto it (``a\\0b\\ncd\\n`` prints ``dca``), and an invalid UTF-8 sequence stops the
file with ``rev: NAME: N: Invalid or incomplete multibyte or wide character`` (N = lines
already written), exit 1; the line holding it is not printed. Blocks of complete lines are
reversed with whole-block slicing, so large inputs cost a few C-level passes. As in util-linux,
``-`` is a file name, not standard input. In a single-byte locale (``LC_ALL=C``) every byte
above 0x7F is such an invalid sequence (glibc's C locale has no wide character for it).
"""

from __future__ import annotations

import re

from sandbox.commands._lineblocks import line_blocks
from sandbox.commands._locale import utf8_ctype
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(short="hV", long={"help": (NO_ARG, "help"), "version": (NO_ARG, "version")})

HELP = """Usage: rev [options] [file ...]

Reverse lines characterwise.

Options:
 -h, --help     display this help
 -V, --version  display version

For more details see rev(1).
"""

VERSION = "rev from util-linux 2.38.1"
_EILSEQ = "Invalid or incomplete multibyte or wide character"

# One character as glibc's UTF-8 decoder reads it (up to 0x7FFFFFFF, no surrogates, no
# overlong forms), or one invalid byte.
_CHAR = re.compile(
    rb"[\x00-\x7f]|[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}"
    rb"|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf7][\x80-\xbf]{3}"
    rb"|\xf8[\x88-\xbf][\x80-\xbf]{3}|[\xf9-\xfb][\x80-\xbf]{4}|\xfc[\x84-\xbf][\x80-\xbf]{4}"
    rb"|\xfd[\x80-\xbf]{5}|(.)",
    re.DOTALL,
)


class _BadChar(Exception):
    """An invalid multibyte sequence; ``args[0]`` is the number of lines already written."""


def _reverse_chars(line: bytes) -> bytes:
    """``line`` (valid, no newline) reversed by characters."""
    if line.isascii():
        return line[::-1]
    try:
        return line.decode("utf-8")[::-1].encode("utf-8")
    except UnicodeDecodeError:
        return b"".join(reversed([m.group(0) for m in _CHAR.finditer(line)]))


def _valid(line: bytes) -> bool:
    if line.isascii():
        return True
    try:
        line.decode("utf-8")
        return True
    except UnicodeDecodeError:
        pass
    return all(m.group(1) is None for m in _CHAR.finditer(line))


def _drop_incomplete_tail(data: bytes) -> bytes:
    """``data`` without a last UTF-8 sequence that was cut off by the end of input."""
    for back in (1, 2, 3):
        if back > len(data):
            break
        lead = data[-back]
        if lead < 0x80:
            break
        if lead >= 0xC0:
            need = 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4 if lead < 0xF8 else 5 if lead < 0xFC else 6
            if need > back and lead < 0xFE:
                return data[:-back]
            break
    return data


def _valid_prefix(line: bytes) -> bytes:
    """The bytes of ``line`` before its first invalid sequence."""
    end = 0
    for m in _CHAR.finditer(line):
        if m.group(1) is not None:
            break
        end = m.end()
    return line[:end]


def _ascii_prefix(line: bytes) -> bytes:
    """The bytes of ``line`` before its first byte above 0x7F."""
    for i, b in enumerate(line):
        if b >= 0x80:
            return line[:i]
    return line


def _fast_block(lines: bytes) -> bytes | None:
    """Reverse a block of whole lines (ending with a newline) in one go, or None when the block
    holds a NUL or anything that is not plain UTF-8."""
    if b"\0" in lines:
        return None
    body = lines[:-1]
    if body.isascii():
        flipped = body[::-1].split(b"\n")
        flipped.reverse()
        return b"\n".join(flipped) + b"\n"
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    pieces = text[::-1].split("\n")
    pieces.reverse()
    return ("\n".join(pieces) + "\n").encode("utf-8")


class _Reverser:
    """The state of one file: the line being glued across NULs and the lines written."""

    def __init__(self, ctx: CommandContext, single_byte: bool = False):
        self.ctx = ctx
        self.pending = b""
        self.lines = 0
        self.single_byte = single_byte

    def feed_slow(self, block: bytes, final: bool) -> None:
        """Process ``block`` line by line (the last piece unterminated only when ``final``)."""
        out: list[bytes] = []
        pieces = block.split(b"\n")
        last = pieces.pop()
        try:
            for piece in pieces:
                self._piece(piece, True, out)
            if final and last:
                self._piece(last, False, out)
        finally:
            self.ctx.stdout.write(b"".join(out))

    def _piece(self, piece: bytes, newline: bool, out: list[bytes]) -> None:
        if self.single_byte:
            valid = piece.isascii()
        else:
            if not newline:
                piece = _drop_incomplete_tail(piece)  # glibc reads a cut-off character as EOF
            valid = _valid(piece)
        if not valid:
            if self.pending:  # util-linux prints the glued text and what it read of this piece
                prefix = _ascii_prefix(piece) if self.single_byte else _valid_prefix(piece)
                nul = prefix.find(b"\0")
                out.append(_reverse_chars(self.pending) + (prefix if nul < 0 else prefix[:nul]))
                self.pending = b""
                self.lines += 1
            raise _BadChar(self.lines)
        nul = piece.find(b"\0")
        if nul >= 0:
            piece = piece[:nul]
            if not piece and not self.pending:
                return  # an empty wide string: util-linux skips it without counting
        if nul >= 0 or not newline:
            self.pending += piece
            return
        line = self.pending + piece
        self.pending = b""
        out.append(_reverse_chars(line) + b"\n")
        self.lines += 1

    def finish(self) -> None:
        """Write a glued line left at end of input (without a newline)."""
        if self.pending:
            self.ctx.stdout.write(_reverse_chars(self.pending))
            self.pending = b""


def _rev_stream(ctx: CommandContext, stream) -> None:
    single_byte = not utf8_ctype(ctx.env)
    state = _Reverser(ctx, single_byte)
    for block, whole in line_blocks(ctx, stream):
        if not whole:
            state.feed_slow(block, True)
            continue
        plain = not state.pending and (block.isascii() or not single_byte)
        fast = _fast_block(block) if plain else None
        if fast is not None:
            ctx.stdout.write(fast)
            state.lines += block.count(b"\n")
        else:
            state.feed_slow(block, False)
    state.finish()


def run(ctx: CommandContext) -> int:
    """Reverse the characters of every line of each input."""
    parsed = parse_command_line(ctx, SPEC, HELP, version=VERSION)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    for key, _ in opts:
        if key == "h":
            ctx.stdout.write(HELP.encode())
            return 0
        if key == "V":
            ctx.stdout.write(f"{VERSION}\n".encode())
            return 0
    status = 0
    for operand in operands or [None]:
        name = "stdin" if operand is None else operand
        try:
            stream = ctx.stdin if operand is None else ctx.open_read(operand)
        except FSError as err:
            if err.errno == 21:
                ctx.error(f"{name}: 0: {err}")
            else:
                ctx.error(f"cannot open {name}: {err}")
            status = 1
            continue
        try:
            _rev_stream(ctx, stream)
        except _BadChar as bad:
            ctx.error(f"{name}: {bad.args[0]}: {_EILSEQ}")
            status = 1
        except FSError as err:
            ctx.error(f"{name}: 0: {err}")
            status = 1
        finally:
            if stream is not ctx.stdin:
                stream.close()
    return status
