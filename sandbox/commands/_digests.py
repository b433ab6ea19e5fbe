"""The ``*sum`` family (md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum), as GNU
coreutils 9.1's ``digest.c``: print digests (text/binary marker, ``--tag``, ``-z``, file name
escaping) or verify them with ``-c`` (GNU's parser of both line formats, its messages and its
exit status; ``--quiet --status --strict -w --ignore-missing``).

Each command module is a thin ``run`` calling ``run_digest(ctx, ALGO)``. Files are hashed in
large blocks with ``hashlib`` (which releases the GIL and runs at C speed).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import BinaryIO, Callable

from sandbox.commands._quoting import quote, quotef
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

BLOCK = 1 << 20
HEX = set(b"0123456789abcdefABCDEF")


@dataclass(frozen=True)
class Algo:
    """One digest: the command name, the BSD tag, the bits and the hashlib constructor."""

    prog: str
    tag: str
    bits: int
    new: Callable[..., "hashlib._Hash"]


ALGOS = {
    "md5sum": Algo("md5sum", "MD5", 128, hashlib.md5),
    "sha1sum": Algo("sha1sum", "SHA1", 160, hashlib.sha1),
    "sha224sum": Algo("sha224sum", "SHA224", 224, hashlib.sha224),
    "sha256sum": Algo("sha256sum", "SHA256", 256, hashlib.sha256),
    "sha384sum": Algo("sha384sum", "SHA384", 384, hashlib.sha384),
    "sha512sum": Algo("sha512sum", "SHA512", 512, hashlib.sha512),
    "b2sum": Algo("b2sum", "BLAKE2b", 512, hashlib.blake2b),
}

_LONG = {
    "binary": (NO_ARG, "b"),
    "check": (NO_ARG, "c"),
    "tag": (NO_ARG, "tag"),
    "text": (NO_ARG, "t"),
    "zero": (NO_ARG, "z"),
    "ignore-missing": (NO_ARG, "ignore-missing"),
    "quiet": (NO_ARG, "quiet"),
    "status": (NO_ARG, "status"),
    "strict": (NO_ARG, "strict"),
    "warn": (NO_ARG, "w"),
    "help": (NO_ARG, "help"),
    "version": (NO_ARG, "version"),
}

USAGE = """Usage: {prog} [OPTION]... [FILE]...
Print or check {tag} ({bits}-bit) checksums.

With no FILE, or when FILE is -, read standard input.

  -b, --binary          read in binary mode
  -c, --check           read checksums from the FILEs and check them
{length}      --tag             create a BSD-style checksum
  -t, --text            read in text mode (default)
  -z, --zero            end each output line with NUL, not newline,
                          and disable file name escaping

The following five options are useful only when verifying checksums:
      --ignore-missing  don't fail or report status for missing files
      --quiet           don't print OK for each successfully verified file
      --status          don't output anything, status code shows success
      --strict          exit non-zero for improperly formatted checksum lines
  -w, --warn            warn about improperly formatted checksum lines

      --help        display this help and exit
      --version     output version information and exit
"""

_LENGTH_HELP = """  -l, --length=BITS     digest length in bits; must not exceed the max for
                          the blake2 algorithm and must be a multiple of 8
"""


class _Fatal(Exception):
    """A message already worded (``prog: message``), exit status 1, no ``Try`` line."""


def _enc(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _escape(name: bytes) -> bytes:
    return name.replace(b"\\", b"\\\\").replace(b"\n", b"\\n").replace(b"\r", b"\\r")


def _unescape(name: bytes) -> bytes | None:
    out = bytearray()
    i = 0
    while i < len(name):
        c = name[i]
        if c == 0x5C:
            if i == len(name) - 1:
                return None
            i += 1
            nxt = name[i : i + 1]
            if nxt == b"n":
                out += b"\n"
            elif nxt == b"r":
                out += b"\r"
            elif nxt == b"\\":
                out += b"\\"
            else:
                return None
        elif c == 0:
            return None
        else:
            out.append(c)
        i += 1
    return bytes(out)


def _parse_length(ctx: CommandContext, value: str, algo: Algo) -> int:
    text = value.strip(" \t\n\v\f\r")
    ok = text.isdigit() or (text[:1] == "+" and text[1:].isdigit())
    number = int(text) if ok else -1
    if not ok or number > algo.bits:
        ctx.error(f"invalid length: {quote(value)}")
        if ok:
            raise _Fatal(f"maximum digest length for {quote(algo.tag)} is {algo.bits} bits")
        raise _Fatal("")
    if number % 8:
        ctx.error(f"invalid length: {quote(value)}")
        raise _Fatal("length is not a multiple of 8")
    return number or algo.bits


class _Digester:
    """One run's settings and counters."""

    def __init__(self, ctx: CommandContext, algo: Algo, bits: int):
        self.ctx = ctx
        self.algo = algo
        self.bits = bits
        self.bsd_reversed = -1
        #: ``cksum -c`` without ``-a``: tag -> Algo; each tagged line selects its algorithm
        #: (and it stays selected for the messages that follow, as in GNU).
        self.auto_tags: dict[str, Algo] | None = None

    def new(self, bits: int | None = None) -> "hashlib._Hash":
        bits = bits or self.bits
        if self.algo.prog == "b2sum":
            return hashlib.blake2b(digest_size=bits // 8)
        return self.algo.new()

    def digest(self, operand: str, bits: int | None = None,
               ignore_missing: bool = False) -> tuple[bytes | None, bool]:
        """(hex digest, missing) of a file operand; prints GNU's error and returns None on failure."""
        h = self.new(bits)
        try:
            stream: BinaryIO = self.ctx.open_read("/dev/stdin" if operand == "-" else operand)
            with stream:
                while True:
                    block = stream.read(BLOCK)
                    if not block:
                        break
                    h.update(block)
                    self.ctx.budget.check_time()
        except FSError as e:
            if ignore_missing and e.errno == 2:
                return None, True
            self.ctx.error(f"{quotef(operand)}: {e}")
            return None, False
        return h.hexdigest().encode(), False

    @property
    def tag_name(self) -> str:
        if self.algo.prog == "b2sum" and self.bits != self.algo.bits:
            return f"{self.algo.tag}-{self.bits}"
        return self.algo.tag


def _print_digests(d: _Digester, operands: list[str], tag: bool, binary: bool, zero: bool) -> int:
    ctx = d.ctx
    status = 0
    for operand in operands:
        hexd, _ = d.digest(operand)
        if hexd is None:
            status = 1
            continue
        name = _enc(operand)
        escape = not zero and any(c in name for c in b"\\\n\r")
        shown = _escape(name) if escape else name
        prefix = b"\\" if escape else b""
        if tag:
            line = prefix + _enc(d.tag_name) + b" (" + shown + b") = " + hexd
        else:
            line = prefix + hexd + b" " + (b"*" if binary else b" ") + shown
        ctx.stdout.write(line + (b"\0" if zero else b"\n"))
    return status


@dataclass
class _CheckOptions:
    quiet: bool
    status: bool
    strict: bool
    warn: bool
    ignore_missing: bool


def _split_bsd(d: _Digester, s: bytes, escaped: bool, hex_len: int) -> tuple[bytes, bytes] | None:
    if not s:
        return None
    i = s.rfind(b")")
    if i < 0:
        return None
    name = s[:i]
    if escaped:
        unescaped = _unescape(name)
        if unescaped is None:
            return None
        name = unescaped
    name = name.split(b"\0", 1)[0]
    i += 1
    while i < len(s) and s[i] in b" \t":
        i += 1
    if s[i : i + 1] != b"=":
        return None
    i += 1
    while i < len(s) and s[i] in b" \t":
        i += 1
    digest = s[i:].split(b"\0", 1)[0]
    if len(digest) != hex_len or not all(c in HEX for c in digest):
        return None
    return digest, name


#: cksum's algorithm tags, in GNU's order (the first three cannot be checked).
CKSUM_TAGS = ["BSD", "SYSV", "CRC", "MD5", "SHA1", "SHA224", "SHA256", "SHA384", "SHA512", "BLAKE2b", "SM3"]


def _select_by_tag(d: _Digester, s: bytes) -> bool:
    """GNU ``algorithm_from_tag``: pick the algorithm named exactly by the tag that starts
    ``s``; False when there is none or it is a legacy one."""
    limit = max(len(t) for t in CKSUM_TAGS)
    j = 0
    while j <= limit and j < len(s) and s[j] not in b" \t-(" and s[j] != 0:
        j += 1
    if j > limit:
        return False
    word = s[:j].decode("latin-1")
    matches = [t for t in CKSUM_TAGS if t == word]
    if len(matches) != 1 or matches[0] in ("BSD", "SYSV", "CRC") or d.auto_tags is None:
        return False
    d.algo = d.auto_tags[matches[0]]
    d.bits = d.algo.bits
    return True


def _split_line(d: _Digester, s: bytes, fixed_bits: bool) -> tuple[bytes, bytes, int] | None:
    """(hex digest, file name, bits) of a checksum line, or None if it is improperly formatted."""
    i = 0
    while i < len(s) and s[i] in b" \t":
        i += 1
    escaped = False
    if s[i : i + 1] == b"\\":
        i += 1
        escaped = True
    if d.auto_tags is not None and not _select_by_tag(d, s[i:]):
        return None
    tag = _enc(d.algo.tag)
    bits = d.bits
    if s[i : i + len(tag)] == tag:
        i += len(tag)
        if d.algo.prog == "b2sum" and s[i : i + 1] == b"-":
            j = i + 1
            while j < len(s) and 48 <= s[j] <= 57:
                j += 1
            if j == i + 1:
                return None
            length = int(s[i + 1 : j])
            if not (0 < length <= d.bits and length % 8 == 0):
                return None
            bits = length
            i = j
        elif d.algo.prog == "b2sum":
            bits = d.bits
        if s[i : i + 1] == b" ":
            i += 1
        if s[i : i + 1] != b"(":
            return None
        found = _split_bsd(d, s[i + 1 :], escaped, bits // 4)
        return None if found is None else (found[0], found[1], bits)
    hex_len = bits // 4
    if d.algo.prog == "b2sum" and not fixed_bits:
        j = i
        while j < len(s) and s[j] in HEX:
            j += 1
        hex_len = j - i
        if hex_len < 2 or hex_len % 2 or hex_len > 128:
            return None
        bits = hex_len * 4
    elif len(s) - i < hex_len + 2 + (s[i : i + 1] == b"\\"):
        return None
    digest = s[i : i + hex_len]
    i += hex_len
    if s[i : i + 1] not in (b" ", b"\t"):
        return None
    i += 1
    if len(digest) != hex_len or not all(c in HEX for c in digest):
        return None
    if len(s) - i == 1 or s[i : i + 1] not in (b" ", b"*"):
        if d.bsd_reversed == 0:
            return None
        d.bsd_reversed = 1
    elif d.bsd_reversed != 1:
        d.bsd_reversed = 0
        i += 1
    name = s[i:]
    if escaped:
        unescaped = _unescape(name)
        if unescaped is None:
            return None
        name = unescaped
    return digest, name.split(b"\0", 1)[0], bits


def _plural(n: int, one: str, many: str) -> str:
    return (one if n == 1 else many).replace("%d", str(n))


def _check_file(d: _Digester, operand: str, o: _CheckOptions, fixed_bits: bool) -> bool:
    ctx = d.ctx
    shown_name = "standard input" if operand == "-" else operand
    try:
        stream = ctx.open_read("/dev/stdin" if operand == "-" else operand)
        with stream:
            data = stream.read()
    except FSError as e:
        if e.errno == 21:
            ctx.error(f"{quotef(shown_name)}: read error")
        else:
            ctx.error(f"{quotef(shown_name)}: {e}")
        return False
    misformatted = failures = mismatched = 0
    properly = matched = False
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for number, line in enumerate(lines, 1):
        ctx.budget.check_time()
        if line.startswith(b"#"):
            continue
        if line.endswith(b"\r"):
            line = line[:-1]
        if not line:
            continue
        split = _split_line(d, line, fixed_bits)
        if split is None or (operand == "-" and split[1] == b"-"):
            misformatted += 1
            if o.warn:
                ctx.error(f"{quotef(shown_name)}: {number}: improperly formatted {d.algo.tag} checksum line")
            continue
        expected, name, bits = split
        properly = True
        escape = not o.status and b"\n" in name
        shown = (b"\\" + _escape(name)) if escape else name
        hexd, missing = d.digest(name.decode("utf-8", "surrogateescape"), bits, o.ignore_missing)
        if hexd is None and not missing:
            failures += 1
            if not o.status:
                ctx.stdout.write(shown + b": FAILED open or read\n")
            continue
        if missing:
            continue
        ok = expected.lower() == hexd
        if ok:
            matched = True
        else:
            mismatched += 1
        if not o.status:
            if not ok:
                ctx.stdout.write(shown + b": FAILED\n")
            elif not o.quiet:
                ctx.stdout.write(shown + b": OK\n")
    if not properly:
        ctx.error(f"{quotef(shown_name)}: no properly formatted checksum lines found")
    elif not o.status:
        if misformatted:
            ctx.error(_plural(misformatted, "WARNING: %d line is improperly formatted",
                              "WARNING: %d lines are improperly formatted"))
        if failures:
            ctx.error(_plural(failures, "WARNING: %d listed file could not be read",
                              "WARNING: %d listed files could not be read"))
        if mismatched:
            ctx.error(_plural(mismatched, "WARNING: %d computed checksum did NOT match",
                              "WARNING: %d computed checksums did NOT match"))
        if o.ignore_missing and not matched:
            ctx.error(f"{quotef(shown_name)}: no file was verified")
    return (properly and matched and not mismatched and not failures
            and not (o.strict and misformatted))


def check_only_problem(flags: set[str], check: bool) -> str | None:
    """GNU's message for the first verify-only option given without ``--check``, or None."""
    for flag, name in (("ignore-missing", "ignore-missing"), ("status", "status"), ("strict", "strict"),
                       ("w", "warn"), ("quiet", "quiet")):
        if flag in flags and not check:
            return f"the --{name} option is meaningful only when verifying checksums"
    return None


def run_digest(ctx: CommandContext, prog: str) -> int:
    """Run the ``*sum`` command ``prog`` (a key of ``ALGOS``)."""
    algo = ALGOS[prog]
    is_b2 = prog == "b2sum"
    long = dict(_LONG)
    if is_b2:
        long["length"] = (REQUIRED, "l")
    spec = OptionSpec("bctwzl:" if is_b2 else "bctwz", long)
    usage = USAGE.format(prog=prog, tag=algo.tag, bits=algo.bits, length=_LENGTH_HELP if is_b2 else "")
    parsed = parse_command_line(ctx, spec, usage, version=f"{prog} (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    binary = -1
    tag = check = zero = False
    flags: set[str] = set()
    bits = algo.bits
    try:
        for key, value in opts:
            if key == "b":
                binary = 1
            elif key == "t":
                binary = 0
            elif key == "tag":
                tag, binary = True, 1
            elif key == "c":
                check = True
            elif key == "z":
                zero = True
            elif key == "l":
                bits = _parse_length(ctx, value or "", algo)
            elif key in ("status", "w", "quiet"):
                flags -= {"status", "w", "quiet"}
                flags.add(key)
            else:
                flags.add(key)
    except _Fatal as e:
        if str(e):
            ctx.error(str(e))
        return 1
    problems = [
        (tag and binary == 0, "--tag does not support --text mode"),
        (zero and check, "the --zero option is not supported when verifying checksums"),
        (tag and check, "the --tag option is meaningless when verifying checksums"),
        (binary >= 0 and check, "the --binary and --text options are meaningless when verifying checksums"),
    ]
    for bad, message in problems:
        if bad:
            return ctx.usage_error(message)
    message = check_only_problem(flags, check)
    if message:
        return ctx.usage_error(message)
    operands = operands or ["-"]
    digester = _Digester(ctx, algo, bits)
    if not check:
        return _print_digests(digester, operands, tag, binary == 1, zero)
    o = _CheckOptions(quiet="quiet" in flags, status="status" in flags, strict="strict" in flags,
                      warn="w" in flags, ignore_missing="ignore-missing" in flags)
    fixed = any(k == "l" for k, _ in opts)
    ok = True
    for operand in operands:
        if not _check_file(digester, operand, o, fixed):
            ok = False
    return 0 if ok else 1
