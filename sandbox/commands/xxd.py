"""``xxd``: make a hex dump or do the reverse (vim 9.0's xxd, version 2022-01-14).

Options (xxd's own parser: each option word is matched by its first two characters, values
are C ``strtol`` numbers with base 0): ``-a -b -C -c cols -d -E -e -g bytes -i -l len -n name
-o off -p -r -s [+][-]seek -u -v``. An optional second operand is the output file (written
through the jail and the write policy; ``-r`` patches it in place as xxd does).

``-E`` shows the text column as EBCDIC.
"""

from __future__ import annotations

import errno
from dataclasses import dataclass, field

from sandbox.commands._cnumbers import scan_number
from sandbox.commands.base import CommandContext
from sandbox.fs.base import FSError

USAGE = """Usage:
       xxd [options] [infile [outfile]]
    or
       xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]
Options:
    -a          toggle autoskip: A single '*' replaces nul-lines. Default off.
    -b          binary digit dump (incompatible with -ps,-i,-r). Default hex.
    -C          capitalize variable names in C include file style (-i).
    -c cols     format <cols> octets per line. Default 16 (-i: 12, -ps: 30).
    -E          show characters in EBCDIC. Default ASCII.
    -e          little-endian dump (incompatible with -ps,-i,-r).
    -g bytes    number of octets per group in normal output. Default 2 (-e: 4).
    -h          print this summary.
    -i          output in C include file style.
    -l len      stop after <len> octets.
    -n name     set the variable name used in C include output (-i).
    -o off      add <off> to the displayed file position.
    -ps         output in postscript plain hexdump style.
    -r          reverse operation: convert (or patch) hexdump into binary.
    -r -s off   revert with <off> added to file positions found in hexdump.
    -d          show offset in decimal instead of hex.
    -s [+][-]seek  start at <seek> bytes abs. (or +: rel.) infile offset.
    -u          use upper case hex letters.
    -v          show version: "xxd 2022-01-14 by Juergen Weigert et al.".
"""

VERSION = "xxd 2022-01-14 by Juergen Weigert et al."
#: How ``-E`` shows each byte in the text column (xxd's EBCDIC table, printable results only;
#: read from xxd's own output for all 256 bytes).
EBCDIC_SHOWN = (
    b'................................................................'
    b' ...........<(+|&.........!$*);~-/.........,%_>?.........`:#@\'="'
    b'.abcdefghi.......jklmnopqr^.......stuvwxyz...[...............]..'
    b'{ABCDEFGHI......}JKLMNOPQR......\\.STUVWXYZ......0123456789......'
)
COLS = 256
NORMAL, POSTSCRIPT, CINCLUDE, BITS, LITTLE = "normal", "ps", "c", "bits", "le"


class _Exit(Exception):
    """Stop with ``status``; ``message`` (if any) goes to stderr as ``xxd: message``."""

    def __init__(self, status: int, message: str | None = None, usage: bool = False):
        super().__init__(message or "")
        self.status, self.message, self.usage = status, message, usage


def strtol(text: str) -> int:
    """C ``strtol(text, NULL, 0)``: leading blanks, a sign, 0x/0 prefixes, stop at junk."""
    s = text.lstrip(" \t\n\v\f\r")
    sign = 1
    if s[:1] in "+-" and s:
        sign, s = (-1 if s[0] == "-" else 1), s[1:]
    value = scan_number(s)[0] or 0
    return max(min(sign * value, (1 << 63) - 1), -(1 << 63))


@dataclass
class _Opts:
    autoskip: bool = False
    ebcdic: bool = False
    kind: str = NORMAL
    upper: bool = False
    capitalize: bool = False
    decimal: bool = False
    revert: bool = False
    cols: int = 0
    cols_given: bool = False
    group: int = -1
    display_off: int = 0
    seek: int = 0
    relseek: bool = False
    negseek: bool = False
    length: int = -1
    name: str | None = None
    operands: list[str] = field(default_factory=list)


def _value(args: list[str], i: int, rest: str, skip_words: tuple[str, ...]) -> tuple[str, int]:
    """The value of an option word (attached unless it spells the long name), and the next index."""
    if rest and not any(rest.startswith(w) for w in skip_words):
        return rest, i
    if i + 1 >= len(args):
        raise _Exit(1, usage=True)
    return args[i + 1], i + 1


def parse_args(args: list[str]) -> _Opts:
    """xxd's option loop; raises ``_Exit`` for usage errors and ``-v``."""
    o = _Opts()
    i = 0
    while i < len(args):
        arg = args[i]
        pp = arg[1:] if arg.startswith("--") and len(arg) > 2 else arg
        two, rest = pp[:2], pp[2:]
        if two == "-a":
            o.autoskip = not o.autoskip
        elif two == "-b":
            o.kind = BITS
        elif two == "-e":
            o.kind = LITTLE
        elif two == "-u":
            o.upper = True
        elif two == "-p":
            o.kind = POSTSCRIPT
        elif two == "-i":
            o.kind = CINCLUDE
        elif two == "-C":
            o.capitalize = True
        elif two == "-d":
            o.decimal = True
        elif two == "-r":
            o.revert = True
        elif two == "-E":
            o.ebcdic = True
        elif two == "-v":
            raise _Exit(0, VERSION)
        elif two == "-c":
            if rest.startswith("apitalize"):
                o.capitalize = True
            else:
                value, i = _value(args, i, rest, ("ols",))
                o.cols = strtol(value)
                o.cols_given = True
        elif two == "-g":
            value, i = _value(args, i, rest, ("roup",))
            o.group = strtol(value)
        elif two == "-o":
            value, i = _value(args, i, rest, ("ffset",))
            o.display_off = strtol(value)
        elif two == "-s":
            value, i = _value(args, i, rest, ("kip", "eek"))
            o.relseek = value.startswith("+")
            body = value[1:] if o.relseek else value
            o.negseek = body.startswith("-")
            o.seek = strtol(body[1:] if o.negseek else body)
        elif two == "-l":
            value, i = _value(args, i, rest, ("en",))
            o.length = strtol(value)
        elif two == "-n":
            value, i = _value(args, i, rest, ("ame",))
            o.name = value
        elif pp == "--":
            i += 1
            break
        elif pp.startswith("-") and len(pp) > 1:
            raise _Exit(1, usage=True)
        else:
            break
        i += 1
    o.operands = args[i:]
    if len(o.operands) > 2:
        raise _Exit(1, usage=True)
    return o


def writes(args: list[str]) -> list[str]:
    """The output file operand, if any (``-`` is stdout)."""
    try:
        operands = parse_args(args).operands
    except _Exit:
        return []
    return [operands[1]] if len(operands) == 2 and operands[1] != "-" else []


class _Source:
    """The input: a file operand (seekable) or stdin (a pipe)."""

    def __init__(self, ctx: CommandContext, operand: str | None):
        self.ctx = ctx
        self.is_stdin = operand is None or operand == "-"
        self.stream = ctx.open_read("/dev/stdin" if self.is_stdin else operand)
        self.size = None if self.is_stdin else ctx.stat(operand).size
        self.buf = b""
        self.pos = 0
        self.eof = False

    def read(self, n: int = 1 << 16) -> bytes:
        if self.buf:
            data, self.buf = self.buf[:n], self.buf[n:]
            return data
        data = self.stream.read(n)
        self.ctx.budget.check_time()
        return data

    def seek(self, o: _Opts) -> int:
        """Position the input as xxd does; returns the offset shown for the first byte."""
        if not (o.seek or o.negseek or not o.relseek):
            return 0
        target = -o.seek if o.negseek else o.seek
        if not self.is_stdin:
            where = target if not (o.negseek and not o.relseek) else (self.size or 0) + target
            if where < 0:
                raise _Exit(4, "Sorry, cannot seek.")
            skipped = 0
            while skipped < where:
                chunk = self.stream.read(min(where - skipped, 1 << 20))
                if not chunk:
                    break
                skipped += len(chunk)
            return where
        if o.negseek:
            raise _Exit(4, "Sorry, cannot seek.")
        left = o.seek
        while left > 0:
            chunk = self.read(min(left, 1 << 20))
            if not chunk:
                raise _Exit(4, "Sorry, cannot seek.")
            left -= len(chunk)
        return o.seek


def _bytes_iter(src: _Source, length: int):
    n = 0
    while length < 0 or n < length:
        data = src.read(1 << 16 if length < 0 else min(1 << 16, length - n))
        if not data:
            return
        n += len(data)
        yield data


def _cinclude(src: _Source, o: _Opts, operand: str | None, out: list[bytes]) -> None:
    hexfmt = "0X%02X" if o.upper else "0x%02x"
    label = None
    if not src.is_stdin:
        base = o.name if o.name is not None else (operand or "")
        label = ("__" if base[:1].isdigit() else "") + "".join(
            (ch.upper() if o.capitalize else ch) if ch.isascii() and ch.isalnum() else "_" for ch in base)
        out.append(f"unsigned char {label}[] = {{\n".encode("utf-8", "surrogateescape"))
    p = 0
    pieces = []
    for data in _bytes_iter(src, o.length):
        for c in data:
            pieces.append(((", " if p % o.cols else ("  " if not p else ",\n  ")) + hexfmt % c))
            p += 1
        out.append("".join(pieces).encode())
        pieces = []
    if p:
        out.append(b"\n")
    if label is not None:
        suffix = "_LEN" if o.capitalize else "_len"
        out.append(f"}};\nunsigned int {label}{suffix} = {p};\n".encode("utf-8", "surrogateescape"))


def _postscript(src: _Source, o: _Opts, out: list[bytes]) -> None:
    hexfmt = "%02X" if o.upper else "%02x"
    p = 0
    line: list[str] = []
    for data in _bytes_iter(src, o.length):
        for c in data:
            line.append(hexfmt % c)
            p += 1
            if p == o.cols:
                line.append("\n")
                p = 0
        out.append("".join(line).encode())
        line = []
    if p or not o.cols:  # (``-c 0`` ends its one line even on empty input)
        out.append(b"\n")


class _Lines:
    """xxdline(): the autoskip state machine over finished lines."""

    def __init__(self, out: list[bytes]):
        self.out = out
        self.z = b""
        self.zero_seen = 0

    def line(self, text: bytes, nz: int) -> None:
        if not nz and self.zero_seen == 1:
            self.z = text
        if nz or not self.zero_seen:
            if not nz:
                self.zero_seen += 1
            if nz:
                if nz < 0:
                    self.zero_seen -= 1
                if self.zero_seen == 2:
                    self.out.append(self.z)
                if self.zero_seen > 2:
                    self.out.append(b"*\n")
            if nz >= 0 or self.zero_seen > 0:
                self.out.append(text)
            if nz:
                self.zero_seen = 0
        else:
            self.zero_seen += 1


def _normal(src: _Source, o: _Opts, seekoff: int, out: list[bytes]) -> None:
    hexx = b"0123456789ABCDEF" if o.upper else b"0123456789abcdef"
    grp = o.group
    grplen = 8 * grp + 1 if o.kind == BITS else 2 * grp + 1
    cols = o.cols
    llen = 12 + 3 + (grplen * cols - 1) // grp + cols + 2
    lines = _Lines(out)
    line = bytearray(b" " * llen)
    p = n = nonzero = 0
    addrlen = 0
    c = 0
    for data in _bytes_iter(src, o.length):
        for e in data:
            if p == 0:
                addr = (("%08d:" if o.decimal else "%08x:") % ((n + seekoff + o.display_off) & 0xFFFFFFFFFFFFFFFF)).encode()
                addrlen = len(addr)
                line = bytearray(addr + b" " * (llen + addrlen - len(addr)))
            x = p ^ (grp - 1) if o.kind == LITTLE else p
            c = addrlen + 1 + (grplen * x) // grp
            if o.kind == BITS:
                line[c:c + 8] = format(e, "08b").encode()
            else:
                line[c] = hexx[e >> 4]
                line[c + 1] = hexx[e & 15]
            if e:
                nonzero += 1
            c = addrlen + 3 + (grplen * cols - 1) // grp + p
            line[c] = EBCDIC_SHOWN[e] if o.ebcdic else (e if 31 < e < 127 else 0x2E)
            c += 1
            n += 1
            p += 1
            if p == cols:
                lines.line(bytes(line[:c]) + b"\n", nonzero if o.autoskip else 1)
                nonzero = p = 0
    if p:
        lines.line(bytes(line[:c]) + b"\n", 1)
    elif o.autoskip:
        lines.line(bytes(line[:c]) + b"\n", -1)


def _hexval(c: int) -> int:
    if 48 <= c <= 57:
        return c - 48
    if 97 <= c <= 102:
        return c - 87
    if 65 <= c <= 70:
        return c - 55
    return -1


class _Sink:
    """Where ``-r`` writes: stdout (forward only) or a file buffer (patched in place)."""

    def __init__(self, existing: bytes | None):
        self.file = existing is not None
        self.data = bytearray(existing or b"")
        self.pos = 0

    def seek_to(self, target: int) -> None:
        if self.file:
            if target < 0:
                raise _Exit(5, "Sorry, cannot seek backwards.")
            self.pos = target
            return
        if target < self.pos:
            raise _Exit(5, "Sorry, cannot seek backwards.")
        self.put(b"\0" * (target - self.pos))

    def put(self, b: bytes) -> None:
        end = self.pos + len(b)
        if end > len(self.data):
            self.data.extend(b"\0" * (end - len(self.data)))
        self.data[self.pos:end] = b
        self.pos = end


def _revert(src: _Source, o: _Opts, base_off: int, sink: _Sink, ctx: CommandContext) -> None:
    ps = o.kind == POSTSCRIPT
    cols = o.cols
    data = b"".join(_bytes_iter(src, -1))
    ign_garb, n1, n2, p = True, -1, 0, cols
    have_off = want_off = 0
    i, size = 0, len(data)
    while i < size:
        c = data[i]
        i += 1
        if i & 0xFFFF == 0:
            ctx.budget.check_time()
        if c == 13:
            continue
        if ps and c in (32, 10, 9):
            continue
        if c == 10 and not ps:  # a new line starts with its offset
            n3, n2, n1 = n2, n1, -1
            p, want_off = cols, 0
            continue
        n3, n2 = n2, n1
        n1 = _hexval(c)
        if n1 == -1 and ign_garb:
            continue
        ign_garb = False
        if not ps and p >= cols:
            if n1 < 0:
                p = 0
                continue
            want_off = ((want_off << 4) | n1) & ((1 << 64) - 1)
            continue
        if base_off + want_off != have_off:
            sink.seek_to(base_off + want_off)
            have_off = base_off + want_off
        if n2 >= 0 and n1 >= 0:
            sink.put(bytes([(n2 << 4) | n1]))
            have_off += 1
            want_off += 1
            n1 = -1
            if not ps:
                p += 1
                if p >= cols:  # the rest of the line is the ASCII column: skip it
                    n2 = n1 = -1
                    want_off = 0
                    j = data.find(b"\n", i)
                    i = size if j < 0 else j + 1
                    ign_garb = True
        elif n1 < 0 and n2 < 0 and n3 < 0:
            if not ps:
                want_off = 0
                p = cols
            j = data.find(b"\n", i)
            i = size if j < 0 else j + 1
            ign_garb = True


def run(ctx: CommandContext) -> int:
    """Run ``xxd``."""
    try:
        return _run(ctx)
    except _Exit as e:
        if e.usage:
            ctx.stderr.write(USAGE.encode())
        elif e.message and e.status == 0:
            ctx.stderr.write(e.message.encode() + b"\n")
        elif e.message:
            ctx.error(e.message)
        return e.status


def _run(ctx: CommandContext) -> int:
    o = parse_args(ctx.args)
    if not o.cols_given or (not o.cols and o.kind != POSTSCRIPT):  # -ps -c 0: one line
        o.cols = {POSTSCRIPT: 30, CINCLUDE: 12, BITS: 6}.get(o.kind, 16)
    if o.group < 0:
        o.group = {BITS: 1, NORMAL: 2, LITTLE: 4}.get(o.kind, 0)
    if o.cols < (0 if o.kind == POSTSCRIPT else 1) or (o.kind in (NORMAL, BITS, LITTLE) and o.cols > COLS):
        raise _Exit(1, f"invalid number of columns (max. {COLS}).")
    if o.group < 1 or o.group > o.cols:
        o.group = o.cols
    elif o.kind == LITTLE and o.group & (o.group - 1):
        raise _Exit(1, "number of octets per group must be a power of 2 with -e.")
    infile = o.operands[0] if o.operands else None
    outfile = o.operands[1] if len(o.operands) == 2 and o.operands[1] != "-" else None
    try:
        src = _Source(ctx, infile)
    except FSError as e:
        raise _Exit(2, f"{infile}: {e}") from None
    existing = None
    if outfile is not None:
        try:
            st = ctx.stat(outfile)
            if st.is_dir:
                raise _Exit(3, f"{outfile}: {FSError(errno.EISDIR)}")
            existing = ctx.read_bytes(outfile) if o.revert else b""
        except FSError as e:
            if e.errno != errno.ENOENT:
                raise _Exit(3, f"{outfile}: {e}") from None
            existing = b""
    out: list[bytes] = []
    try:
        if o.revert:
            if o.kind not in (NORMAL, POSTSCRIPT):
                raise _Exit(-1 & 0xFF, "Sorry, cannot revert this type of hexdump")
            sink = _Sink(existing if outfile is not None else None)
            try:
                _revert(src, o, -o.seek if o.negseek else o.seek, sink, ctx)
            finally:
                _emit(ctx, outfile, [bytes(sink.data)])
            return 0
        seekoff = src.seek(o)
        if o.kind == CINCLUDE:
            _cinclude(src, o, infile, out)
        elif o.kind == POSTSCRIPT:
            _postscript(src, o, out)
        else:
            _normal(src, o, seekoff, out)
    except FSError as e:
        _emit(ctx, outfile, out)
        raise _Exit(2, str(e)) from None
    _emit(ctx, outfile, out)
    return 0


def _emit(ctx: CommandContext, outfile: str | None, out: list[bytes]) -> None:
    data = b"".join(out)
    if outfile is None:
        ctx.stdout.write(data)
    else:
        ctx.write_bytes(outfile, data)
