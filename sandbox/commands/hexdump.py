"""``hexdump``: display file contents in hexadecimal and other formats (util-linux 2.38).

Formats: the default (``%07.7_ax`` then eight ``%04x`` units), ``-C`` (canonical hex+ASCII),
``-x -d -o`` (two-byte hex, decimal, octal), ``-b`` (one-byte octal), ``-c`` (characters);
several may be given and each prints its line of every block, in order. ``-n LENGTH``,
``-s OFFSET`` (util-linux size forms: ``0x``, ``K KiB KB M ...``), ``-v`` (no ``*`` for repeated
lines). Files are read as one stream.

Without a file operand stdin is read (``-`` is a file name, as in util-linux); ``-s`` on a
stdin that cannot seek (a pipe) fails with ``stdin: Illegal seek`` as util-linux does.
Format strings: ``-e FORMAT`` and ``-f FILE`` (its lines, less blank and ``#`` ones), with
util-linux's parser and display loop: ``[ITER][/BYTES] "TEXT"`` units, conversions
``%d %i %o %u %x %X`` (1, 2, 4 or 8 bytes), ``%e %E %f %g %G`` (4 or 8), ``%c``, ``%s`` (with a
precision or a byte count), ``%_a[dox]`` (address), ``%_A[dox]`` (printed once, after the input),
``%_c %_p %_u``; flags, width and precision as printf; escapes ``\a \b \f \n \r \t \v``;
the last unit repeats to fill the block, the last iteration drops one trailing white-space
character, and data past the end pads with spaces. With any of them, the built-in displays
(``-b -c -C -d -o -x``) are run as the format strings util-linux defines for them.

Deviations (undefined behaviour in util-linux): a ``%s`` with a byte count but no precision
reads up to a NUL within the block (util-linux reads on in memory); a unit that ends in ``%``
and flags makes util-linux read past the string's end, and it reports whatever byte follows
(``bad conversion character %A`` in the cases tried, which is what we print).
"""

from __future__ import annotations

import errno
import re
from dataclasses import dataclass, field
from typing import Callable

from sandbox.commands._cnumbers import scan_number
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    "bcCde:f:L::n:os:vxV",
    {
        "one-byte-octal": (NO_ARG, "b"),
        "one-byte-char": (NO_ARG, "c"),
        "canonical": (NO_ARG, "C"),
        "two-bytes-decimal": (NO_ARG, "d"),
        "two-bytes-octal": (NO_ARG, "o"),
        "two-bytes-hex": (NO_ARG, "x"),
        "format": (REQUIRED, "e"),
        "format-file": (REQUIRED, "f"),
        "length": (REQUIRED, "n"),
        "skip": (REQUIRED, "s"),
        "no-squeezing": (NO_ARG, "v"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "V"),
    },
)

USAGE = """
Usage:
 hexdump [options] <file>...

Display file contents in hexadecimal, decimal, octal, or ascii.

Options:
 -b, --one-byte-octal      one-byte octal display
 -c, --one-byte-char       one-byte character display
 -C, --canonical           canonical hex+ASCII display
 -d, --two-bytes-decimal   two-byte decimal display
 -o, --two-bytes-octal     two-byte octal display
 -x, --two-bytes-hex       two-byte hexadecimal display
 -e, --format <format>     format string to be used for displaying data
 -f, --format-file <file>  file that contains format strings
 -n, --length <length>     interpret only length bytes of input
 -s, --skip <offset>       skip offset bytes from the beginning
 -v, --no-squeezing        output identical lines

 -h, --help                display this help
 -V, --version             display version
"""

_ESC = {0: "\\0", 7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v"}
_SUFFIXES = "KMGTPEZY"


@dataclass(frozen=True)
class _Format:
    """One display: its address width and the text of a 16-byte block (``len(block) <= 16``)."""

    addr_width: int
    render: Callable[[bytes], str]


def _units(size: int, width: int, conv: Callable[[int], str]) -> Callable[[bytes], str]:
    def render(block: bytes) -> str:
        parts = []
        for i in range(0, 16, size):
            piece = block[i:i + size]
            if piece:
                value = int.from_bytes(piece + b"\0" * (size - len(piece)), "little")
                parts.append(conv(value).rjust(width))
            else:
                parts.append(" " * width)
        return "".join(parts)
    return render


def _char(c: int) -> str:
    return _ESC.get(c) or (chr(c) if 32 <= c < 127 else "%03o" % c)


def _canonical(block: bytes) -> str:
    cells = [("%02x " % block[i]) if i < len(block) else "   " for i in range(16)]
    text = "".join(chr(c) if 32 <= c < 127 else "." for c in block)
    return "  " + "".join(cells[:8]) + " " + "".join(cells[8:]) + " |" + text + "|"


FORMATS = {
    "default": _Format(7, _units(2, 5, lambda v: "%04x" % v)),
    "x": _Format(7, _units(2, 8, lambda v: "%04x" % v)),
    "d": _Format(7, _units(2, 8, lambda v: "%05u" % v)),
    "o": _Format(7, _units(2, 8, lambda v: "%06o" % v)),
    "b": _Format(7, _units(1, 4, lambda v: "%03o" % v)),
    "c": _Format(7, _units(1, 4, _char)),
    "C": _Format(8, _canonical),
}


class _SizeError(ValueError):
    """A size util-linux's ``strtosize`` refuses."""


def parse_size(text: str) -> int:
    """util-linux ``strtosize``: a base-0 number with an optional K/KiB/KB... suffix."""
    s = text.strip(" \t")
    if not s or s[0] == "-":
        raise _SizeError(text)
    value, rest = scan_number(s)
    if value is None:
        raise _SizeError(text)
    if rest:
        k = _SUFFIXES.find(rest[0].upper())
        if k < 0 or rest[1:] not in ("", "iB", "B", "ib", "b"):
            raise _SizeError(text)
        power = 1000 if rest[1:] in ("B", "b") else 1024
        value *= power ** (k + 1)
    return value


# -- format strings (-e, -f): util-linux's parse.c and display.c ----------------------------------

class HexFormatError(Exception):
    """A format string util-linux refuses; ``str()`` is its message (without ``hexdump: ``)."""


_SPEC = ".#-+ 0123456789"
F_ADDRESS, F_BPAD, F_C, F_CHAR, F_DBL, F_INT, F_P, F_STR, F_TEXT, F_U, F_UINT = range(11)
_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_U_NAMES = ["nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "lf", "vt", "ff", "cr",
            "so", "si", "dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc",
            "fs", "gs", "rs", "us"]


@dataclass
class _PR:
    """A print unit: literal text, then (unless F_TEXT) one conversion of ``bcnt`` bytes."""

    kind: int
    text: str
    flags: str = ""
    width: str = ""
    prec: str | None = None
    conv: str = ""
    bcnt: int = 0
    nospace: bool = False  # the text is the last of its unit and ends in white space
    spec: str = ""  # flags, width and precision as written


@dataclass
class _FU:
    """A format unit: ``reps/bcnt "fmt"``."""

    reps: int
    bcnt: int
    fmt: str
    setrep: bool = False
    ignore: bool = False
    prs: list[_PR] = field(default_factory=list)


def _escape(text: str) -> str:
    """util-linux ``escape``, in place and as written: a backslash and the letter after it
    (a b f n r t v, or any other character as itself) become one character, but the plain
    characters after such a pair are not moved down, so the string keeps its first
    characters and loses its last ones, one per pair (``"\\tab|"`` gives TAB ``ta``); a
    trailing backslash ends the string."""
    buf = list(text)
    p1 = p2 = 0
    while p1 < len(text):
        if text[p1] == "\\":
            p1 += 1
            if p1 >= len(text):
                return "".join(buf[:p2])
            buf[p2] = _ESCAPES.get(text[p1], text[p1])
        p1 += 1
        p2 += 1
    return "".join(buf[:p2])


def add_fmt(fmt: str) -> list[_FU]:
    """util-linux ``add_fmt``: one format string's units."""
    fus = []
    p, n = 0, len(fmt)

    def bad() -> HexFormatError:
        return HexFormatError(f"bad format {{{fmt}}}")

    while True:
        while p < n and fmt[p].isspace():
            p += 1
        if p >= n:
            break
        fu = _FU(1, 0, "")
        if fmt[p].isdigit():
            start = p
            while p < n and fmt[p].isdigit():
                p += 1
            if p >= n or not (fmt[p].isspace() or fmt[p] == "/"):
                raise bad()
            fu.reps, fu.setrep = int(fmt[start:p]), True
            p += 1  # the white space or slash after the count
            while p < n and fmt[p].isspace():
                p += 1
        if p < n and fmt[p] == "/":
            p += 1
            while p < n and fmt[p].isspace():
                p += 1
        if p < n and fmt[p].isdigit():
            start = p
            while p < n and fmt[p].isdigit():
                p += 1
            if p >= n or not fmt[p].isspace():
                raise bad()
            fu.bcnt = int(fmt[start:p])
            p += 1
            while p < n and fmt[p].isspace():
                p += 1
        if p >= n or fmt[p] != '"':
            raise bad()
        p += 1
        start = p
        while p < n and fmt[p] != '"':
            p += 1
        if p >= n:
            raise bad()
        fu.fmt = _escape(fmt[start:p])
        p += 1
        fus.append(fu)
    return fus


def _first_letter(s: str, i: int, letters: str) -> bool:
    return i < len(s) and s[i] in letters


def block_size(fus: list[_FU]) -> int:
    """util-linux ``block_size``: the bytes one pass of a format string reads."""
    total = 0
    for fu in fus:
        if fu.bcnt:
            total += fu.bcnt * fu.reps
            continue
        bcnt = prec = 0
        f = fu.fmt
        i = 0
        while i < len(f):
            if f[i] != "%":
                i += 1
                continue
            i += 1
            while i < len(f) and f[i] in _SPEC[1:]:
                i += 1
            if i < len(f) and f[i] == ".":
                i += 1
                if i < len(f) and f[i].isdigit():
                    start = i
                    while i < len(f) and f[i].isdigit():
                        i += 1
                    prec = int(f[start:i])
            if i >= len(f) or _first_letter(f, i, "diouxX"):  # strchr finds the NUL too
                bcnt += 4
            elif _first_letter(f, i, "efgEG"):
                bcnt += 8
            elif _first_letter(f, i, "s"):
                bcnt += prec
            elif _first_letter(f, i, "c") or (_first_letter(f, i, "_") and _first_letter(f, i + 1, "cpu")):
                bcnt += 1
                if f[i] == "_":
                    i += 1
            if i < len(f):
                i += 1
        total += bcnt * fu.reps
    return total


def rewrite(fus: list[_FU], fs_bcnt: int, blocksize: int) -> _FU | None:
    """util-linux ``rewrite_rules``: split each unit into print units and check them; returns
    the last unit holding ``%_A`` (printed once at the end), if any."""
    endfu = None
    for fu in fus:
        f = fu.fmt
        i = 0
        nconv = 0
        while i < len(f):
            j = f.find("%", i)
            if j < 0:
                fu.prs.append(_PR(F_TEXT, f[i:]))
                break
            text = f[i:j]
            k = j + 1
            stray = HexFormatError("bad conversion character %A")
            if fu.bcnt:
                sokay = "bcnt"
                while k < len(f) and f[k] in _SPEC:
                    k += 1
                if k >= len(f):
                    # util-linux's strchr(spec, c) also finds the NUL and reads on past the
                    # string's end; on glibc 2.38 it stops at this stray character
                    raise stray
                spec = f[j + 1:k]
                prec_val = 0
            else:
                while k < len(f) and f[k] in _SPEC[1:]:
                    k += 1
                if k >= len(f):
                    raise stray
                spec = f[j + 1:k]
                sokay = "no"
                prec_val = 0
                if f[k] == ".":
                    k += 1
                    if k < len(f) and f[k].isdigit():
                        start = k
                        while k < len(f) and f[k].isdigit():
                            k += 1
                        sokay, prec_val = "prec", int(f[start:k])
                    spec = f[j + 1:k]
                    if k >= len(f):
                        # the conversion character is the NUL, which strchr finds in "di":
                        # a 4-byte integer whose broken spec glibc prints as nothing
                        if fu.bcnt not in (0, 1, 2, 4, 8):
                            raise HexFormatError("bad byte count for conversion character ")
                        fu.prs.append(_PR(F_INT, text, bcnt=fu.bcnt or 4, conv="", spec=spec))
                        break
            flags = ""
            m = 0
            while m < len(spec) and spec[m] in "#-+ 0":
                flags += spec[m]
                m += 1
            rest = spec[m:]
            width, _, prec = rest.partition(".")
            prec_text: str | None = prec if "." in rest else None
            conv = f[k]
            end = k + 1
            pr = _PR(F_TEXT, text, flags, width, prec_text, conv, spec=spec)
            if conv == "c":
                pr.kind = F_CHAR
                if fu.bcnt not in (0, 1):
                    raise HexFormatError("bad byte count for conversion character c")
                pr.bcnt = 1
            elif conv in "diouxX":
                pr.kind = F_INT if conv in "di" else F_UINT
                if fu.bcnt not in (0, 1, 2, 4, 8):
                    raise HexFormatError(f"bad byte count for conversion character {conv}")
                pr.bcnt = fu.bcnt or 4
            elif conv in "eEfgG":
                pr.kind = F_DBL
                if fu.bcnt not in (0, 4, 8):
                    raise HexFormatError(f"bad byte count for conversion character {conv}")
                pr.bcnt = fu.bcnt or 8
            elif conv == "s":
                pr.kind = F_STR
                if sokay == "no":
                    raise HexFormatError("%s requires a precision or a byte count")
                pr.bcnt = fu.bcnt if sokay == "bcnt" else prec_val
            elif conv == "_":
                second = f[k + 1] if k + 1 < len(f) else ""
                end = k + 2
                if second in ("A", "a"):
                    if second == "A":
                        endfu = fu
                        fu.ignore = True
                    pr.kind = F_ADDRESS
                    third = f[k + 2] if k + 2 < len(f) else ""
                    end = k + 3
                    if third and third not in "dox":
                        raise HexFormatError(f"bad conversion character %{f[k:k + 3]}")
                    pr.conv = third
                elif second in ("c", "p", "u"):
                    pr.kind = {"c": F_C, "p": F_P, "u": F_U}[second]
                    if fu.bcnt not in (0, 1):
                        raise HexFormatError(f"bad byte count for conversion character {f[k:k + 2]}")
                    pr.bcnt = 1
                    pr.conv = "_" + second
                else:
                    raise HexFormatError(f"bad conversion character %{f[k:k + 2]}")
            else:
                raise HexFormatError(f"bad conversion character %{conv}")
            fu.prs.append(pr)
            i = end
            if pr.kind != F_ADDRESS and fu.bcnt:
                nconv += 1
                if nconv > 1:
                    raise HexFormatError("byte count with multiple conversion characters")
        if not fu.bcnt:
            fu.bcnt = sum(pr.bcnt for pr in fu.prs)
    for idx, fu in enumerate(fus):
        if idx == len(fus) - 1 and fs_bcnt < blocksize and not fu.setrep and fu.bcnt:
            fu.reps += (blocksize - fs_bcnt) // fu.bcnt
        if fu.reps > 1 and fu.prs:
            last = fu.prs[-1]
            whole = last.text if last.kind == F_TEXT else ""
            if whole and whole[-1].isspace():
                last.nospace = True
    return endfu


def _pad(body: bytes, flags: str, width: str, numeric: bool, prefix_len: int = 0) -> bytes:
    w = int(width) if width else 0
    if len(body) >= w:
        return body
    if "-" in flags:
        return body + b" " * (w - len(body))
    if numeric and "0" in flags:
        return body[:prefix_len] + b"0" * (w - len(body)) + body[prefix_len:]
    return b" " * (w - len(body)) + body


def _fmt_int(pr: _PR, value: int, conv: str) -> bytes:
    from sandbox.commands.printf import _c_int

    prec = int(pr.prec or 0) if pr.prec is not None else None
    body = _c_int(value, pr.flags, prec, "d" if conv == "i" else conv)
    prefix = 0
    if body[:1] in "+- ":
        prefix = 1
    if body[prefix:prefix + 2] in ("0x", "0X"):
        prefix += 2
    zero_ok = prec is None
    return _pad(body.encode(), pr.flags if zero_ok else pr.flags.replace("0", ""), pr.width, True, prefix)


def _fmt_float(pr: _PR, value: float) -> bytes:
    import math
    from fractions import Fraction

    from sandbox.commands.printf import _c_float

    prec = int(pr.prec or 0) if pr.prec is not None else None
    if math.isnan(value):
        arg: Fraction | str = "-nan" if math.copysign(1.0, value) < 0 else "nan"
    elif math.isinf(value):
        arg = "-inf" if value < 0 else "inf"
    elif value == 0 and math.copysign(1.0, value) < 0:
        arg = "-0"
    else:
        arg = Fraction(value)
    body = _c_float(arg, pr.flags, prec, pr.conv)
    finite = not isinstance(arg, str) or arg == "-0"
    prefix = 1 if body[:1] in "+- " else 0
    return _pad(body.encode(), pr.flags if finite else pr.flags.replace("0", ""), pr.width, True, prefix)


def _fmt_str(pr: _PR, data: bytes) -> bytes:
    if pr.prec is not None:
        data = data[:int(pr.prec or 0)]
    return _pad(data, pr.flags, pr.width, False)


_VALID_SPEC = re.compile(r"[#\-+ 0]*\d*(?:\.\d*)?")


def _literal(pr: _PR, block: bytes, pos: int) -> bytes:
    """What glibc's printf prints for a spec it cannot parse (``%5-d``): the directive as
    written, with the conversion util-linux put there (``q`` shows as ``ll``)."""
    byte = block[pos] if pos < len(block) else 0
    printable = 32 <= byte < 127
    if pr.kind in (F_INT, F_UINT, F_ADDRESS):
        conv = "ll" + pr.conv
    elif pr.kind == F_C:
        conv = "c" if printable else "s"
    elif pr.kind == F_U:
        conv = "s" if byte <= 0x1F or byte == 0x7F else "c" if printable else "x"
    elif pr.kind in (F_P, F_CHAR):
        conv = "c"
    else:
        conv = pr.conv
    return f"%{pr.spec}{conv}".encode()


def _print(pr: _PR, block: bytes, pos: int, address: int) -> bytes:
    """util-linux ``print``: one print unit on the bytes at ``pos`` (after its text)."""
    out = pr.text.encode("utf-8", "surrogateescape")
    if pr.kind == F_TEXT:
        return out
    if pr.kind == F_BPAD:
        spec = pr.spec.lstrip(" -0+#")  # bpad drops the leading flags
        if not _VALID_SPEC.fullmatch(spec):
            return out + f"%{spec}s".encode()
        return out + _pad(b"", "", spec.partition(".")[0], False)
    if pr.conv and not _VALID_SPEC.fullmatch(pr.spec):
        return out + _literal(pr, block, pos)
    if pr.kind == F_ADDRESS:
        if not pr.conv:
            return out
        return out + _fmt_int(pr, address, pr.conv)
    piece = block[pos:pos + pr.bcnt]
    byte = piece[0] if piece else 0
    if pr.kind == F_CHAR:
        return out + _pad(bytes([byte]), pr.flags, pr.width, False)
    if pr.kind == F_P:
        return out + _pad(bytes([byte]) if 32 <= byte < 127 else b".", pr.flags, pr.width, False)
    if pr.kind == F_C:
        if 32 <= byte < 127:
            return out + _pad(bytes([byte]), pr.flags, pr.width, False)
        text = _ESC.get(byte) or "%03o" % byte
        return out + _fmt_str(pr, text.encode())
    if pr.kind == F_U:
        if byte <= 0x1F or byte == 0x7F:
            return out + _fmt_str(pr, (_U_NAMES[byte] if byte <= 0x1F else "del").encode())
        if 32 <= byte < 127:
            return out + _pad(bytes([byte]), pr.flags, pr.width, False)
        return out + _fmt_int(pr, byte, "x")
    if pr.kind in (F_INT, F_UINT):
        if not pr.conv:
            return out
        value = int.from_bytes(piece.ljust(pr.bcnt, b"\0"), "little", signed=pr.kind == F_INT)
        return out + _fmt_int(pr, value, pr.conv)
    if pr.kind == F_DBL:
        import struct
        value = struct.unpack("<f" if pr.bcnt == 4 else "<d", piece.ljust(pr.bcnt, b"\0"))[0]
        return out + _fmt_float(pr, value)
    # F_STR: up to a NUL (bounded by the block; GNU reads on past it)
    data = block[pos:]
    nul = data.find(b"\0")
    return out + _fmt_str(pr, data if nul < 0 else data[:nul])


#: The built-in displays as util-linux's hexsyntax.c spells them, for use beside -e/-f.
BUILTIN_FORMATS = {
    "b": ['"%07.7_Ax\n"', '"%07.7_ax " 16/1 "%03o " "\\n"'],
    "c": ['"%07.7_Ax\n"', '"%07.7_ax " 16/1 "%3_c " "\\n"'],
    "C": ['"%08.8_Ax\n"', '"%08.8_ax  " 8/1 "%02x " "  " 8/1 "%02x " ', '"  |" 16/1 "%_p" "|\\n"'],
    "d": ['"%07.7_Ax\n"', '"%07.7_ax " 8/2 "  %05u " "\\n"'],
    "o": ['"%07.7_Ax\n"', '"%07.7_ax " 8/2 " %06o " "\\n"'],
    "x": ['"%07.7_Ax\n"', '"%07.7_ax " 8/2 "   %04x " "\\n"'],
}


def prepare(fss: list[list[_FU]]) -> tuple[int, _FU | None]:
    """The block size and the ``%_A`` unit, after rewriting (and checking) every string."""
    sizes = [block_size(fs) for fs in fss]
    blocksize = max(sizes, default=0)
    endfu = None
    for fs, size in zip(fss, sizes):
        endfu = rewrite(fs, size, blocksize) or endfu
    return blocksize, endfu


def _format_file(ctx: CommandContext, name: str) -> list[str] | None:
    """util-linux ``addfile``: the lines of a format file that are not blank or ``#``."""
    try:
        data = ctx.read_bytes(name)
    except FSError as e:
        if e.errno == errno.EISDIR:  # fopen succeeds, getline fails: no formats
            return []
        ctx.error(f"can't read {name}: {e}")
        return None
    lines = []
    for raw in data.decode("utf-8", "surrogateescape").split("\n"):
        line = raw.lstrip(" \t\n\v\f\r")
        if line and not line.startswith("#"):
            lines.append(line)
    return lines


def display(ctx: CommandContext, fss: list[list[_FU]], prepared: tuple[int, _FU | None],
            read: Callable[[int], bytes], skip: int, length: int | None, verbose: bool) -> None:
    """util-linux ``display`` with its ``get``: every format string over each block."""
    blocksize, endfu = prepared
    out = ctx.stdout
    address = skip
    eaddress = 0
    remaining = -1 if length is None else length
    vflag = "all" if verbose else "first"
    cur = save = None
    done = False
    while not done and blocksize:
        # -- get()
        if cur is None:
            cur, save = bytearray(blocksize), bytearray(blocksize)
        else:
            cur, save = save, cur
            address += blocksize
        need, nread = blocksize, 0
        block = None
        while True:
            ctx.budget.check_time()
            chunk = b"" if remaining == 0 else read(need if remaining < 0 else min(remaining, need))
            if not chunk:
                if need == blocksize:
                    done = True
                    break
                cur[nread:] = b"\0" * need
                eaddress = address + nread
                block = bytes(cur)
                done = True
                break
            if remaining > 0:
                remaining -= len(chunk)
            cur[nread:nread + len(chunk)] = chunk
            nread += len(chunk)
            need -= len(chunk)
            if need:
                continue
            if vflag in ("all", "first") or cur != save:
                if vflag in ("dup", "first"):
                    vflag = "wait"
                block = bytes(cur)
                break
            if vflag == "wait":
                out.write(b"*\n")
            vflag = "dup"
            address += blocksize
            need, nread = blocksize, 0
        if block is None:
            break
        # -- the format strings over this block
        pieces: list[bytes] = []
        for fs in fss:
            pos, addr = 0, address
            for fu in fs:
                if fu.ignore:
                    break
                for cnt in range(fu.reps, 0, -1):
                    for pr in fu.prs:
                        if eaddress and addr >= eaddress and pr.kind not in (F_TEXT, F_BPAD):
                            pr.kind = F_BPAD
                        text = _print(pr, block, pos, addr)
                        if cnt == 1 and pr.nospace:
                            text = text[:-1]
                        pieces.append(text)
                        addr += pr.bcnt
                        pos += pr.bcnt
        out.write(b"".join(pieces))
    if endfu is not None:
        if not eaddress:
            if not address:
                return
            eaddress = address
        for pr in endfu.prs:
            if pr.kind == F_ADDRESS:
                out.write(_print(pr, b"", 0, eaddress))
            elif pr.kind == F_TEXT:
                out.write(pr.text.encode("utf-8", "surrogateescape"))


def run(ctx: CommandContext) -> int:
    """Run ``hexdump``."""
    parsed = parse_command_line(ctx, SPEC, USAGE)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    formats: list[_Format] = []
    length: int | None = None
    skip = 0
    verbose = False
    strings: list[list[_FU]] = []  # every display as util-linux's format strings, in order
    custom = False
    for key, value in opts:
        if key in FORMATS:
            formats.append(FORMATS[key])
            strings.extend(add_fmt(f) for f in BUILTIN_FORMATS[key])
        elif key in ("e", "f"):
            custom = True
            try:
                if key == "e":
                    strings.append(add_fmt(value or ""))
                else:
                    lines = _format_file(ctx, value or "")
                    if lines is None:
                        return 1
                    for line in lines:
                        strings.append(add_fmt(line))
            except HexFormatError as e:
                ctx.error(str(e))
                return 1
        elif key == "V":
            ctx.stdout.write(b"hexdump from util-linux 2.38.1\n")
            return 0
        elif key in ("n", "s"):
            try:
                number = parse_size(value or "")
            except _SizeError:
                what = "length" if key == "n" else "offset"
                ctx.error(f"failed to parse {what}: '{value}': Invalid argument")
                return 1
            if key == "n":
                length = number
            else:
                skip = number
        elif key == "v":
            verbose = True
    formats = formats or [FORMATS["default"]]
    custom = custom and bool(strings)  # -f of an empty file alone: the default display
    prepared = None
    if custom:
        try:
            prepared = prepare(strings)
        except HexFormatError as e:
            ctx.error(str(e))
            return 1
    if length == 0:  # util-linux's get() stops before it opens (or skips into) any file
        return 0
    streams = []
    failed = 0
    if not operands:
        if skip and not _seekable(ctx.stdin):
            ctx.error("stdin: Illegal seek")
            return 1
        # util-linux names a failed read ``_argv[-1]``: with no operand, the last argument
        streams.append((ctx.argv[-1], ctx.open_read("/dev/stdin")))
    for name in operands:
        try:
            streams.append((name, ctx.open_read(name)))
        except FSError as e:
            if e.errno == errno.EISDIR:  # freopen succeeds on a directory; fread fails
                streams.append((name, e))
                continue
            ctx.error(f"{name}: {e}")
            failed += 1
    if operands and failed == len(operands):
        ctx.error("all input file arguments failed")
        return 1
    data_iter = _reader(ctx, streams)
    offset = 0
    while skip > offset:
        chunk = data_iter(min(skip - offset, 1 << 20))
        if not chunk:
            break
        offset += len(chunk)
    if prepared is not None:
        display(ctx, strings, prepared, data_iter, offset, length, verbose)
        return 1 if failed else 0
    prev = None
    star = False
    printed = False
    remaining = length
    while remaining is None or remaining > 0:
        want = 16 if remaining is None else min(16, remaining)
        block = data_iter(want)
        if not block:
            break
        if remaining is not None:
            remaining -= len(block)
        printed = True
        if not verbose and block == prev and len(block) == 16:
            if not star:
                ctx.stdout.write(b"*\n")
                star = True
        else:
            star = False
            lines = []
            for f in formats:
                lines.append(("%0*x" % (f.addr_width, offset)) + f.render(block) + "\n")
            ctx.stdout.write("".join(lines).encode())
        prev = block
        offset += len(block)
        ctx.budget.check_time()
        if len(block) < want:
            break
    if printed or offset:
        ctx.stdout.write(("%0*x\n" % (formats[-1].addr_width, offset)).encode())
    return 1 if failed else 0


def _seekable(stream: object) -> bool:
    try:
        return bool(stream.seekable())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return False


def _reader(ctx: CommandContext, streams: list) -> Callable[[int], bytes]:
    """Reads across the (name, stream) inputs; a failed read (a directory) is reported as
    util-linux's ``warn`` does, without changing the exit status, and ends that input."""
    pending = list(streams)

    def read(n: int) -> bytes:
        out = bytearray()
        while len(out) < n and pending:
            name, stream = pending[0]
            try:
                if isinstance(stream, FSError):
                    raise stream
                data = stream.read(n - len(out))
            except FSError as e:
                ctx.error(f"{name}: {e}")
                data = b""
            if not data:
                pending.pop(0)
                if not isinstance(stream, FSError):
                    stream.close()
                continue
            out += data
        return bytes(out)
    return read
