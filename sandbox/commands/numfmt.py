"""``numfmt``: convert numbers to and from human-readable strings (GNU coreutils 9.1).

``--from=none|auto|si|iec|iec-i``, ``--to=none|si|iec|iec-i``, ``--from-unit``, ``--to-unit``,
``--suffix``, ``--padding``, ``--round``, ``--format`` (``%f`` with ``'``, ``0``, ``-``, width
and precision, text around it), ``--field``, ``-d``, ``--header[=N]``, ``--invalid``, ``-z``,
``--grouping`` (no effect: the C.UTF-8 locale has no thousands separator) and ``--debug``;
numbers from the operands or from standard input's lines.

GNU computes in x87 80-bit ``long double``; so does this module: every intermediate result is
rounded to a 64-bit significand (round half to even) exactly as the FPU rounds it, so rounding
and printing (``%.*Lf`` of the exact binary value) match GNU byte for byte.

A number followed by blanks and then the end of its field (``-d, '1 '`` with ``--from``) makes
GNU read past the field's NUL into whatever memory follows; that memory is modelled (the rest
of the line, stale bytes of earlier longer lines in getline's buffer, the next operand), except
after the last operand, where GNU reads the environment and this module reads nothing.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import BinaryIO, Callable, Iterator

from sandbox.commands._numbers import CountError, parse_count
from sandbox.commands._quoting import quote
from sandbox.commands.base import CommandContext
from sandbox.commands.cut import ListError, parse_list
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    "d:z",
    {
        "from": (REQUIRED, "from"),
        "from-unit": (REQUIRED, "from-unit"),
        "to": (REQUIRED, "to"),
        "to-unit": (REQUIRED, "to-unit"),
        "round": (REQUIRED, "round"),
        "padding": (REQUIRED, "padding"),
        "suffix": (REQUIRED, "suffix"),
        "grouping": (NO_ARG, "grouping"),
        "delimiter": (REQUIRED, "d"),
        "field": (REQUIRED, "field"),
        "debug": (NO_ARG, "debug"),
        "-debug": (NO_ARG, "-debug"),
        "header": (OPTIONAL, "header"),
        "format": (REQUIRED, "format"),
        "invalid": (REQUIRED, "invalid"),
        "zero-terminated": (NO_ARG, "z"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

VERSION = """numfmt (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Assaf Gordon."""

USAGE = """Usage: numfmt [OPTION]... [NUMBER]...
Reformat NUMBER(s), or the numbers from standard input if none are specified.

Mandatory arguments to long options are mandatory for short options too.
      --debug          print warnings about invalid input
  -d, --delimiter=X    use X instead of whitespace for field delimiter
      --field=FIELDS   replace the numbers in these input fields (default=1);
                         see FIELDS below
      --format=FORMAT  use printf style floating-point FORMAT;
                         see FORMAT below for details
      --from=UNIT      auto-scale input numbers to UNITs; default is 'none';
                         see UNIT below
      --from-unit=N    specify the input unit size (instead of the default 1)
      --grouping       use locale-defined grouping of digits, e.g. 1,000,000
                         (which means it has no effect in the C/POSIX locale)
      --header[=N]     print (without converting) the first N header lines;
                         N defaults to 1 if not specified
      --invalid=MODE   failure mode for invalid numbers: MODE can be:
                         abort (default), fail, warn, ignore
      --padding=N      pad the output to N characters; positive N will
                         right-align; negative N will left-align;
                         padding is ignored if the output is wider than N;
                         the default is to automatically pad if a whitespace
                         is found
      --round=METHOD   use METHOD for rounding when scaling; METHOD can be:
                         up, down, from-zero (default), towards-zero, nearest
      --suffix=SUFFIX  add SUFFIX to output numbers, and accept optional
                         SUFFIX in input numbers
      --to=UNIT        auto-scale output numbers to UNITs; see UNIT below
      --to-unit=N      the output unit size (instead of the default 1)
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

UNIT options:
  none       no auto-scaling is done; suffixes will trigger an error
  auto       accept optional single/two letter suffix:
               1K = 1000,
               1Ki = 1024,
               1M = 1000000,
               1Mi = 1048576,
  si         accept optional single letter suffix:
               1K = 1000,
               1M = 1000000,
               ...
  iec        accept optional single letter suffix:
               1K = 1024,
               1M = 1048576,
               ...
  iec-i      accept optional two-letter suffix:
               1Ki = 1024,
               1Mi = 1048576,
               ...

FIELDS supports cut(1) style field ranges:
  N    N'th field, counted from 1
  N-   from N'th field, to end of line
  N-M  from N'th to M'th field (inclusive)
  -M   from first to M'th field (inclusive)
  -    all fields
Multiple fields/ranges can be separated with commas

FORMAT must be suitable for printing one floating-point argument '%f'.
Optional quote (%'f) will enable --grouping (if supported by current locale).
Optional width value (%10f) will pad output. Optional zero (%010f) width
will zero pad the number. Optional negative values (%-10f) will left align.
Optional precision (%.1f) will override the input determined precision.

Exit status is 0 if all input numbers were successfully converted.
By default, numfmt will stop at the first conversion error with exit status 2.
With --invalid='fail' a warning is printed for each conversion error
and the exit status is 2.  With --invalid='warn' each conversion error is
diagnosed, but the exit status is 0.  With --invalid='ignore' conversion
errors are not diagnosed and the exit status is 0.

Examples:
  $ numfmt --to=si 1000
            -> "1.0K"
  $ numfmt --to=iec 2048
           -> "2.0K"
  $ numfmt --to=iec-i 4096
           -> "4.0Ki"
  $ echo 1K | numfmt --from=si
           -> "1000"
  $ echo 1K | numfmt --from=iec
           -> "1024"
  $ df -B1 | numfmt --header --field 2-4 --to=si
  $ ls -l  | numfmt --header --field 5 --to=iec
  $ ls -lh | numfmt --header --field 5 --from=iec --padding=10
  $ ls -lh | numfmt --header --field 5 --from=iec --format %10f

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Report any translation bugs to <https://translationproject.org/team/>
Full documentation <https://www.gnu.org/software/coreutils/numfmt>
or available locally via: info '(coreutils) numfmt invocation'
"""

# -- x87 long double arithmetic ----------------------------------------------------------------

INF = math.inf
_MANT = 64
_MIN_EXP = -16382 - 63  # exponent of the smallest subnormal's unit
LDBL_DIG = 18
MAX_ACCEPTABLE_DIGITS = 27
INTMAX_MAX = (1 << 63) - 1

#: A long double here: a finite value is an exact ``Fraction``; an infinity is ±math.inf.


def ld(x: Fraction | int | float) -> Fraction | float:
    """``x`` rounded to the nearest 80-bit long double (ties to even); ±inf on overflow."""
    if isinstance(x, float):
        return x
    if not isinstance(x, Fraction):
        x = Fraction(x)
    n, d = x.numerator, x.denominator
    if n == 0:
        return x
    if (n if n > 0 else -n).bit_length() <= _MANT and not d & (d - 1) and d.bit_length() < 16382:
        return x  # already a long double (a 64-bit significand, a power-of-two scale)
    neg = n < 0
    n = -n if neg else n
    e = n.bit_length() - d.bit_length() - _MANT
    while True:
        e = max(e, _MIN_EXP)
        if e >= 0:
            q, r = divmod(n, d << e)
            den = d << e
        else:
            q, r = divmod(n << -e, d)
            den = d
        if q >= 1 << _MANT:
            e += 1
            continue
        if q < 1 << (_MANT - 1) and e > _MIN_EXP:
            e -= 1
            continue
        break
    if 2 * r > den or (2 * r == den and q & 1):
        q += 1
        if q == 1 << _MANT:
            q >>= 1
            e += 1
    if e + _MANT > 16384:
        return -INF if neg else INF
    value = Fraction(q << e) if e >= 0 else Fraction(q, 1 << -e)
    return -value if neg else value


def _mul(a: Fraction | float, b: Fraction | float | int) -> Fraction | float:
    """``a * b`` in long double (an infinity times zero is NaN, as on the FPU)."""
    if isinstance(a, float) or isinstance(b, float):
        if a == 0 or b == 0 or math.isnan(a) or math.isnan(b):
            return math.nan
        return -INF if (a < 0) != (b < 0) else INF
    return ld(a * b)


def _div(a: Fraction | float, b: Fraction | float | int) -> Fraction | float:
    """``a / b`` in long double (finite / infinity is 0)."""
    if isinstance(b, float):
        return Fraction(0) if not isinstance(a, float) else math.nan
    if isinstance(a, float):
        return a if b > 0 else -a
    return ld(a / b)


def _add(a: Fraction | float, b: Fraction | float) -> Fraction | float:
    """``a + b`` in long double."""
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, float) and isinstance(b, float):
            return a + b
        return a if isinstance(a, float) else b
    return ld(a + b)


def powerld(base: int, x: int) -> Fraction | float:
    """GNU's ``powerld``: ``base**x`` by repeated long double multiplication."""
    if x == 0:
        return Fraction(1)
    result: Fraction | float = Fraction(base)
    for _ in range(x - 1):
        result = _mul(result, base)
        if isinstance(result, float):
            return result
    return result


def expld(val: Fraction | float, base: int) -> tuple[Fraction | float, int]:
    """GNU's ``expld``: (val scaled below ``base``, the power of ``base`` taken out)."""
    power = 0
    if not isinstance(val, float):
        while abs(val) >= base:
            power += 1
            val = ld(val / base)
    return val, power


def _trunc(v: Fraction | float) -> int:
    """C's conversion of a long double to intmax_t (toward zero)."""
    if isinstance(v, float):
        return -(1 << 63)  # x86's "integer indefinite"
    return math.trunc(v)


def _ceil(v: Fraction | float) -> int:
    i = _trunc(v)
    return i + 1 if i < v else i


def simple_round(val: Fraction | float, kind: str) -> Fraction | float:
    """GNU's ``simple_round``: round a long double to an integer by ``kind``."""
    mul = _trunc(_div(val, INTMAX_MAX))
    big = ld(Fraction(INTMAX_MAX) * mul)
    val = ld(val - big)
    if kind == "up":
        r = _ceil(val)
    elif kind == "down":
        r = -_ceil(-val)
    elif kind == "from-zero":
        r = -_ceil(-val) if val < 0 else _ceil(val)
    elif kind == "towards-zero":
        r = _trunc(val)
    else:
        r = _trunc(ld(val - Fraction(1, 2))) if val < 0 else _trunc(ld(val + Fraction(1, 2)))
    return ld(big + r)


def _round_half_even(v: Fraction) -> int:
    q, r = divmod(v.numerator, v.denominator)
    if 2 * r > v.denominator or (2 * r == v.denominator and q & 1):
        q += 1
    return q


def format_f(val: Fraction | float, prec: int, zero_width: int = 0) -> str:
    """C ``printf("%0{zero_width}.{prec}Lf", val)`` of an exact long double."""
    if isinstance(val, float):
        body = "-nan" if math.isnan(val) else "inf" if val > 0 else "-inf"
        return body.rjust(zero_width) if zero_width else body
    neg = val < 0
    n = _round_half_even(abs(val) * 10 ** prec)
    digits = str(n)
    if prec:
        digits = digits.rjust(prec + 1, "0")
        digits = digits[:-prec] + "." + digits[-prec:]
    sign = "-" if neg else ""
    if zero_width and len(sign) + len(digits) < zero_width:
        digits = "0" * (zero_width - len(sign) - len(digits)) + digits
    return sign + digits


def format_g(val: Fraction | float, prec: int = 6) -> str:
    """C ``printf("%.{prec}Lg", val)``."""
    if isinstance(val, float):
        return "-nan" if math.isnan(val) else "inf" if val > 0 else "-inf"
    if val == 0:
        return "0"
    neg = val < 0
    v = abs(val)
    e = len(str(v.numerator)) - len(str(v.denominator))
    while Fraction(10) ** (e + 1) <= v:
        e += 1
    while Fraction(10) ** e > v:
        e -= 1
    n = _round_half_even(v / Fraction(10) ** (e - prec + 1))
    if n >= 10 ** prec:
        e += 1
        n = _round_half_even(v / Fraction(10) ** (e - prec + 1))
    digits = str(n)
    if e < -4 or e >= prec:
        mant = digits[0] + ("." + digits[1:]).rstrip("0").rstrip(".")
        text = f"{mant}e{'-' if e < 0 else '+'}{abs(e):02d}"
    elif e >= 0:
        whole, frac = digits[: e + 1], digits[e + 1:].rstrip("0")
        text = whole + ("." + frac if frac else "")
    else:
        frac = ("0" * (-e - 1) + digits).rstrip("0")
        text = "0" + ("." + frac if frac else "")
    return ("-" if neg else "") + text


# -- parsing numbers -----------------------------------------------------------------------

OK, PRECISION_LOSS, OVERFLOW, INVALID, FORBIDDEN, BAD_SUFFIX, MISSING_I = range(7)
_VALID_SUFFIXES = "KMGTPEZY"
_MESSAGES = {
    OVERFLOW: "value too large to be converted: {}",
    INVALID: "invalid number: {}",
    FORBIDDEN: "rejecting suffix in input: {} (consider using --from)",
    BAD_SUFFIX: "invalid suffix in input: {}",
    MISSING_I: "missing 'i' suffix in input: {} (e.g Ki/Mi/Gi)",
}


def _strtod_int(s: str, pos: int) -> tuple[int, Fraction | float, bool, int]:
    """GNU's ``simple_strtod_int`` at ``s[pos:]``: (status, value, negative, end)."""
    negative = s[pos:pos + 1] == "-"
    if negative:
        pos += 1
    val: Fraction | float = Fraction(0)
    digits = 0
    found = False
    status = OK
    end = pos
    while end < len(s) and "0" <= s[end] <= "9":
        if not val and s[end] == "0":  # leading zeros change nothing (fast on hostile input)
            end = len(s) - len(s[end:].lstrip("0"))
            found = True
            continue
        digit = ord(s[end]) - 48
        found = True
        if val or digit:
            digits += 1
        if digits > LDBL_DIG:
            status = PRECISION_LOSS
        if digits > MAX_ACCEPTABLE_DIGITS:
            return OVERFLOW, val, negative, end
        if digits <= LDBL_DIG:  # below 10**18 < 2**63 every step is exact
            val = Fraction(val.numerator * 10 + digit)
        else:
            val = ld(ld(val * 10) + digit)
        end += 1
    if not found and s[end:end + 1] != ".":
        return INVALID, val, negative, end
    if negative:
        val = -val
    return status, val, negative, end


def _strtod_float(s: str) -> tuple[int, Fraction | float, int, int]:
    """GNU's ``simple_strtod_float``: (status, value, precision, end)."""
    status, value, negative, end = _strtod_int(s, 0)
    if status not in (OK, PRECISION_LOSS):
        return status, value, 0, end
    precision = 0
    if s[end:end + 1] == ".":
        end += 1
        e2, frac, neg_frac, end2 = _strtod_int(s, end)
        if e2 not in (OK, PRECISION_LOSS):
            return e2, value, 0, end2
        if e2 == PRECISION_LOSS:
            status = e2
        if neg_frac:
            return INVALID, value, 0, end2
        exponent = end2 - end
        frac = _div(frac, powerld(10, exponent))
        value = _add(value, -frac) if negative else _add(value, frac)
        precision = exponent
        end = end2
    return status, value, precision, end


def strtod_human(s: str, scale: str, beyond: "Callable[[], str]" = str) -> tuple[int, Fraction | float, int, str]:
    """GNU's ``simple_strtod_human``: (status, value, precision, text left unread).

    A number followed by blanks up to the end of the string meets the terminating NUL, which
    GNU's suffix test accepts as a suffix of power 0 and steps over: with scaling it goes on
    reading ``beyond`` (what follows that NUL in GNU's buffer: the rest of the line after the
    field's delimiter, or the next operand).
    """
    base = 1024 if scale in ("iec", "iec-i") else 1000
    power = 0
    status, value, precision, end = _strtod_float(s)
    if status not in (OK, PRECISION_LOSS):
        return status, value, precision, ""
    rest = s[end:]
    if rest:
        rest = _skip_blanks(s[end:])
        ch = rest[:1]
        if ch and ch not in _VALID_SUFFIXES:
            return BAD_SUFFIX, value, precision, rest
        if scale == "none":
            return FORBIDDEN, value, precision, rest
        if ch:
            power = _VALID_SUFFIXES.index(ch) + 1
            rest = rest[1:]
        else:
            rest = beyond()  # stepped over the NUL
        if scale == "auto" and rest[:1] == "i":
            base = 1024
            rest = rest[1:]
        precision = 0
    if scale == "iec-i":
        if rest[:1] == "i":
            rest = rest[1:]
        else:
            return MISSING_I, value, precision, rest
    value = _mul(value, powerld(base, power)) if power else value
    return status, value, precision, rest


def _skip_blanks(text: str) -> str:
    """C's ``while (isblank (*p)) p++``."""
    i = 0
    while i < len(text) and text[i] in " \t":
        i += 1
    return text[i:]


# -- options -----------------------------------------------------------------------------------

_FROM = ("none", "auto", "si", "iec", "iec-i")
_TO = ("none", "si", "iec", "iec-i")
_ROUND = ("up", "down", "from-zero", "towards-zero", "nearest")
_INVALID = ("abort", "fail", "warn", "ignore")


class _Exit(Exception):
    """Stop with ``status`` (the message is already written)."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


def _argmatch(ctx: CommandContext, option: str, value: str, choices: tuple[str, ...]) -> str:
    if value in choices:
        return value
    matches = [c for c in choices if c.startswith(value)]
    if len(matches) == 1:
        return matches[0]
    kind = "ambiguous" if matches else "invalid"
    ctx.error(f"{kind} argument {quote(value)} for {quote(option)}")
    listing = "".join(f"\n  - {quote(c)}" for c in choices)
    ctx.stderr.write(f"Valid arguments are:{listing}\n".encode())
    ctx.stderr.write(b"Try 'numfmt --help' for more information.\n")
    raise _Exit(1)


def unit_size(text: str) -> int | None:
    """GNU's ``unit_to_umax``: K=1000, Ki=1024; None when invalid."""
    suffixes = "KMGTPEZY"
    s = text
    if s and not s[-1].isdigit():
        if s[-1] == "i" and len(s) >= 2 and not s[-2].isdigit():
            s = s[:-1]
        else:
            s += "B"
            suffixes = "KMGTPEZY0"
    try:
        n = parse_count(s, suffixes)
    except CountError:
        return None
    return n or None


_LONG_RE = re.compile(r"[ \t\n\v\f\r]*[+-]?[0-9]+\Z")


def _strtol(text: str) -> int | None:
    """xstrtol(base 10, no suffixes) into a long: None when invalid or out of range."""
    if not _LONG_RE.match(text):
        return None
    n = int(text.strip(" \t\n\v\f\r"))
    return n if -(1 << 63) <= n < (1 << 63) else None


def _c_strtol(s: str, i: int) -> tuple[int, int, bool]:
    """C ``strtol(s + i, &end, 10)``: (value, end index, overflowed)."""
    j = i
    while j < len(s) and s[j] in " \t\n\v\f\r":
        j += 1
    k = j
    if k < len(s) and s[k] in "+-":
        k += 1
    m = k
    while m < len(s) and "0" <= s[m] <= "9":
        m += 1
    if m == k:
        return 0, i, False
    n = int(s[j:m]) if m - k < 400 else (1 << 1400) * (-1 if s[j] == "-" else 1)
    if n >= 1 << 63:
        return (1 << 63) - 1, m, True
    if n < -(1 << 63):
        return -(1 << 63), m, True
    return n, m, False


class Numfmt:
    """The settings and the conversion of one numfmt run."""

    def __init__(self, ctx: CommandContext):
        self.ctx = ctx
        self.scale_from = "none"
        self.scale_to = "none"
        self.round = "from-zero"
        self.invalid = "abort"
        self.suffix: str | None = None
        self.from_unit = 1
        self.to_unit = 1
        self.grouping = False
        self.padding_width = 0
        self.left_align = False
        self.zero_padding_width = 0
        self.user_precision = -1
        self.format: str | None = None
        self.prefix = ""
        self.fmt_suffix = ""
        self.auto_padding = False
        self.delimiter: str | None = None
        self.line_delim = "\n"
        self.header = 0
        self.debug = False
        self.fields: list[tuple[int, int]] | None = None
        self.conv_exit = 2
        self.out: list[str] = []

    # messages
    def fail(self, message: str, status: int = 1, usage: bool = False) -> None:
        """Write what is pending, then GNU's fatal message; stop with ``status``."""
        self.flush()
        if usage:
            self.ctx.usage_error(message)
        else:
            self.ctx.error(message)
        raise _Exit(status)

    def conv_error(self, message: str) -> None:
        """GNU's ``error (conv_exit_code, ...)``: fatal (status 2) unless --invalid says not."""
        if self.invalid == "ignore":
            return
        self.flush()
        self.ctx.error(message)
        if self.conv_exit:
            raise _Exit(self.conv_exit)

    def write(self, text: str) -> None:
        """Queue output text."""
        self.out.append(text)
        if len(self.out) > 256:
            self.flush()

    def flush(self) -> None:
        """Write queued output to stdout."""
        if self.out:
            self.ctx.stdout.write("".join(self.out).encode("utf-8", "surrogateescape"))
            self.out = []

    # --format
    def parse_format(self, fmt: str) -> None:
        """GNU's ``parse_format_string`` (with its raw prefix and suffix)."""
        i = 0
        prefix_len = 0
        while not (fmt[i:i + 1] == "%" and fmt[i + 1:i + 2] != "%"):
            if i >= len(fmt):
                self.fail(f"format {quote(fmt)} has no % directive")
            prefix_len += 1
            i += 2 if fmt[i] == "%" else 1
        i += 1
        zero_padding = False
        while True:
            skip = len(fmt[i:]) - len(fmt[i:].lstrip(" "))
            i += skip
            if fmt[i:i + 1] == "'":
                self.grouping = True
                i += 1
            elif fmt[i:i + 1] == "0":
                zero_padding = True
                i += 1
            elif not skip:
                break
        pad, end, overflow = _c_strtol(fmt, i)
        if overflow:
            self.fail(f"invalid format {quote(fmt)} (width overflow)")
        if end != i and pad != 0:
            if self.debug and self.padding_width and not (zero_padding and pad > 0):
                self.ctx.error("--format padding overriding --padding")
            if pad < 0:
                self.left_align, self.padding_width = True, -pad
            elif zero_padding:
                self.zero_padding_width = pad
            else:
                self.padding_width = pad
        i = end
        if i >= len(fmt):
            self.fail(f"format {quote(fmt)} ends in %")
        if fmt[i] == ".":
            i += 1
            prec, end, overflow = _c_strtol(fmt, i)
            if overflow or prec < 0 or fmt[i:i + 1] in (" ", "\t", "+"):
                self.fail(f"invalid precision in format {quote(fmt)}")
            self.user_precision = prec
            i = end
        if fmt[i:i + 1] != "f":
            self.fail(f"invalid format {quote(fmt)}, directive must be %[0]['][-][N][.][N]f")
        i += 1
        suffix_pos = i
        while i < len(fmt):
            if fmt[i] == "%" and fmt[i + 1:i + 2] != "%":
                self.fail(f"format {quote(fmt)} has too many % directives")
            i += 2 if fmt[i] == "%" else 1
        self.prefix = _byte_prefix(fmt, prefix_len)
        self.fmt_suffix = fmt[suffix_pos:]

    # conversion
    def human(self, val: Fraction | float, precision: int) -> str | None:
        """GNU's ``double_to_human``; None after 'failed to prepare' (fatal)."""
        zw = self.zero_padding_width
        if zw >= 127 or max(precision, self.user_precision) >= 127:
            # GNU's 128-byte buffer cannot hold it (and it is never built here).
            self.fail(f"failed to prepare value '{format_f(val, 6)}' for printing")
        if self.scale_to == "none":
            val = _mul(val, powerld(10, precision))
            val = simple_round(val, self.round)
            val = _div(val, powerld(10, precision))
            text = format_f(val, precision, zw)
            if len(text) >= 128:
                self.fail(f"failed to prepare value '{format_f(val, 6)}' for printing")
            return text
        base = 1024 if self.scale_to in ("iec", "iec-i") else 1000
        val, power = expld(val, base)
        if self.user_precision != -1:
            adjust = min(power * 3, self.user_precision)
        elif abs(val) < 10:
            adjust = 1
        else:
            adjust = 0
        scale = powerld(10, adjust)
        val = _mul(val, scale)
        val = simple_round(val, self.round)
        val = _div(val, scale)
        if abs(val) >= base:
            val = _div(val, base)
            power += 1
        show_point = 1 if (val != 0 and abs(val) < 10 and power > 0) else 0
        prec = show_point if self.user_precision == -1 else self.user_precision
        text = format_f(val, prec, zw) + (" KMGTPEZY"[power].strip() if power <= 8 else "(error)")
        if len(text) >= 127:
            self.fail(f"failed to prepare value '{format_f(val, 6)}' for printing")
        if self.scale_to == "iec-i" and power > 0:
            text += "i"
        return text

    def prepare(self, val: Fraction | float, precision: int) -> str | None:
        """GNU's ``prepare_padded_number``: the padded text, or None (invalid)."""
        used = precision if self.user_precision == -1 else self.user_precision
        _, x = expld(val, 10)
        if self.scale_to == "none" and x + used > LDBL_DIG:
            if used:
                self.conv_error(f"value/precision too large to be printed: '{format_g(val)}/{used}'"
                                " (consider using --to)")
            else:
                self.conv_error(f"value too large to be printed: '{format_g(val)}' (consider using --to)")
            return None
        if x > MAX_ACCEPTABLE_DIGITS - 1:
            self.conv_error(f"value too large to be printed: '{format_g(val)}' (cannot handle values > 999Y)")
            return None
        text = self.human(val, used) or ""
        if self.suffix:
            text += self.suffix
        width = _blen(text)
        if self.padding_width and width < self.padding_width:
            fill = " " * (self.padding_width - width)
            text = text + fill if self.left_align else fill + text
        return text

    def field(self, text: str, number: int, beyond: Callable[[], str] = str) -> bool:
        """Convert and write one field (or write it unchanged); False if it was invalid."""
        if not self.included(number):
            self.write(text)
            return True
        if self.suffix and _blen(text) > _blen(self.suffix) and text.endswith(self.suffix):
            text = text[: len(text) - len(self.suffix)]
        p = text.lstrip(" \t")
        if self.auto_padding:
            self.padding_width = _blen(text) if (len(p) < len(text) or number > 1) else 0
        status, val, precision, rest = strtod_human(p, self.scale_from, beyond)
        valid = True
        if status not in (OK, PRECISION_LOSS):
            self.conv_error(_MESSAGES[status].format(quote(p)))
            valid = False
        elif rest:
            self.conv_error(f"invalid suffix in input {quote(p)}: {quote(rest)}")
            valid = False
        if valid and status == PRECISION_LOSS and self.debug:
            self.ctx.error(f"large input value {quote(p)}: possible precision loss")
        if valid and (self.from_unit != 1 or self.to_unit != 1):
            val = _div(_mul(val, self.from_unit), self.to_unit)
        shown = self.prepare(val, precision) if valid else None
        if shown is None:
            self.write(text)
            return False
        self.write(self.prefix + shown + self.fmt_suffix)
        return True

    def included(self, number: int) -> bool:
        """True if field ``number`` is one --field selects (field 1 by default)."""
        if self.fields is None:
            return number == 1
        return any(lo <= number <= hi for lo, hi in self.fields)

    def line(self, line: str, newline: bool, memory: bytearray | None = None) -> bool:
        """GNU's ``process_line``. ``memory`` is GNU's buffer from the line's first byte on (the
        line, its NUL, and what follows: stale bytes of longer earlier lines, or the next
        operand); a delimiter is overwritten with NUL as GNU does before its field is read."""
        if memory is None:
            memory = bytearray(line.encode("utf-8", "surrogateescape") + b"\0\0")
        ok = True
        number = 0
        pos = 0
        n = len(line)
        encoded = line.encode("utf-8", "surrogateescape")
        ascii_only = len(encoded) == n
        seen_chars = seen_bytes = 0  # byte offset of character ``seen_chars`` (non-ASCII lines)
        while True:
            number += 1
            start = pos
            if self.delimiter is not None:
                while pos < n and line[pos] != self.delimiter:
                    pos += 1
            else:
                while pos < n and line[pos] in " \t\n":
                    pos += 1
                while pos < n and line[pos] not in " \t\n":
                    pos += 1
            text = line[start:pos]
            if pos < n:
                if ascii_only:
                    at = pos
                else:
                    seen_bytes += _blen(line[seen_chars:pos])
                    seen_chars = pos
                    at = seen_bytes
                memory[at] = 0
                ok = self.field(text, number, lambda: _cstring(memory, at + 1)) and ok
                self.write(self.delimiter if self.delimiter is not None else " ")
                pos += 1
                self.ctx.budget.check_time()
            else:
                ok = self.field(text, number, lambda: _cstring(memory, len(encoded) + 1)) and ok
                break
        if newline:
            self.write(self.line_delim)
        return ok


def _cstring(memory: bytearray, start: int) -> str:
    """The NUL-terminated string at ``memory[start:]``."""
    end = memory.find(0, start)
    return memory[start:end if end >= 0 else len(memory)].decode("utf-8", "surrogateescape")


def _blen(text: str) -> int:
    return len(text.encode("utf-8", "surrogateescape"))


def _byte_prefix(text: str, nbytes: int) -> str:
    return text.encode("utf-8", "surrogateescape")[:nbytes].decode("utf-8", "surrogateescape")


def _fields(nf: Numfmt, spec: str) -> list[tuple[int, int]]:
    if spec == "-":
        return [(1, 1 << 64)]
    try:
        return parse_list(spec, positions=False)
    except ListError as e:
        if str(e) != "invalid range with no endpoint: -":
            nf.fail(str(e), usage=True)
    # GNU's SETFLD_ALLOW_DASH: a lone "-" in a list means every field ("1-").
    fixed = re.sub(r"(?:(?<=^)|(?<=[, \t]))-(?=[, \t]|$)", "1-", spec)
    try:
        return parse_list(fixed, positions=False)
    except ListError as e:
        nf.fail(str(e), usage=True)
    return []


def run(ctx: CommandContext) -> int:
    """Run ``numfmt``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version=VERSION)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    nf = Numfmt(ctx)
    try:
        return _run(nf, opts, operands)
    except _Exit as e:
        nf.flush()
        return e.status


def _run(nf: Numfmt, opts: list[tuple[str, str | None]], operands: list[str]) -> int:
    ctx = nf.ctx
    for key, raw in opts:
        value = raw if raw is not None else ""
        if key == "from":
            nf.scale_from = _argmatch(ctx, "--from", value, _FROM)
        elif key == "to":
            nf.scale_to = _argmatch(ctx, "--to", value, _TO)
        elif key in ("from-unit", "to-unit"):
            size = unit_size(value)
            if size is None:
                nf.fail(f"invalid unit size: {quote(value)}")
            if key == "from-unit":
                nf.from_unit = size or 1
            else:
                nf.to_unit = size or 1
        elif key == "round":
            nf.round = _argmatch(ctx, "--round", value, _ROUND)
        elif key == "grouping":
            nf.grouping = True
        elif key == "padding":
            width = _strtol(value)
            if not width:
                nf.fail(f"invalid padding value {quote(value)}")
            nf.padding_width, nf.left_align = abs(width or 0), (width or 0) < 0
        elif key == "field":
            if nf.fields is not None:
                nf.fail("multiple field specifications")
            nf.fields = _fields(nf, value)
        elif key == "d":
            if _blen(value) > 1:
                nf.fail("the delimiter must be a single character")
            nf.delimiter = value or "\0"
        elif key == "z":
            nf.line_delim = "\0"
        elif key == "suffix":
            nf.suffix = value
        elif key in ("debug", "-debug"):
            nf.debug = True
        elif key == "header":
            if raw is None:
                nf.header = 1
            else:
                try:
                    nf.header = parse_count(value, "") if value else 0
                except CountError:
                    nf.header = 0
                if not nf.header:
                    nf.fail(f"invalid header value {quote(value)}")
        elif key == "format":
            nf.format = value
        elif key == "invalid":
            nf.invalid = _argmatch(ctx, "--invalid", value, _INVALID)
    if nf.format is not None and nf.grouping:
        nf.fail("--grouping cannot be combined with --format")
    if nf.debug and nf.scale_from == "none" and nf.scale_to == "none" and not nf.grouping \
            and nf.padding_width == 0 and nf.format is None:
        ctx.error("no conversion option specified")
    if nf.format is not None:
        nf.parse_format(nf.format)
    if nf.grouping:
        if nf.scale_to != "none":
            nf.fail("grouping cannot be combined with --to")
        if nf.debug:
            ctx.error("grouping has no effect in this locale")
    if nf.padding_width > ctx.budget.limits.string_length:
        nf.fail("memory exhausted")  # GNU allocates the padding buffer up front
    nf.auto_padding = nf.padding_width == 0 and nf.delimiter is None
    if nf.invalid != "abort":
        nf.conv_exit = 0
    ok = True
    if operands:
        if nf.debug and nf.header:
            ctx.error("--header ignored with command-line input")
        for i, operand in enumerate(operands):
            following = operands[i + 1] if i + 1 < len(operands) else ""
            memory = bytearray((operand + "\0" + following + "\0").encode("utf-8", "surrogateescape"))
            ok = nf.line(operand, True, memory) and ok
    else:
        delim = nf.line_delim.encode()
        stream = ctx.stdin
        header = nf.header
        memory = bytearray(120)  # getdelim's buffer: later lines leave earlier bytes behind
        for raw in _records(stream, delim, ctx):
            if len(memory) < len(raw) + 2:
                memory.extend(bytes(len(raw) + 2 - len(memory)))
            memory[: len(raw)] = raw
            memory[len(raw)] = 0
            if header:
                header -= 1
                nf.write(raw.split(b"\0", 1)[0].decode("utf-8", "surrogateescape"))
                continue
            newline = raw.endswith(delim)
            if newline:
                memory[len(raw) - 1] = 0
            text = raw.split(b"\0", 1)[0] if b"\0" in raw[: len(raw) - newline] else raw[: len(raw) - newline]
            ok = nf.line(text.decode("utf-8", "surrogateescape"), newline, memory) and ok
    nf.flush()
    if nf.debug and not ok:
        ctx.error("failed to convert some of the input numbers")
    return 2 if not ok and nf.invalid not in ("warn", "ignore") else 0


def _records(stream: BinaryIO, delim: bytes, ctx: CommandContext) -> Iterator[bytes]:
    """The delimiter-terminated records of ``stream`` (the last may lack its delimiter)."""
    pending: list[bytes] = []
    while True:
        try:
            chunk = stream.read(1 << 16)
        except FSError as e:  # ``numfmt < dir``: GNU says so and exits as if at the end
            ctx.error(f"error reading input: {e}")
            break
        ctx.budget.check_time()
        if not chunk:
            break
        parts = chunk.split(delim)
        last = parts.pop()
        for part in parts:
            pending.append(part)
            yield b"".join(pending) + delim
            pending = []
        if last:
            pending.append(last)
    if pending:
        yield b"".join(pending)
