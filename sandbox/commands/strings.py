"""``strings``: print the runs of printable characters in files (GNU binutils 2.40).

Options: ``-a``/``-d`` (the whole file is scanned either way: the jail holds no object files to
take sections from), ``-f``, ``-n N``/``--bytes``/``-N``, ``-t o|d|x``, ``-o``, ``-w``, ``-e s|S``
(7-bit or 8-bit characters), ``-s SEP``; a ``-`` operand means ``--all`` (binutils). A run is printable ASCII and tab (``-w``: all
whitespace; ``-e S``: any byte above 127 too) of at least N bytes, the last one may end the
file. Files are scanned as streams.

``-e b l B L`` read 16- or 32-bit big/little-endian characters (see ``_scan_wide``).
Not supported: ``-U``/``--unicode``, ``-T``: refused in one line.
"""

from __future__ import annotations

import re

from sandbox.commands._cnumbers import scan_number
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, UsageError, parse
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    "adfhHn:wot:e:T:s:U:Vv0123456789",
    {
        "all": (NO_ARG, "a"),
        "data": (NO_ARG, "d"),
        "print-file-name": (NO_ARG, "f"),
        "bytes": (REQUIRED, "n"),
        "radix": (REQUIRED, "t"),
        "include-all-whitespace": (NO_ARG, "w"),
        "encoding": (REQUIRED, "e"),
        "target": (REQUIRED, "T"),
        "output-separator": (REQUIRED, "s"),
        "unicode": (REQUIRED, "U"),
        "help": (NO_ARG, "h"),
        "version": (NO_ARG, "V"),
    },
)

USAGE = """Usage: strings [option(s)] [file(s)]
 Display printable strings in [file(s)] (stdin by default)
 The options are:
  -a - --all                Scan the entire file, not just the data section [default]
  -d --data                 Only scan the data sections in the file
  -f --print-file-name      Print the name of the file before each string
  -n <number>               Locate & print any sequence of at least <number>
    --bytes=<number>         displayable characters.  (The default is 4).
  -t --radix={o,d,x}        Print the location of the string in base 8, 10 or 16
  -w --include-all-whitespace Include all whitespace as valid string characters
  -o                        An alias for --radix=o
  -T --target=<BFDNAME>     Specify the binary file format
  -e --encoding={s,S,b,l,B,L} Select character size and endianness:
                            s = 7-bit, S = 8-bit, {b,l} = 16-bit, {B,L} = 32-bit
  --unicode={default|show|invalid|hex|escape|highlight}
  -U {d|s|i|x|e|h}          Specify how to treat UTF-8 encoded unicode characters
  -s --output-separator=<string> String used to separate strings in output.
  @<file>                   Read options from <file>
  -h --help                 Display this information
  -v -V --version           Print the program's version number
strings: supported targets: elf64-x86-64 elf32-i386 elf32-iamcu elf32-x86-64 pei-i386 pe-x86-64 pei-x86-64 elf64-little elf64-big elf32-little elf32-big pe-bigobj-x86-64 pe-i386 pdb srec symbolsrec verilog tekhex binary ihex plugin
"""

CHUNK = 1 << 20


def _usage(ctx: CommandContext, to_stdout: bool = False) -> int:
    (ctx.stdout if to_stdout else ctx.stderr).write(USAGE.encode())
    return 0 if to_stdout else 1


def _strtoul(text: str) -> int | None:
    value, rest = scan_number(text.lstrip(" \t\n\v\f\r"))
    return None if rest else value


def run(ctx: CommandContext) -> int:
    """Run ``strings``."""
    args = ctx.args
    try:
        opts, operands = parse(SPEC, args)
    except UsageError as e:
        ctx.error(str(e))
        return _usage(ctx)
    min_len, radix, names, whitespace, eight_bit, sep = 4, "", False, False, False, b"\n"
    wide = ""
    digits = ""
    for key, value in opts:
        if key.isdigit():
            digits += key
            min_len = int(digits)
            continue
        digits = ""
        if key == "n":
            number = _strtoul(value or "")
            if number is None:
                ctx.error(f"invalid integer argument {value}")
                return 1
            min_len = number
        elif key == "f":
            names = True
        elif key == "t":
            if value not in ("o", "d", "x"):
                return _usage(ctx)
            radix = value
        elif key == "o":
            radix = "o"
        elif key == "w":
            whitespace = True
        elif key == "e":
            if value == "s":
                eight_bit, wide = False, ""
            elif value == "S":
                eight_bit, wide = True, ""
            elif value in ("b", "l", "B", "L"):
                wide = value
            else:
                return _usage(ctx)
        elif key in ("T", "U"):
            ctx.error(f"option -{key} is not supported in the sandbox")
            return 1
        elif key == "s":
            sep = (value or "").encode("utf-8", "surrogateescape")
        elif key == "h":
            return _usage(ctx, to_stdout=True)
        elif key in ("V", "v"):
            ctx.stdout.write(b"GNU strings (GNU Binutils for Debian) 2.40\n")
            return 0
    if min_len < 1:
        ctx.error(f"invalid minimum string length {min_len}")
        return 1
    cls = b"\\t\\x20-\\x7e" + (b"\\n\\r\\f\\v" if whitespace else b"") + (b"\\x80-\\xff" if eight_bit else b"")
    pattern = re.compile(b"[" + cls + b"]{%d,}" % min(min_len, 1 << 20)) if min_len <= (1 << 20) else None
    in_class = re.compile(b"[" + cls + b"]")
    tail_pattern = bytes(1 if in_class.match(bytes([c])) else 0 for c in range(256))
    status = 0
    if operands and all(name == "-" for name in operands):
        return _usage(ctx)  # "-" means --all: no file was given
    for name in [n for n in operands if n != "-"] or [None]:
        try:
            if name is not None and ctx.stat(name).is_dir:
                ctx.error(f"Warning: '{name}' is a directory")
                status = 1
                continue
            stream = ctx.stdin if name is None else ctx.open_read(name)
        except FSError:
            ctx.error(f"'{name}': No such file")
            status = 1
            continue
        shown = "{standard input}" if name is None else name
        if wide:
            _scan_wide(ctx, stream, wide, tail_pattern, min_len, names, shown, radix, sep)
            continue
        _scan(ctx, stream, pattern, tail_pattern, names, shown, radix, sep)
    return status


def _scan_wide(ctx: CommandContext, stream, wide: str, graphic: bytes, min_len: int, names: bool,
               shown: str, radix: str, sep: bytes) -> None:
    """``-e b l B L``: 16/32-bit characters, a string may start at any byte; after a character
    that is not printable (or above 255) the search resumes one byte after its start (binutils'
    ``unget_part_char``). The whole file is read at once."""
    data = _read(stream)
    width = 2 if wide in "bl" else 4
    order = "big" if wide in "bB" else "little"
    prefix = f"{shown}: ".encode("utf-8", "surrogateescape") if names else b""
    fmt = {"o": "%7o ", "d": "%7d ", "x": "%7x "}.get(radix)
    out: list[bytes] = []
    pos, n = 0, len(data)
    while pos + width <= n:
        chars = bytearray()
        at = pos
        while at + width <= n:
            value = int.from_bytes(data[at:at + width], order)
            if value > 255 or not graphic[value]:
                break
            chars.append(value)
            at += width
        if len(chars) >= min_len:
            out.append(prefix + ((fmt % pos).encode() if fmt else b"") + bytes(chars) + sep)
        if at + width > n:
            break
        pos = at + 1
        if len(out) > 1000 or pos & 0xFFF == 0:
            ctx.stdout.write(b"".join(out))
            out = []
            ctx.budget.check_time()
    ctx.stdout.write(b"".join(out))


def _read(stream, n: int = -1) -> bytes:
    """A read where a failure (``strings < dir``) is the end of the input, as binutils'
    ``getc`` loop takes it."""
    try:
        return stream.read(n)
    except FSError:
        return b""


def _scan(ctx: CommandContext, stream, pattern, tail_pattern, names: bool, shown: str, radix: str,
          sep: bytes) -> None:
    prefix = f"{shown}: ".encode("utf-8", "surrogateescape") if names else b""
    fmt = {"o": "%7o ", "d": "%7d ", "x": "%7x "}.get(radix)
    carry, base = b"", 0
    while True:
        chunk = _read(stream, CHUNK)
        data = carry + chunk
        if not chunk:
            end = len(data)
        else:  # keep a run that may continue in the next chunk (found from the end, linear time)
            end = data.translate(tail_pattern).rfind(b"\0") + 1
        out = []
        if pattern is not None:
            for m in pattern.finditer(data, 0, end):
                where = (fmt % (base + m.start())).encode() if fmt else b""
                out.append(prefix + where + m.group() + sep)
        if out:
            ctx.stdout.write(b"".join(out))
        if not chunk:
            return
        carry = data[end:]
        base += end
        ctx.budget.check_time()
