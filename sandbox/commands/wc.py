"""``wc``: count lines, words, characters, bytes and the longest line (GNU coreutils 9.1).

Options: ``-l -w -m -c -L`` (and their long names), ``--files0-from=F`` (the inputs are the
NUL-terminated names in ``F``, ``-`` for stdin). Counts follow GNU in the C.UTF-8 locale:
a word is a run of printable non-space characters (non-printable characters and invalid bytes
neither start nor end a word; no-break spaces separate words), ``-m`` counts valid characters,
``-L`` is the widest line in display columns (tabs to multiples of 8, ``\\r``/``\\f`` restart).
Column widths follow GNU: the digits of the total size of the regular files, at least 7 when an
input is not a regular file (a pipe), 1 for a single file with a single count.

Input is streamed in large chunks; the common cases use ``bytes.count``/``bytes.split``.
"""

from __future__ import annotations

import errno
import io
import re
from dataclasses import dataclass
from typing import BinaryIO

from sandbox.commands import _wcwidth
from sandbox.commands._locale import utf8_ctype
from sandbox.commands._quoting import quoteaf, quotef
from sandbox.commands._records import iter_blocks
from sandbox.commands._textutil import CHUNK, file_error
from sandbox._native import linescan
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FileContent, FSError

#: What ``--version`` prints (GNU's text).
VERSION = """wc (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Paul Rubin and David MacKenzie."""

SPEC = OptionSpec(
    short="clLmw",
    long={
        "version": (NO_ARG, "version"),
        "bytes": (NO_ARG, "c"),
        "chars": (NO_ARG, "m"),
        "lines": (NO_ARG, "l"),
        "max-line-length": (NO_ARG, "L"),
        "words": (NO_ARG, "w"),
        "files0-from": (REQUIRED, "files0-from"),
    },
)

_ASCII_TRANSPARENT = bytes(range(0, 9)) + bytes(range(14, 32)) + b"\x7f"
_NONPRINT = re.compile(
    "[^\t\n\x0b\x0c\r" + "".join(f"\\U{a:08X}-\\U{b:08X}" for a, b in _wcwidth.PRINTABLE) + "]"
)
_WORD_JOINER = "\u2060"
#: Printable non-ASCII characters that separate words (glibc iswspace, and the no-break spaces).
_UNICODE_SEPARATORS = [
    chr(cp).encode("utf-8")
    for a, b in _wcwidth.SPACE
    for cp in range(a, b + 1)
    if cp > 0x7F and _wcwidth.is_printable(cp)
] + [chr(cp).encode("utf-8") for cp in (0xA0, 0x2007, 0x202F, 0x2060)]
_WORD_SHAPE = bytes(0x20 if c in b" \t\n\r\x0b\x0c" else 0x78 for c in range(256))
_HIGH_TO_X = bytes(c if c < 0x80 else 0x78 for c in range(256))
_ASCII_BYTES = bytes(range(0x80))
_ASCII_BYTES_HIGH = bytes(range(0x80, 0x100))
_SIMPLE_LINE = re.compile(rb"[^\x20-\x7e]")
#: In the C locale: the bytes that take no column (all but the printable ASCII and the ones
#: the line length handles: tab, newline, carriage return, form feed).
_NO_COLUMN = bytes(c for c in range(256) if not (0x20 <= c < 0x7F or c in b"\t\n\r\f"))


@dataclass
class Counts:
    """The five counters of one input."""

    lines: int = 0
    words: int = 0
    chars: int = 0
    nbytes: int = 0
    max_line: int = 0

    def add(self, other: "Counts") -> None:
        """Accumulate ``other`` into a total (max for the line length)."""
        self.lines += other.lines
        self.words += other.words
        self.chars += other.chars
        self.nbytes += other.nbytes
        self.max_line = max(self.max_line, other.max_line)



HELP = '''Usage: wc [OPTION]... [FILE]...
  or:  wc [OPTION]... --files0-from=F
Print newline, word, and byte counts for each FILE, and a total line if
more than one FILE is specified.  A word is a non-zero-length sequence of
printable characters delimited by white space.

With no FILE, or when FILE is -, read standard input.

The options below may be used to select which counts are printed, always in
the following order: newline, word, character, byte, maximum line length.
  -c, --bytes            print the byte counts
  -m, --chars            print the character counts
  -l, --lines            print the newline counts
      --files0-from=F    read input from the files specified by
                           NUL-terminated names in file F;
                           If F is - then read names from standard input
  -L, --max-line-length  print the maximum display width
  -w, --words            print the word counts
      --help        display this help and exit
      --version     output version information and exit
'''

#: glibc's UTF-8 also decodes the code points past U+10FFFF (4-byte forms from F4 90, and the
#: 5- and 6-byte forms) that Python refuses: characters to ``-m``, non-printable otherwise.
_BEYOND = re.compile(rb"\xf4[\x90-\xbf][\x80-\xbf]{2}|[\xf5-\xf7][\x80-\xbf]{3}|\xf8[\x88-\xbf][\x80-\xbf]{3}"
                     rb"|[\xf9-\xfb][\x80-\xbf]{4}|\xfc[\x84-\xbf][\x80-\xbf]{4}|\xfd[\x80-\xbf]{5}")
_BEYOND_LEAD = re.compile(rb"[\xf4-\xfd]")


def _utf8_tail(data: bytes) -> int:
    """Length of an incomplete UTF-8 sequence at the end of ``data`` (0 if none)."""
    for back in range(1, min(6, len(data)) + 1):
        b = data[-back]
        if b < 0x80:
            return 0
        if b >= 0xC0:
            need = 2 if b < 0xE0 else 3 if b < 0xF0 else 4 if b < 0xF8 else 5 if b < 0xFC else 6
            return back if need > back else 0
    return 0


class _Counter:
    """Streaming state of one input: feed chunks, read ``counts`` at the end."""

    def __init__(self, want_words: bool, want_chars: bool, want_max: bool,
                 single_byte: bool = False):
        self.counts = Counts()
        #: The C locale: every byte is a character; those above 0x7F are not printable.
        self.single_byte = single_byte
        self.want_words = want_words
        self.want_chars = want_chars
        self.want_max = want_max
        self.in_word = False
        self.linepos = 0
        self.pending = b""

    def feed(self, chunk: bytes, final: bool = False) -> None:
        """Count one chunk (``final`` flushes a trailing incomplete character)."""
        self.counts.lines += chunk.count(b"\n")
        self.counts.nbytes += len(chunk)
        if not (self.want_words or self.want_chars or self.want_max):
            return
        if self.single_byte:
            self._feed_bytes(chunk)
            return
        data = self.pending + chunk if self.pending else chunk
        cut = 0 if final else _utf8_tail(data)
        self.pending = data[len(data) - cut :] if cut else b""
        data = data[: len(data) - cut] if cut else data
        if data.isascii():
            if self.want_chars:
                self.counts.chars += len(data)
            if self.want_words:
                self._words_ascii(data)
            if self.want_max:
                self._max_line(data.decode("ascii"))
            return
        if not self.want_max and self._plain_utf8(data):
            return
        text = data.decode("utf-8", "ignore")
        if self.want_chars:
            self.counts.chars += len(text)
            if _BEYOND_LEAD.search(data):
                self.counts.chars += len(_BEYOND.findall(data))
        if self.want_words:
            self._words_text(text)
        if self.want_max:
            self._max_line(text)

    def _feed_bytes(self, data: bytes) -> None:
        """Count a chunk as GNU's single-byte loop does: non-printable bytes (all above 0x7F
        among them) neither start nor end a word and take no column."""
        if self.want_chars:
            self.counts.chars += len(data)
        if self.want_words:
            self._words_ascii(data.translate(None, _ASCII_BYTES_HIGH))
        if self.want_max:
            self._max_line(data.translate(None, _NO_COLUMN).decode("ascii"))

    def _plain_utf8(self, data: bytes) -> bool:
        """Count words and characters of valid UTF-8 whose non-ASCII characters are all
        printable and not spaces (Python's ``isprintable``, a subset of glibc's printable
        non-space characters): each of them is then a word character, like a letter, so
        the bytes above 0x7F can stand as "x". False (nothing counted) otherwise."""
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return False
        if not data.translate(None, _ASCII_BYTES).decode("utf-8").isprintable():
            return False
        if self.want_chars:
            self.counts.chars += len(text)
        if self.want_words:
            self._words_ascii(data)  # its table maps every byte above 0x7F to "x"
        return True

    def _words_ascii(self, data: bytes) -> None:
        # Drop the bytes that neither start nor end a word, turn every separator into a space
        # and everything else into "x": each word then starts at a " x" (or at the start).
        shape = data.translate(_WORD_SHAPE, _ASCII_TRANSPARENT)
        if shape:
            count = shape.count(b" x") + (shape[0] == 0x78)
            self._add_words(count, shape[0] == 0x78, shape[-1] == 0x78)

    def _words_text(self, text: str) -> None:
        visible = _NONPRINT.sub("", text).encode("utf-8")
        for space in _UNICODE_SEPARATORS:
            if space in visible:
                visible = visible.replace(space, b" ")
        self._words_ascii(visible.translate(_HIGH_TO_X))

    def _add_words(self, count: int, starts_in_word: bool, ends_in_word: bool) -> None:
        """Add a chunk's word count, merging a word that continues across the chunk edge."""
        if count and self.in_word and starts_in_word:
            count -= 1
        self.counts.words += count
        self.in_word = ends_in_word

    def _max_line(self, text: str) -> None:
        lines = text.split("\n")
        for index, line in enumerate(lines):
            pos = self.linepos if index == 0 else 0
            if not _SIMPLE_LINE.search(line.encode("utf-8", "surrogateescape")):
                pos += len(line)
            else:
                pos = self._walk(line, pos)
            if index < len(lines) - 1:
                if pos > self.counts.max_line:
                    self.counts.max_line = pos
                pos = 0
            self.linepos = pos
        if self.linepos > self.counts.max_line:
            self.counts.max_line = self.linepos

    def _walk(self, line: str, pos: int) -> int:
        for ch in line:
            if ch == "\t":
                pos += 8 - pos % 8
            elif ch == "\r" or ch == "\f":
                if pos > self.counts.max_line:
                    self.counts.max_line = pos
                pos = 0
            else:
                width = _wcwidth.width(ord(ch))
                if width > 0:
                    pos += width
        return pos


def _count_stream(ctx: CommandContext, stream: BinaryIO, flags: dict[str, bool]) -> Counts:
    counter = _Counter(flags["w"], flags["m"], flags["L"], not utf8_ctype(ctx.env))
    if not (flags["w"] or flags["m"] or flags["L"]):
        _count_lines_bytes(ctx, stream, counter.counts, flags["l"])
        return counter.counts
    for chunk in iter_blocks(stream, ctx.budget, CHUNK):
        counter.feed(chunk)
    if counter.pending:
        counter.feed(b"", final=True)
    return counter.counts


def _count_lines_bytes(ctx: CommandContext, stream: BinaryIO, counts: Counts, lines: bool) -> None:
    """Bytes (and newlines when ``lines``) of a stream. Bytes alone of a seekable stream are
    its size from the current offset, as GNU takes them from ``fstat``; otherwise the data
    is read into one reused buffer and its newlines counted there."""
    if not lines:
        try:
            if stream.seekable() and (isinstance(stream, FileContent)
                                      or not isinstance(stream, io.BytesIO)):
                here = stream.tell()
                end = stream.seek(0, 2)
                counts.nbytes = max(0, end - here)
                return
        except (AttributeError, OSError, ValueError):
            pass
    readinto = getattr(stream, "readinto", None)
    if readinto is None:
        for chunk in iter_blocks(stream, ctx.budget, CHUNK):
            counts.nbytes += len(chunk)
            if lines:
                counts.lines += chunk.count(b"\n")
        return
    native = linescan()
    count = getattr(native, "count_byte", None)
    buf = bytearray(CHUNK)
    while True:
        n = readinto(buf)
        if not n:
            return
        counts.nbytes += n
        if lines:
            counts.lines += count(buf, 10, 0, n) if count is not None else buf.count(b"\n", 0, n)
        ctx.budget.check_time()


def _stdin_size(ctx: CommandContext) -> int | None:
    """Size of stdin when it is a file on disk (``wc < file``), else None.

    A pipe, a here-string or captured input (``io.BytesIO``) counts as a pipe, as bash's
    stdin is when a caller feeds the script its input.
    """
    stream = ctx.stdin
    try:
        if isinstance(stream, io.BytesIO) and not isinstance(stream, FileContent) or \
                not stream.seekable():
            return None
        here = stream.tell()
        end = stream.seek(0, 2)
        stream.seek(here)
        return end
    except (AttributeError, OSError, ValueError):
        return None


def _number_width(ctx: CommandContext, operands: list[str], nflags: int) -> int:
    """GNU's ``compute_number_width`` over the inputs' status."""
    if len(operands) == 1 and nflags == 1:
        return 1
    minimum = 1
    regular_total = 0
    for operand in operands:
        if operand == "-":
            size = _stdin_size(ctx)
            if size is None:
                minimum = 7
            else:
                regular_total += size
            continue
        try:
            st = ctx.stat(operand)
        except FSError:
            continue
        if st.is_file:
            regular_total += st.size
        else:
            minimum = 7
    return max(len(str(regular_total)), minimum)


def run(ctx: CommandContext) -> int:
    """Count each operand (stdin without operands) and print a total for several."""
    parsed = parse_command_line(ctx, SPEC, HELP, version=VERSION, early_help=True)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    flags = {key: False for key in "lwmcL"}
    files_from: str | None = None
    for key, value in opts:
        if key == "files0-from":
            files_from = value
        else:
            flags[key] = True
    if not any(flags.values()):
        flags["l"] = flags["w"] = flags["c"] = True
    status = 0
    if files_from is not None:
        if operands:
            ctx.stderr.write(f"wc: extra operand {quoteaf(operands[0])}\n"
                             "file operands cannot be combined with --files0-from\n"
                             "Try 'wc --help' for more information.\n".encode("utf-8", "surrogateescape"))
            return 1
        listed = _names_from(ctx, files_from)
        if listed is None:
            return 1
        inputs, regular = listed
        named = True
        # GNU stats the names up front only when it read a regular file of names (else width 1)
        width = _number_width(ctx, inputs, sum(flags.values())) if regular and inputs else 1
    else:
        named = bool(operands)
        inputs = operands or ["-"]
        width = _number_width(ctx, inputs, sum(flags.values()))
    total = Counts()
    for number, operand in enumerate(inputs, 1):
        if files_from is not None:
            if files_from == "-" and operand == "-":
                ctx.stderr.write(("wc: when reading file names from stdin, no file name of "
                                  f"{quoteaf(operand)} allowed\n").encode("utf-8", "surrogateescape"))
                status = 1
                continue
            if not operand:
                ctx.stderr.write(f"wc: {quotef(files_from)}:{number}: invalid zero-length file name\n"
                                 .encode("utf-8", "surrogateescape"))
                status = 1
                continue
        try:
            stream = ctx.open_read("/dev/stdin") if operand == "-" else ctx.open_read(operand)
        except FSError as err:
            file_error(ctx, operand, err)
            status = 1
            if err.errno != errno.EISDIR:
                continue
            counts = Counts()
        else:
            with stream:
                try:
                    counts = _count_stream(ctx, stream, flags)
                except FSError as err:  # a read failed (``wc < dir``): GNU still prints the line
                    file_error(ctx, operand if named else "standard input", err)
                    status = 1
                    counts = Counts()
        total.add(counts)
        _print(ctx, counts, flags, width, operand if named else None)
    if len(inputs) > 1:
        _print(ctx, total, flags, width, "total")
    return status


def _names_from(ctx: CommandContext, source: str) -> tuple[list[str], bool] | None:
    """The NUL-terminated names of ``--files0-from`` (a last unterminated one counts) and
    whether they came from a regular file; None after GNU's error when it cannot be read."""
    try:
        if source == "-":
            stream = ctx.open_read("/dev/stdin")
            regular = _stdin_size(ctx) is not None
        else:
            st = ctx.stat(source)
            if st.is_dir:  # fopen succeeds, the first read fails
                ctx.stderr.write(f"wc: {quotef(source)}: read error: Is a directory\n"
                                 .encode("utf-8", "surrogateescape"))
                return None
            regular = st.is_file
            stream = ctx.open_read(source)
        with stream:
            data = b"".join(iter_blocks(stream, ctx.budget, CHUNK))
    except FSError as err:
        ctx.stderr.write(f"wc: cannot open {quoteaf(source)} for reading: {err.strerror}\n"
                         .encode("utf-8", "surrogateescape"))
        return None
    names = data.split(b"\0")
    if names and names[-1] == b"":
        names.pop()
    return [n.decode("utf-8", "surrogateescape") for n in names], regular


def _print(ctx: CommandContext, counts: Counts, flags: dict[str, bool], width: int, name: str | None) -> None:
    values = []
    if flags["l"]:
        values.append(counts.lines)
    if flags["w"]:
        values.append(counts.words)
    if flags["m"]:
        values.append(counts.chars)
    if flags["c"]:
        values.append(counts.nbytes)
    if flags["L"]:
        values.append(counts.max_line)
    line = " ".join(f"{value:>{width}}" for value in values)
    if name is not None:
        line += " " + (quotef(name) if "\n" in name else name)
    ctx.stdout.write((line + "\n").encode("utf-8", "surrogateescape"))
