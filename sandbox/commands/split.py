"""``split``: split a file into pieces inside the jail (GNU coreutils 9.1).

Options: ``-l N``, ``-b SIZE``, ``-C SIZE``, ``-n CHUNKS`` (``N``, ``K/N``, ``l/N``, ``l/K/N``,
``r/N``, ``r/K/N``), ``-a N``, ``-d``/``--numeric-suffixes[=FROM]``, ``-x``/``--hex-suffixes[=FROM]``,
``--additional-suffix=S``, ``-e``, ``-t SEP``, ``--verbose``, ``-u``; operands ``[INPUT
[PREFIX]]``. File names follow GNU's ``next_file_name`` (the suffix widens after ``yz`` unless
its length is fixed), chunk boundaries GNU's ``bytes_split`` / ``lines_chunk_split``, messages
and statuses GNU's. Every piece is written through the jail and the write policy; ``--filter``
is refused as unknown (it would run a shell).
"""

from __future__ import annotations

import errno
import re

from sandbox.commands._numbers import CountError, parse_count
from sandbox.commands._quoting import quote, quoteaf, quotef
from sandbox.commands._writing import operands_of
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    short="0123456789C:a:b:del:n:t:ux",
    long={
        "bytes": (REQUIRED, "b"),
        "line-bytes": (REQUIRED, "C"),
        "lines": (REQUIRED, "l"),
        "number": (REQUIRED, "n"),
        "elide-empty-files": (NO_ARG, "e"),
        "unbuffered": (NO_ARG, "u"),
        "suffix-length": (REQUIRED, "a"),
        "additional-suffix": (REQUIRED, "additional-suffix"),
        "numeric-suffixes": (OPTIONAL, "numeric-suffixes"),
        "hex-suffixes": (OPTIONAL, "hex-suffixes"),
        "separator": (REQUIRED, "t"),
        "verbose": (NO_ARG, "verbose"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

HELP = """Usage: split [OPTION]... [FILE [PREFIX]]
Output pieces of FILE to PREFIXaa, PREFIXab, ...;
default size is 1000 lines, and default PREFIX is 'x'.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -a, --suffix-length=N   generate suffixes of length N (default 2)
      --additional-suffix=SUFFIX  append an additional SUFFIX to file names
  -b, --bytes=SIZE        put SIZE bytes per output file
  -C, --line-bytes=SIZE   put at most SIZE bytes of records per output file
  -d                      use numeric suffixes starting at 0, not alphabetic
      --numeric-suffixes[=FROM]  same as -d, but allow setting the start value
  -x                      use hex suffixes starting at 0, not alphabetic
      --hex-suffixes[=FROM]  same as -x, but allow setting the start value
  -e, --elide-empty-files  do not generate empty output files with '-n'
  -l, --lines=NUMBER      put NUMBER lines/records per output file
  -n, --number=CHUNKS     generate CHUNKS output files; see explanation below
  -t, --separator=SEP     use SEP instead of newline as the record separator;
                            '\\0' (zero) specifies the NUL character
  -u, --unbuffered        immediately copy input to output with '-n r/...'
      --verbose           print a diagnostic just before each
                            output file is opened
      --help        display this help and exit
      --version     output version information and exit

The SIZE argument is an integer and optional unit (example: 10K is 10*1024).
Units are K,M,G,T,P,E,Z,Y (powers of 1024) or KB,MB,... (powers of 1000).
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

CHUNKS may be:
  N       split into N files based on size of input
  K/N     output Kth of N to stdout
  l/N     split into N files without splitting lines/records
  l/K/N   output Kth of N to stdout without splitting lines/records
  r/N     like 'l' but use round robin distribution
  r/K/N   likewise but only output Kth of N to stdout
"""

VERSION = "split (GNU coreutils) 9.1"
INTMAX = (1 << 63) - 1
_ALPHA = "abcdefghijklmnopqrstuvwxyz"
_SIZE_SUFFIXES = "bEGKkMmPTYZ0"


class SplitError(Exception):
    """A fatal error; ``str()`` is the message, ``usage`` adds GNU's Try line."""

    def __init__(self, message: str, usage: bool = False):
        super().__init__(message)
        self.usage = usage


def writes(args: list[str]) -> list[str]:
    """The first file this command line would write (PREFIX plus the first suffix)."""
    opts, operands = operands_of(SPEC, args)
    prefix = operands[1] if len(operands) > 1 else "x"
    extra = next((v or "" for k, v in reversed(opts) if k == "additional-suffix"), "")
    return [prefix + "aa" + extra]


def _number(text: str, what: str, suffixes: str = _SIZE_SUFFIXES, low: int = 1) -> int:
    """``xdectoimax`` with size suffixes: a value in [low, INTMAX] or ``SplitError``."""
    try:
        value = parse_count(text, suffixes)
    except CountError as err:
        detail = ": Value too large for defined data type" if err.overflow else ""
        raise SplitError(f"{what}: {quote(text)}{detail}") from None
    if value > INTMAX:
        raise SplitError(f"{what}: {quote(text)}: Value too large for defined data type")
    if value < low:
        raise SplitError(f"{what}: {quote(text)}: Numerical result out of range")
    return value


def _chunks(text: str) -> tuple[str, int, int]:
    """``-n CHUNKS``: (kind ``b l r``, K or 0, N)."""
    kind = "b"
    rest = text
    if rest.startswith(("l/", "r/")):
        kind, rest = rest[0], rest[2:]
    k = 0
    if "/" in rest:
        k_text, rest = rest.split("/", 1)
        k = _number(k_text, "invalid chunk number", "")
    n = _number(rest, "invalid number of chunks", "")
    if k > n:
        raise SplitError(f"invalid chunk number: {quote(k_text)}: Numerical result out of range")
    return kind, k, n


class Namer:
    """GNU ``next_file_name``: PREFIX + suffix (+ additional suffix), widening when allowed."""

    def __init__(self, prefix: str, alphabet: str, length: int, auto: bool, extra: str, start: str | None):
        self.base = prefix
        self.alphabet = alphabet
        self.length = length
        self.auto = auto
        self.extra = extra
        self.start = start
        self.index: list[int] | None = None

    def next(self) -> str:
        """The next output file name (``SplitError`` once the suffixes are exhausted)."""
        if self.index is None:
            self.index = [0] * self.length
            if self.start:
                digits = [self.alphabet.index(c) for c in self.start]
                self.index[self.length - len(digits):] = digits
            return self._name()
        i = self.length
        while i > 0:
            i -= 1
            self.index[i] += 1
            if self.auto and i == 0 and self.index[0] + 1 >= len(self.alphabet):
                self.base += self.alphabet[self.index[0]]
                self.length += 1
                self.index = [0] * self.length
                return self._name()
            if self.index[i] < len(self.alphabet):
                return self._name()
            self.index[i] = 0
        raise SplitError("output file suffixes exhausted")

    def _name(self) -> str:
        assert self.index is not None
        name = self.base + "".join(self.alphabet[i] for i in self.index) + self.extra
        if len(name.rsplit("/", 1)[-1].encode("utf-8", "surrogateescape")) > 255:
            raise SplitError(f"{quotef(name)}: File name too long")
        return name


def _settings(opts: list[tuple[str, str | None]]) -> dict:
    s: dict = {"mode": None, "size": 1000, "chunk": None, "length": 0, "alphabet": _ALPHA, "start": None,
               "extra": "", "elide": False, "sep": b"\n", "verbose": False}
    digits = ""

    def set_mode(mode: str) -> None:
        if s["mode"] is not None and s["mode"] != mode:
            raise SplitError("cannot split in more than one way", usage=True)
        s["mode"] = mode

    for key, value in opts:
        value = value or ""
        if key.isdigit():
            digits += key
            set_mode("l")
            s["size"] = _number(digits, "invalid number of lines", "")
            continue
        digits = ""
        if key == "l":
            set_mode("l")
            s["size"] = _number(value, "invalid number of lines", "")
        elif key in "bC":
            set_mode(key)
            s["size"] = _number(value, "invalid number of bytes")
        elif key == "n":
            set_mode("n")
            s["chunk"] = _chunks(value)
        elif key == "a":
            s["length"] = _number(value, "invalid suffix length", "", low=0)
        elif key in ("d", "x", "numeric-suffixes", "hex-suffixes"):
            hexa = key in ("x", "hex-suffixes")
            s["alphabet"] = "0123456789abcdef" if hexa else "0123456789"
            if key in ("numeric-suffixes", "hex-suffixes") and value:
                allowed = "0123456789abcdefABCDEF" if hexa else "0123456789"
                if any(c not in allowed for c in value):
                    raise SplitError(f"{quote(value)}: invalid start value for {'hexadecimal' if hexa else 'numerical'} suffix", usage=True)
                s["start"] = value.lstrip("0") or "0"
        elif key == "additional-suffix":
            if "/" in value:
                raise SplitError(f"invalid suffix {quote(value)}, contains directory separator", usage=True)
            s["extra"] = value
        elif key == "e":
            s["elide"] = True
        elif key == "t":
            raw = value.encode("utf-8", "surrogateescape")
            if raw == b"\\0":
                raw = b"\0"
            if len(raw) > 1:
                raise SplitError(f"multi-character separator {quote(value)}")
            if not raw:
                raise SplitError("empty record separator")
            if s.get("sep_set") and s["sep"] != raw:
                raise SplitError("multiple separator characters specified")
            s["sep"], s["sep_set"] = raw, True
        elif key == "verbose":
            s["verbose"] = True
    return s


def run(ctx: CommandContext) -> int:
    """Split the input into files."""
    parsed = parse_command_line(ctx, SPEC, HELP, version=VERSION)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    try:
        s = _settings(opts)
        if len(operands) > 2:
            raise SplitError(f"extra operand {quote(operands[2])}", usage=True)
        ctx.budget.check_string(s["length"])
        namer = _namer(s, operands[1] if len(operands) > 1 else "x")
        source = operands[0] if operands else "-"
        try:
            stream = ctx.stdin if source == "-" else ctx.open_read(source)
        except FSError as err:
            if err.errno != errno.EISDIR:  # GNU opens a directory; its read fails (below)
                ctx.error(f"cannot open {quoteaf(source)} for reading: {err}")
                return 1
            stream = err
        try:
            if isinstance(stream, FSError):
                raise stream
            data = stream.read()
        except FSError as err:  # a failed read (``split < dir``): ``NAME: strerror``
            ctx.error(f"{quotef(source)}: {err}")
            return 1
        finally:
            if not isinstance(stream, FSError) and stream is not ctx.stdin:
                stream.close()
        writer = _Writer(ctx, namer, s["verbose"])
        _split(ctx, writer, s, data)
    except SplitError as err:
        if err.usage:
            return ctx.usage_error(str(err))
        ctx.error(str(err))
        return 1
    except FSError as err:
        ctx.error(f"{quotef(err.path.rsplit('/', 1)[-1] if err.path else '')}: {err}")
        return 1
    return 0


def _namer(s: dict, prefix: str) -> Namer:
    """GNU ``set_suffix_length`` and the first file name's settings."""
    length = s["length"]
    alphabet = s["alphabet"]
    start = s["start"].lower() if s["start"] is not None else None
    needed = 0
    auto = True
    chunk = s["chunk"]
    if chunk is not None and chunk[1] == 0:
        end = chunk[2] - 1
        if start is not None and int(start, len(alphabet)) < chunk[2]:
            end += int(start, len(alphabet))
        needed = 1
        while end >= len(alphabet):
            end //= len(alphabet)
            needed += 1
        auto = False
    if length:
        if length < needed:
            raise SplitError(f"the suffix length needs to be at least {needed}")
        auto = False
    else:
        length = max(2, needed)
    if start is not None:
        if len(start) > length:
            kind = "numerical" if len(alphabet) == 10 else "hexadecimal"
            raise SplitError(f"{kind} suffix start value is too large for the suffix length", usage=True)
        auto = False
    return Namer(prefix, alphabet, length, auto, s["extra"], start)


class _Writer:
    """Opens output files in order, as GNU's ``cwrite``."""

    def __init__(self, ctx: CommandContext, namer: Namer, verbose: bool):
        self.ctx = ctx
        self.namer = namer
        self.verbose = verbose
        self.current: str | None = None

    def new_file(self, data: bytes) -> None:
        """Start the next output file with ``data``."""
        name = self._next_name()
        if self.verbose:
            self.ctx.stdout.write(f"creating file {quoteaf(name)}\n".encode("utf-8", "surrogateescape"))
        try:
            self.ctx.write_bytes(name, data)
        except FSError as err:  # GNU names the file as it built it: ``PREFIX`` + suffix
            raise SplitError(f"{quotef(name)}: {err}") from err
        self.current = name
        self.ctx.budget.check_time()

    def append(self, data: bytes) -> None:
        """Add ``data`` to the current output file."""
        assert self.current is not None
        if data:
            try:
                self.ctx.append_bytes(self.current, data)
            except FSError as err:
                raise SplitError(f"{quotef(self.current)}: {err}") from err

    def _next_name(self) -> str:
        return self.namer.next()


def _split(ctx: CommandContext, w: _Writer, s: dict, data: bytes) -> None:
    mode = s["mode"] or "l"
    sep = s["sep"]
    if mode == "l":
        n = s["size"]
        records = _records(data, sep)
        for i in range(0, len(records), n):
            w.new_file(b"".join(records[i : i + n]))
        return
    if mode == "b":
        n = s["size"]
        for i in range(0, len(data), n):
            w.new_file(data[i : i + n])
        return
    if mode == "C":
        _line_bytes(w, data, s["size"], sep)
        return
    kind, k, n = s["chunk"]
    if kind == "b":
        _chunk_bytes(ctx, w, data, k, n, s["elide"])
    elif kind == "l":
        _chunk_lines(ctx, w, data, k, n, s["elide"], sep)
    else:
        _round_robin(ctx, w, data, k, n, s["elide"], sep)


def _records(data: bytes, sep: bytes) -> list[bytes]:
    """Records of ``data`` each with its separator (a last one may lack it)."""
    records = [r + sep for r in data.split(sep)]
    last = records.pop()[:-1]
    if last:
        records.append(last)
    return records


def _line_bytes(w: _Writer, data: bytes, n_bytes: int, sep: bytes) -> None:
    """GNU ``line_bytes_split`` (``-C SIZE``) over the input as one buffer: whole records up to
    SIZE bytes per file, a longer record cut in SIZE pieces, a chunk closed as soon as SIZE bytes
    of input remain for it."""
    n_out = 0
    hold = b""
    split_line = False
    sob = 0
    n_left = len(data)

    def cwrite(new: bool, piece: bytes) -> None:
        if new:
            w.new_file(piece)
        else:
            w.append(piece)

    while n_left:
        split_rest = 0
        eoc = False
        if n_bytes - n_out - len(hold) <= n_left:
            split_rest = n_bytes - n_out - len(hold)
            eoc = True
            at = data.rfind(sep, sob, sob + split_rest)
        else:
            at = data.rfind(sep, sob, sob + n_left)
        if hold and not (at < 0 and n_out):
            cwrite(n_out == 0, hold)
            n_out += len(hold)
            hold = b""
        if at >= 0:
            split_line = True
            n_write = at - sob + 1
            cwrite(n_out == 0, data[sob : sob + n_write])
            n_out += n_write
            n_left -= n_write
            sob += n_write
            if eoc:
                split_rest -= n_write
        if n_left and not split_line:
            n_write = split_rest if eoc else n_left
            cwrite(n_out == 0, data[sob : sob + n_write])
            n_out += n_write
            n_left -= n_write
            sob += n_write
            if eoc:
                split_rest -= n_write
        if (eoc and split_rest) or (not eoc and n_left):
            n_buf = split_rest if eoc else n_left
            hold += data[sob : sob + n_buf]
            n_left -= n_buf
            sob += n_buf
        if eoc:
            n_out = 0
            split_line = False
    if hold:
        cwrite(n_out == 0, hold)


def _chunk_bytes(ctx: CommandContext, w: _Writer, data: bytes, k: int, n: int, elide: bool) -> None:
    size = len(data)
    chunk = max(1, size // n)  # GNU 9.1: at least one byte per chunk while data lasts
    bounds = [(min(size, i * chunk), size if i == n - 1 else min(size, (i + 1) * chunk)) for i in range(n)]
    if k:
        start, end = bounds[k - 1]
        ctx.stdout.write(data[start:end])
        return
    for start, end in bounds:
        if elide and start == end:
            continue
        w.new_file(data[start:end])


def _chunk_lines(ctx: CommandContext, w: _Writer, data: bytes, k: int, n: int, elide: bool, sep: bytes) -> None:
    """GNU ``lines_chunk_split``: chunk i ends with the first record end at or after its
    byte boundary; a record spanning several boundaries leaves empty chunks behind it."""
    size = len(data)
    chunk = max(1, size // n)
    pieces: list[bytes] = []
    written = 0
    chunk_no = 1
    chunk_end = size if n == 1 else chunk
    while written < size:
        skip = max(0, chunk_end - 1 - written)
        at = data.find(sep, written + skip)
        end = size if at < 0 else at + 1
        pieces.append(data[written:end])
        written = end
        while chunk_no < n and chunk_end <= written:
            chunk_no += 1
            chunk_end = size if chunk_no == n else chunk_end + chunk
            if chunk_end <= written:
                pieces.append(b"")
        if chunk_no == n and len(pieces) >= n:
            break
    if written < size:
        pieces[-1] += data[written:]
    while len(pieces) < n:
        pieces.append(b"")
    if k:
        ctx.stdout.write(pieces[k - 1])
        return
    for piece in pieces:
        if elide and not piece:
            continue
        w.new_file(piece)


def _round_robin(ctx: CommandContext, w: _Writer, data: bytes, k: int, n: int, elide: bool, sep: bytes) -> None:
    records = _records(data, sep)
    if k:
        ctx.stdout.write(b"".join(records[k - 1 :: n]))
        return
    for i in range(n):
        piece = b"".join(records[i::n])
        if elide and not piece:
            continue
        w.new_file(piece)
