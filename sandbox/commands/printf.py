"""``printf FORMAT [ARGUMENT]...``: bash's builtin printf (the interpreter runs it as a builtin).

Conversions ``%s %b %c %d %i %u %x %X %o %f %F %e %E %g %G %q %%`` with flags ``-+ #0``,
widths and precisions (``*`` takes them from the arguments); the format is reused while
arguments remain. Numbers are parsed as bash does (``0x1F``, ``010`` octal, ``'c`` a character
code); an invalid number prints bash's ``invalid number`` error, uses what parsed, and makes
the exit status 1. Floating point follows the x86 ``long double`` that bash uses.
"""

from __future__ import annotations

import re
import time as _time
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction

from sandbox.commands.base import CommandContext
from sandbox.commands.echo import byte_char, hex_run, utf8_raw

_SPEC_RE = re.compile(r"%([-+ #0']*)(\*|\d+)?(?:\.(\*|\d*))?(hh|h|ll|l|L|j|z|t)?(.)?", re.S)
_SIMPLE_ESC = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n",
               "r": "\r", "t": "\t", "v": "\v", "\\": "\\"}
#: Conversions of GNU date that glibc's strftime doesn't have (printed as they are).
_GNU_ONLY_RE = re.compile(r"%%|%[-_0^#]*\d*(?::+z|[Nq])")
_HEXFLOAT_RE = re.compile(r"\s*([-+]?)0[xX]((?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)"
                          r"(?:[pP][-+]?\d+)?)?")
_INTMAX = (1 << 63) - 1
_INTMIN = -(1 << 63)
_UINTMAX = (1 << 64) - 1
_FLOAT_RE = re.compile(r"\s*([-+]?)(?:(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?|(inf(?:inity)?|nan))",
                       re.I)


def invalid_number(text: str) -> str:
    """bash's ``sh_invalidnum`` wording for a number that doesn't parse."""
    if text[:1] == "0" and text[1:2].isdigit():
        return "invalid octal number"
    if text[:2] == "0x":
        return "invalid hex number"
    return "invalid number"


def error(ctx: CommandContext, message: str) -> None:
    """A diagnostic as bash's builtin prints it (``bash: line N: printf: ...``)."""
    ctx.stderr.write(f"{ctx.shell_prefix}printf: {message}\n".encode("utf-8", "surrogateescape"))


class _Printer:
    def __init__(self, ctx: CommandContext):
        self.ctx = ctx
        self.status = 0
        self.stop = False

    def error(self, message: str) -> None:
        """bash's builtin_error: ``bash: printf: message``."""
        error(self.ctx, message)

    def bad(self, arg: str) -> None:
        self.error(f"{arg}: {invalid_number(arg)}")
        self.status = 1

    # -- argument conversion ----------------------------------------------------------------

    def to_int(self, arg: str | None, unsigned: bool = False) -> int:
        if arg is None or arg == "":
            return 0
        if arg[0] in "'\"":
            if len(arg) == 1:
                return 0
            return ord(arg[1]) if not 0xDC80 <= ord(arg[1]) <= 0xDCFF else ord(arg[1]) - 0xDC00
        m = re.match(r"\s*([-+]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)", arg)
        if not m:
            self.bad(arg)
            return 0
        sign, digits = m.group(1), m.group(2)
        if digits[:2] in ("0x", "0X"):
            value = int(digits[2:], 16)
        elif digits.startswith("0"):
            value = int(digits, 8)
        else:
            value = int(digits)
        if sign == "-":
            value = -value
        if m.end() != len(arg):
            self.bad(arg)
        if unsigned:
            if abs(value) > _UINTMAX:
                self.error(f"warning: {arg}: Numerical result out of range")
                return _UINTMAX
            return value & _UINTMAX
        if value > _INTMAX or value < _INTMIN:
            self.error(f"warning: {arg}: Numerical result out of range")
            value = _INTMAX if value > 0 else _INTMIN
        return value

    def to_float(self, arg: str | None) -> Fraction | str:
        if arg is None or arg == "":
            return Fraction(0)
        if arg[0] in "'\"":
            return Fraction(ord(arg[1])) if len(arg) > 1 else Fraction(0)
        hexm = _HEXFLOAT_RE.match(arg)
        if hexm:  # strtold's hex float: the longest prefix that parses
            if hexm.end() != len(arg) or not hexm.group(2):
                self.bad(arg)  # "0x" alone: strtold reads the 0 and stops at the x
            if not hexm.group(2):
                return Fraction(0)
            digits, _, exp = hexm.group(2).lower().partition("p")
            whole, _, frac = digits.partition(".")
            value = Fraction(int(whole or "0", 16)) + (
                Fraction(int(frac, 16), 16 ** len(frac)) if frac else 0)
            power = int(exp or "0")
            if abs(power) > 20000:
                return ("-" if hexm.group(1) == "-" else "") + "inf" if power > 0 else Fraction(0)
            value *= Fraction(2) ** power
            return _long_double(-value if hexm.group(1) == "-" else value)
        m = _FLOAT_RE.match(arg)
        if not m:
            self.bad(arg)
            return Fraction(0)
        if m.end() != len(arg):
            self.bad(arg)
        sign = -1 if m.group(1) == "-" else 1
        if m.group(4):
            word = m.group(4).lower()
            return ("-" if sign < 0 else "") + ("inf" if word.startswith("inf") else "nan")
        far = _far_exponent(m.group(2), m.group(3) or "")
        if far:  # beyond long double's range: strtold's ERANGE, without a 10**314159 Fraction
            self.error(f"warning: {arg}: Numerical result out of range")
            if far > 0:
                return ("-" if sign < 0 else "") + "inf"
            return "-0" if sign < 0 else Fraction(0)
        value = Fraction(m.group(2) + (m.group(3) or ""))
        if value == 0 and sign < 0:
            return "-0"
        if value and (value >= _LDBL_OVERFLOW or value < _LDBL_MIN_NORMAL):  # strtold's ERANGE
            rounded = _long_double(value)
            if rounded >= _LDBL_OVERFLOW or value < _LDBL_MIN_NORMAL:
                self.error(f"warning: {arg}: Numerical result out of range")
            if rounded >= _LDBL_OVERFLOW:
                return ("-" if sign < 0 else "") + "inf"
            if value < _LDBL_MIN_NORMAL:
                tiny = Fraction(round(value * _LDBL_DENORMAL_SCALE)) / _LDBL_DENORMAL_SCALE
                return sign * tiny if tiny or sign > 0 else "-0"
        return _long_double(sign * value)

    # -- escapes --------------------------------------------------------------------------

    def tescape(self, s: str, i: int, in_b: bool) -> tuple[str, int, bool]:
        """bash's ``tescape`` for the escape whose letter is ``s[i]`` (``in_b``: in a ``%b``
        argument): (text, index after it, whether it was ``\\c``). A backslash that starts
        no escape is printed and the character after it is read again as usual."""
        if i >= len(s):
            return "\\", i, False
        c = s[i]
        i += 1
        if c in _SIMPLE_ESC:
            return _SIMPLE_ESC[c], i, False
        if c in "01234567":
            value = int(c)
            more = 3 if in_b and value == 0 else 2
            while more and i < len(s) and s[i] in "01234567":
                value = value * 8 + int(s[i])
                i += 1
                more -= 1
            return byte_char(value & 0xFF), i, False
        if c in "xuU":
            value, j = hex_run(s, i, {"x": 2, "u": 4, "U": 8}[c])
            if value is None:
                self.error(f"missing {'hex' if c == 'x' else 'unicode'} digit for \\{c}")
                return "\\", i - 1, False
            return (byte_char(value) if c == "x" else utf8_raw(value)), j, False
        if c in "'\"?" and not in_b:
            return c, i, False
        if c == "c" and in_b:
            return "", i, True
        return "\\", i - 1, False

    def bexpand(self, text: str) -> tuple[str, bool]:
        """A ``%b`` argument's escapes; (text, stopped by ``\\c``)."""
        if "\\" not in text:
            return text, False
        out: list[str] = []
        i, n = 0, len(text)
        while i < n:
            c = text[i]
            if c != "\\" or i + 1 >= n:
                out.append(c)
                i += 1
                continue
            piece, i, stop = self.tescape(text, i + 1, True)
            if stop:
                return "".join(out), True
            out.append(piece)
        return "".join(out), False

    def time(self, timefmt: str, arg: str | None) -> bytes:
        """``%(fmt)T``: glibc strftime of the argument (seconds; none or -1: now, -2: the
        shell's start, taken as now) in the exported ``TZ`` (unset: UTC). An empty format is
        ``%X``; a result of 128 bytes or more prints nothing, as bash's buffer does."""
        from sandbox.commands.date import DateError, Moment, resolve_zone, strftime
        secs = -1 if arg is None else self.to_int(arg)
        if secs in (-1, -2):
            secs = int(_time.time())
        zone, name = resolve_zone(self.ctx.env.get("TZ"))
        glibc = _GNU_ONLY_RE.sub(lambda g: "%" + g.group(0) if g.group(0) != "%%" else "%%",
                                 timefmt or "%X")
        try:
            moment = Moment(secs, 0, zone, name)
            text = strftime(glibc, moment)
        except (DateError, OverflowError, ValueError):
            try:
                text = strftime(glibc, Moment(0, 0, zone, name))
            except (DateError, OverflowError, ValueError):
                text = ""
        data = text.encode("utf-8", "surrogateescape")
        return b"" if len(data) >= 128 else data

    # -- formatting -----------------------------------------------------------------------

    def format_once(self, fmt: str, args: list[str], pos: int) -> tuple[bytes, int, bool]:
        """Format once; return (output, new arg position, whether a conversion was used)."""
        out = bytearray()
        i, n = 0, len(fmt)
        used = False

        def next_arg() -> str | None:
            nonlocal pos
            if pos < len(args):
                pos += 1
                return args[pos - 1]
            return None

        while i < n:
            c = fmt[i]
            if c == "\\":
                piece, i, _stop = self.tescape(fmt, i + 1, False)
                out += piece.encode("utf-8", "surrogateescape")
                continue
            if c != "%":
                j = i
                while j < n and fmt[j] not in "%\\":
                    j += 1
                out += fmt[i:j].encode("utf-8", "surrogateescape")
                i = j
                continue
            if fmt.startswith("%%", i):
                out += b"%"
                i += 2
                continue
            m = _SPEC_RE.match(fmt, i)
            assert m
            flags, width_s, prec_s, _len, conv = m.groups()
            if conv is None:
                self.error(f"`{fmt[i:]}': missing format character")
                self.status = 1
                self.stop = True
                return bytes(out), pos, used
            if conv == "(":
                close = fmt.find(")", m.end())
                if close < 0 or fmt[close + 1:close + 2] != "T":
                    bad = fmt[close + 1:close + 2] if close >= 0 else ""
                    self.error(f"warning: `{bad}': invalid time format specification")
                    out += b"%"
                    i += 1
                    continue
                timefmt = fmt[m.end():close]
                i = close + 2
                conv = "T"
            else:
                i = m.end()
            if conv not in "sbcdiuxXofFeEgGaAqT":
                self.error(f"`{conv}': invalid format character")
                self.status = 1
                self.stop = True
                return bytes(out), pos, used
            used = True
            width: int | None = None
            if width_s == "*":
                width = self.to_int(next_arg())
                if width < 0:
                    flags += "-"
                    width = -width
            elif width_s:
                width = int(width_s)
            prec: int | None = None
            if prec_s is not None:
                if prec_s == "*":
                    prec = self.to_int(next_arg())
                    if prec < 0:
                        prec = None
                else:
                    prec = int(prec_s or "0")
            # bash pads to any width up to INT_MAX; we build a padding up to 8x the string
            # limit (the output limit still cuts it) and stop at the string limit beyond that
            wanted = max(width or 0, prec or 0)
            if wanted > 8 * self.ctx.budget.limits.string_length:
                self.ctx.budget.check_string(wanted)
            arg = next_arg()
            if conv == "T":
                body = self.time(timefmt, arg)
                body = body[:prec] if prec is not None else body
            else:
                body = self.convert(conv, flags, prec, arg)
            if self.stop and conv == "b":
                out += body
                return bytes(out), pos, used
            if width is not None and len(body) < width:
                pad = width - len(body)
                if "-" in flags:
                    body = body + b" " * pad
                elif "0" in flags and conv in "diuxXofFeEgGaA" and not (
                    conv in "diuxXo" and prec is not None
                ) and not body.lstrip(b"+- ").startswith((b"inf", b"nan", b"INF", b"NAN")):
                    k = 0
                    while k < len(body) and body[k:k + 1] in (b"+", b"-", b" "):
                        k += 1
                    if body[k:k + 2].lower() == b"0x":
                        k += 2
                    body = body[:k] + b"0" * pad + body[k:]
                else:
                    body = b" " * pad + body
            out += body
        return bytes(out), pos, used

    def convert(self, conv: str, flags: str, prec: int | None, arg: str | None) -> bytes:
        if conv == "s":
            data = (arg or "").encode("utf-8", "surrogateescape")
            return data[:prec] if prec is not None else data
        if conv == "b":
            text, stopped = self.bexpand(arg or "")
            if stopped:
                self.stop = True
            data = text.encode("utf-8", "surrogateescape")
            return data[:prec] if prec is not None else data
        if conv == "c":
            if not arg:
                return b"\x00"
            return arg.encode("utf-8", "surrogateescape")[:1]  # bash prints the first byte
        if conv == "q":
            data = quote(arg or "").encode("utf-8", "surrogateescape")
            return data[:prec] if prec is not None else data
        if conv in "di":
            return _c_int(self.to_int(arg), flags, prec, "d").encode()
        if conv in "uxXo":
            v = self.to_int(arg, unsigned=True)
            return _c_int(v, flags, prec, conv).encode()
        value = self.to_float(arg)
        return _c_float(value, flags, prec, conv).encode()


def _c_int(v: int, flags: str, prec: int | None, conv: str) -> str:
    neg = v < 0
    a = -v if neg else v
    digits = {"d": str, "u": str, "x": lambda x: format(x, "x"), "X": lambda x: format(x, "X"),
              "o": lambda x: format(x, "o")}[conv](a)
    if prec is not None:
        digits = "" if (prec == 0 and a == 0) else digits.rjust(prec, "0")
    if "#" in flags:
        if conv == "o" and not digits.startswith("0"):
            digits = "0" + digits
        elif conv in "xX" and a != 0:
            digits = ("0x" if conv == "x" else "0X") + digits
    sign = "-" if neg else ("+" if "+" in flags and conv in "di" else (" " if " " in flags and conv in "di" else ""))
    return sign + digits


#: x87 long double: values from 2**16384 overflow; below 2**-16382 are denormal, in steps of
#: 2**-16445.
_LDBL_OVERFLOW = Fraction(2) ** 16384
_LDBL_MIN_NORMAL = Fraction(1, 2 ** 16382)
_LDBL_DENORMAL_SCALE = 2 ** 16445


def _long_double(v: Fraction) -> Fraction:
    """Round an exact value to the nearest x87 80-bit long double (64-bit mantissa)."""
    if v == 0:
        return v
    sign = -1 if v < 0 else 1
    a = abs(v)
    e = a.numerator.bit_length() - a.denominator.bit_length() - 64
    while True:
        scaled = a / (Fraction(2) ** e)
        if scaled >= (1 << 64):
            e += 1
        elif scaled < (1 << 63):
            e -= 1
        else:
            break
    m = round(scaled)  # half to even
    return sign * Fraction(m) * (Fraction(2) ** e)


def _far_exponent(mantissa: str, exponent: str) -> int:
    """1 if ``mantissa``e``exponent`` is far above long double's range (about 1.19e4932), -1 if
    far below its smallest denormal (about 3.6e-4951), else 0 (the exact path decides)."""
    if not exponent:
        return 0
    whole, _, frac = mantissa.partition(".")
    whole = whole.lstrip("0")
    if whole:
        place = len(whole)
    else:
        rest = frac.lstrip("0")
        if not rest:
            return 0
        place = -(len(frac) - len(rest))
    magnitude = int(exponent[1:]) + place
    return 1 if magnitude > 4940 else -1 if magnitude < -4960 else 0


def _hex_float(v: Fraction, prec: int | None, point: bool, upper: bool) -> str:
    """glibc's ``%La`` of an x87 long double: a leading hex digit holding the top 4 of the
    64 mantissa bits (0 for denormals, whose exponent stays -16385), then up to 15 digits."""
    if v == 0:
        lead, frac, exp = 0, 0, 0
    else:
        exp = v.numerator.bit_length() - v.denominator.bit_length() - 3
        while v / Fraction(2) ** exp >= 16:
            exp += 1
        while v / Fraction(2) ** exp < 8:
            exp -= 1
        if exp < -16385:
            exp = -16385
        x = v / Fraction(2) ** exp
        lead = int(x)
        frac = int((x - lead) * 16 ** 15)
    digits = format(frac, "015x")
    if prec is None:
        digits = digits.rstrip("0") if v != 0 else ""
    elif prec < 15:
        scaled = Fraction(lead * 16 ** 15 + frac, 16 ** (15 - prec))
        whole = round(scaled)  # half to even
        lead, rest = divmod(whole, 16 ** prec)
        if lead >= 16:
            lead, exp = lead // 16, exp + 4
        digits = format(rest, f"0{prec}x") if prec else ""
    else:
        digits = digits + "0" * (prec - 15)
    text = f"0x{lead:x}" + ("." if digits or point else "") + digits + f"p{exp:+d}"
    return text.upper() if upper else text


def _to_decimal(v: Fraction) -> Decimal:
    """Exact decimal value of a binary fraction."""
    num, den = v.numerator, v.denominator
    k = den.bit_length() - 1
    if den != 1 << k:  # not a binary fraction (should not happen): approximate finely
        with localcontext() as c:
            c.prec = 200
            return Decimal(num) / Decimal(den)
    with localcontext() as c:
        c.prec = 100000
        return Decimal(num * 5 ** k).scaleb(-k)


def _fmt_f(d: Decimal, prec: int) -> str:
    with localcontext() as c:
        c.prec = 100000
        q = d.quantize(Decimal(1).scaleb(-prec), rounding=ROUND_HALF_EVEN)
    return format(q.copy_abs(), "f")


def _fmt_e(d: Decimal, prec: int, upper: bool) -> tuple[str, int]:
    a = d.copy_abs()
    if a == 0:
        mant = "0" + ("." + "0" * prec if prec else "")
        return mant + ("E+00" if upper else "e+00"), 0
    exp = a.adjusted()
    with localcontext() as c:
        c.prec = 100000
        q = a.scaleb(-exp).quantize(Decimal(1).scaleb(-prec), rounding=ROUND_HALF_EVEN)
        if q >= 10:
            exp += 1
            q = a.scaleb(-exp).quantize(Decimal(1).scaleb(-prec), rounding=ROUND_HALF_EVEN)
    mant = format(q, "f")
    es = f"{'-' if exp < 0 else '+'}{abs(exp):02d}"
    return mant + ("E" if upper else "e") + es, exp


def _c_float(value: Fraction | str, flags: str, prec: int | None, conv: str) -> str:
    upper = conv in "FEGA"
    neg_zero = value == "-0"
    if neg_zero:
        value = Fraction(0)
    if isinstance(value, str):
        neg = value.startswith("-")
        body = value.lstrip("-")
        body = body.upper() if upper else body
        sign = "-" if neg else ("+" if "+" in flags else (" " if " " in flags else ""))
        return sign + body
    neg = value < 0 or neg_zero
    sign = "-" if neg else ("+" if "+" in flags else (" " if " " in flags else ""))
    if conv in "aA":
        return sign + _hex_float(abs(value), prec, "#" in flags, upper)
    d = _to_decimal(abs(value))
    p = 6 if prec is None else prec
    if conv in "fF":
        s = _fmt_f(d, p)
        if "#" in flags and p == 0:
            s += "."
    elif conv in "eE":
        s, _ = _fmt_e(d, p, upper)
        if "#" in flags and p == 0:
            s = s.replace("e", ".e", 1).replace("E", ".E", 1)
    else:
        P = p if p != 0 else 1
        _, x = _fmt_e(d, P - 1, upper)
        if P > x >= -4:
            s = _fmt_f(d, P - 1 - x)
            if "#" not in flags and "." in s:
                s = s.rstrip("0").rstrip(".")
            elif "#" in flags and "." not in s:
                s += "."
        else:
            s, _ = _fmt_e(d, P - 1, upper)
            mant, e_char, exp = s.partition("E" if upper else "e")
            if "#" not in flags:
                if "." in mant:
                    mant = mant.rstrip("0").rstrip(".")
            elif "." not in mant:
                mant += "."
            s = mant + e_char + exp
    sign = "-" if neg else ("+" if "+" in flags else (" " if " " in flags else ""))
    return sign + s


_BACKSLASH = frozenset(" \t\n!\"$&'()*,;<>?[\\]^`{|}")


def quote(text: str) -> str:
    """Quote ``text`` for reuse as shell input, exactly as bash's ``printf %q`` does."""
    if text == "":
        return "''"
    if any((ord(c) < 32 or ord(c) == 127 or 0xDC80 <= ord(c) <= 0xDCFF or
            (ord(c) > 127 and not c.isprintable())) for c in text):
        out = ["$'"]
        for c in text:
            o = ord(c)
            esc = {"\a": "\\a", "\b": "\\b", "\x1b": "\\E", "\f": "\\f", "\n": "\\n",
                   "\r": "\\r", "\t": "\\t", "\v": "\\v", "\\": "\\\\", "'": "\\'"}.get(c)
            if esc:
                out.append(esc)
            elif 0xDC80 <= o <= 0xDCFF:
                out.append("\\%03o" % (o - 0xDC00))
            elif o < 32 or o == 127 or (o > 127 and not c.isprintable()):
                for b in c.encode("utf-8", "surrogateescape"):
                    out.append("\\%03o" % b)
            else:
                out.append(c)
        out.append("'")
        return "".join(out)
    out = []
    for k, c in enumerate(text):
        if c in _BACKSLASH or (k == 0 and c in "#~"):
            out.append("\\")
        out.append(c)
    return "".join(out)


def run(ctx: CommandContext) -> int:
    """Format and print the arguments."""
    args = ctx.args
    end_of_options = bool(args) and args[0] == "--"
    if end_of_options:
        args = args[1:]
    if not args:
        ctx.stderr.write(b"printf: usage: printf [-v var] format [arguments]\n")
        return 2
    if not end_of_options and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "-v":
            error(ctx, "-v: not supported here; use var=$(printf ...) instead")
            return 2
        error(ctx, f"{args[0][:2]}: invalid option")
        ctx.stderr.write(b"printf: usage: printf [-v var] format [arguments]\n")
        return 2
    fmt, rest = args[0], args[1:]
    p = _Printer(ctx)
    pos = 0
    while True:
        ctx.budget.check_time()
        data, pos, used = p.format_once(fmt, rest, pos)
        ctx.stdout.write(data)
        if p.stop or not used or pos >= len(rest):
            break
    return p.status
