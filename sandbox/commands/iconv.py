"""``iconv``: convert text from one character encoding to another (glibc 2.36's ``iconv``).

Encodings: UTF-8, ASCII (ANSI_X3.4-1968), ISO-8859-1..11/13..16, CP1252, UTF-16, UTF-16LE/BE,
UTF-32, UTF-32LE/BE, with glibc's aliases (``LATIN1``, ``L2``, ``US-ASCII``, ``UTF8``...), names
case-insensitive and stripped of the characters glibc drops. A missing or empty ``-f``/``-t``
is the locale's charset (UTF-8). ``UTF-16``/``UTF-32`` write a little-endian BOM before each
file's first character (and before each transliteration) and read a BOM (little-endian
without one; a big-endian BOM holds for the later files), as glibc on x86-64. glibc's
UTF-8 reader still takes the 5- and 6-byte forms and values up to 0x7FFFFFFF; only a UTF-8
target can write them back. ``//TRANSLIT`` uses glibc's C.UTF-8
transliteration, measured with the real iconv for every target charset over U+00A0..U+2FFFF
(other characters become ``?``); ``//IGNORE`` and ``-c`` skip what can't be converted with
glibc's skip lengths and exit statuses (``-c`` exits 0 when the block wrote something). Errors
are glibc's: ``illegal input sequence at position N`` (stops; later files are not read),
``incomplete character or shift sequence at end of buffer``, ``cannot open input file `x'``.
An encoding this module does not know is ``failed to start conversion processing: No such file
or directory`` (what this machine's glibc prints for any unknown name; a real glibc charset we
do not implement, such as KOI8-R, gets the same line). ``-o FILE`` is created at the first
output byte, as glibc does. ``-l`` is refused in one line (the host's charset list is not
part of the jail).
"""

from __future__ import annotations

import errno
from typing import Callable, Iterator

from sandbox.commands._argp import argp_error, argp_info
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, UsageError, parse
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    short="f:t:lco:s?V",
    long={
        "from-code": (REQUIRED, "f"),
        "to-code": (REQUIRED, "t"),
        "list": (NO_ARG, "l"),
        "output": (REQUIRED, "o"),
        "silent": (NO_ARG, "s"),
        "verbose": (NO_ARG, "verbose"),
        "help": (NO_ARG, "?"),
        "usage": (NO_ARG, "usage"),
        "version": (NO_ARG, "V"),
    },
)

HELP = """Usage: iconv [OPTION...] [FILE...]
Convert encoding of given files from one encoding to another.

 Input/Output format specification:
  -f, --from-code=NAME       encoding of original text
  -t, --to-code=NAME         encoding for output

 Information:
  -l, --list                 list all known coded character sets

 Output control:
  -c                         omit invalid characters from output
  -o, --output=FILE          output file
  -s, --silent               suppress warnings
      --verbose              print progress information

  -?, --help                 Give this help list
      --usage                Give a short usage message
  -V, --version              Print program version

Mandatory or optional arguments to long options are also mandatory or optional
for any corresponding short options.

For bug reporting instructions, please see:
<http://www.debian.org/Bugs/>.
"""

USAGE = """Usage: iconv [-lcs?V] [-f NAME] [-t NAME] [-o FILE] [--from-code=NAME]
            [--to-code=NAME] [--list] [--output=FILE] [--silent] [--verbose]
            [--help] [--usage] [--version] [FILE...]
"""

VERSION = """iconv (Debian GLIBC 2.36-9+deb12u14) 2.36
Copyright (C) 2022 Free Software Foundation, Inc.
This is free software; see the source for copying conditions.  There is NO
warranty; not even for MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.
Written by Ulrich Drepper.
"""

_LATIN = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16}

#: glibc's aliases (gconv_builtin.h and gconv-modules) of the charsets implemented here.
_ALIASES: dict[str, str] = {
    "UTF-8": "UTF-8", "UTF8": "UTF-8", "ISO-IR-193": "UTF-8", "OSF05010001": "UTF-8",
    "ISO-10646/UTF8": "UTF-8", "ISO-10646/UTF-8": "UTF-8",
    "ANSI_X3.4-1968": "ASCII", "ANSI_X3.4": "ASCII", "ISO-IR-6": "ASCII", "ANSI_X3.4-1986": "ASCII",
    "ISO_646.IRV:1991": "ASCII", "ASCII": "ASCII", "ISO646-US": "ASCII", "US-ASCII": "ASCII",
    "US": "ASCII", "IBM367": "ASCII", "CP367": "ASCII", "CSASCII": "ASCII", "OSF00010020": "ASCII",
    "CP1252": "CP1252", "MS-ANSI": "CP1252", "WINDOWS-1252": "CP1252",
    "UTF-16": "UTF-16", "UTF16": "UTF-16", "UTF-16LE": "UTF-16LE", "UTF16LE": "UTF-16LE",
    "UTF-16BE": "UTF-16BE", "UTF16BE": "UTF-16BE", "UTF-32": "UTF-32", "UTF32": "UTF-32",
    "UTF-32LE": "UTF-32LE", "UTF32LE": "UTF-32LE", "UTF-32BE": "UTF-32BE", "UTF32BE": "UTF-32BE",
}
_LATIN_ALIASES = {
    1: "8859_1 CP819 CSISOLATIN1 IBM819 ISO-IR-100 ISO_8859-1:1987 L1 LATIN1 OSF00010001",
    2: "8859_2 CP912 CSISOLATIN2 IBM912 ISO-IR-101 ISO_8859-2:1987 L2 LATIN2 OSF00010002",
    3: "8859_3 CSISOLATIN3 ISO-IR-109 ISO_8859-3:1988 L3 LATIN3 OSF00010003",
    4: "8859_4 CSISOLATIN4 ISO-IR-110 ISO_8859-4:1988 L4 LATIN4 OSF00010004",
    5: "8859_5 CP915 CSISOLATINCYRILLIC CYRILLIC IBM915 ISO-IR-144 ISO_8859-5:1988 OSF00010005",
    6: "8859_6 ARABIC ASMO-708 CP1089 CSISOLATINARABIC ECMA-114 IBM1089 ISO-IR-127 "
       "ISO_8859-6:1987 OSF00010006",
    7: "8859_7 CP813 CSISOLATINGREEK ECMA-118 ELOT_928 GREEK GREEK8 IBM813 ISO-IR-126 "
       "ISO_8859-7:1987 ISO_8859-7:2003 OSF00010007",
    8: "8859_8 CP916 CSISOLATINHEBREW HEBREW IBM916 ISO-IR-138 ISO_8859-8:1988 OSF00010008",
    9: "8859_9 CP920 CSISOLATIN5 ECMA-128 IBM920 ISO-IR-148 ISO_8859-9:1989 L5 LATIN5 "
       "OSF00010009 TS-5881",
    10: "CSISOLATIN6 ISO-IR-157 ISO_8859-10:1992 L6 LATIN6 OSF0001000A",
    11: "",
    13: "BALTIC ISO-IR-179 L7 LATIN7",
    14: "ISO-CELTIC ISO-IR-199 ISO_8859-14:1998 L8 LATIN8",
    15: "ISO-IR-203 ISO_8859-15:1998 LATIN-9 LATIN9",
    16: "ISO-IR-226 ISO_8859-16:2001 L10 LATIN10",
}
for _n, _names in _LATIN_ALIASES.items():
    for _alias in _names.split() + [f"ISO-8859-{_n}", f"ISO8859-{_n}", f"ISO8859{_n}", f"ISO_8859-{_n}"]:
        _ALIASES[_alias] = f"ISO-8859-{_n}"

_PY_CODEC = {"ASCII": "ascii", "CP1252": "cp1252"} | {f"ISO-8859-{n}": f"iso8859_{n}" for n in _LATIN}


class ConversionError(Exception):
    """The conversion can't start (an unknown charset name)."""


def _strip(name: str) -> str:
    """glibc's ``strip``: keep letters, digits and ``_-.,:/``, upper-cased (ASCII only)."""
    return "".join(c.upper() if c.isascii() and c.isalpha() else c for c in name
                   if (c.isascii() and c.isalnum()) or c in "_-.,:/")


def parse_code(name: str) -> tuple[str, bool, bool]:
    """(canonical charset, translit, ignore) for a ``-f``/``-t`` value such as
    ``ascii//TRANSLIT,IGNORE``; ``ConversionError`` for a charset not implemented here."""
    text = _strip(name)
    translit = ignore = False
    parts = text.split("/")
    if parts[0] == "ISO-10646" and len(parts) >= 2:
        charset, suffix = "/".join(parts[:2]), "/".join(parts[2:])
    else:
        charset, suffix = parts[0], "/".join(parts[1:])
    for token in suffix.replace(",", "/").split("/"):
        if token == "TRANSLIT":
            translit = True
        elif token == "IGNORE":
            ignore = True
    if charset == "":
        return "UTF-8", translit, ignore
    canonical = _ALIASES.get(charset)
    if canonical is None:
        raise ConversionError(name)
    return canonical, translit, ignore


# -- decoding ------------------------------------------------------------------------------
#
# A decoder turns the whole input into events: (codepoint, start, end) for a character, or
# (-1, start, end) for an ill-formed sequence glibc skips as one piece, or (-2, start, end) for
# an incomplete character at the end of the buffer.

ILLEGAL = -1
INCOMPLETE = -2

_SB_TABLES: dict[str, list[int]] = {}


def _single_byte_table(charset: str) -> list[int]:
    table = _SB_TABLES.get(charset)
    if table is None:
        codec = _PY_CODEC[charset]
        table = []
        for b in range(256):
            try:
                table.append(ord(bytes([b]).decode(codec)))
            except UnicodeDecodeError:
                table.append(-1)
        _SB_TABLES[charset] = table
    return table


def decode(charset: str, data: bytes,
           state: dict[str, bool] | None = None) -> Iterator[tuple[int, int, int]]:
    """The events of ``data`` read as ``charset`` (see above), in order. ``state`` carries
    what glibc keeps from one file to the next: the byte order a UTF-16/UTF-32 BOM chose
    (a later file's own little-endian BOM does not undo a big-endian one)."""
    state = {} if state is None else state
    if charset == "UTF-8":
        yield from _decode_utf8(data)
    elif charset.startswith("UTF-16"):
        yield from _decode_utf16(data, charset, state)
    elif charset.startswith("UTF-32"):
        yield from _decode_utf32(data, charset, state)
    else:
        table = _single_byte_table(charset)
        for i, b in enumerate(data):
            cp = table[b]
            yield (cp, i, i + 1) if cp >= 0 else (ILLEGAL, i, i + 1)


def _decode_utf8(data: bytes):
    n = len(data)
    i = 0
    while i < n:
        ch = data[i]
        if ch < 0x80:
            # fast path: a run of ASCII
            yield ch, i, i + 1
            i += 1
            continue
        if 0xC2 <= ch < 0xE0:
            cnt, value = 2, ch & 0x1F
        elif ch & 0xF0 == 0xE0:
            cnt, value = 3, ch & 0x0F
        elif ch & 0xF8 == 0xF0:
            cnt, value = 4, ch & 0x07
        elif ch & 0xFC == 0xF8:  # glibc still reads the 5- and 6-byte forms of ISO 10646
            cnt, value = 5, ch & 0x03
        elif ch & 0xFE == 0xFC:
            cnt, value = 6, ch & 0x01
        else:
            j = 1
            while i + j < n and data[i + j] & 0xC0 == 0x80 and j < 5:
                j += 1
            yield ILLEGAL, i, i + j
            i += j
            continue
        if i + cnt > n:
            j = 1
            while i + j < n and data[i + j] & 0xC0 == 0x80:
                j += 1
            if i + j == n:
                yield INCOMPLETE, i, n
                return
            yield ILLEGAL, i, i + j
            i += j
            continue
        j = 1
        while j < cnt:
            byte = data[i + j]
            if byte & 0xC0 != 0x80:
                break
            value = (value << 6) | (byte & 0x3F)
            j += 1
        if j < cnt or (cnt > 2 and value >> (5 * cnt - 4) == 0) or 0xD800 <= value <= 0xDFFF:
            yield ILLEGAL, i, i + j
            i += j
            continue
        yield value, i, i + cnt
        i += cnt


def _decode_utf16(data: bytes, charset: str, state: dict[str, bool]):
    i = 0
    n = len(data)
    if charset == "UTF-16" and n >= 2:
        if data[:2] == b"\xfe\xff":
            state["swap"], i = True, 2
        elif data[:2] == b"\xff\xfe":
            i = 2
    order = "big" if charset == "UTF-16BE" or (charset == "UTF-16" and state.get("swap")) else "little"
    while i < n:
        if i + 2 > n:
            yield INCOMPLETE, i, n
            return
        u1 = int.from_bytes(data[i:i + 2], order)
        if u1 < 0xD800 or u1 > 0xDFFF:
            yield u1, i, i + 2
            i += 2
            continue
        if u1 >= 0xDC00:
            yield ILLEGAL, i, i + 2
            i += 2
            continue
        if i + 4 > n:
            yield INCOMPLETE, i, n
            return
        u2 = int.from_bytes(data[i + 2:i + 4], order)
        if not 0xDC00 <= u2 <= 0xDFFF:
            yield ILLEGAL, i, i + 2
            i += 2
            continue
        yield ((u1 - 0xD7C0) << 10) + (u2 - 0xDC00), i, i + 4
        i += 4


def _decode_utf32(data: bytes, charset: str, state: dict[str, bool]):
    i = 0
    n = len(data)
    if charset == "UTF-32" and n >= 4:
        if data[:4] == b"\x00\x00\xfe\xff":
            state["swap"], i = True, 4
        elif data[:4] == b"\xff\xfe\x00\x00":
            i = 4
    order = "big" if charset == "UTF-32BE" or (charset == "UTF-32" and state.get("swap")) else "little"
    while i < n:
        if i + 4 > n:
            yield INCOMPLETE, i, n
            return
        u = int.from_bytes(data[i:i + 4], order)
        if u > 0x10FFFF or 0xD800 <= u <= 0xDFFF:
            yield ILLEGAL, i, i + 4
        else:
            yield u, i, i + 4
        i += 4


# -- encoding ------------------------------------------------------------------------------

_ENC_TABLES: dict[str, dict[int, int]] = {}


def _encode_table(charset: str) -> dict[int, int]:
    table = _ENC_TABLES.get(charset)
    if table is None:
        table = {cp: b for b, cp in enumerate(_single_byte_table(charset)) if cp >= 0}
        _ENC_TABLES[charset] = table
    return table


def encoder(charset: str) -> Callable[[int], bytes | None]:
    """A function from a code point to its bytes in ``charset``, or None when it has none."""
    if charset == "UTF-8":
        return _encode_utf8
    if charset.startswith("UTF-16"):
        codec = "utf-16-be" if charset == "UTF-16BE" else "utf-16-le"
        return lambda cp: chr(cp).encode(codec) if cp <= 0x10FFFF else None
    if charset.startswith("UTF-32"):
        order = "big" if charset == "UTF-32BE" else "little"
        return lambda cp: cp.to_bytes(4, order) if cp <= 0x10FFFF else None
    table = _encode_table(charset)

    def single(cp: int) -> bytes | None:
        b = table.get(cp)
        return None if b is None else bytes((b,))
    return single


def _encode_utf8(cp: int) -> bytes:
    """UTF-8, with glibc's 5- and 6-byte forms for the values above U+10FFFF it reads."""
    if cp <= 0x10FFFF:
        return chr(cp).encode("utf-8")
    cnt = 4 if cp < 0x200000 else 5 if cp < 0x4000000 else 6
    tail = bytearray()
    for _ in range(cnt - 1):
        tail.insert(0, 0x80 | (cp & 0x3F))
        cp >>= 6
    lead = (0xF0, 0xF8, 0xFC)[cnt - 4] | cp
    return bytes((lead,)) + bytes(tail)


def _bom(charset: str) -> bytes:
    return {"UTF-16": b"\xff\xfe", "UTF-32": b"\xff\xfe\x00\x00"}.get(charset, b"")


#: Characters glibc's first step decodes per round (GCONV_NCHAR_GOAL).
ROUND = 8160

_TRANSLIT_CACHE: dict[str, dict[int, str]] = {}


def _parse_records(text: str) -> dict[int, str]:
    table: dict[int, str] = {}
    for record in text.split("\x1e"):
        if record:
            key, _, value = record.partition("=")
            table[int(key, 16)] = value
    return table


def transliteration(charset: str) -> dict[int, str]:
    """glibc's transliteration of the characters ``charset`` lacks (absent: ``?``)."""
    table = _TRANSLIT_CACHE.get(charset)
    if table is None:
        table = _parse_records(_TRANSLIT_ASCII)
        if charset not in _PY_CODEC:  # the UTF targets lack only the values past U+10FFFF
            table = {}
        elif charset in _TRANSLIT_DIFF:
            for cp, value in _parse_records(_TRANSLIT_DIFF[charset]).items():
                table[cp] = value or "?"
        _TRANSLIT_CACHE[charset] = table
    return table


class Converter:
    """One conversion descriptor: the state glibc keeps across the files of one run."""

    def __init__(self, from_code: str, to_code: str, omit_invalid: bool):
        self.source, _, _ = parse_code(from_code)
        self.target, self.translit, ignore = parse_code(to_code)
        self.ignore = ignore or omit_invalid
        self.encode = encoder(self.target)
        self.state: dict[str, bool] = {}

    def convert(self, ctx: CommandContext, data: bytes, omit: bool) -> tuple[bytes, str | None, bool]:
        """Convert one whole input block as glibc's ``process_block``: (output, error message or
        None, whether the block fails without a message).

        glibc converts in two steps (charset to UCS-4, UCS-4 to charset), the first in rounds
        of ``ROUND`` characters (its intermediate buffer). With ``//IGNORE`` or ``-c`` an
        ``iconv()`` call ends with EILSEQ at the end of a round whose status is "illegal":
        the second step's last event was a skipped character (a transliteration, the other
        kind of event, makes it "go on"), or, with no such event, the first step skipped an
        ill-formed sequence in the round that ran out of input (a full round forgets it).
        Without ``-c`` that is ``illegal input sequence at position <round end>`` and the run
        stops; with ``-c`` the block fails only if the last such call wrote nothing.
        """
        out = bytearray()
        # The BOM comes with the first character the second step sees (once per file: glibc
        # resets the state after each one); a file with none gets none.
        bom = _bom(self.target)
        encode = self.encode
        table = transliteration(self.target) if self.translit else None
        chars = 0
        first_skip = False
        second: str | None = None  # the second step's last status: "ok" or "illegal"
        failed = False
        segment_start = 0

        def eilseq() -> bool:
            """A call ends in EILSEQ; True when the block goes on (``-c``)."""
            nonlocal failed, segment_start
            if not omit:
                return False
            failed = len(out) == segment_start
            segment_start = len(out)
            return True

        for cp, start, end in decode(self.source, data, self.state):
            if chars == ROUND:
                if second == "illegal" and not eilseq():
                    return bytes(out), f"illegal input sequence at position {start}", False
                chars = 0
                first_skip = False
                second = None
                ctx.budget.check_time()
            if cp == INCOMPLETE:
                if second == "illegal" and not eilseq():
                    return bytes(out), f"illegal input sequence at position {start}", False
                return bytes(out), "incomplete character or shift sequence at end of buffer", False
            if cp == ILLEGAL:
                if self.ignore:
                    first_skip = True
                    continue
                return bytes(out), f"illegal input sequence at position {start}", False
            chars += 1
            if bom:
                out += bom
                bom = b""
            piece = encode(cp)
            if piece is None and table is not None:
                replacement = table.get(cp, "?")
                # glibc runs the step afresh on the replacement: UTF-16/UTF-32 write a BOM again
                piece = _bom(self.target) + b"".join(encode(ord(c)) or b"?" for c in replacement)
                second = "ok"
            if piece is None:
                if self.ignore:
                    second = "illegal"
                    continue
                return bytes(out), f"illegal input sequence at position {start}", False
            out += piece
        if second == "illegal" or (second is None and first_skip):
            if not eilseq():
                return bytes(out), f"illegal input sequence at position {len(data)}", False
        elif len(out) > segment_start:
            failed = False
        return bytes(out), None, failed


def writes(args: list[str]) -> list[str]:
    """The ``-o`` file this command line would write."""
    try:
        opts, _ = parse(SPEC, args)
    except UsageError:
        return []
    return [value for key, value in opts if key == "o" and value not in (None, "-")]


def run(ctx: CommandContext) -> int:
    """Run ``iconv``."""
    try:
        opts, operands = parse(SPEC, ctx.args)
    except UsageError as err:
        return argp_error(ctx, str(err))
    from_code = to_code = ""
    output: str | None = None
    omit = verbose = listing = False
    if argp_info(ctx, [k for k, _ in opts], HELP, USAGE, VERSION):
        return 0
    for key, value in opts:
        if key == "f":
            from_code = value or ""
        elif key == "t":
            to_code = value or ""
        elif key == "o":
            output = value
        elif key == "c":
            omit = True
        elif key == "verbose":
            verbose = True
        elif key == "l":
            listing = True
    if listing:
        ctx.error("--list is not available in this sandbox")
        return 1
    try:
        conv = Converter(from_code, to_code, omit)
    except ConversionError:
        ctx.error("failed to start conversion processing: No such file or directory")
        return 1
    result = bytearray()
    wrote = read_before = stdin_closed = False
    status = 0
    for operand in operands or [None]:
        if operand is not None and verbose:
            ctx.stderr.write(f"{operand}:\n".encode("utf-8", "surrogateescape"))
        if operand == "-" and stdin_closed:  # glibc closed fd 0 after the first '-'
            ctx.error("error while reading the input: Bad file descriptor")
            status = 1
            break
        stdin_closed = stdin_closed or operand == "-"
        try:
            data = ctx.stdin.read() if operand in (None, "-") else ctx.read_bytes(operand)
        except FSError as err:
            if err.errno in (errno.EISDIR, errno.EBADF):  # opened; its read fails
                ctx.error(f"error while reading the input: {err.strerror}")
                read_before = True
                status = 1
                break
            ctx.error(f"cannot open input file `{operand}': {err.strerror}")
            status = 1
            continue
        # glibc reads stdin and empty files with read(2) into a static buffer; the second such
        # read of any data passes a NULL pointer (an iconv_prog bug): EFAULT, and the run stops.
        by_read = operand in (None, "-") or not data
        if by_read and read_before and data:
            ctx.error("error while reading the input: Bad address")
            status = 1
            break
        read_before = read_before or by_read
        out, message, failed = conv.convert(ctx, data, omit)
        if out:
            wrote = True
            if output is None or output == "-":
                ctx.stdout.write(out)
            else:
                result += out
        if message is not None:
            _flush(ctx, output, result, wrote)
            ctx.error(message)
            return 1
        if failed:
            status = 1
    if not _flush(ctx, output, result, wrote):
        return 1
    return status


def _flush(ctx: CommandContext, output: str | None, result: bytearray, wrote: bool) -> bool:
    """Write the ``-o`` file (created only once something was output, as glibc's fopen)."""
    if output is None or output == "-" or not wrote:
        return True
    try:
        ctx.write_bytes(output, bytes(result))
    except FSError as err:
        ctx.error(f"cannot open output file: {err.strerror}")
        return False
    return True


#: glibc 2.36's C.UTF-8 transliteration, measured with the real iconv over U+00A0..U+2FFFF:
#: ``HEX=replacement`` records separated by U+001E; absent characters become '?'.
_TRANSLIT_ASCII = (
    'A0= \x1eA1=!\x1eA2=c\x1eA3=GBP\x1eA5=JPY\x1eA6=|\x1eA9=(C)\x1eAA=a\x1eAB=<<\x1eAC=!\x1eAD=-\x1eAE=(R)\x1eB1=+-\x1eB2=2\x1eB3=3\x1eB4='
    "'\x1eB5=u\x1eB7=.\x1eB8=,\x1eB9=1\x1eBA=o\x1eBB=>>\x1eBC= 1/4 \x1eBD= 1/2 \x1eBE= 3/4 \x1eC0=A\x1eC1=A\x1eC2=A\x1eC3=A\x1eC4=A\x1eC5="
    'A\x1eC6=AE\x1eC7=C\x1eC8=E\x1eC9=E\x1eCA=E\x1eCB=E\x1eCC=I\x1eCD=I\x1eCE=I\x1eCF=I\x1eD0=D\x1eD1=N\x1eD2=O\x1eD3=O\x1eD4=O\x1eD5=O\x1eD6=O\x1e'
    'D7=x\x1eD8=O\x1eD9=U\x1eDA=U\x1eDB=U\x1eDC=U\x1eDD=Y\x1eDE=TH\x1eDF=ss\x1eE0=a\x1eE1=a\x1eE2=a\x1eE3=a\x1eE4=a\x1eE5=a\x1eE6=ae\x1eE7=c\x1e'
    'E8=e\x1eE9=e\x1eEA=e\x1eEB=e\x1eEC=i\x1eED=i\x1eEE=i\x1eEF=i\x1eF0=d\x1eF1=n\x1eF2=o\x1eF3=o\x1eF4=o\x1eF5=o\x1eF6=o\x1eF7=/\x1eF8=o\x1eF9='
    'u\x1eFA=u\x1eFB=u\x1eFC=u\x1eFD=y\x1eFE=th\x1eFF=y\x1e100=A\x1e101=a\x1e102=A\x1e103=a\x1e104=A\x1e105=a\x1e106=C\x1e107=c\x1e108=C\x1e1'
    '09=c\x1e10A=C\x1e10B=c\x1e10C=C\x1e10D=c\x1e10E=D\x1e10F=d\x1e110=D\x1e111=d\x1e112=E\x1e113=e\x1e114=E\x1e115=e\x1e116=E\x1e117=e'
    '\x1e118=E\x1e119=e\x1e11A=E\x1e11B=e\x1e11C=G\x1e11D=g\x1e11E=G\x1e11F=g\x1e120=G\x1e121=g\x1e122=G\x1e123=g\x1e124=H\x1e125=h\x1e126'
    '=H\x1e127=h\x1e128=I\x1e129=i\x1e12A=I\x1e12B=i\x1e12C=I\x1e12D=i\x1e12E=I\x1e12F=i\x1e130=I\x1e131=i\x1e132=IJ\x1e133=ij\x1e134=J'
    '\x1e135=j\x1e136=K\x1e137=k\x1e138=q\x1e139=L\x1e13A=l\x1e13B=L\x1e13C=l\x1e13D=L\x1e13E=l\x1e13F=L\x1e140=l\x1e141=L\x1e142=l\x1e143'
    "=N\x1e144=n\x1e145=N\x1e146=n\x1e147=N\x1e148=n\x1e149='n\x1e14A=N\x1e14B=n\x1e14C=O\x1e14D=o\x1e14E=O\x1e14F=o\x1e150=O\x1e151=o\x1e"
    '152=OE\x1e153=oe\x1e154=R\x1e155=r\x1e156=R\x1e157=r\x1e158=R\x1e159=r\x1e15A=S\x1e15B=s\x1e15C=S\x1e15D=s\x1e15E=S\x1e15F=s\x1e16'
    '0=S\x1e161=s\x1e162=T\x1e163=t\x1e164=T\x1e165=t\x1e166=T\x1e167=t\x1e168=U\x1e169=u\x1e16A=U\x1e16B=u\x1e16C=U\x1e16D=u\x1e16E=U\x1e'
    '16F=u\x1e170=U\x1e171=u\x1e172=U\x1e173=u\x1e174=W\x1e175=w\x1e176=Y\x1e177=y\x1e178=Y\x1e179=Z\x1e17A=z\x1e17B=Z\x1e17C=z\x1e17D='
    'Z\x1e17E=z\x1e17F=s\x1e180=b\x1e181=B\x1e182=B\x1e183=b\x1e187=C\x1e188=c\x1e189=D\x1e18A=D\x1e18B=D\x1e18C=d\x1e190=E\x1e191=F\x1e19'
    '2=f\x1e193=G\x1e195=hv\x1e196=I\x1e197=I\x1e198=K\x1e199=k\x1e19A=l\x1e19D=N\x1e19E=n\x1e1A0=O\x1e1A1=o\x1e1A2=OI\x1e1A3=oi\x1e1A4'
    '=P\x1e1A5=p\x1e1AB=t\x1e1AC=T\x1e1AD=t\x1e1AE=T\x1e1AF=U\x1e1B0=u\x1e1B2=V\x1e1B3=Y\x1e1B4=y\x1e1B5=Z\x1e1B6=z\x1e1C7=LJ\x1e1C8=Lj'
    '\x1e1C9=lj\x1e1CA=NJ\x1e1CB=Nj\x1e1CC=nj\x1e1CD=A\x1e1CE=a\x1e1CF=I\x1e1D0=i\x1e1D1=O\x1e1D2=o\x1e1D3=U\x1e1D4=u\x1e1D5=U\x1e1D6=u'
    '\x1e1D7=U\x1e1D8=u\x1e1D9=U\x1e1DA=u\x1e1DB=U\x1e1DC=u\x1e1DE=A\x1e1DF=a\x1e1E0=A\x1e1E1=a\x1e1E2=AE\x1e1E3=ae\x1e1E4=G\x1e1E5=g\x1e1'
    'E6=G\x1e1E7=g\x1e1E8=K\x1e1E9=k\x1e1EA=O\x1e1EB=o\x1e1EC=O\x1e1ED=o\x1e1F0=j\x1e1F1=DZ\x1e1F2=Dz\x1e1F3=dz\x1e1F4=G\x1e1F5=g\x1e1F'
    '8=N\x1e1F9=n\x1e1FA=A\x1e1FB=a\x1e1FC=AE\x1e1FD=ae\x1e1FE=O\x1e1FF=o\x1e200=A\x1e201=a\x1e202=A\x1e203=a\x1e204=E\x1e205=e\x1e206='
    'E\x1e207=e\x1e208=I\x1e209=i\x1e20A=I\x1e20B=i\x1e20C=O\x1e20D=o\x1e20E=O\x1e20F=o\x1e210=R\x1e211=r\x1e212=R\x1e213=r\x1e214=U\x1e21'
    '5=u\x1e216=U\x1e217=u\x1e218=S\x1e219=s\x1e21A=T\x1e21B=t\x1e21E=H\x1e21F=h\x1e221=d\x1e224=Z\x1e225=z\x1e226=A\x1e227=a\x1e228=E\x1e'
    '229=e\x1e22A=O\x1e22B=o\x1e22C=O\x1e22D=o\x1e22E=O\x1e22F=o\x1e230=O\x1e231=o\x1e232=Y\x1e233=y\x1e234=l\x1e235=n\x1e236=t\x1e237='
    'j\x1e238=db\x1e239=qp\x1e23A=A\x1e23B=C\x1e23C=c\x1e23D=L\x1e23E=T\x1e23F=s\x1e240=z\x1e243=B\x1e244=U\x1e246=E\x1e247=e\x1e248=J\x1e'
    '249=j\x1e24C=R\x1e24D=r\x1e24E=Y\x1e24F=y\x1e253=b\x1e255=c\x1e256=d\x1e257=d\x1e25B=e\x1e25F=j\x1e260=g\x1e261=g\x1e262=G\x1e266='
    'h\x1e267=h\x1e268=i\x1e26A=I\x1e26B=l\x1e26C=l\x1e26D=l\x1e271=m\x1e272=n\x1e273=n\x1e274=N\x1e276=OE\x1e27C=r\x1e27D=r\x1e27E=r\x1e2'
    '80=R\x1e282=s\x1e288=t\x1e289=u\x1e28B=v\x1e28F=Y\x1e290=z\x1e291=z\x1e299=B\x1e29B=G\x1e29C=H\x1e29D=j\x1e29F=L\x1e2A0=q\x1e2A3=d'
    "z\x1e2A5=dz\x1e2A6=ts\x1e2AA=ls\x1e2AB=lz\x1e2B0=h\x1e2B2=j\x1e2B3=r\x1e2B7=w\x1e2B8=y\x1e2BC='\x1e2C6=^\x1e2C8='\x1e2CB=`\x1e2CD="
    "_\x1e2D0=:\x1e2DC=~\x1e2DD=''\x1e2E1=l\x1e2E2=s\x1e2E3=x\x1e300=\x1e301=\x1e302=\x1e303=\x1e304=\x1e305=\x1e306=\x1e307=\x1e308=\x1e309="
    '\x1e30A=\x1e30B=\x1e30C=\x1e30D=\x1e30E=\x1e30F=\x1e310=\x1e311=\x1e312=\x1e313=\x1e314=\x1e315=\x1e316=\x1e317=\x1e318=\x1e319=\x1e31A=\x1e31'
    'B=\x1e31C=\x1e31D=\x1e31E=\x1e31F=\x1e320=\x1e321=\x1e322=\x1e323=\x1e324=\x1e325=\x1e326=\x1e327=\x1e328=\x1e329=\x1e32A=\x1e32B=\x1e32C=\x1e'
    '32D=\x1e32E=\x1e32F=\x1e330=\x1e331=\x1e332=\x1e333=\x1e334=\x1e335=\x1e336=\x1e337=\x1e338=\x1e339=\x1e33A=\x1e33B=\x1e33C=\x1e33D=\x1e33E'
    '=\x1e33F=\x1e340=\x1e341=\x1e342=\x1e343=\x1e344=\x1e345=\x1e346=\x1e347=\x1e348=\x1e349=\x1e34A=\x1e34B=\x1e34C=\x1e34D=\x1e34E=\x1e34F=\x1e3'
    '50=\x1e351=\x1e352=\x1e353=\x1e354=\x1e355=\x1e356=\x1e357=\x1e358=\x1e359=\x1e35A=\x1e35B=\x1e35C=\x1e35D=\x1e35E=\x1e35F=\x1e360=\x1e361='
    '\x1e362=\x1e363=\x1e364=\x1e365=\x1e366=\x1e367=\x1e368=\x1e369=\x1e36A=\x1e36B=\x1e36C=\x1e36D=\x1e36E=\x1e36F=\x1e37E=;\x1e3BC=u\x1e58F=A'
    'MD\x1e591=\x1e592=\x1e593=\x1e594=\x1e595=\x1e596=\x1e597=\x1e598=\x1e599=\x1e59A=\x1e59B=\x1e59C=\x1e59D=\x1e59E=\x1e59F=\x1e5A0=\x1e5A1=\x1e'
    '5A2=\x1e5A3=\x1e5A4=\x1e5A5=\x1e5A6=\x1e5A7=\x1e5A8=\x1e5A9=\x1e5AA=\x1e5AB=\x1e5AC=\x1e5AD=\x1e5AE=\x1e5AF=\x1e5B0=\x1e5B1=\x1e5B2=\x1e5B3'
    '=\x1e5B4=\x1e5B5=\x1e5B6=\x1e5B7=\x1e5B8=\x1e5B9=\x1e5BA=\x1e5BB=\x1e5BC=\x1e5BD=\x1e5BF=\x1e5C1=\x1e5C2=\x1e5C4=\x1e5C5=\x1e5C7=\x1e610=\x1e6'
    '11=\x1e612=\x1e613=\x1e614=\x1e615=\x1e616=\x1e617=\x1e618=\x1e619=\x1e61A=\x1e64B=\x1e64C=\x1e64D=\x1e64E=\x1e64F=\x1e650=\x1e651=\x1e652='
    '\x1e653=\x1e654=\x1e655=\x1e656=\x1e657=\x1e658=\x1e659=\x1e65A=\x1e65B=\x1e65C=\x1e65D=\x1e65E=\x1e65F=\x1e670=\x1e6D6=\x1e6D7=\x1e6D8=\x1e6D'
    '9=\x1e6DA=\x1e6DB=\x1e6DC=\x1e6DF=\x1e6E0=\x1e6E1=\x1e6E2=\x1e6E3=\x1e6E4=\x1e6E7=\x1e6E8=\x1e6EA=\x1e6EB=\x1e6EC=\x1e6ED=\x1e898=\x1e899=\x1e'
    '89A=\x1e89B=\x1e89C=\x1e89D=\x1e89E=\x1e89F=\x1e8CA=\x1e8CB=\x1e8CC=\x1e8CD=\x1e8CE=\x1e8CF=\x1e8D0=\x1e8D1=\x1e8D2=\x1e8D3=\x1e8D4=\x1e8D5'
    '=\x1e8D6=\x1e8D7=\x1e8D8=\x1e8D9=\x1e8DA=\x1e8DB=\x1e8DC=\x1e8DD=\x1e8DE=\x1e8DF=\x1e8E0=\x1e8E1=\x1e8E3=\x1e8E4=\x1e8E5=\x1e8E6=\x1e8E7=\x1e8'
    'E8=\x1e8E9=\x1e8EA=\x1e8EB=\x1e8EC=\x1e8ED=\x1e8EE=\x1e8EF=\x1e8F0=\x1e8F1=\x1e8F2=\x1e8F3=\x1e8F4=\x1e8F5=\x1e8F6=\x1e8F7=\x1e8F8=\x1e8F9='
    '\x1e8FA=\x1e8FB=\x1e8FC=\x1e8FD=\x1e8FE=\x1e8FF=\x1e1AB0=\x1e1AB1=\x1e1AB2=\x1e1AB3=\x1e1AB4=\x1e1AB5=\x1e1AB6=\x1e1AB7=\x1e1AB8=\x1e1AB'
    '9=\x1e1ABA=\x1e1ABB=\x1e1ABC=\x1e1ABD=\x1e1ABE=\x1e1ABF=\x1e1AC0=\x1e1AC1=\x1e1AC2=\x1e1AC3=\x1e1AC4=\x1e1AC5=\x1e1AC6=\x1e1AC7=\x1e1'
    'AC8=\x1e1AC9=\x1e1ACA=\x1e1ACB=\x1e1ACC=\x1e1ACD=\x1e1ACE=\x1e1D00=A\x1e1D01=AE\x1e1D03=B\x1e1D04=C\x1e1D05=D\x1e1D06=D\x1e1D07'
    '=E\x1e1D0A=J\x1e1D0B=K\x1e1D0C=L\x1e1D0D=M\x1e1D0F=O\x1e1D18=P\x1e1D1B=T\x1e1D1C=U\x1e1D20=V\x1e1D21=W\x1e1D22=Z\x1e1D2C=A\x1e1'
    'D2E=B\x1e1D30=D\x1e1D31=E\x1e1D33=G\x1e1D34=H\x1e1D35=I\x1e1D36=J\x1e1D37=K\x1e1D38=L\x1e1D39=M\x1e1D3A=N\x1e1D3C=O\x1e1D3E='
    'P\x1e1D3F=R\x1e1D40=T\x1e1D41=U\x1e1D42=W\x1e1D43=a\x1e1D47=b\x1e1D48=d\x1e1D49=e\x1e1D4D=g\x1e1D4F=k\x1e1D50=m\x1e1D52=o\x1e1D'
    '56=p\x1e1D57=t\x1e1D58=u\x1e1D5B=v\x1e1D62=i\x1e1D63=r\x1e1D64=u\x1e1D65=v\x1e1D6B=ue\x1e1D6C=b\x1e1D6D=d\x1e1D6E=f\x1e1D6F='
    'm\x1e1D70=n\x1e1D71=p\x1e1D72=r\x1e1D73=r\x1e1D74=s\x1e1D75=t\x1e1D76=z\x1e1D7A=th\x1e1D7B=I\x1e1D7D=p\x1e1D7E=U\x1e1D80=b\x1e1'
    'D81=d\x1e1D82=f\x1e1D83=g\x1e1D84=k\x1e1D85=l\x1e1D86=m\x1e1D87=n\x1e1D88=p\x1e1D89=r\x1e1D8A=s\x1e1D8C=v\x1e1D8D=x\x1e1D8E='
    'z\x1e1D8F=a\x1e1D91=d\x1e1D92=e\x1e1D93=e\x1e1D96=i\x1e1D99=u\x1e1D9C=c\x1e1DA0=f\x1e1DBB=z\x1e1DC0=\x1e1DC1=\x1e1DC2=\x1e1DC3='
    '\x1e1DC4=\x1e1DC5=\x1e1DC6=\x1e1DC7=\x1e1DC8=\x1e1DC9=\x1e1DCA=\x1e1DCB=\x1e1DCC=\x1e1DCD=\x1e1DCE=\x1e1DCF=\x1e1DD0=\x1e1DD1=\x1e1DD'
    '2=\x1e1DD3=\x1e1DD4=\x1e1DD5=\x1e1DD6=\x1e1DD7=\x1e1DD8=\x1e1DD9=\x1e1DDA=\x1e1DDB=\x1e1DDC=\x1e1DDD=\x1e1DDE=\x1e1DDF=\x1e1DE0=\x1e1'
    'DE1=\x1e1DE2=\x1e1DE3=\x1e1DE4=\x1e1DE5=\x1e1DE6=\x1e1DE7=\x1e1DE8=\x1e1DE9=\x1e1DEA=\x1e1DEB=\x1e1DEC=\x1e1DED=\x1e1DEE=\x1e1DEF='
    '\x1e1DF0=\x1e1DF1=\x1e1DF2=\x1e1DF3=\x1e1DF4=\x1e1DF5=\x1e1DF6=\x1e1DF7=\x1e1DF8=\x1e1DF9=\x1e1DFA=\x1e1DFB=\x1e1DFC=\x1e1DFD=\x1e1DF'
    'E=\x1e1DFF=\x1e1E00=A\x1e1E01=a\x1e1E02=B\x1e1E03=b\x1e1E04=B\x1e1E05=b\x1e1E06=B\x1e1E07=b\x1e1E08=C\x1e1E09=c\x1e1E0A=D\x1e1E'
    '0B=d\x1e1E0C=D\x1e1E0D=d\x1e1E0E=D\x1e1E0F=d\x1e1E10=D\x1e1E11=d\x1e1E12=D\x1e1E13=d\x1e1E14=E\x1e1E15=e\x1e1E16=E\x1e1E17=e'
    '\x1e1E18=E\x1e1E19=e\x1e1E1A=E\x1e1E1B=e\x1e1E1C=E\x1e1E1D=e\x1e1E1E=F\x1e1E1F=f\x1e1E20=G\x1e1E21=g\x1e1E22=H\x1e1E23=h\x1e1E2'
    '4=H\x1e1E25=h\x1e1E26=H\x1e1E27=h\x1e1E28=H\x1e1E29=h\x1e1E2A=H\x1e1E2B=h\x1e1E2C=I\x1e1E2D=i\x1e1E2E=I\x1e1E2F=i\x1e1E30=K\x1e'
    '1E31=k\x1e1E32=K\x1e1E33=k\x1e1E34=K\x1e1E35=k\x1e1E36=L\x1e1E37=l\x1e1E38=L\x1e1E39=l\x1e1E3A=L\x1e1E3B=l\x1e1E3C=L\x1e1E3D'
    '=l\x1e1E3E=M\x1e1E3F=m\x1e1E40=M\x1e1E41=m\x1e1E42=M\x1e1E43=m\x1e1E44=N\x1e1E45=n\x1e1E46=N\x1e1E47=n\x1e1E48=N\x1e1E49=n\x1e1'
    'E4A=N\x1e1E4B=n\x1e1E4C=O\x1e1E4D=o\x1e1E4E=O\x1e1E4F=o\x1e1E50=O\x1e1E51=o\x1e1E52=O\x1e1E53=o\x1e1E54=P\x1e1E55=p\x1e1E56='
    'P\x1e1E57=p\x1e1E58=R\x1e1E59=r\x1e1E5A=R\x1e1E5B=r\x1e1E5C=R\x1e1E5D=r\x1e1E5E=R\x1e1E5F=r\x1e1E60=S\x1e1E61=s\x1e1E62=S\x1e1E'
    '63=s\x1e1E64=S\x1e1E65=s\x1e1E66=S\x1e1E67=s\x1e1E68=S\x1e1E69=s\x1e1E6A=T\x1e1E6B=t\x1e1E6C=T\x1e1E6D=t\x1e1E6E=T\x1e1E6F=t'
    '\x1e1E70=T\x1e1E71=t\x1e1E72=U\x1e1E73=u\x1e1E74=U\x1e1E75=u\x1e1E76=U\x1e1E77=u\x1e1E78=U\x1e1E79=u\x1e1E7A=U\x1e1E7B=u\x1e1E7'
    'C=V\x1e1E7D=v\x1e1E7E=V\x1e1E7F=v\x1e1E80=W\x1e1E81=w\x1e1E82=W\x1e1E83=w\x1e1E84=W\x1e1E85=w\x1e1E86=W\x1e1E87=w\x1e1E88=W\x1e'
    '1E89=w\x1e1E8A=X\x1e1E8B=x\x1e1E8C=X\x1e1E8D=x\x1e1E8E=Y\x1e1E8F=y\x1e1E90=Z\x1e1E91=z\x1e1E92=Z\x1e1E93=z\x1e1E94=Z\x1e1E95'
    '=z\x1e1E96=h\x1e1E97=t\x1e1E98=w\x1e1E99=y\x1e1E9A=a\x1e1E9C=s\x1e1E9D=s\x1e1E9E=SS\x1e1EA0=A\x1e1EA1=a\x1e1EA2=A\x1e1EA3=a\x1e'
    '1EA4=A\x1e1EA5=a\x1e1EA6=A\x1e1EA7=a\x1e1EA8=A\x1e1EA9=a\x1e1EAA=A\x1e1EAB=a\x1e1EAC=A\x1e1EAD=a\x1e1EAE=A\x1e1EAF=a\x1e1EB0'
    '=A\x1e1EB1=a\x1e1EB2=A\x1e1EB3=a\x1e1EB4=A\x1e1EB5=a\x1e1EB6=A\x1e1EB7=a\x1e1EB8=E\x1e1EB9=e\x1e1EBA=E\x1e1EBB=e\x1e1EBC=E\x1e1'
    'EBD=e\x1e1EBE=E\x1e1EBF=e\x1e1EC0=E\x1e1EC1=e\x1e1EC2=E\x1e1EC3=e\x1e1EC4=E\x1e1EC5=e\x1e1EC6=E\x1e1EC7=e\x1e1EC8=I\x1e1EC9='
    'i\x1e1ECA=I\x1e1ECB=i\x1e1ECC=O\x1e1ECD=o\x1e1ECE=O\x1e1ECF=o\x1e1ED0=O\x1e1ED1=o\x1e1ED2=O\x1e1ED3=o\x1e1ED4=O\x1e1ED5=o\x1e1E'
    'D6=O\x1e1ED7=o\x1e1ED8=O\x1e1ED9=o\x1e1EDA=O\x1e1EDB=o\x1e1EDC=O\x1e1EDD=o\x1e1EDE=O\x1e1EDF=o\x1e1EE0=O\x1e1EE1=o\x1e1EE2=O'
    '\x1e1EE3=o\x1e1EE4=U\x1e1EE5=u\x1e1EE6=U\x1e1EE7=u\x1e1EE8=U\x1e1EE9=u\x1e1EEA=U\x1e1EEB=u\x1e1EEC=U\x1e1EED=u\x1e1EEE=U\x1e1EE'
    'F=u\x1e1EF0=U\x1e1EF1=u\x1e1EF2=Y\x1e1EF3=y\x1e1EF4=Y\x1e1EF5=y\x1e1EF6=Y\x1e1EF7=y\x1e1EF8=Y\x1e1EF9=y\x1e1EFA=LL\x1e1EFB=l'
    'l\x1e1EFC=V\x1e1EFD=v\x1e1EFE=Y\x1e1EFF=y\x1e1FEF=`\x1e2000= \x1e2001= \x1e2002= \x1e2003= \x1e2004= \x1e2005= \x1e2006= \x1e20'
    "08= \x1e2009= \x1e200A= \x1e200B=\x1e2010=-\x1e2011=-\x1e2012=-\x1e2013=-\x1e2014=--\x1e2015=-\x1e2018='\x1e2019='\x1e201A=,"
    '\x1e201B=\'\x1e201C="\x1e201D="\x1e201E=,,\x1e201F="\x1e2020=+\x1e2022=o\x1e2024=.\x1e2025=..\x1e2026=...\x1e202F= \x1e2035=`'
    '\x1e2036=``\x1e2037=```\x1e2039=<\x1e203A=>\x1e203C=!!\x1e2044=/\x1e2047=??\x1e2048=?!\x1e2049=!?\x1e204A=&\x1e205F= \x1e206'
    '0=\x1e2061=\x1e2062=\x1e2063=\x1e2070=0\x1e2071=i\x1e2074=4\x1e2075=5\x1e2076=6\x1e2077=7\x1e2078=8\x1e2079=9\x1e207A=+\x1e207C'
    '==\x1e207D=(\x1e207E=)\x1e207F=n\x1e2080=0\x1e2081=1\x1e2082=2\x1e2083=3\x1e2084=4\x1e2085=5\x1e2086=6\x1e2087=7\x1e2088=8\x1e2'
    '089=9\x1e208A=+\x1e208C==\x1e208D=(\x1e208E=)\x1e2090=a\x1e2091=e\x1e2092=o\x1e2093=x\x1e2095=h\x1e2096=k\x1e2097=l\x1e2098='
    'm\x1e2099=n\x1e209A=p\x1e209B=s\x1e209C=t\x1e20A0=CE\x1e20A1=C=\x1e20A2=Cr\x1e20A3=Fr.\x1e20A4=L.\x1e20A7=Pts\x1e20A8=Rs\x1e'
    '20A9=KRW\x1e20AA=ILS\x1e20AB=Dong\x1e20AC=EUR\x1e20AF=GRD\x1e20B1=PHP\x1e20B4=UAH\x1e20B8=KZT\x1e20B9=INR\x1e20BA=T'
    'L\x1e20BD=RUB\x1e20BE=GEL\x1e20D0=\x1e20D1=\x1e20D2=\x1e20D3=\x1e20D4=\x1e20D5=\x1e20D6=\x1e20D7=\x1e20D8=\x1e20D9=\x1e20DA=\x1e20'
    'DB=\x1e20DC=\x1e20DD=\x1e20DE=\x1e20DF=\x1e20E0=\x1e20E1=\x1e20E2=\x1e20E3=\x1e20E4=\x1e20E5=\x1e20E6=\x1e20E7=\x1e20E8=\x1e20E9=\x1e'
    '20EA=\x1e20EB=\x1e20EC=\x1e20ED=\x1e20EE=\x1e20EF=\x1e20F0=\x1e2100=a/c\x1e2101=a/s\x1e2102=C\x1e2105=c/o\x1e2106=c/u\x1e210'
    'A=g\x1e210B=H\x1e210C=H\x1e210D=H\x1e210E=h\x1e2110=I\x1e2111=I\x1e2112=L\x1e2113=l\x1e2115=N\x1e2116=No\x1e2119=P\x1e211A=Q'
    '\x1e211B=R\x1e211C=R\x1e211D=R\x1e211E=Rx\x1e2120=SM\x1e2121=TEL\x1e2122=(TM)\x1e2124=Z\x1e2128=Z\x1e212A=K\x1e212B=A\x1e212'
    'C=B\x1e212D=C\x1e212E=e\x1e212F=e\x1e2130=E\x1e2131=F\x1e2133=M\x1e2134=o\x1e2139=i\x1e213B=FAX\x1e2145=D\x1e2146=d\x1e2147='
    'e\x1e2148=i\x1e2149=j\x1e2150= 1/7 \x1e2151= 1/9 \x1e2152= 1/10 \x1e2153= 1/3 \x1e2154= 2/3 \x1e2155= 1/5 \x1e2156='
    ' 2/5 \x1e2157= 3/5 \x1e2158= 4/5 \x1e2159= 1/6 \x1e215A= 5/6 \x1e215B= 1/8 \x1e215C= 3/8 \x1e215D= 5/8 \x1e215E='
    ' 7/8 \x1e215F= 1/ \x1e2160=I\x1e2161=II\x1e2162=III\x1e2163=IV\x1e2164=V\x1e2165=VI\x1e2166=VII\x1e2167=VIII\x1e2168=I'
    'X\x1e2169=X\x1e216A=XI\x1e216B=XII\x1e216C=L\x1e216D=C\x1e216E=D\x1e216F=M\x1e2170=i\x1e2171=ii\x1e2172=iii\x1e2173=iv\x1e21'
    '74=v\x1e2175=vi\x1e2176=vii\x1e2177=viii\x1e2178=ix\x1e2179=x\x1e217A=xi\x1e217B=xii\x1e217C=l\x1e217D=c\x1e217E=d\x1e217'
    'F=m\x1e2189= 0/3 \x1e2190=<-\x1e2192=->\x1e2194=<->\x1e21AE=!<->\x1e21CD=!<=\x1e21CE=!<=>\x1e21CF=!=>\x1e21D0=<=\x1e21'
    'D2==>\x1e21D4=<=>\x1e2212=-\x1e2215=/\x1e2216=\\\x1e2217=*\x1e2223=|\x1e2225=||\x1e2236=:\x1e223C=~\x1e2241=!~\x1e2244=!~-'
    '\x1e2247=!~=\x1e2249=!~~\x1e2260=!=\x1e2262=!==\x1e2264=<=\x1e2265=>=\x1e226A=<<\x1e226B=>>\x1e226E=!<\x1e226F=!>\x1e2270'
    '=!<=\x1e2271=!>=\x1e2274=!<~\x1e2275=!>~\x1e2278=!<>\x1e2279=!><\x1e22D8=<<<\x1e22D9=>>>\x1e2329=<\x1e232A=>\x1e2400=N'
    'UL\x1e2401=SOH\x1e2402=STX\x1e2403=ETX\x1e2404=EOT\x1e2405=ENQ\x1e2406=ACK\x1e2407=BEL\x1e2408=BS\x1e2409=HT\x1e240A=L'
    'F\x1e240B=VT\x1e240C=FF\x1e240D=CR\x1e240E=SO\x1e240F=SI\x1e2410=DLE\x1e2411=DC1\x1e2412=DC2\x1e2413=DC3\x1e2414=DC4\x1e2'
    '415=NAK\x1e2416=SYN\x1e2417=ETB\x1e2418=CAN\x1e2419=EM\x1e241A=SUB\x1e241B=ESC\x1e241C=FS\x1e241D=GS\x1e241E=RS\x1e241'
    'F=US\x1e2420=SP\x1e2421=DEL\x1e2423=_\x1e2424=NL\x1e2460=(1)\x1e2461=(2)\x1e2462=(3)\x1e2463=(4)\x1e2464=(5)\x1e2465=('
    '6)\x1e2466=(7)\x1e2467=(8)\x1e2468=(9)\x1e2469=(10)\x1e246A=(11)\x1e246B=(12)\x1e246C=(13)\x1e246D=(14)\x1e246E=(15'
    ')\x1e246F=(16)\x1e2470=(17)\x1e2471=(18)\x1e2472=(19)\x1e2473=(20)\x1e2474=(1)\x1e2475=(2)\x1e2476=(3)\x1e2477=(4)\x1e'
    '2478=(5)\x1e2479=(6)\x1e247A=(7)\x1e247B=(8)\x1e247C=(9)\x1e247D=(10)\x1e247E=(11)\x1e247F=(12)\x1e2480=(13)\x1e248'
    '1=(14)\x1e2482=(15)\x1e2483=(16)\x1e2484=(17)\x1e2485=(18)\x1e2486=(19)\x1e2487=(20)\x1e2488=1.\x1e2489=2.\x1e248A='
    '3.\x1e248B=4.\x1e248C=5.\x1e248D=6.\x1e248E=7.\x1e248F=8.\x1e2490=9.\x1e2491=10.\x1e2492=11.\x1e2493=12.\x1e2494=13.\x1e2'
    '495=14.\x1e2496=15.\x1e2497=16.\x1e2498=17.\x1e2499=18.\x1e249A=19.\x1e249B=20.\x1e249C=(a)\x1e249D=(b)\x1e249E=(c)'
    '\x1e249F=(d)\x1e24A0=(e)\x1e24A1=(f)\x1e24A2=(g)\x1e24A3=(h)\x1e24A4=(i)\x1e24A5=(j)\x1e24A6=(k)\x1e24A7=(l)\x1e24A8=('
    'm)\x1e24A9=(n)\x1e24AA=(o)\x1e24AB=(p)\x1e24AC=(q)\x1e24AD=(r)\x1e24AE=(s)\x1e24AF=(t)\x1e24B0=(u)\x1e24B1=(v)\x1e24B2'
    '=(w)\x1e24B3=(x)\x1e24B4=(y)\x1e24B5=(z)\x1e24B6=(A)\x1e24B7=(B)\x1e24B8=(C)\x1e24B9=(D)\x1e24BA=(E)\x1e24BB=(F)\x1e24'
    'BC=(G)\x1e24BD=(H)\x1e24BE=(I)\x1e24BF=(J)\x1e24C0=(K)\x1e24C1=(L)\x1e24C2=(M)\x1e24C3=(N)\x1e24C4=(O)\x1e24C5=(P)\x1e'
    '24C6=(Q)\x1e24C7=(R)\x1e24C8=(S)\x1e24C9=(T)\x1e24CA=(U)\x1e24CB=(V)\x1e24CC=(W)\x1e24CD=(X)\x1e24CE=(Y)\x1e24CF=(Z'
    ')\x1e24D0=(a)\x1e24D1=(b)\x1e24D2=(c)\x1e24D3=(d)\x1e24D4=(e)\x1e24D5=(f)\x1e24D6=(g)\x1e24D7=(h)\x1e24D8=(i)\x1e24D9='
    '(j)\x1e24DA=(k)\x1e24DB=(l)\x1e24DC=(m)\x1e24DD=(n)\x1e24DE=(o)\x1e24DF=(p)\x1e24E0=(q)\x1e24E1=(r)\x1e24E2=(s)\x1e24E'
    '3=(t)\x1e24E4=(u)\x1e24E5=(v)\x1e24E6=(w)\x1e24E7=(x)\x1e24E8=(y)\x1e24E9=(z)\x1e24EA=(0)\x1e2500=-\x1e2502=|\x1e250C='
    '+\x1e2510=+\x1e2514=+\x1e2518=+\x1e251C=+\x1e2524=+\x1e252C=+\x1e2534=+\x1e253C=+\x1e2571=/\x1e2572=\\\x1e25E6=o\x1e263A=:)\x1e2'
    '63B=:)\x1e27CB=/\x1e27CD=\\\x1e27E6=[|\x1e27E7=|]\x1e27E8=<\x1e27E9=>\x1e27EA=<<\x1e27EB=>>\x1e27EC=((\x1e27ED=))\x1e27EE='
    '(\x1e27EF=)\x1e2980=|||\x1e2983={|\x1e2984=|}\x1e2985=((\x1e2986=))\x1e2987=(|\x1e2988=|)\x1e2989=<|\x1e298A=|>\x1e29E3=#'
    '\x1e29E5=#\x1e29F5=\\\x1e29F8=/\x1e29F9=\\\x1e29FC=<\x1e29FD=>\x1e29FE=+\x1e29FF=-\x1e2A74=::=\x1e2A75===\x1e2A76====\x1e2C7C='
    'j\x1e2C7D=V\x1e3000= \x1e3008=<\x1e3009=>\x1e3099=\x1e309A=\x1e30A0==\x1e3250=PTE\x1e3251=(21)\x1e3252=(22)\x1e3253=(23)\x1e'
    '3254=(24)\x1e3255=(25)\x1e3256=(26)\x1e3257=(27)\x1e3258=(28)\x1e3259=(29)\x1e325A=(30)\x1e325B=(31)\x1e325C=(32'
    ')\x1e325D=(33)\x1e325E=(34)\x1e325F=(35)\x1e32B1=(36)\x1e32B2=(37)\x1e32B3=(38)\x1e32B4=(39)\x1e32B5=(40)\x1e32B6=('
    '41)\x1e32B7=(42)\x1e32B8=(43)\x1e32B9=(44)\x1e32BA=(45)\x1e32BB=(46)\x1e32BC=(47)\x1e32BD=(48)\x1e32BE=(49)\x1e32BF'
    '=(50)\x1e32CC=Hg\x1e32CD=erg\x1e32CE=eV\x1e32CF=LTD\x1e3371=hPa\x1e3372=da\x1e3373=AU\x1e3374=bar\x1e3375=oV\x1e3376=p'
    'c\x1e3377=dm\x1e3378=dm^2\x1e3379=dm^3\x1e337A=IU\x1e3380=pA\x1e3381=nA\x1e3382=uA\x1e3383=mA\x1e3384=kA\x1e3385=KB\x1e33'
    '86=MB\x1e3387=GB\x1e3388=cal\x1e3389=kcal\x1e338A=pF\x1e338B=nF\x1e338C=uF\x1e338D=ug\x1e338E=mg\x1e338F=kg\x1e3390=Hz'
    '\x1e3391=kHz\x1e3392=MHz\x1e3393=GHz\x1e3394=THz\x1e3395=ul\x1e3396=ml\x1e3397=dl\x1e3398=kl\x1e3399=fm\x1e339A=nm\x1e339'
    'B=um\x1e339C=mm\x1e339D=cm\x1e339E=km\x1e339F=mm^2\x1e33A0=cm^2\x1e33A1=m^2\x1e33A2=km^2\x1e33A3=mm^3\x1e33A4=cm^3\x1e'
    '33A5=m^3\x1e33A6=km^3\x1e33A7=m/s\x1e33A8=m/s^2\x1e33A9=Pa\x1e33AA=kPa\x1e33AB=MPa\x1e33AC=GPa\x1e33AD=rad\x1e33AE='
    'rad/s\x1e33AF=rad/s^2\x1e33B0=ps\x1e33B1=ns\x1e33B2=us\x1e33B3=ms\x1e33B4=pV\x1e33B5=nV\x1e33B6=uV\x1e33B7=mV\x1e33B8='
    'kV\x1e33B9=MV\x1e33BA=pW\x1e33BB=nW\x1e33BC=uW\x1e33BD=mW\x1e33BE=kW\x1e33BF=MW\x1e33C2=a.m.\x1e33C3=Bq\x1e33C4=cc\x1e33C'
    '5=cd\x1e33C6=C/kg\x1e33C7=Co.\x1e33C8=dB\x1e33C9=Gy\x1e33CA=ha\x1e33CB=HP\x1e33CC=in\x1e33CD=KK\x1e33CE=KM\x1e33CF=kt\x1e'
    '33D0=lm\x1e33D1=ln\x1e33D2=log\x1e33D3=lx\x1e33D4=mb\x1e33D5=mil\x1e33D6=mol\x1e33D7=PH\x1e33D8=p.m.\x1e33D9=PPM\x1e33'
    'DA=PR\x1e33DB=sr\x1e33DC=Sv\x1e33DD=Wb\x1e33DE=V/m\x1e33DF=A/m\x1e33FF=gal\x1eA7F2=C\x1eA7F3=F\x1eA7F4=Q\x1eFB00=ff\x1eFB'
    '01=fi\x1eFB02=fl\x1eFB03=ffi\x1eFB04=ffl\x1eFB05=st\x1eFB06=st\x1eFB1E=\x1eFB29=+\x1eFE00=\x1eFE01=\x1eFE02=\x1eFE03=\x1eFE0'
    '4=\x1eFE05=\x1eFE06=\x1eFE07=\x1eFE08=\x1eFE09=\x1eFE0A=\x1eFE0B=\x1eFE0C=\x1eFE0D=\x1eFE0E=\x1eFE0F=\x1eFE10=,\x1eFE13=:\x1eFE14='
    ';\x1eFE15=!\x1eFE19=...\x1eFE20=\x1eFE21=\x1eFE22=\x1eFE23=\x1eFE24=\x1eFE25=\x1eFE26=\x1eFE27=\x1eFE28=\x1eFE29=\x1eFE2A=\x1eFE2B'
    '=\x1eFE2C=\x1eFE2D=\x1eFE30=..\x1eFE33=_\x1eFE34=_\x1eFE35=(\x1eFE36=)\x1eFE37={\x1eFE38=}\x1eFE47=[\x1eFE48=]\x1eFE4D=_\x1eFE4'
    'E=_\x1eFE4F=_\x1eFE50=,\x1eFE52=.\x1eFE54=;\x1eFE55=:\x1eFE57=!\x1eFE59=(\x1eFE5A=)\x1eFE5B={\x1eFE5C=}\x1eFE5F=#\x1eFE60=&\x1e'
    'FE61=*\x1eFE62=+\x1eFE63=-\x1eFE64=<\x1eFE65=>\x1eFE66==\x1eFE68=\\\x1eFE69=$\x1eFE6A=%\x1eFE6B=@\x1eFEFF=\x1eFF01=!\x1eFF02='
    '"\x1eFF03=#\x1eFF04=$\x1eFF05=%\x1eFF06=&\x1eFF07=\'\x1eFF08=(\x1eFF09=)\x1eFF0A=*\x1eFF0B=+\x1eFF0C=,\x1eFF0D=-\x1eFF0E=.\x1eFF'
    '0F=/\x1eFF10=0\x1eFF11=1\x1eFF12=2\x1eFF13=3\x1eFF14=4\x1eFF15=5\x1eFF16=6\x1eFF17=7\x1eFF18=8\x1eFF19=9\x1eFF1A=:\x1eFF1B=;'
    '\x1eFF1C=<\x1eFF1D==\x1eFF1E=>\x1eFF20=@\x1eFF21=A\x1eFF22=B\x1eFF23=C\x1eFF24=D\x1eFF25=E\x1eFF26=F\x1eFF27=G\x1eFF28=H\x1eFF2'
    '9=I\x1eFF2A=J\x1eFF2B=K\x1eFF2C=L\x1eFF2D=M\x1eFF2E=N\x1eFF2F=O\x1eFF30=P\x1eFF31=Q\x1eFF32=R\x1eFF33=S\x1eFF34=T\x1eFF35=U\x1e'
    'FF36=V\x1eFF37=W\x1eFF38=X\x1eFF39=Y\x1eFF3A=Z\x1eFF3B=[\x1eFF3C=\\\x1eFF3D=]\x1eFF3E=^\x1eFF3F=_\x1eFF40=`\x1eFF41=a\x1eFF42'
    '=b\x1eFF43=c\x1eFF44=d\x1eFF45=e\x1eFF46=f\x1eFF47=g\x1eFF48=h\x1eFF49=i\x1eFF4A=j\x1eFF4B=k\x1eFF4C=l\x1eFF4D=m\x1eFF4E=n\x1eF'
    'F4F=o\x1eFF50=p\x1eFF51=q\x1eFF52=r\x1eFF53=s\x1eFF54=t\x1eFF55=u\x1eFF56=v\x1eFF57=w\x1eFF58=x\x1eFF59=y\x1eFF5A=z\x1eFF5B='
    '{\x1eFF5C=|\x1eFF5D=}\x1eFF5E=~\x1e101FD=\x1e10376=\x1e10377=\x1e10378=\x1e10379=\x1e1037A=\x1e107A5=q\x1e10D24=\x1e10D25=\x1e1'
    '0D26=\x1e10D27=\x1e10EAB=\x1e10EAC=\x1e10F46=\x1e10F47=\x1e10F48=\x1e10F49=\x1e10F4A=\x1e10F4B=\x1e10F4C=\x1e10F4D=\x1e10F4E'
    '=\x1e10F4F=\x1e10F50=\x1e10F82=\x1e10F83=\x1e10F84=\x1e10F85=\x1e1133B=\x1e11435=\x1e11436=\x1e11437=\x1e11438=\x1e11439=\x1e11'
    '43A=\x1e1143B=\x1e1143C=\x1e1143D=\x1e1143E=\x1e1143F=\x1e11440=\x1e11441=\x1e11442=\x1e11443=\x1e11444=\x1e11445=\x1e11446='
    '\x1e1145E=\x1e1182C=\x1e1182D=\x1e1182E=\x1e1182F=\x1e11830=\x1e11831=\x1e11832=\x1e11833=\x1e11834=\x1e11835=\x1e11836=\x1e118'
    '37=\x1e11838=\x1e11839=\x1e1183A=\x1e11930=\x1e11931=\x1e11932=\x1e11933=\x1e11934=\x1e11935=\x1e11937=\x1e11938=\x1e1193B=\x1e'
    '1193C=\x1e1193D=\x1e1193E=\x1e11940=\x1e11942=\x1e11943=\x1e119D1=\x1e119D2=\x1e119D3=\x1e119D4=\x1e119D5=\x1e119D6=\x1e119D'
    '7=\x1e119DA=\x1e119DB=\x1e119DC=\x1e119DD=\x1e119DE=\x1e119DF=\x1e119E0=\x1e119E4=\x1e11A01=\x1e11A02=\x1e11A03=\x1e11A04=\x1e1'
    '1A05=\x1e11A06=\x1e11A07=\x1e11A08=\x1e11A09=\x1e11A0A=\x1e11A33=\x1e11A34=\x1e11A35=\x1e11A36=\x1e11A37=\x1e11A38=\x1e11A39'
    '=\x1e11A3B=\x1e11A3C=\x1e11A3D=\x1e11A3E=\x1e11A47=\x1e11A51=\x1e11A52=\x1e11A53=\x1e11A54=\x1e11A55=\x1e11A56=\x1e11A57=\x1e11'
    'A58=\x1e11A59=\x1e11A5A=\x1e11A5B=\x1e11A8A=\x1e11A8B=\x1e11A8C=\x1e11A8D=\x1e11A8E=\x1e11A8F=\x1e11A90=\x1e11A91=\x1e11A92='
    '\x1e11A93=\x1e11A94=\x1e11A95=\x1e11A96=\x1e11A97=\x1e11A98=\x1e11A99=\x1e11C2F=\x1e11C30=\x1e11C31=\x1e11C32=\x1e11C33=\x1e11C'
    '34=\x1e11C35=\x1e11C36=\x1e11C38=\x1e11C39=\x1e11C3A=\x1e11C3B=\x1e11C3C=\x1e11C3D=\x1e11C3E=\x1e11C3F=\x1e11C92=\x1e11C93=\x1e'
    '11C94=\x1e11C95=\x1e11C96=\x1e11C97=\x1e11C98=\x1e11C99=\x1e11C9A=\x1e11C9B=\x1e11C9C=\x1e11C9D=\x1e11C9E=\x1e11C9F=\x1e11CA'
    '0=\x1e11CA1=\x1e11CA2=\x1e11CA3=\x1e11CA4=\x1e11CA5=\x1e11CA6=\x1e11CA7=\x1e11CA9=\x1e11CAA=\x1e11CAB=\x1e11CAC=\x1e11CAD=\x1e1'
    '1CAE=\x1e11CAF=\x1e11CB0=\x1e11CB1=\x1e11CB2=\x1e11CB3=\x1e11CB4=\x1e11CB5=\x1e11CB6=\x1e11D31=\x1e11D32=\x1e11D33=\x1e11D34'
    '=\x1e11D35=\x1e11D36=\x1e11D3A=\x1e11D3C=\x1e11D3D=\x1e11D3F=\x1e11D40=\x1e11D41=\x1e11D42=\x1e11D43=\x1e11D44=\x1e11D45=\x1e11'
    'D47=\x1e11D8A=\x1e11D8B=\x1e11D8C=\x1e11D8D=\x1e11D8E=\x1e11D90=\x1e11D91=\x1e11D93=\x1e11D94=\x1e11D95=\x1e11D96=\x1e11D97='
    '\x1e11EF3=\x1e11EF4=\x1e11EF5=\x1e11EF6=\x1e16FE4=\x1e16FF0=\x1e16FF1=\x1e1CF00=\x1e1CF01=\x1e1CF02=\x1e1CF03=\x1e1CF04=\x1e1CF'
    '05=\x1e1CF06=\x1e1CF07=\x1e1CF08=\x1e1CF09=\x1e1CF0A=\x1e1CF0B=\x1e1CF0C=\x1e1CF0D=\x1e1CF0E=\x1e1CF0F=\x1e1CF10=\x1e1CF11=\x1e'
    '1CF12=\x1e1CF13=\x1e1CF14=\x1e1CF15=\x1e1CF16=\x1e1CF17=\x1e1CF18=\x1e1CF19=\x1e1CF1A=\x1e1CF1B=\x1e1CF1C=\x1e1CF1D=\x1e1CF1'
    'E=\x1e1CF1F=\x1e1CF20=\x1e1CF21=\x1e1CF22=\x1e1CF23=\x1e1CF24=\x1e1CF25=\x1e1CF26=\x1e1CF27=\x1e1CF28=\x1e1CF29=\x1e1CF2A=\x1e1'
    'CF2B=\x1e1CF2C=\x1e1CF2D=\x1e1CF30=\x1e1CF31=\x1e1CF32=\x1e1CF33=\x1e1CF34=\x1e1CF35=\x1e1CF36=\x1e1CF37=\x1e1CF38=\x1e1CF39'
    '=\x1e1CF3A=\x1e1CF3B=\x1e1CF3C=\x1e1CF3D=\x1e1CF3E=\x1e1CF3F=\x1e1CF40=\x1e1CF41=\x1e1CF42=\x1e1CF43=\x1e1CF44=\x1e1CF45=\x1e1C'
    'F46=\x1e1D242=\x1e1D243=\x1e1D244=\x1e1D400=A\x1e1D401=B\x1e1D402=C\x1e1D403=D\x1e1D404=E\x1e1D405=F\x1e1D406=G\x1e1D407='
    'H\x1e1D408=I\x1e1D409=J\x1e1D40A=K\x1e1D40B=L\x1e1D40C=M\x1e1D40D=N\x1e1D40E=O\x1e1D40F=P\x1e1D410=Q\x1e1D411=R\x1e1D412='
    'S\x1e1D413=T\x1e1D414=U\x1e1D415=V\x1e1D416=W\x1e1D417=X\x1e1D418=Y\x1e1D419=Z\x1e1D41A=a\x1e1D41B=b\x1e1D41C=c\x1e1D41D='
    'd\x1e1D41E=e\x1e1D41F=f\x1e1D420=g\x1e1D421=h\x1e1D422=i\x1e1D423=j\x1e1D424=k\x1e1D425=l\x1e1D426=m\x1e1D427=n\x1e1D428='
    'o\x1e1D429=p\x1e1D42A=q\x1e1D42B=r\x1e1D42C=s\x1e1D42D=t\x1e1D42E=u\x1e1D42F=v\x1e1D430=w\x1e1D431=x\x1e1D432=y\x1e1D433='
    'z\x1e1D434=A\x1e1D435=B\x1e1D436=C\x1e1D437=D\x1e1D438=E\x1e1D439=F\x1e1D43A=G\x1e1D43B=H\x1e1D43C=I\x1e1D43D=J\x1e1D43E='
    'K\x1e1D43F=L\x1e1D440=M\x1e1D441=N\x1e1D442=O\x1e1D443=P\x1e1D444=Q\x1e1D445=R\x1e1D446=S\x1e1D447=T\x1e1D448=U\x1e1D449='
    'V\x1e1D44A=W\x1e1D44B=X\x1e1D44C=Y\x1e1D44D=Z\x1e1D44E=a\x1e1D44F=b\x1e1D450=c\x1e1D451=d\x1e1D452=e\x1e1D453=f\x1e1D454='
    'g\x1e1D456=i\x1e1D457=j\x1e1D458=k\x1e1D459=l\x1e1D45A=m\x1e1D45B=n\x1e1D45C=o\x1e1D45D=p\x1e1D45E=q\x1e1D45F=r\x1e1D460='
    's\x1e1D461=t\x1e1D462=u\x1e1D463=v\x1e1D464=w\x1e1D465=x\x1e1D466=y\x1e1D467=z\x1e1D468=A\x1e1D469=B\x1e1D46A=C\x1e1D46B='
    'D\x1e1D46C=E\x1e1D46D=F\x1e1D46E=G\x1e1D46F=H\x1e1D470=I\x1e1D471=J\x1e1D472=K\x1e1D473=L\x1e1D474=M\x1e1D475=N\x1e1D476='
    'O\x1e1D477=P\x1e1D478=Q\x1e1D479=R\x1e1D47A=S\x1e1D47B=T\x1e1D47C=U\x1e1D47D=V\x1e1D47E=W\x1e1D47F=X\x1e1D480=Y\x1e1D481='
    'Z\x1e1D482=a\x1e1D483=b\x1e1D484=c\x1e1D485=d\x1e1D486=e\x1e1D487=f\x1e1D488=g\x1e1D489=h\x1e1D48A=i\x1e1D48B=j\x1e1D48C='
    'k\x1e1D48D=l\x1e1D48E=m\x1e1D48F=n\x1e1D490=o\x1e1D491=p\x1e1D492=q\x1e1D493=r\x1e1D494=s\x1e1D495=t\x1e1D496=u\x1e1D497='
    'v\x1e1D498=w\x1e1D499=x\x1e1D49A=y\x1e1D49B=z\x1e1D49C=A\x1e1D49E=C\x1e1D49F=D\x1e1D4A2=G\x1e1D4A5=J\x1e1D4A6=K\x1e1D4A9='
    'N\x1e1D4AA=O\x1e1D4AB=P\x1e1D4AC=Q\x1e1D4AE=S\x1e1D4AF=T\x1e1D4B0=U\x1e1D4B1=V\x1e1D4B2=W\x1e1D4B3=X\x1e1D4B4=Y\x1e1D4B5='
    'Z\x1e1D4B6=a\x1e1D4B7=b\x1e1D4B8=c\x1e1D4B9=d\x1e1D4BB=f\x1e1D4BD=h\x1e1D4BE=i\x1e1D4BF=j\x1e1D4C0=k\x1e1D4C1=l\x1e1D4C2='
    'm\x1e1D4C3=n\x1e1D4C5=p\x1e1D4C6=q\x1e1D4C7=r\x1e1D4C8=s\x1e1D4C9=t\x1e1D4CA=u\x1e1D4CB=v\x1e1D4CC=w\x1e1D4CD=x\x1e1D4CE='
    'y\x1e1D4CF=z\x1e1D4D0=A\x1e1D4D1=B\x1e1D4D2=C\x1e1D4D3=D\x1e1D4D4=E\x1e1D4D5=F\x1e1D4D6=G\x1e1D4D7=H\x1e1D4D8=I\x1e1D4D9='
    'J\x1e1D4DA=K\x1e1D4DB=L\x1e1D4DC=M\x1e1D4DD=N\x1e1D4DE=O\x1e1D4DF=P\x1e1D4E0=Q\x1e1D4E1=R\x1e1D4E2=S\x1e1D4E3=T\x1e1D4E4='
    'U\x1e1D4E5=V\x1e1D4E6=W\x1e1D4E7=X\x1e1D4E8=Y\x1e1D4E9=Z\x1e1D4EA=a\x1e1D4EB=b\x1e1D4EC=c\x1e1D4ED=d\x1e1D4EE=e\x1e1D4EF='
    'f\x1e1D4F0=g\x1e1D4F1=h\x1e1D4F2=i\x1e1D4F3=j\x1e1D4F4=k\x1e1D4F5=l\x1e1D4F6=m\x1e1D4F7=n\x1e1D4F8=o\x1e1D4F9=p\x1e1D4FA='
    'q\x1e1D4FB=r\x1e1D4FC=s\x1e1D4FD=t\x1e1D4FE=u\x1e1D4FF=v\x1e1D500=w\x1e1D501=x\x1e1D502=y\x1e1D503=z\x1e1D504=A\x1e1D505='
    'B\x1e1D507=D\x1e1D508=E\x1e1D509=F\x1e1D50A=G\x1e1D50D=J\x1e1D50E=K\x1e1D50F=L\x1e1D510=M\x1e1D511=N\x1e1D512=O\x1e1D513='
    'P\x1e1D514=Q\x1e1D516=S\x1e1D517=T\x1e1D518=U\x1e1D519=V\x1e1D51A=W\x1e1D51B=X\x1e1D51C=Y\x1e1D51E=a\x1e1D51F=b\x1e1D520='
    'c\x1e1D521=d\x1e1D522=e\x1e1D523=f\x1e1D524=g\x1e1D525=h\x1e1D526=i\x1e1D527=j\x1e1D528=k\x1e1D529=l\x1e1D52A=m\x1e1D52B='
    'n\x1e1D52C=o\x1e1D52D=p\x1e1D52E=q\x1e1D52F=r\x1e1D530=s\x1e1D531=t\x1e1D532=u\x1e1D533=v\x1e1D534=w\x1e1D535=x\x1e1D536='
    'y\x1e1D537=z\x1e1D538=A\x1e1D539=B\x1e1D53B=D\x1e1D53C=E\x1e1D53D=F\x1e1D53E=G\x1e1D540=I\x1e1D541=J\x1e1D542=K\x1e1D543='
    'L\x1e1D544=M\x1e1D546=O\x1e1D54A=S\x1e1D54B=T\x1e1D54C=U\x1e1D54D=V\x1e1D54E=W\x1e1D54F=X\x1e1D550=Y\x1e1D552=a\x1e1D553='
    'b\x1e1D554=c\x1e1D555=d\x1e1D556=e\x1e1D557=f\x1e1D558=g\x1e1D559=h\x1e1D55A=i\x1e1D55B=j\x1e1D55C=k\x1e1D55D=l\x1e1D55E='
    'm\x1e1D55F=n\x1e1D560=o\x1e1D561=p\x1e1D562=q\x1e1D563=r\x1e1D564=s\x1e1D565=t\x1e1D566=u\x1e1D567=v\x1e1D568=w\x1e1D569='
    'x\x1e1D56A=y\x1e1D56B=z\x1e1D56C=A\x1e1D56D=B\x1e1D56E=C\x1e1D56F=D\x1e1D570=E\x1e1D571=F\x1e1D572=G\x1e1D573=H\x1e1D574='
    'I\x1e1D575=J\x1e1D576=K\x1e1D577=L\x1e1D578=M\x1e1D579=N\x1e1D57A=O\x1e1D57B=P\x1e1D57C=Q\x1e1D57D=R\x1e1D57E=S\x1e1D57F='
    'T\x1e1D580=U\x1e1D581=V\x1e1D582=W\x1e1D583=X\x1e1D584=Y\x1e1D585=Z\x1e1D586=a\x1e1D587=b\x1e1D588=c\x1e1D589=d\x1e1D58A='
    'e\x1e1D58B=f\x1e1D58C=g\x1e1D58D=h\x1e1D58E=i\x1e1D58F=j\x1e1D590=k\x1e1D591=l\x1e1D592=m\x1e1D593=n\x1e1D594=o\x1e1D595='
    'p\x1e1D596=q\x1e1D597=r\x1e1D598=s\x1e1D599=t\x1e1D59A=u\x1e1D59B=v\x1e1D59C=w\x1e1D59D=x\x1e1D59E=y\x1e1D59F=z\x1e1D5A0='
    'A\x1e1D5A1=B\x1e1D5A2=C\x1e1D5A3=D\x1e1D5A4=E\x1e1D5A5=F\x1e1D5A6=G\x1e1D5A7=H\x1e1D5A8=I\x1e1D5A9=J\x1e1D5AA=K\x1e1D5AB='
    'L\x1e1D5AC=M\x1e1D5AD=N\x1e1D5AE=O\x1e1D5AF=P\x1e1D5B0=Q\x1e1D5B1=R\x1e1D5B2=S\x1e1D5B3=T\x1e1D5B4=U\x1e1D5B5=V\x1e1D5B6='
    'W\x1e1D5B7=X\x1e1D5B8=Y\x1e1D5B9=Z\x1e1D5BA=a\x1e1D5BB=b\x1e1D5BC=c\x1e1D5BD=d\x1e1D5BE=e\x1e1D5BF=f\x1e1D5C0=g\x1e1D5C1='
    'h\x1e1D5C2=i\x1e1D5C3=j\x1e1D5C4=k\x1e1D5C5=l\x1e1D5C6=m\x1e1D5C7=n\x1e1D5C8=o\x1e1D5C9=p\x1e1D5CA=q\x1e1D5CB=r\x1e1D5CC='
    's\x1e1D5CD=t\x1e1D5CE=u\x1e1D5CF=v\x1e1D5D0=w\x1e1D5D1=x\x1e1D5D2=y\x1e1D5D3=z\x1e1D5D4=A\x1e1D5D5=B\x1e1D5D6=C\x1e1D5D7='
    'D\x1e1D5D8=E\x1e1D5D9=F\x1e1D5DA=G\x1e1D5DB=H\x1e1D5DC=I\x1e1D5DD=J\x1e1D5DE=K\x1e1D5DF=L\x1e1D5E0=M\x1e1D5E1=N\x1e1D5E2='
    'O\x1e1D5E3=P\x1e1D5E4=Q\x1e1D5E5=R\x1e1D5E6=S\x1e1D5E7=T\x1e1D5E8=U\x1e1D5E9=V\x1e1D5EA=W\x1e1D5EB=X\x1e1D5EC=Y\x1e1D5ED='
    'Z\x1e1D5EE=a\x1e1D5EF=b\x1e1D5F0=c\x1e1D5F1=d\x1e1D5F2=e\x1e1D5F3=f\x1e1D5F4=g\x1e1D5F5=h\x1e1D5F6=i\x1e1D5F7=j\x1e1D5F8='
    'k\x1e1D5F9=l\x1e1D5FA=m\x1e1D5FB=n\x1e1D5FC=o\x1e1D5FD=p\x1e1D5FE=q\x1e1D5FF=r\x1e1D600=s\x1e1D601=t\x1e1D602=u\x1e1D603='
    'v\x1e1D604=w\x1e1D605=x\x1e1D606=y\x1e1D607=z\x1e1D608=A\x1e1D609=B\x1e1D60A=C\x1e1D60B=D\x1e1D60C=E\x1e1D60D=F\x1e1D60E='
    'G\x1e1D60F=H\x1e1D610=I\x1e1D611=J\x1e1D612=K\x1e1D613=L\x1e1D614=M\x1e1D615=N\x1e1D616=O\x1e1D617=P\x1e1D618=Q\x1e1D619='
    'R\x1e1D61A=S\x1e1D61B=T\x1e1D61C=U\x1e1D61D=V\x1e1D61E=W\x1e1D61F=X\x1e1D620=Y\x1e1D621=Z\x1e1D622=a\x1e1D623=b\x1e1D624='
    'c\x1e1D625=d\x1e1D626=e\x1e1D627=f\x1e1D628=g\x1e1D629=h\x1e1D62A=i\x1e1D62B=j\x1e1D62C=k\x1e1D62D=l\x1e1D62E=m\x1e1D62F='
    'n\x1e1D630=o\x1e1D631=p\x1e1D632=q\x1e1D633=r\x1e1D634=s\x1e1D635=t\x1e1D636=u\x1e1D637=v\x1e1D638=w\x1e1D639=x\x1e1D63A='
    'y\x1e1D63B=z\x1e1D63C=A\x1e1D63D=B\x1e1D63E=C\x1e1D63F=D\x1e1D640=E\x1e1D641=F\x1e1D642=G\x1e1D643=H\x1e1D644=I\x1e1D645='
    'J\x1e1D646=K\x1e1D647=L\x1e1D648=M\x1e1D649=N\x1e1D64A=O\x1e1D64B=P\x1e1D64C=Q\x1e1D64D=R\x1e1D64E=S\x1e1D64F=T\x1e1D650='
    'U\x1e1D651=V\x1e1D652=W\x1e1D653=X\x1e1D654=Y\x1e1D655=Z\x1e1D656=a\x1e1D657=b\x1e1D658=c\x1e1D659=d\x1e1D65A=e\x1e1D65B='
    'f\x1e1D65C=g\x1e1D65D=h\x1e1D65E=i\x1e1D65F=j\x1e1D660=k\x1e1D661=l\x1e1D662=m\x1e1D663=n\x1e1D664=o\x1e1D665=p\x1e1D666='
    'q\x1e1D667=r\x1e1D668=s\x1e1D669=t\x1e1D66A=u\x1e1D66B=v\x1e1D66C=w\x1e1D66D=x\x1e1D66E=y\x1e1D66F=z\x1e1D670=A\x1e1D671='
    'B\x1e1D672=C\x1e1D673=D\x1e1D674=E\x1e1D675=F\x1e1D676=G\x1e1D677=H\x1e1D678=I\x1e1D679=J\x1e1D67A=K\x1e1D67B=L\x1e1D67C='
    'M\x1e1D67D=N\x1e1D67E=O\x1e1D67F=P\x1e1D680=Q\x1e1D681=R\x1e1D682=S\x1e1D683=T\x1e1D684=U\x1e1D685=V\x1e1D686=W\x1e1D687='
    'X\x1e1D688=Y\x1e1D689=Z\x1e1D68A=a\x1e1D68B=b\x1e1D68C=c\x1e1D68D=d\x1e1D68E=e\x1e1D68F=f\x1e1D690=g\x1e1D691=h\x1e1D692='
    'i\x1e1D693=j\x1e1D694=k\x1e1D695=l\x1e1D696=m\x1e1D697=n\x1e1D698=o\x1e1D699=p\x1e1D69A=q\x1e1D69B=r\x1e1D69C=s\x1e1D69D='
    't\x1e1D69E=u\x1e1D69F=v\x1e1D6A0=w\x1e1D6A1=x\x1e1D6A2=y\x1e1D6A3=z\x1e1D7CE=0\x1e1D7CF=1\x1e1D7D0=2\x1e1D7D1=3\x1e1D7D2='
    '4\x1e1D7D3=5\x1e1D7D4=6\x1e1D7D5=7\x1e1D7D6=8\x1e1D7D7=9\x1e1D7D8=0\x1e1D7D9=1\x1e1D7DA=2\x1e1D7DB=3\x1e1D7DC=4\x1e1D7DD='
    '5\x1e1D7DE=6\x1e1D7DF=7\x1e1D7E0=8\x1e1D7E1=9\x1e1D7E2=0\x1e1D7E3=1\x1e1D7E4=2\x1e1D7E5=3\x1e1D7E6=4\x1e1D7E7=5\x1e1D7E8='
    '6\x1e1D7E9=7\x1e1D7EA=8\x1e1D7EB=9\x1e1D7EC=0\x1e1D7ED=1\x1e1D7EE=2\x1e1D7EF=3\x1e1D7F0=4\x1e1D7F1=5\x1e1D7F2=6\x1e1D7F3='
    '7\x1e1D7F4=8\x1e1D7F5=9\x1e1D7F6=0\x1e1D7F7=1\x1e1D7F8=2\x1e1D7F9=3\x1e1D7FA=4\x1e1D7FB=5\x1e1D7FC=6\x1e1D7FD=7\x1e1D7FE='
    '8\x1e1D7FF=9\x1e1E000=\x1e1E001=\x1e1E002=\x1e1E003=\x1e1E004=\x1e1E005=\x1e1E006=\x1e1E008=\x1e1E009=\x1e1E00A=\x1e1E00B=\x1e1'
    'E00C=\x1e1E00D=\x1e1E00E=\x1e1E00F=\x1e1E010=\x1e1E011=\x1e1E012=\x1e1E013=\x1e1E014=\x1e1E015=\x1e1E016=\x1e1E017=\x1e1E018'
    '=\x1e1E01B=\x1e1E01C=\x1e1E01D=\x1e1E01E=\x1e1E01F=\x1e1E020=\x1e1E021=\x1e1E023=\x1e1E024=\x1e1E026=\x1e1E027=\x1e1E028=\x1e1E'
    '029=\x1e1E02A=\x1e1E130=\x1e1E131=\x1e1E132=\x1e1E133=\x1e1E134=\x1e1E135=\x1e1E136=\x1e1E2AE=\x1e1E2EC=\x1e1E2ED=\x1e1E2EE='
    '\x1e1E2EF=\x1e1E944=\x1e1E945=\x1e1E946=\x1e1E947=\x1e1E948=\x1e1E949=\x1e1E94A=\x1e1F100=0.\x1e1F101=0,\x1e1F102=1,\x1e1F10'
    '3=2,\x1e1F104=3,\x1e1F105=4,\x1e1F106=5,\x1e1F107=6,\x1e1F108=7,\x1e1F109=8,\x1e1F10A=9,\x1e1F110=(A)\x1e1F111=(B)\x1e'
    '1F112=(C)\x1e1F113=(D)\x1e1F114=(E)\x1e1F115=(F)\x1e1F116=(G)\x1e1F117=(H)\x1e1F118=(I)\x1e1F119=(J)\x1e1F11A=(K'
    ')\x1e1F11B=(L)\x1e1F11C=(M)\x1e1F11D=(N)\x1e1F11E=(O)\x1e1F11F=(P)\x1e1F120=(Q)\x1e1F121=(R)\x1e1F122=(S)\x1e1F123='
    '(T)\x1e1F124=(U)\x1e1F125=(V)\x1e1F126=(W)\x1e1F127=(X)\x1e1F128=(Y)\x1e1F129=(Z)\x1e1F12B=(C)\x1e1F12C=(R)\x1e1F12'
    'D=(CD)\x1e1F12E=(WZ)\x1e1F130=A\x1e1F131=B\x1e1F132=C\x1e1F133=D\x1e1F134=E\x1e1F135=F\x1e1F136=G\x1e1F137=H\x1e1F138='
    'I\x1e1F139=J\x1e1F13A=K\x1e1F13B=L\x1e1F13C=M\x1e1F13D=N\x1e1F13E=O\x1e1F13F=P\x1e1F140=Q\x1e1F141=R\x1e1F142=S\x1e1F143='
    'T\x1e1F144=U\x1e1F145=V\x1e1F146=W\x1e1F147=X\x1e1F148=Y\x1e1F149=Z\x1e1F14A=HV\x1e1F14B=MV\x1e1F14C=SD\x1e1F14D=SS\x1e1F'
    '14E=PPV\x1e1F14F=WC\x1e1F16A=MC\x1e1F16B=MD\x1e1F16C=MR\x1e1F190=DJ\x1e1FBF0=0\x1e1FBF1=1\x1e1FBF2=2\x1e1FBF3=3\x1e1FB'
    'F4=4\x1e1FBF5=5\x1e1FBF6=6\x1e1FBF7=7\x1e1FBF8=8\x1e1FBF9=9'
)
#: Per target charset, where its result differs from ASCII's (a character the target holds
#: itself is never transliterated); an empty replacement stands for '?'.
_TRANSLIT_DIFF = {
    'ISO-8859-1': (
        '1E2=Æ\x1e1E3=æ\x1e1FC=Æ\x1e1FD=æ\x1e1FE=Ø\x1e1FF=ø\x1e2B9=´\x1e2BA=´´\x1e2C9=¯\x1e2CA=´\x1e385=¨\x1e387=·\x1e1D2D=Æ\x1e1D9E'
        '=ð\x1e1FC1=¨\x1e1FED=¨\x1e1FEE=¨\x1e1FFD=´\x1e202F=\xa0\x1e2032=´\x1e2033=´´\x1e2034=´´´\x1e2103=°C\x1e2109=°F\x1e2219=·'
        '\x1e22C5=·\x1e22EF=···\x1e3378=dm²\x1e3379=dm³\x1e3382=µA\x1e338C=µF\x1e338D=µg\x1e3395=µl\x1e339B=µm\x1e339F=mm²\x1e'
        '33A0=cm²\x1e33A1=m²\x1e33A2=km²\x1e33A3=mm³\x1e33A4=cm³\x1e33A5=m³\x1e33A6=km³\x1e33A8=m/s²\x1e33AF=rad/s²\x1e3'
        '3B2=µs\x1e33B6=µV\x1e33BC=µW\x1eFFE0=¢\x1eFFE1=£\x1eFFE2=¬\x1eFFE3=¯\x1eFFE4=¦\x1eFFE5=¥\x1e10783=æ\x1e107A2=ø'
    ),
    'ISO-8859-2': (
        '1C4=DŽ\x1e1C5=Dž\x1e1C6=dž\x1e2B9=´\x1e2BA=´´\x1e2CA=´\x1e385=¨\x1e1FC1=¨\x1e1FED=¨\x1e1FEE=¨\x1e1FFD=´\x1e202F=\xa0\x1e203'
        '2=´\x1e2033=´´\x1e2034=´´´\x1e2103=°C\x1e2109=°F'
    ),
    'ISO-8859-3': (
        '2B9=´\x1e2BA=´´\x1e2CA=´\x1e385=¨\x1e387=·\x1e1FC1=¨\x1e1FED=¨\x1e1FEE=¨\x1e1FFD=´\x1e202F=\xa0\x1e2032=´\x1e2033=´´\x1e203'
        '4=´´´\x1e2103=°C\x1e2109=°F\x1e210F=ħ\x1e2219=·\x1e22C5=·\x1e22EF=···\x1e3378=dm²\x1e3379=dm³\x1e3382=µA\x1e338C=µ'
        'F\x1e338D=µg\x1e3395=µl\x1e339B=µm\x1e339F=mm²\x1e33A0=cm²\x1e33A1=m²\x1e33A2=km²\x1e33A3=mm³\x1e33A4=cm³\x1e33A5='
        'm³\x1e33A6=km³\x1e33A8=m/s²\x1e33AF=rad/s²\x1e33B2=µs\x1e33B6=µV\x1e33BC=µW\x1eA7F8=Ħ\x1eFFE1=£\x1e10795=ħ\x1e1D6A'
        '4=ı'
    ),
    'ISO-8859-4': (
        '1C4=DŽ\x1e1C5=Dž\x1e1C6=dž\x1e1E2=Æ\x1e1E3=æ\x1e1FC=Æ\x1e1FD=æ\x1e1FE=Ø\x1e1FF=ø\x1e2B9=´\x1e2BA=´´\x1e2C9=¯\x1e2CA=´\x1e38'
        '5=¨\x1e1D2D=Æ\x1e1D51=ŋ\x1e1FC1=¨\x1e1FED=¨\x1e1FEE=¨\x1e1FFD=´\x1e202F=\xa0\x1e2032=´\x1e2033=´´\x1e2034=´´´\x1e2103=°C'
        '\x1e2109=°F\x1eFFE3=¯\x1e10783=æ\x1e107A2=ø'
    ),
    'ISO-8859-5': (
        '400=Е\x1e40D=И\x1e450=е\x1e45D=и\x1e4A4=НГ\x1e4A5=нг\x1e4B4=ТЦ\x1e4B5=тц\x1e4C1=Ж\x1e4C2=ж\x1e4D0=А\x1e4D1=а\x1e4D2=А\x1e4D'
        '3=а\x1e4D4=АЕ\x1e4D5=ае\x1e4D6=Е\x1e4D7=е\x1e4DC=Ж\x1e4DD=ж\x1e4DE=З\x1e4DF=з\x1e4E2=И\x1e4E3=и\x1e4E4=И\x1e4E5=и\x1e4E6=О\x1e'
        '4E7=о\x1e4EC=Э\x1e4ED=э\x1e4EE=У\x1e4EF=у\x1e4F0=У\x1e4F1=у\x1e4F2=У\x1e4F3=у\x1e4F4=Ч\x1e4F5=ч\x1e4F8=Ы\x1e4F9=ы\x1e1D78=н'
        '\x1e202F=\xa0\x1e20B4=грн\x1e20BD=руб\x1eA69C=ъ\x1eA69D=ь'
    ),
    'ISO-8859-6': (
        '202F=\xa0\x1e1EE00=ا\x1e1EE01=ب\x1e1EE02=ج\x1e1EE03=د\x1e1EE05=و\x1e1EE06=ز\x1e1EE07=ح\x1e1EE08=ط\x1e1EE09=ي\x1e1EE0A'
        '=ك\x1e1EE0B=ل\x1e1EE0C=م\x1e1EE0D=ن\x1e1EE0E=س\x1e1EE0F=ع\x1e1EE10=ف\x1e1EE11=ص\x1e1EE12=ق\x1e1EE13=ر\x1e1EE14=ش\x1e1'
        'EE15=ت\x1e1EE16=ث\x1e1EE17=خ\x1e1EE18=ذ\x1e1EE19=ض\x1e1EE1A=ظ\x1e1EE1B=غ\x1e1EE21=ب\x1e1EE22=ج\x1e1EE24=ه\x1e1EE27'
        '=ح\x1e1EE29=ي\x1e1EE2A=ك\x1e1EE2B=ل\x1e1EE2C=م\x1e1EE2D=ن\x1e1EE2E=س\x1e1EE2F=ع\x1e1EE30=ف\x1e1EE31=ص\x1e1EE32=ق\x1e1'
        'EE34=ش\x1e1EE35=ت\x1e1EE36=ث\x1e1EE37=خ\x1e1EE39=ض\x1e1EE3B=غ\x1e1EE42=ج\x1e1EE47=ح\x1e1EE49=ي\x1e1EE4B=ل\x1e1EE4D'
        '=ن\x1e1EE4E=س\x1e1EE4F=ع\x1e1EE51=ص\x1e1EE52=ق\x1e1EE54=ش\x1e1EE57=خ\x1e1EE59=ض\x1e1EE5B=غ\x1e1EE61=ب\x1e1EE62=ج\x1e1'
        'EE64=ه\x1e1EE67=ح\x1e1EE68=ط\x1e1EE69=ي\x1e1EE6A=ك\x1e1EE6C=م\x1e1EE6D=ن\x1e1EE6E=س\x1e1EE6F=ع\x1e1EE70=ف\x1e1EE71'
        '=ص\x1e1EE72=ق\x1e1EE74=ش\x1e1EE75=ت\x1e1EE76=ث\x1e1EE77=خ\x1e1EE79=ض\x1e1EE7A=ظ\x1e1EE7B=غ\x1e1EE80=ا\x1e1EE81=ب\x1e1'
        'EE82=ج\x1e1EE83=د\x1e1EE84=ه\x1e1EE85=و\x1e1EE86=ز\x1e1EE87=ح\x1e1EE88=ط\x1e1EE89=ي\x1e1EE8B=ل\x1e1EE8C=م\x1e1EE8D'
        '=ن\x1e1EE8E=س\x1e1EE8F=ع\x1e1EE90=ف\x1e1EE91=ص\x1e1EE92=ق\x1e1EE93=ر\x1e1EE94=ش\x1e1EE95=ت\x1e1EE96=ث\x1e1EE97=خ\x1e1'
        'EE98=ذ\x1e1EE99=ض\x1e1EE9A=ظ\x1e1EE9B=غ\x1e1EEA1=ب\x1e1EEA2=ج\x1e1EEA3=د\x1e1EEA5=و\x1e1EEA6=ز\x1e1EEA7=ح\x1e1EEA8'
        '=ط\x1e1EEA9=ي\x1e1EEAB=ل\x1e1EEAC=م\x1e1EEAD=ن\x1e1EEAE=س\x1e1EEAF=ع\x1e1EEB0=ف\x1e1EEB1=ص\x1e1EEB2=ق\x1e1EEB3=ر\x1e1'
        'EEB4=ش\x1e1EEB5=ت\x1e1EEB6=ث\x1e1EEB7=خ\x1e1EEB8=ذ\x1e1EEB9=ض\x1e1EEBA=ظ\x1e1EEBB=غ'
    ),
    'ISO-8859-7': (
        'B5=μ\x1e2BB=‘\x1e2BC=’\x1e387=·\x1e3D0=β\x1e3D1=θ\x1e3D2=Υ\x1e3D5=φ\x1e3D6=π\x1e3F0=κ\x1e3F1=ρ\x1e3F2=ς\x1e3F4=Θ\x1e3F5=ε\x1e3'
        'F9=Σ\x1e1D5D=β\x1e1D5E=γ\x1e1D5F=δ\x1e1D60=φ\x1e1D61=χ\x1e1D66=β\x1e1D67=γ\x1e1D68=ρ\x1e1D69=φ\x1e1D6A=χ\x1e1DBF=θ\x1e1F'
        '00=α\x1e1F01=α\x1e1F02=α\x1e1F03=α\x1e1F04=α\x1e1F05=α\x1e1F06=α\x1e1F07=α\x1e1F08=Α\x1e1F09=Α\x1e1F0A=Α\x1e1F0B=Α\x1e1F'
        '0C=Α\x1e1F0D=Α\x1e1F0E=Α\x1e1F0F=Α\x1e1F10=ε\x1e1F11=ε\x1e1F12=ε\x1e1F13=ε\x1e1F14=ε\x1e1F15=ε\x1e1F18=Ε\x1e1F19=Ε\x1e1F'
        '1A=Ε\x1e1F1B=Ε\x1e1F1C=Ε\x1e1F1D=Ε\x1e1F20=η\x1e1F21=η\x1e1F22=η\x1e1F23=η\x1e1F24=η\x1e1F25=η\x1e1F26=η\x1e1F27=η\x1e1F'
        '28=Η\x1e1F29=Η\x1e1F2A=Η\x1e1F2B=Η\x1e1F2C=Η\x1e1F2D=Η\x1e1F2E=Η\x1e1F2F=Η\x1e1F30=ι\x1e1F31=ι\x1e1F32=ι\x1e1F33=ι\x1e1F'
        '34=ι\x1e1F35=ι\x1e1F36=ι\x1e1F37=ι\x1e1F38=Ι\x1e1F39=Ι\x1e1F3A=Ι\x1e1F3B=Ι\x1e1F3C=Ι\x1e1F3D=Ι\x1e1F3E=Ι\x1e1F3F=Ι\x1e1F'
        '40=ο\x1e1F41=ο\x1e1F42=ο\x1e1F43=ο\x1e1F44=ο\x1e1F45=ο\x1e1F48=Ο\x1e1F49=Ο\x1e1F4A=Ο\x1e1F4B=Ο\x1e1F4C=Ο\x1e1F4D=Ο\x1e1F'
        '50=υ\x1e1F51=υ\x1e1F52=υ\x1e1F53=υ\x1e1F54=υ\x1e1F55=υ\x1e1F56=υ\x1e1F57=υ\x1e1F59=Υ\x1e1F5B=Υ\x1e1F5D=Υ\x1e1F5F=Υ\x1e1F'
        '60=ω\x1e1F61=ω\x1e1F62=ω\x1e1F63=ω\x1e1F64=ω\x1e1F65=ω\x1e1F66=ω\x1e1F67=ω\x1e1F68=Ω\x1e1F69=Ω\x1e1F6A=Ω\x1e1F6B=Ω\x1e1F'
        '6C=Ω\x1e1F6D=Ω\x1e1F6E=Ω\x1e1F6F=Ω\x1e1F70=α\x1e1F71=α\x1e1F72=ε\x1e1F73=ε\x1e1F74=η\x1e1F75=η\x1e1F76=ι\x1e1F77=ι\x1e1F'
        '78=ο\x1e1F79=ο\x1e1F7A=υ\x1e1F7B=υ\x1e1F7C=ω\x1e1F7D=ω\x1e1F80=α\x1e1F81=α\x1e1F82=α\x1e1F83=α\x1e1F84=α\x1e1F85=α\x1e1F'
        '86=α\x1e1F87=α\x1e1F88=Α\x1e1F89=Α\x1e1F8A=Α\x1e1F8B=Α\x1e1F8C=Α\x1e1F8D=Α\x1e1F8E=Α\x1e1F8F=Α\x1e1F90=η\x1e1F91=η\x1e1F'
        '92=η\x1e1F93=η\x1e1F94=η\x1e1F95=η\x1e1F96=η\x1e1F97=η\x1e1F98=Η\x1e1F99=Η\x1e1F9A=Η\x1e1F9B=Η\x1e1F9C=Η\x1e1F9D=Η\x1e1F'
        '9E=Η\x1e1F9F=Η\x1e1FA0=ω\x1e1FA1=ω\x1e1FA2=ω\x1e1FA3=ω\x1e1FA4=ω\x1e1FA5=ω\x1e1FA6=ω\x1e1FA7=ω\x1e1FA8=Ω\x1e1FA9=Ω\x1e1F'
        'AA=Ω\x1e1FAB=Ω\x1e1FAC=Ω\x1e1FAD=Ω\x1e1FAE=Ω\x1e1FAF=Ω\x1e1FB0=α\x1e1FB1=α\x1e1FB2=α\x1e1FB3=α\x1e1FB4=α\x1e1FB6=α\x1e1F'
        'B7=α\x1e1FB8=Α\x1e1FB9=Α\x1e1FBA=Α\x1e1FBB=Α\x1e1FBC=Α\x1e1FBE=ι\x1e1FC1=¨\x1e1FC2=η\x1e1FC3=η\x1e1FC4=η\x1e1FC6=η\x1e1F'
        'C7=η\x1e1FC8=Ε\x1e1FC9=Ε\x1e1FCA=Η\x1e1FCB=Η\x1e1FCC=Η\x1e1FD0=ι\x1e1FD1=ι\x1e1FD2=ι\x1e1FD3=ι\x1e1FD6=ι\x1e1FD7=ι\x1e1F'
        'D8=Ι\x1e1FD9=Ι\x1e1FDA=Ι\x1e1FDB=Ι\x1e1FE0=υ\x1e1FE1=υ\x1e1FE2=υ\x1e1FE3=υ\x1e1FE4=ρ\x1e1FE5=ρ\x1e1FE6=υ\x1e1FE7=υ\x1e1F'
        'E8=Υ\x1e1FE9=Υ\x1e1FEA=Υ\x1e1FEB=Υ\x1e1FEC=Ρ\x1e1FED=¨\x1e1FEE=¨\x1e1FF2=ω\x1e1FF3=ω\x1e1FF4=ω\x1e1FF6=ω\x1e1FF7=ω\x1e1F'
        'F8=Ο\x1e1FF9=Ο\x1e1FFA=Ω\x1e1FFB=Ω\x1e1FFC=Ω\x1e202F=\xa0\x1e2103=°C\x1e2109=°F\x1e2126=Ω\x1e213C=π\x1e213D=γ\x1e213E=Γ\x1e'
        '213F=Π\x1e2219=·\x1e22C5=·\x1e22EF=···\x1e3378=dm²\x1e3379=dm³\x1e3382=μA\x1e338C=μF\x1e338D=μg\x1e3395=μl\x1e339B'
        '=μm\x1e339F=mm²\x1e33A0=cm²\x1e33A1=m²\x1e33A2=km²\x1e33A3=mm³\x1e33A4=cm³\x1e33A5=m³\x1e33A6=km³\x1e33A8=m/s²\x1e'
        '33AF=rad/s²\x1e33B2=μs\x1e33B6=μV\x1e33BC=μW\x1e33C0=kΩ\x1e33C1=MΩ\x1eFFE1=£\x1eFFE2=¬\x1eFFE4=¦\x1e1D6A8=Α\x1e1D6'
        'A9=Β\x1e1D6AA=Γ\x1e1D6AB=Δ\x1e1D6AC=Ε\x1e1D6AD=Ζ\x1e1D6AE=Η\x1e1D6AF=Θ\x1e1D6B0=Ι\x1e1D6B1=Κ\x1e1D6B2=Λ\x1e1D6B3=Μ'
        '\x1e1D6B4=Ν\x1e1D6B5=Ξ\x1e1D6B6=Ο\x1e1D6B7=Π\x1e1D6B8=Ρ\x1e1D6BA=Σ\x1e1D6BB=Τ\x1e1D6BC=Υ\x1e1D6BD=Φ\x1e1D6BE=Χ\x1e1D6'
        'BF=Ψ\x1e1D6C0=Ω\x1e1D6C2=α\x1e1D6C3=β\x1e1D6C4=γ\x1e1D6C5=δ\x1e1D6C6=ε\x1e1D6C7=ζ\x1e1D6C8=η\x1e1D6C9=θ\x1e1D6CA=ι'
        '\x1e1D6CB=κ\x1e1D6CC=λ\x1e1D6CD=μ\x1e1D6CE=ν\x1e1D6CF=ξ\x1e1D6D0=ο\x1e1D6D1=π\x1e1D6D2=ρ\x1e1D6D3=ς\x1e1D6D4=σ\x1e1D6'
        'D5=τ\x1e1D6D6=υ\x1e1D6D7=φ\x1e1D6D8=χ\x1e1D6D9=ψ\x1e1D6DA=ω\x1e1D6E2=Α\x1e1D6E3=Β\x1e1D6E4=Γ\x1e1D6E5=Δ\x1e1D6E6=Ε'
        '\x1e1D6E7=Ζ\x1e1D6E8=Η\x1e1D6E9=Θ\x1e1D6EA=Ι\x1e1D6EB=Κ\x1e1D6EC=Λ\x1e1D6ED=Μ\x1e1D6EE=Ν\x1e1D6EF=Ξ\x1e1D6F0=Ο\x1e1D6'
        'F1=Π\x1e1D6F2=Ρ\x1e1D6F4=Σ\x1e1D6F5=Τ\x1e1D6F6=Υ\x1e1D6F7=Φ\x1e1D6F8=Χ\x1e1D6F9=Ψ\x1e1D6FA=Ω\x1e1D6FC=α\x1e1D6FD=β'
        '\x1e1D6FE=γ\x1e1D6FF=δ\x1e1D700=ε\x1e1D701=ζ\x1e1D702=η\x1e1D703=θ\x1e1D704=ι\x1e1D705=κ\x1e1D706=λ\x1e1D707=μ\x1e1D7'
        '08=ν\x1e1D709=ξ\x1e1D70A=ο\x1e1D70B=π\x1e1D70C=ρ\x1e1D70D=ς\x1e1D70E=σ\x1e1D70F=τ\x1e1D710=υ\x1e1D711=φ\x1e1D712=χ'
        '\x1e1D713=ψ\x1e1D714=ω\x1e1D71C=Α\x1e1D71D=Β\x1e1D71E=Γ\x1e1D71F=Δ\x1e1D720=Ε\x1e1D721=Ζ\x1e1D722=Η\x1e1D723=Θ\x1e1D7'
        '24=Ι\x1e1D725=Κ\x1e1D726=Λ\x1e1D727=Μ\x1e1D728=Ν\x1e1D729=Ξ\x1e1D72A=Ο\x1e1D72B=Π\x1e1D72C=Ρ\x1e1D72E=Σ\x1e1D72F=Τ'
        '\x1e1D730=Υ\x1e1D731=Φ\x1e1D732=Χ\x1e1D733=Ψ\x1e1D734=Ω\x1e1D736=α\x1e1D737=β\x1e1D738=γ\x1e1D739=δ\x1e1D73A=ε\x1e1D7'
        '3B=ζ\x1e1D73C=η\x1e1D73D=θ\x1e1D73E=ι\x1e1D73F=κ\x1e1D740=λ\x1e1D741=μ\x1e1D742=ν\x1e1D743=ξ\x1e1D744=ο\x1e1D745=π'
        '\x1e1D746=ρ\x1e1D747=ς\x1e1D748=σ\x1e1D749=τ\x1e1D74A=υ\x1e1D74B=φ\x1e1D74C=χ\x1e1D74D=ψ\x1e1D74E=ω\x1e1D756=Α\x1e1D7'
        '57=Β\x1e1D758=Γ\x1e1D759=Δ\x1e1D75A=Ε\x1e1D75B=Ζ\x1e1D75C=Η\x1e1D75D=Θ\x1e1D75E=Ι\x1e1D75F=Κ\x1e1D760=Λ\x1e1D761=Μ'
        '\x1e1D762=Ν\x1e1D763=Ξ\x1e1D764=Ο\x1e1D765=Π\x1e1D766=Ρ\x1e1D768=Σ\x1e1D769=Τ\x1e1D76A=Υ\x1e1D76B=Φ\x1e1D76C=Χ\x1e1D7'
        '6D=Ψ\x1e1D76E=Ω\x1e1D770=α\x1e1D771=β\x1e1D772=γ\x1e1D773=δ\x1e1D774=ε\x1e1D775=ζ\x1e1D776=η\x1e1D777=θ\x1e1D778=ι'
        '\x1e1D779=κ\x1e1D77A=λ\x1e1D77B=μ\x1e1D77C=ν\x1e1D77D=ξ\x1e1D77E=ο\x1e1D77F=π\x1e1D780=ρ\x1e1D781=ς\x1e1D782=σ\x1e1D7'
        '83=τ\x1e1D784=υ\x1e1D785=φ\x1e1D786=χ\x1e1D787=ψ\x1e1D788=ω\x1e1D790=Α\x1e1D791=Β\x1e1D792=Γ\x1e1D793=Δ\x1e1D794=Ε'
        '\x1e1D795=Ζ\x1e1D796=Η\x1e1D797=Θ\x1e1D798=Ι\x1e1D799=Κ\x1e1D79A=Λ\x1e1D79B=Μ\x1e1D79C=Ν\x1e1D79D=Ξ\x1e1D79E=Ο\x1e1D7'
        '9F=Π\x1e1D7A0=Ρ\x1e1D7A2=Σ\x1e1D7A3=Τ\x1e1D7A4=Υ\x1e1D7A5=Φ\x1e1D7A6=Χ\x1e1D7A7=Ψ\x1e1D7A8=Ω\x1e1D7AA=α\x1e1D7AB=β'
        '\x1e1D7AC=γ\x1e1D7AD=δ\x1e1D7AE=ε\x1e1D7AF=ζ\x1e1D7B0=η\x1e1D7B1=θ\x1e1D7B2=ι\x1e1D7B3=κ\x1e1D7B4=λ\x1e1D7B5=μ\x1e1D7'
        'B6=ν\x1e1D7B7=ξ\x1e1D7B8=ο\x1e1D7B9=π\x1e1D7BA=ρ\x1e1D7BB=ς\x1e1D7BC=σ\x1e1D7BD=τ\x1e1D7BE=υ\x1e1D7BF=φ\x1e1D7C0=χ'
        '\x1e1D7C1=ψ\x1e1D7C2=ω'
    ),
    'ISO-8859-8': (
        '2B9=´\x1e2BA=´´\x1e2C9=¯\x1e2CA=´\x1e385=¨\x1e387=·\x1e5F0=וו\x1e5F1=וי\x1e5F2=יי\x1e1FC1=¨\x1e1FED=¨\x1e1FEE=¨\x1e1FFD='
        '´\x1e202F=\xa0\x1e2032=´\x1e2033=´´\x1e2034=´´´\x1e2103=°C\x1e2109=°F\x1e2135=א\x1e2136=ב\x1e2137=ג\x1e2138=ד\x1e2219=·\x1e'
        '22C5=·\x1e22EF=···\x1e3378=dm²\x1e3379=dm³\x1e3382=µA\x1e338C=µF\x1e338D=µg\x1e3395=µl\x1e339B=µm\x1e339F=mm²\x1e3'
        '3A0=cm²\x1e33A1=m²\x1e33A2=km²\x1e33A3=mm³\x1e33A4=cm³\x1e33A5=m³\x1e33A6=km³\x1e33A8=m/s²\x1e33AF=rad/s²\x1e33'
        'B2=µs\x1e33B6=µV\x1e33BC=µW\x1eFB1D=י\x1eFB1F=יי\x1eFB20=ע\x1eFB21=א\x1eFB22=ד\x1eFB23=ה\x1eFB24=כ\x1eFB25=ל\x1eFB26='
        'ם\x1eFB27=ר\x1eFB28=ת\x1eFB2A=ש\x1eFB2B=ש\x1eFB2C=ש\x1eFB2D=ש\x1eFB2E=א\x1eFB2F=א\x1eFB30=א\x1eFB31=ב\x1eFB32=ג\x1eFB33='
        'ד\x1eFB34=ה\x1eFB35=ו\x1eFB36=ז\x1eFB38=ט\x1eFB39=י\x1eFB3A=ך\x1eFB3B=כ\x1eFB3C=ל\x1eFB3E=מ\x1eFB40=נ\x1eFB41=ס\x1eFB43='
        'ף\x1eFB44=פ\x1eFB46=צ\x1eFB47=ק\x1eFB48=ר\x1eFB49=ש\x1eFB4A=ת\x1eFB4B=ו\x1eFB4C=ב\x1eFB4D=כ\x1eFB4E=פ\x1eFB4F=אל\x1eFFE0'
        '=¢\x1eFFE1=£\x1eFFE2=¬\x1eFFE3=¯\x1eFFE4=¦\x1eFFE5=¥'
    ),
    'ISO-8859-9': (
        '1E2=Æ\x1e1E3=æ\x1e1FC=Æ\x1e1FD=æ\x1e1FE=Ø\x1e1FF=ø\x1e2B9=´\x1e2BA=´´\x1e2C9=¯\x1e2CA=´\x1e385=¨\x1e387=·\x1e1D2D=Æ\x1e1FC1'
        '=¨\x1e1FED=¨\x1e1FEE=¨\x1e1FFD=´\x1e202F=\xa0\x1e2032=´\x1e2033=´´\x1e2034=´´´\x1e2103=°C\x1e2109=°F\x1e2219=·\x1e22C5=·'
        '\x1e22EF=···\x1e3378=dm²\x1e3379=dm³\x1e3382=µA\x1e338C=µF\x1e338D=µg\x1e3395=µl\x1e339B=µm\x1e339F=mm²\x1e33A0=cm'
        '²\x1e33A1=m²\x1e33A2=km²\x1e33A3=mm³\x1e33A4=cm³\x1e33A5=m³\x1e33A6=km³\x1e33A8=m/s²\x1e33AF=rad/s²\x1e33B2=µs\x1e'
        '33B6=µV\x1e33BC=µW\x1eFFE0=¢\x1eFFE1=£\x1eFFE2=¬\x1eFFE3=¯\x1eFFE4=¦\x1eFFE5=¥\x1e10783=æ\x1e107A2=ø\x1e1D6A4=ı'
    ),
    'ISO-8859-10': (
        '1C4=DŽ\x1e1C5=Dž\x1e1C6=dž\x1e1E2=Æ\x1e1E3=æ\x1e1FC=Æ\x1e1FD=æ\x1e1FE=Ø\x1e1FF=ø\x1e387=·\x1e1D2D=Æ\x1e1D51=ŋ\x1e1D9E=ð\x1e'
        '202F=\xa0\x1e2103=°C\x1e2109=°F\x1e2219=·\x1e22C5=·\x1e22EF=···\x1e10783=æ\x1e107A2=ø'
    ),
    'ISO-8859-11': (
        '202F=\xa0'
    ),
    'ISO-8859-13': (
        '1C4=DŽ\x1e1C5=Dž\x1e1C6=dž\x1e1E2=Æ\x1e1E3=æ\x1e1FC=Æ\x1e1FD=æ\x1e1FE=Ø\x1e1FF=ø\x1e2BC=’\x1e387=·\x1e1D2D=Æ\x1e202F=\xa0\x1e2'
        '103=°C\x1e2109=°F\x1e2219=·\x1e22C5=·\x1e22EF=···\x1e3378=dm²\x1e3379=dm³\x1e3382=µA\x1e338C=µF\x1e338D=µg\x1e3395'
        '=µl\x1e339B=µm\x1e339F=mm²\x1e33A0=cm²\x1e33A1=m²\x1e33A2=km²\x1e33A3=mm³\x1e33A4=cm³\x1e33A5=m³\x1e33A6=km³\x1e33'
        'A8=m/s²\x1e33AF=rad/s²\x1e33B2=µs\x1e33B6=µV\x1e33BC=µW\x1eFFE0=¢\x1eFFE1=£\x1eFFE2=¬\x1eFFE4=¦\x1e10783=æ\x1e107A'
        '2=ø'
    ),
    'ISO-8859-14': (
        '1E2=Æ\x1e1E3=æ\x1e1FC=Æ\x1e1FD=æ\x1e1FE=Ø\x1e1FF=ø\x1e1D2D=Æ\x1e202F=\xa0\x1eFFE1=£\x1e10783=æ\x1e107A2=ø'
    ),
    'ISO-8859-15': (
        '1C4=DŽ\x1e1C5=Dž\x1e1C6=dž\x1e1E2=Æ\x1e1E3=æ\x1e1FC=Æ\x1e1FD=æ\x1e1FE=Ø\x1e1FF=ø\x1e2C9=¯\x1e387=·\x1e1D2D=Æ\x1e1D9E=ð\x1e2'
        '02F=\xa0\x1e2103=°C\x1e2109=°F\x1e2219=·\x1e22C5=·\x1e22EF=···\x1e3378=dm²\x1e3379=dm³\x1e3382=µA\x1e338C=µF\x1e338D='
        'µg\x1e3395=µl\x1e339B=µm\x1e339F=mm²\x1e33A0=cm²\x1e33A1=m²\x1e33A2=km²\x1e33A3=mm³\x1e33A4=cm³\x1e33A5=m³\x1e33A6'
        '=km³\x1e33A8=m/s²\x1e33AF=rad/s²\x1e33B2=µs\x1e33B6=µV\x1e33BC=µW\x1eA7F9=œ\x1eFFE0=¢\x1eFFE1=£\x1eFFE2=¬\x1eFFE3='
        '¯\x1eFFE5=¥\x1e10783=æ\x1e107A2=ø'
    ),
    'ISO-8859-16': (
        '1C4=DŽ\x1e1C5=Dž\x1e1C6=dž\x1e1E2=Æ\x1e1E3=æ\x1e1FC=Æ\x1e1FD=æ\x1e387=·\x1e1D2D=Æ\x1e202F=\xa0\x1e2103=°C\x1e2109=°F\x1e221'
        '9=·\x1e22C5=·\x1e22EF=···\x1eA7F9=œ\x1e10783=æ'
    ),
    'CP1252': (
        '1C4=DŽ\x1e1C5=Dž\x1e1C6=dž\x1e1E2=Æ\x1e1E3=æ\x1e1FC=Æ\x1e1FD=æ\x1e1FE=Ø\x1e1FF=ø\x1e2B9=´\x1e2BA=´´\x1e2BB=‘\x1e2BC=’\x1e2C'
        '9=¯\x1e2CA=´\x1e385=¨\x1e387=·\x1e1D2D=Æ\x1e1D9E=ð\x1e1FC1=¨\x1e1FED=¨\x1e1FEE=¨\x1e1FFD=´\x1e202F=\xa0\x1e2032=´\x1e2033=´'
        '´\x1e2034=´´´\x1e2103=°C\x1e2109=°F\x1e2212=–\x1e2219=•\x1e22C5=·\x1e22EF=···\x1e3378=dm²\x1e3379=dm³\x1e3382=µA\x1e3'
        '38C=µF\x1e338D=µg\x1e3395=µl\x1e339B=µm\x1e339F=mm²\x1e33A0=cm²\x1e33A1=m²\x1e33A2=km²\x1e33A3=mm³\x1e33A4=cm³\x1e'
        '33A5=m³\x1e33A6=km³\x1e33A8=m/s²\x1e33AF=rad/s²\x1e33B2=µs\x1e33B6=µV\x1e33BC=µW\x1eA7F9=œ\x1eFE31=—\x1eFE32=–\x1e'
        'FE58=—\x1eFFE0=¢\x1eFFE1=£\x1eFFE2=¬\x1eFFE3=¯\x1eFFE4=¦\x1eFFE5=¥\x1e10783=æ\x1e107A2=ø'
    ),
}
