"""printf / sprintf formatting as gawk does it (also CONVFMT and OFMT).

Conversions ``c d i o u x X e E f F g G a A s %`` with the flags ``- + space # 0``, widths and
precisions (``*`` takes an argument). ``%s`` widths and precisions count characters (UTF-8);
``%c`` of a number is that code point, of a string its first character. Integer conversions of
values that do not fit gawk's range fall back to ``%g`` (``%d`` and ``%i`` take integers of any
size); infinities and NaNs print as ``+inf``/``-nan``, like gawk.
"""

from __future__ import annotations

import math
import re


#: The largest width or precision a conversion may ask for (a bigger one is a limit error).
MAX_WIDTH = 1 << 22


class FormatError(Exception):
    """Not enough arguments for the format (gawk: fatal); ``pos`` is where they ran out."""

    def __init__(self, pos: int = 0):
        super().__init__(pos)
        self.pos = pos


def _special(v: float) -> bytes:
    if v != v:
        return b"-nan" if math.copysign(1.0, v) < 0 else b"+nan"
    return b"-inf" if v < 0 else b"+inf"


_BAD_CHAR = re.compile("[\\x00\\udc80-\\udcff]")


def _pad(body: bytes, width: int, left: bool, chars: int | None = None) -> bytes:
    n = len(body) if chars is None else chars
    if width > n:
        if left:
            return body + b" " * (width - n)
        return b" " * (width - n) + body
    return body


def _charlen(b: bytes) -> int:
    if b.isascii():
        return len(b)
    return len(b.decode("utf-8", "surrogateescape"))


def _mb_clip(s: bytes, prec: int | None) -> tuple[bytes, int]:
    """``%s`` with a width or precision as gawk does it in a UTF-8 locale: its characters are
    those before the first invalid sequence or NUL (``mbc_char_count``), the rest is dropped;
    a string that starts invalid counts in bytes. Returns (text, its character count)."""
    if s.isascii() and b"\0" not in s:
        n = len(s) if prec is None or prec > len(s) else prec
        return s[:n], n
    t = s.decode("utf-8", "surrogateescape")
    if not t or t[0] == "\0" or "\udc80" <= t[0] <= "\udcff":
        n = len(s) if prec is None or prec > len(s) else prec
        return s[:n], n
    m = _BAD_CHAR.search(t)
    cc = m.start() if m else len(t)
    n = cc if prec is None or prec > cc else prec
    return t[:n].encode("utf-8"), n


def _float_spec(flags: str, width: int | None, prec: int | None, conv: str) -> str:
    spec = "%" + flags
    if width is not None:
        spec += str(width)
    if prec is not None:
        spec += "." + str(prec)
    return spec + conv


def format_number(fmt: bytes, v: float) -> bytes:
    """CONVFMT/OFMT conversion of a non-integral number."""
    try:
        return sprintf(fmt, [v], lambda x: x, lambda x: b"%.6g" % x)
    except FormatError:
        return fmt


def sprintf(fmt: bytes, args: list, tonum, tostr, chars: bool = True) -> bytes:
    """Format ``args`` (awk values) with ``fmt``; ``tonum``/``tostr`` convert values.
    ``chars`` False: a single-byte locale (or ``-b``), where ``%c`` and the widths and
    precisions of ``%s`` deal in bytes."""
    out = bytearray()
    i = 0
    n = len(fmt)
    argi = 0
    nargs = len(args)
    while i < n:
        j = fmt.find(b"%", i)
        if j < 0:
            out += fmt[i:]
            break
        out += fmt[i:j]
        i = j + 1
        if i >= n:
            out += b"%"
            break
        start = j
        flags = ""
        while i < n and fmt[i] in b"-+ #0'":
            c = chr(fmt[i])
            if c != "'" and c not in flags:
                flags += c
            i += 1
        width = None
        if i < n and fmt[i] == 42:  # *
            i += 1
            if argi >= nargs:
                raise FormatError(i - 1)
            w = int(_num_or_zero(tonum(args[argi])))
            argi += 1
            if w < 0:
                if "-" not in flags:
                    flags += "-"
                w = -w
            width = w
        else:
            k = i
            while i < n and 48 <= fmt[i] <= 57:
                i += 1
            if i > k:
                width = int(fmt[k:i])
        prec = None
        if i < n and fmt[i] == 46:  # .
            i += 1
            if i < n and fmt[i] == 42:
                i += 1
                if argi >= nargs:
                    raise FormatError(i - 1)
                p = int(_num_or_zero(tonum(args[argi])))
                argi += 1
                prec = p if p >= 0 else None
            else:
                k = i
                while i < n and 48 <= fmt[i] <= 57:
                    i += 1
                prec = int(fmt[k:i]) if i > k else 0
        # length modifiers are accepted and ignored
        mods = b""
        while i < n and fmt[i] in b"hlLjzt":
            mods += fmt[i:i + 1]
            i += 1
        if i >= n:
            out += fmt[start:]
            break
        if len(set(mods)) < len(mods):
            # gawk: the same modifier twice (%lld, %hhd) makes the spec plain text
            out += fmt[start:i + 1]
            i += 1
            continue
        conv = chr(fmt[i])
        i += 1
        if conv == "%":
            out += b"%"
            continue
        if conv not in "cdiouxXeEfFgGaAs":
            # gawk copies an unknown conversion's text as is
            out += fmt[start:i]
            continue
        if argi >= nargs:
            raise FormatError(i - 1)
        if (width or 0) > MAX_WIDTH or (prec or 0) > MAX_WIDTH:
            from sandbox.errors import LimitExceeded
            raise LimitExceeded("string_length", f"awk: printf width or precision above "
                                f"{MAX_WIDTH}; format smaller fields")
        arg = args[argi]
        argi += 1
        left = "-" in flags
        w = width or 0
        if conv == "s":
            s = tostr(arg)
            if (w or prec is not None) and not chars:
                if prec is not None:
                    s = s[:prec]
                out += _pad(s, w, left)
            elif w or prec is not None:
                s, nchars = _mb_clip(s, prec)
                out += _pad(s, w, left, nchars)
            else:
                out += s
            continue
        if conv == "c":
            if type(arg) is not float and getattr(arg, "numeric_for_c", None) is not None:
                pass
            if type(arg) is not float and type(arg).__name__ == "StrNum":
                from sandbox.commands.awk.values import strnum_value
                nv = strnum_value(arg)
                if nv is not None:
                    arg = nv
            if type(arg) is float:
                code = int(arg) if arg - arg == 0.0 else 0
                if not chars:
                    s = bytes([code & 0xFF])
                elif 0 <= code < 0x80:
                    s = bytes([code])
                elif code < 0 or code > 0x7FFFFFFF:
                    s = b" "[:0] + bytes([code & 0xFF])
                elif 0xD800 <= code <= 0xDFFF:
                    s = b"\x00"
                else:
                    s = _encode_cp(code)
            else:
                t = tostr(arg)
                if not t:
                    s = b"\x00"
                elif t[0] < 0x80 or not chars:
                    s = t[:1]
                else:
                    ch = t.decode("utf-8", "surrogateescape")[:1]
                    s = ch.encode("utf-8", "surrogateescape")
            out += _pad(s, w, left, 1 if w else None)
            continue
        v = tonum(arg)
        if v - v != 0.0:
            # infinities and NaNs: gawk 5.2 prints them signed, ignoring width and flags
            body = _special(v)
            out += body.upper() if conv in "EGFXA" else body
            continue
        if conv in "di":
            iv = int(v)
            out += _int_format(iv, flags, width, prec, "d")
            continue
        if conv in "ouxX":
            iv = int(v)
            if iv < 0:
                if iv >= -(1 << 63):
                    iv += 1 << 64
                else:
                    out += _float_format(v, flags, width, prec, "g")
                    continue
            elif iv >= 1 << 64:
                out += _float_format(v, flags, width, prec, "g")
                continue
            out += _int_format(iv, flags, width, prec, conv, v == 0)
            continue
        out += _float_format(v, flags, width, prec, conv)
    return bytes(out)


def _num_or_zero(v: float) -> float:
    return v if v - v == 0.0 else 0.0


def _encode_cp(code: int) -> bytes:
    if code <= 0x10FFFF:
        return chr(code).encode("utf-8", "surrogatepass")
    # beyond Unicode: the historical UTF-8 encoding (glibc's wcrtomb would fail; gawk writes
    # these bytes through its own conversion)
    # the original UTF-8 scheme up to 31 bits (5 and 6 byte forms)
    for nbytes, lead in ((4, 0xF0), (5, 0xF8), (6, 0xFC)):
        if code < 1 << (5 * nbytes + 1) or nbytes == 6:
            out = []
            for _ in range(nbytes - 1):
                out.append(0x80 | (code & 0x3F))
                code >>= 6
            out.append(lead | code)
            return bytes(reversed(out))
    return b"\x00"


def _int_format(iv: int, flags: str, width: int | None, prec: int | None, conv: str,
                exact_zero: bool = True) -> bytes:
    if iv == 0 and conv in "xX" and "#" in flags:
        if exact_zero:
            flags = flags.replace("#", "")
        else:
            # gawk: a non-zero value that truncates to 0 keeps the prefix
            body = ("%" + ("." + str(prec) if prec is not None else "") + conv) % 0
            return _int_format_body(("0X" if conv == "X" else "0x") + body,
                                    flags.replace("#", ""), width)
    if prec is not None:
        flags = flags.replace("0", "")
    spec = "%" + flags
    if width is not None:
        spec += str(width)
    if prec is not None:
        spec += "." + str(prec)
    if conv == "u":
        conv = "d"
    if prec == 0 and iv == 0:
        # C prints no digits for a zero with precision 0 (but '#o' prints "0")
        body = "0" if (conv == "o" and "#" in flags) else ""
        sign = "+" if "+" in flags else (" " if " " in flags else "")
        if conv not in "di":
            sign = ""
        s = sign + body
        return _pad(s.encode(), width or 0, "-" in flags)
    try:
        s = spec.replace("'", "") + conv
        if conv == "d" and "#" in flags:
            s = s.replace("#", "")
        if conv == "o" and "#" in flags:
            body = ("%" + ("." + str(prec) if prec is not None else "") + "o") % iv
            if not body.startswith("0"):
                body = "0" + body
            return _int_format_body(body, flags.replace("#", ""), width)
        return (s % iv).encode()
    except (ValueError, OverflowError):
        return str(iv).encode()


def _float_format(v: float, flags: str, width: int | None, prec: int | None, conv: str) -> bytes:
    if conv in "aA":
        return _hex_float(v, flags, width, prec, conv)
    spec = _float_spec(flags, width, prec, conv)
    try:
        return (spec % v).encode()
    except (ValueError, OverflowError):
        return repr(v).encode()


def _hex_float(v: float, flags: str, width: int | None, prec: int | None, conv: str) -> bytes:
    if v == 0:
        mant = "0x0p+0"
        if math.copysign(1.0, v) < 0:
            mant = "-" + mant
    else:
        h = v.hex()  # like 0x1.8000000000000p+1
        sign = ""
        if h.startswith("-"):
            sign, h = "-", h[1:]
        m, _, e = h[2:].partition("p")
        ip, _, fp = m.partition(".")
        fp = fp.rstrip("0")
        if prec is not None:
            # round the hex fraction to prec digits
            digits = int(ip + fp.ljust(13, "0"), 16)
            shift = (13 - prec) * 4
            if shift > 0:
                q, r = divmod(digits, 1 << shift)
                half = 1 << (shift - 1)
                if r > half or (r == half and q & 1):
                    q += 1
                digits = q
                text = "%x" % digits
                ip, fp = text[0], text[1:].rjust(prec, "0")[-prec:] if prec else ""
                if len(text) > prec + 1:
                    ip, fp = text[:len(text) - prec], text[len(text) - prec:]
            else:
                fp = fp.ljust(prec, "0")
        mant = sign + "0x" + ip + ("." + fp if fp or "#" in flags else "") + "p" + (
            e if e.startswith("-") else "+" + e.lstrip("+"))
    if "+" in flags and not mant.startswith("-"):
        mant = "+" + mant
    elif " " in flags and not mant.startswith("-"):
        mant = " " + mant
    if conv == "A":
        mant = mant.upper()
    w = width or 0
    if len(mant) < w:
        if "-" in flags:
            mant = mant + " " * (w - len(mant))
        elif "0" in flags:
            k = mant.find("x") + 1
            mant = mant[:k] + "0" * (w - len(mant)) + mant[k:]
        else:
            mant = " " * (w - len(mant)) + mant
    return mant.encode()


def ran_out_message(fmt: bytes, pos: int) -> str:
    """gawk's fatal message for a format that needs more arguments than it was given."""
    text = fmt.decode("utf-8", "surrogateescape")
    col = len(fmt[:pos].decode("utf-8", "surrogateescape"))
    return ("not enough arguments to satisfy format string\n\t`" + text + "'\n\t"
            + " " * col + "^ ran out for this one")


def _int_format_body(body: str, flags: str, width: int | None) -> bytes:
    w = width or 0
    if len(body) < w:
        if "-" in flags:
            body = body + " " * (w - len(body))
        elif "0" in flags:
            body = "0" * (w - len(body)) + body
        else:
            body = " " * (w - len(body)) + body
    return body.encode()
