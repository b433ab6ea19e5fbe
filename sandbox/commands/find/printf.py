"""find's ``-printf`` format (GNU findutils 4.9): directives with flags, width and precision
(``%d``/``%m`` are C's ``%d``/``%o``, ``%S`` its ``%g``, the other numbers strings, as findutils
prints them; ``%{ %[ %(`` are reserved),
``%Tk``/``%Ak``/``%Ck`` through the C library's ``strftime`` (UTC; ``S T X +`` carry GNU's
ten-digit fraction), escapes, and GNU's warnings for unknown ones. Owner and group are the
sandbox's virtual identity; there is no inode or device number (both print as 0)."""

from __future__ import annotations

import re
import time

from sandbox.commands import _identity
from sandbox.commands.base import CommandContext
from sandbox.commands.find.parse import FindError
from sandbox.fs.base import TYPE_LETTER, FileStat, mtime_ns_of

_ESCAPES = {"a": b"\a", "b": b"\b", "f": b"\f", "n": b"\n", "r": b"\r", "t": b"\t",
            "v": b"\v", "\\": b"\\"}
_SPEC = re.compile(r"%([-+ #0]*)(\d*)(?:\.(\d*))?")
_NUMERIC = set("sdkbnmUGiD")
_STRING = set("pfhPHugyYlMtacFS")
_NS_KINDS = set("STX+")
STOP = object()
#: Largest field width / precision honoured (larger ones are clamped).
MAX_FIELD = 1 << 20


def compile_format(ctx: CommandContext, fmt: str) -> list:
    """The format as a list of pieces: bytes, ``STOP`` (``\\c``) or (conversion, directive,
    time kind). Warnings go to stderr now; ``% at end`` is an error."""
    pieces: list = []
    lit = bytearray()
    data = fmt
    i = 0
    n = len(data)

    def flush() -> None:
        if lit:
            pieces.append(bytes(lit))
            lit.clear()

    while i < n:
        c = data[i]
        if c == "\\":
            if i + 1 >= n:
                lit += b"\\"
                i += 1
                continue
            d = data[i + 1]
            if d in _ESCAPES:
                lit += _ESCAPES[d]
                i += 2
            elif d == "c":
                flush()
                pieces.append(STOP)
                i += 2
            elif d in "01234567":
                j = i + 1
                while j < n and j < i + 4 and data[j] in "01234567":
                    j += 1
                lit.append(int(data[i + 1:j], 8) & 0xFF)
                i = j
            else:
                ctx.error(f"warning: unrecognized escape `\\{d}'")
                lit += ("\\" + d).encode("utf-8", "surrogateescape")
                i += 2
            continue
        if c != "%":
            lit += c.encode("utf-8", "surrogateescape")
            i += 1
            continue
        m = _SPEC.match(data, i)
        assert m is not None
        j = m.end()
        if j >= n:
            raise FindError("error: % at end of format string")
        d = data[j]
        if d == "%":
            lit += b"%"
            i = j + 1
            continue
        flags, width, prec = m.group(1), m.group(2), m.group(3)
        # A field wider than this is only padding past any output limit: clamp it so a
        # hostile %999999999p cannot allocate gigabytes.
        if width and int(width) > MAX_FIELD:
            width = str(MAX_FIELD)
        if prec and int(prec) > MAX_FIELD:
            prec = str(MAX_FIELD)
        spec = "%" + flags + width + (("." + prec) if prec is not None else "")
        if d in "TAC":
            if j + 1 >= n:
                ctx.error(f"warning: format directive `%{d}' should be followed by another "
                          "character")
                lit += ("%" + d).encode()
                i = j + 1
                continue
            flush()
            pieces.append((spec, d, data[j + 1]))
            i = j + 2
            continue
        if d in _NUMERIC or d in _STRING:
            flush()
            pieces.append((spec, d, ""))
            i = j + 1
            continue
        if d in "{[(":
            raise FindError(f"error: the format directive `%{d}' is reserved for future use")
        ctx.error(f"warning: unrecognized format directive `%{d}'")
        lit += data[i : j + 1].encode("utf-8", "surrogateescape")  # (its flags and width too)
        i = j + 1
    flush()
    return pieces


def mode_string(st: FileStat) -> str:
    """``drwxr-xr-x`` as ``ls -l`` shows it."""
    m = st.mode & 0o7777
    out = ["-" if st.is_file else TYPE_LETTER[st.kind]]
    for shift in (6, 3, 0):
        bits = (m >> shift) & 7
        out.append("r" if bits & 4 else "-")
        out.append("w" if bits & 2 else "-")
        out.append("x" if bits & 1 else "-")
    return "".join(out)


def _time_parts(ns: int) -> tuple[int, str]:
    sec, frac = divmod(ns, 1_000_000_000)
    return sec, f"{frac:09d}0"


def format_time(ns: int, kind: str) -> str:
    """One ``%Tk`` directive (UTC) of a time in nanoseconds."""
    sec, frac = _time_parts(ns)
    if kind == "@":
        return f"{sec}.{frac}"
    tm = time.gmtime(sec)
    if kind == "+":
        return time.strftime("%Y-%m-%d+%H:%M:%S", tm) + "." + frac
    if kind == "Z":  # the jail's times are UTC (C's strftime says GMT for gmtime)
        return "UTC"
    text = time.strftime("%" + kind, tm)
    return text + "." + frac if kind in _NS_KINDS else text


def ctime_string(ns: int) -> str:
    """``%t``: ``Thu Mar  4 05:06:07.0000000000 2021``."""
    sec, frac = _time_parts(ns)
    tm = time.gmtime(sec)
    return time.strftime("%a %b %e %H:%M:%S", tm) + "." + frac + time.strftime(" %Y", tm)


def _dirname(path: str) -> str:
    cut = path.rfind("/")
    return "." if cut < 0 else path[:cut]


def _relative(e) -> str:  # type: ignore[no-untyped-def]
    if e.depth == 0:
        return ""
    start = e.start
    return e.path[len(start):] if start.endswith("/") else e.path[len(start) + 1:]


def _simple(p, fs):  # type: ignore[no-untyped-def]
    """A fast function of the entry for a plain ``%p %f %s %d %P`` piece, or None."""
    if isinstance(p, bytes):
        return lambda e: p
    if not isinstance(p, tuple) or p[0] != "%" or p[2]:
        return None
    d = p[1]
    if d == "p":
        return lambda e: e.path.encode("utf-8", "surrogateescape")
    if d == "f":
        return lambda e: (e.name if e.depth else _base(e.path)).encode("utf-8", "surrogateescape")
    if d == "P":
        return lambda e: _relative(e).encode("utf-8", "surrogateescape")
    if d == "s":
        return lambda e: b"%d" % e.stat(fs).size
    if d == "d":
        return lambda e: b"%d" % e.depth
    return None


def compile_render(walker, pieces: list):  # type: ignore[no-untyped-def]
    """``render`` for these pieces as one function of the entry (plain ``%p %f %P %s %d`` and
    literals without the general loop)."""
    fast = [_simple(p, walker.fs) for p in pieces]
    if all(f is not None for f in fast):
        if len(fast) == 1:
            return fast[0]
        return lambda e: b"".join([f(e) for f in fast])  # type: ignore[misc]
    return lambda e: render(walker, pieces, e)


def render(walker, pieces: list, e) -> bytes:  # type: ignore[no-untyped-def]
    """The bytes of one file's ``-printf`` output."""
    out: list[bytes] = []
    fs = walker.fs
    for p in pieces:
        if isinstance(p, bytes):
            out.append(p)
            continue
        if p is STOP:
            break
        spec, d, kind = p
        if kind:
            text = format_time(mtime_ns_of(e.stat(fs)), kind)
            out.append((spec + "s") % text if spec != "%" else text.encode("utf-8", "surrogateescape"))
            if isinstance(out[-1], str):
                out[-1] = out[-1].encode("utf-8", "surrogateescape")
            continue
        if d in _NUMERIC:
            value = _number(e, fs, d)
            if d in "dm":  # findutils prints these two with C's %d and %o
                out.append(_c_integer(spec, value, d == "m").encode())
            else:  # the others as strings (human_readable's): %s's flags and precision
                out.append(((spec + "s") % value).encode())
            continue
        if d == "p":
            text = e.path
        elif d == "f":
            text = e.name if e.depth else _base(e.path)
        elif d == "h":
            text = _dirname(e.path)
        elif d == "P":
            text = _relative(e)
        elif d == "H":
            text = e.start
        elif d == "u":
            text = _identity.USER
        elif d == "g":
            text = _identity.GROUP
        elif d == "y":
            text = e.letter(fs)
        elif d == "Y":
            text = walker._followed_letter(e, printf=True)
        elif d == "l":
            text = walker.link_text(e) if e.letter(fs) == "l" else ""
        elif d == "M":
            text = mode_string(e.stat(fs))
        elif d == "F":
            text = "ext4"
        elif d == "S":  # sparseness: 512-byte blocks over the size (1 when empty), C's %g
            st = e.stat(fs)
            blocks = -(-st.size // 4096) * 8
            out.append(((spec + "g") % (blocks * 512 / st.size if st.size else 1.0)).encode())
            continue
        else:  # t a c
            text = ctime_string(mtime_ns_of(e.stat(fs)))
        out.append(((spec + "s") % text).encode("utf-8", "surrogateescape"))
    return b"".join(out)


def _c_integer(spec: str, value: int, octal: bool) -> str:
    """C's ``printf`` of a non-negative ``value`` as ``%d`` (or ``%o``: unsigned, so no sign
    flag) with ``spec``'s flags, width and precision: a precision pads the digits with zeros
    and turns the ``0`` flag off, ``#`` makes an octal number start with 0."""
    m = _SPEC.fullmatch(spec)
    assert m is not None
    flags, width, prec = m.group(1), int(m.group(2) or 0), m.group(3)
    digits = format(value, "o" if octal else "d")
    if prec is not None:
        digits = "" if int(prec or 0) == 0 and value == 0 else digits.rjust(int(prec or 0), "0")
    if octal and "#" in flags and not digits.startswith("0"):
        digits = "0" + digits
    sign = "" if octal else "+" if "+" in flags else " " if " " in flags else ""
    if "-" in flags:
        return (sign + digits).ljust(width)
    if "0" in flags and prec is None:
        return sign + digits.rjust(width - len(sign), "0")
    return (sign + digits).rjust(width)


def _number(e, fs, d: str) -> int:  # type: ignore[no-untyped-def]
    """The value of the numeric directive ``%d`` (``d`` one of ``_NUMERIC``)."""
    if d == "d":
        return e.depth
    if d in "UGiD":
        return _identity.UID if d == "U" else _identity.GID if d == "G" else 0
    st = e.stat(fs)
    if d == "s":
        return st.size
    if d == "k":
        return -(-st.size // 4096) * 4
    if d == "b":
        return -(-st.size // 4096) * 8
    if d == "n":
        return st.nlink
    return st.mode & 0o7777


def _base(path: str) -> str:
    stripped = path.rstrip("/")
    if not stripped:
        return "/"
    return stripped.rsplit("/", 1)[-1]
