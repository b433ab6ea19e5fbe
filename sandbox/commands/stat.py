"""``stat``: display file status (GNU coreutils 9.1): the default output, ``-t``/``--terse``,
``-c``/``--format`` (a newline after each file), ``--printf`` (backslash escapes, no newline),
``-L`` (follow a link, by name inside the jail). Directives ``%n %N %s %b %B %o %f %F %a %A %h %i %u %U
%g %G %d %D %t %T %r %R %H[dr] %L[dr] %m %x %X %y %Y %z %Z %w %W %%`` with printf flags, width and
precision (``%.3Y`` gives fractional seconds); unknown directives print ``?`` as GNU does.

Values the jail does not have are virtual and fixed, never the host's:

- owner and group are ``user``/``user`` with ids 1000/1000, as ``ls -l`` shows them;
- device 0 (``0,0``), inode a stable number derived from the virtual path;
- access and change times are the modification time; birth is unknown (``-``, ``0``);
- blocks are ``ceil(size / 4096) * 8`` 512-byte blocks (what ls assumes), IO block 4096;
- ``%m`` is the jail's mount point holding the file; ``%C`` (SELinux context) prints ``?`` and
  GNU's ``failed to get security context`` error, as on a host without SELinux.

``-f`` (file system status) is refused in one line: the jail has no file systems to report.
"""

from __future__ import annotations

import time

from sandbox.commands._canonical import stat_through
from sandbox.commands._quoting import quote, quoteaf
from sandbox.commands.base import CommandContext
from sandbox.commands.ls import _blocks as allocated_blocks  # ls's block rule, shared
from sandbox.commands.ls import _inode as jail_inode  # the same number ls -i shows
from sandbox.commands.ls import _mode_string as mode_string
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import (
    BLOCKDEV, CHARDEV, DIR, FIFO, FILE, LINK, SOCKET, FileStat, FSError, mtime_ns_of,
)

SPEC = OptionSpec(
    "c:fLt",
    {
        "dereference": (NO_ARG, "L"),
        "file-system": (NO_ARG, "f"),
        "format": (REQUIRED, "c"),
        "printf": (REQUIRED, "printf"),
        "terse": (NO_ARG, "t"),
        "cached": (REQUIRED, "cached"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: stat [OPTION]... FILE...
Display file or file system status.

Mandatory arguments to long options are mandatory for short options too.
  -L, --dereference     follow links
  -c  --format=FORMAT   use the specified FORMAT instead of the default;
                          output a newline after each use of FORMAT
      --printf=FORMAT   like --format, but interpret backslash escapes,
                          and do not output a mandatory trailing newline;
                          if you want a newline, include \\n in FORMAT
  -t, --terse           print the information in terse form
      --help        display this help and exit
      --version     output version information and exit
"""

UID = GID = 1000
OWNER = GROUP = "user"
IO_BLOCK = 4096

#: ``%f``'s file-type bits and ``%F``'s words for what is neither a file nor a directory.
_KIND_BITS = {DIR: 0o040000, FILE: 0o100000, LINK: 0o120000, FIFO: 0o010000, SOCKET: 0o140000,
              CHARDEV: 0o020000, BLOCKDEV: 0o060000}
_KIND_NAMES = {LINK: "symbolic link", FIFO: "fifo", SOCKET: "socket",
               CHARDEV: "character special file", BLOCKDEV: "block special file"}

DEFAULT = ("  File: %N\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n"
           "Device: %Hd,%Ld\tInode: %-11i Links: %h\n"
           "Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n"
           "Access: %x\nModify: %y\nChange: %z\n Birth: %w\n")
TERSE = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n"

_ESCAPES = {"a": b"\a", "b": b"\b", "e": b"\x1b", "f": b"\f", "n": b"\n", "r": b"\r", "t": b"\t",
            "v": b"\v", '"': b'"', "\\": b"\\"}


def _human_time(t: int, precision: int | None = None) -> str:
    """A time given in nanoseconds, as ``%y`` prints it."""
    sec, ns = divmod(t, 1_000_000_000)
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(sec)) + f".{ns:09d} +0000"


def _epoch(t: int, precision: int | None) -> str:
    """A time given in nanoseconds, as ``%Y`` (``%.9Y``) prints it."""
    sec, ns = divmod(t, 1_000_000_000)
    if precision is None:
        return str(sec)
    if not precision:
        return str(sec)
    sign = ""
    if t < 0 and ns:  # coreutils prints the magnitude: -1.5 s is -1.500000000
        sign, (sec, ns) = "-", divmod(-t, 1_000_000_000)
    frac = f"{ns:09d}"
    frac = frac[:precision] if precision <= 9 else frac + "0" * (precision - 9)
    return f"{sign}{sec}.{frac}"


class _File:
    """One operand's values for the directives."""

    def __init__(self, name: str, vpath: str, st: FileStat, quote_n: bool):
        self.name, self.vpath, self.st = name, vpath, st
        #: A link's text (``%N``).
        self.link_text = ""
        #: GNU sets the quoting style for %N only when the format holds the text "%N".
        self.quote_n = quote_n
        #: The mount point holding the file (``%m``), and errors met while rendering (``%C``).
        self.mount = "/"
        self.errors: list[str] = []

    def value(self, conv: str, precision: int | None) -> tuple[str, object]:
        """('s'|'u'|'o'|'x'|'e', value) of a directive; 'e' is an already formatted epoch."""
        st = self.st
        kind_bits = _KIND_BITS.get(st.kind, 0o100000)
        if conv == "n":
            return "s", self.name
        if conv == "N":
            name = quoteaf(self.name) if self.quote_n else self.name
            if st.kind == LINK:
                text = self.link_text
                return "s", f"{name} -> {quoteaf(text) if self.quote_n else text}"
            return "s", name
        if conv == "s":
            return "d", st.size
        if conv == "b":
            return "u", allocated_blocks(st)
        if conv == "B":
            return "u", 512
        if conv == "o":
            return "u", IO_BLOCK
        if conv == "f":
            return "x", kind_bits | st.mode
        if conv == "F":
            if st.is_dir:
                return "s", "directory"
            if not st.is_file:
                return "s", _KIND_NAMES.get(st.kind, "weird file")
            return "s", "regular empty file" if st.size == 0 else "regular file"
        if conv == "a":
            return "o", st.mode & 0o7777
        if conv == "A":
            return "s", mode_string(st)
        if conv == "h":
            return "u", st.nlink
        if conv == "i":
            return "u", jail_inode(self.vpath)
        if conv in "ug":
            return "u", UID if conv == "u" else GID
        if conv in "UG":
            return "s", OWNER if conv == "U" else GROUP
        if conv in "dtTrR":
            return "u", 0
        if conv == "D":
            return "x", 0
        if conv in "xyz":
            return "s", _human_time(mtime_ns_of(st))
        if conv in "XYZ":
            return "e", _epoch(mtime_ns_of(st), precision)
        if conv == "w":
            return "s", "-"
        if conv == "W":
            return "e", "0"
        if conv == "m":
            return "s", self.mount
        if conv == "C":
            self.errors.append(f"failed to get security context of {quoteaf(self.name)}: No data available")
            return "?", None
        return "?", None


def _format_number(flags: str, width: str, precision: int | None, kind: str, value: int) -> str:
    """C printf of an integer: ``d`` signed, ``u`` ``o`` ``x`` unsigned (no sign flags)."""
    flags = flags.replace("'", "")
    if kind != "d":
        flags = flags.replace("+", "").replace(" ", "")
    if precision is not None:
        flags = flags.replace("0", "")
    if kind == "o" and "#" in flags:
        digits = "%o" % value
        digits = digits.rjust(precision or 0, "0")
        text = digits if digits.startswith("0") else "0" + digits
        size = int(width or 0)
        if "-" in flags:
            return text.ljust(size)
        return text.rjust(size, "0" if "0" in flags else " ")
    spec = "%" + flags + width + (f".{precision}" if precision is not None else "")
    return (spec + ("d" if kind == "u" else kind)) % value


def _format_epoch(flags: str, width: str, precision: int | None, text: str) -> str:
    """coreutils ``out_epoch_sec``: the width covers the whole number; with a precision the
    seconds are padded to the width less the point and the fraction (``-`` pads after it).
    Known difference: GNU pads some narrow widths with extra trailing spaces (a quirk of its
    format-string surgery, e.g. ``%12.2X``); we print the number unpadded there."""
    sec, _, frac = text.partition(".")
    if not precision:
        return _format_number(flags, width, None, "d", int(sec))
    size = int(width or 0)
    left = "-" in flags
    int_width = ""
    if size > 1 and size - 1 > 1 and size - 1 - precision > 1:
        int_width = "" if left else str(size - 1 - precision)
    int_text = _format_number(flags.replace("-", ""), int_width, None, "d", int(sec))
    if sec.startswith("-") and int(sec) == 0:  # -0.5 s: keep the sign int() drops
        digits = int_text.lstrip(" ")
        int_text = " " * max(len(int_text) - len(digits) - 1, 0) + "-" + digits
    result = f"{int_text}.{frac}"
    if left:
        result = result.ljust(size)
    elif not int_width:
        result = result.rjust(size)
    return result


def _format_string(flags: str, width: str, precision: int | None, value: str) -> bytes:
    """C printf ``%s``: width and precision count bytes."""
    spec = "%" + ("-" if "-" in flags else "") + width + (f".{precision}" if precision is not None else "")
    return (spec + "s").encode() % value.encode("utf-8", "surrogateescape")


class InvalidDirective(Exception):
    """``%`` with flags, width or precision before ``%``: GNU stops with ``invalid directive``."""

    def __init__(self, directive: str, done: bytes):
        super().__init__(directive)
        self.done = done


def render(ctx: CommandContext, fmt: str, f: _File, escapes: bool) -> bytes:
    """Expand ``fmt`` for one file (``--printf`` also interprets backslash escapes)."""
    out: list[bytes] = []
    i, n = 0, len(fmt)
    enc = lambda s: s.encode("utf-8", "surrogateescape")  # noqa: E731
    while i < n:
        c = fmt[i]
        if c == "\\" and escapes:
            i = _escape(ctx, fmt, i, out)
            continue
        if c != "%":
            j = i
            while j < n and fmt[j] != "%" and not (escapes and fmt[j] == "\\"):
                j += 1
            out.append(enc(fmt[i:j]))
            i = j
            continue
        start = i
        j = i + 1
        while j < n and fmt[j] in "-+ #0'":
            j += 1
        flags = fmt[i + 1 : j]
        k = j
        while k < n and fmt[k].isdigit():
            k += 1
        width = fmt[j:k]
        precision = None
        bare_dot = False
        if k < n and fmt[k] == ".":
            m = k + 1
            while m < n and fmt[m].isdigit():
                m += 1
            precision = int(fmt[k + 1 : m] or "0")
            bare_dot = m == k + 1
            k = m
        if k >= n:
            out.append(enc(fmt[i:]))
            break
        conv = fmt[k]
        i = k + 1
        if conv == "%":
            if flags or width or precision is not None:
                raise InvalidDirective(fmt[start:i], b"".join(out))
            out.append(b"%")
            continue
        if conv in "HL" and i < n and fmt[i] in "dr":
            conv = fmt[i]
            i += 1
        if conv in "XYZ" and bare_dot:
            precision = 9
        kind, value = f.value(conv, precision)
        if kind == "?":
            out.append(b"?")
        elif kind == "s":
            out.append(_format_string(flags, width, precision, str(value)))
        elif kind == "e":
            out.append(enc(_format_epoch(flags, width, precision, str(value))))
        else:
            out.append(enc(_format_number(flags, width, precision, kind, int(value))))  # type: ignore[arg-type]
    return b"".join(out)


def _escape(ctx: CommandContext, fmt: str, i: int, out: list[bytes]) -> int:
    n = len(fmt)
    if i + 1 >= n:
        ctx.error("warning: backslash at end of format")
        out.append(b"\\")
        return i + 1
    c = fmt[i + 1]
    if c in "01234567":
        j = i + 1
        while j < n and j < i + 4 and fmt[j] in "01234567":
            j += 1
        out.append(bytes([int(fmt[i + 1 : j], 8) & 0xFF]))
        return j
    if c == "x" and i + 2 < n and fmt[i + 2] in "0123456789abcdefABCDEF":
        j = i + 2
        while j < n and j < i + 4 and fmt[j] in "0123456789abcdefABCDEF":
            j += 1
        out.append(bytes([int(fmt[i + 2 : j], 16)]))
        return j
    if c in _ESCAPES:
        out.append(_ESCAPES[c])
        return i + 2
    ctx.error(f"warning: unrecognized escape '\\{c}'")
    out.append(c.encode("utf-8", "surrogateescape"))
    return i + 2


def run(ctx: CommandContext) -> int:
    """Run ``stat``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="stat (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    fmt: str | None = None
    escapes = terse = False
    for key, value in opts:
        if key == "f":
            ctx.error("option -f (file system status) is not supported in the sandbox: the jail has no file systems to report")
            return 1
        if key == "c":
            fmt, escapes = value or "", False
        elif key == "printf":
            fmt, escapes = value or "", True
        elif key == "t":
            terse = True
    if not operands:
        return ctx.usage_error("missing operand")
    newline = b"\n" if any(k == "c" for k, _ in opts) and not escapes else b""
    quote_n = fmt is not None and "%N" in fmt
    if fmt is None:
        fmt = TERSE if terse else DEFAULT
    follow = any(k == "L" for k, _ in opts)
    status = 0
    for operand in operands:
        ctx.budget.check_time()
        try:  # what the name is (-L: what it names), its links resolved inside the jail
            st, vpath = stat_through(ctx, operand, follow)
        except FSError as e:
            ctx.error(f"cannot statx {quoteaf(operand)}: {e}")
            status = 1
            continue
        f = _File(operand, vpath, st, quote_n)
        if st.kind == LINK:
            f.link_text = ctx.fs.readlink(vpath)
        f.mount = next((p for p in sorted(ctx.fs.mounts, key=len, reverse=True)
                        if p == "/" or vpath == p or vpath.startswith(p + "/")), "/")
        try:
            ctx.stdout.write(render(ctx, fmt, f, escapes) + newline)
            for message in f.errors:
                ctx.error(message)
                status = 1
        except InvalidDirective as e:
            ctx.stdout.write(e.done)
            ctx.error(f"{quote(str(e))}: invalid directive")
            return 1
    return status
