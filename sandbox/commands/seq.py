"""``seq``: print a sequence of numbers (GNU coreutils 9.1).

``seq [-w] [-s SEP] [-f FORMAT] [FIRST [INCREMENT]] LAST``. GNU computes in x87 ``long double``
(64-bit significand) and prints with ``printf``; we emulate that arithmetic exactly with
``Fraction`` rounded to 64 significant bits, and format the exact binary value the way glibc
does (round half to even on the exact value), so rounding artefacts such as
``seq -f %.1f 0.05 0.1 0.5`` printing ``0.2`` twice match GNU.

Non-negative integer sequences with an INCREMENT up to 200 and a one-character separator take
GNU's fast path (exact decimal arithmetic of any size). Every other integer sequence printed
with the default format (integer FIRST and INCREMENT, any LAST, ``-w``, any ``-s``) is exact
integer arithmetic while below 2**63, so it is rendered in blocks (one C-level join per block
of 10,000 magnitudes for steps up to 100) and streamed in pieces, never whole in memory; past
2**63 the long double loop takes over.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from fractions import Fraction
from typing import Union

from sandbox.commands._quoting import quote
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line

#: What ``--version`` prints (GNU's text).
VERSION = """seq (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Ulrich Drepper."""

SPEC = OptionSpec(
    short="f:s:w",
    long={"equal-width": (NO_ARG, "w"), "format": (REQUIRED, "f"), "separator": (REQUIRED, "s"),
          "version": (NO_ARG, "version")},
    permute=False,
)

#: A long double value: an exact ``Fraction``, or a float for inf, -inf and -0.0.
LongDouble = Union[Fraction, float]

_MANT_BITS = 64
_INT_MAX = 2**31 - 1
_DEC_RE = re.compile(r"([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\Z")
_HEX_RE = re.compile(r"([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?\d+))?\Z")
_CONV_RE = re.compile(r"%([-+#0 ']*)(\d*)(?:\.(\d*))?(L?)")


#: Widths and precisions above this are refused (GNU would print them; we bound the output).
MAX_FIELD = 10_000
_CHUNK_DIGITS = 4000
_CHUNK_LIMIT = 10**_CHUNK_DIGITS



HELP = '''Usage: seq [OPTION]... LAST
  or:  seq [OPTION]... FIRST LAST
  or:  seq [OPTION]... FIRST INCREMENT LAST
Print numbers from FIRST to LAST, in steps of INCREMENT.

  -f, --format=FORMAT      use printf style floating-point FORMAT
  -s, --separator=STRING   use STRING to separate numbers (default: \\n)
  -w, --equal-width        equalize width by padding with leading zeroes
'''

def _digits(n: int) -> str:
    """``str(n)`` for a non-negative int of any size (Python refuses > 4300 digits)."""
    if n < _CHUNK_LIMIT:
        return str(n)
    high, low = divmod(n, _CHUNK_LIMIT)
    return _digits(high) + str(low).rjust(_CHUNK_DIGITS, "0")


def _parse_int(text: str, base: int = 10) -> int:
    """``int(text, base)`` for digit strings of any length."""
    if len(text) <= _CHUNK_DIGITS:
        return int(text, base)
    head = text[:-_CHUNK_DIGITS]
    tail = text[-_CHUNK_DIGITS:]
    return _parse_int(head, base) * base**_CHUNK_DIGITS + int(tail, base)


def _clamped_int(text: str, limit: int = 10**9) -> int:
    """A signed decimal that saturates at +-``limit`` instead of growing without bound."""
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-").lstrip("0") or "0"
    return sign * (limit if len(digits) > 10 else min(int(digits), limit))


class SeqError(Exception):
    """A fatal seq error: ``message`` and whether the ``Try`` line follows."""

    def __init__(self, message: str, usage: bool = True):
        super().__init__(message)
        self.usage = usage


def round_long_double(value: Fraction) -> Fraction:
    """``value`` rounded to the nearest x87 long double (64-bit significand, ties to even)."""
    n, d = value.numerator, value.denominator
    if n == 0:
        return value
    mag = -n if n < 0 else n
    if mag.bit_length() <= _MANT_BITS and d & (d - 1) == 0:
        return value  # already exact: a 64-bit integer over a power of two
    exp = mag.bit_length() - d.bit_length()
    if (mag << max(0, -exp)) < (d << max(0, exp)):
        exp -= 1
    shift = _MANT_BITS - 1 - exp
    if shift >= 0:
        num, den = mag << shift, d
    else:
        num, den = mag, d << -shift
    whole, rest = divmod(num, den)
    twice = 2 * rest
    if twice > den or (twice == den and whole & 1):
        whole += 1
    result = Fraction(whole, 1 << shift) if shift >= 0 else Fraction(whole << -shift)
    return -result if n < 0 else result


def strtold(text: str) -> LongDouble | None:
    """glibc ``strtold`` over the whole string (None if it is not entirely a number)."""
    body = text.lstrip(" \t\n\v\f\r")
    low = body.lower()
    sign = -1.0 if low.startswith("-") else 1.0
    core = low.lstrip("+-") if low[:1] in "+-" and low[1:2] not in "+-" else low
    if core in ("inf", "infinity"):
        return sign * math.inf
    if core == "nan" or (core.startswith("nan(") and core.endswith(")")):
        return math.nan
    match = _HEX_RE.match(body)
    if match and (match.group(2) or match.group(3)):
        digits = (match.group(2) or "") + (match.group(3) or "")
        exp2 = _clamped_int(match.group(4) or "0", 100_000) - 4 * len(match.group(3) or "")
        if abs(exp2) > 100_000:
            value = Fraction(0) if exp2 < 0 else Fraction(10) ** 5000
        else:
            value = Fraction(_parse_int(digits, 16)) * Fraction(2) ** exp2
    else:
        match = _DEC_RE.match(body)
        if not match or not (match.group(2) or match.group(3)):
            return None
        digits = (match.group(2) or "") + (match.group(3) or "")
        digits = digits.lstrip("0") or "0"
        exponent = _clamped_int(match.group(4) or "0") - len(match.group(3) or "")
        if len(digits) > 60:  # keep 60 digits and a sticky digit: enough to round exactly
            sticky = "1" if digits[60:].strip("0") else "0"
            exponent += len(digits) - 61
            digits = digits[:60] + sticky
        if digits == "0":
            value = Fraction(0)
        elif exponent + len(digits) > 6000:
            value = Fraction(10) ** 5000
        elif exponent + len(digits) < -6000:
            value = Fraction(0)
        else:
            value = Fraction(int(digits)) * Fraction(10) ** exponent
    negative = match.group(1) == "-"
    if value == 0:
        return -0.0 if negative else Fraction(0)
    if value > Fraction(10) ** 4932:
        return -math.inf if negative else math.inf
    value = round_long_double(value)
    return -value if negative else value


def _is_finite(value: LongDouble) -> bool:
    return isinstance(value, Fraction) or (not math.isinf(value) and not math.isnan(value))


def _exact(value: LongDouble) -> Fraction:
    return value if isinstance(value, Fraction) else Fraction(0)


def _negative(value: LongDouble) -> bool:
    if isinstance(value, Fraction):
        return value < 0
    return math.copysign(1.0, value) < 0


# -- printf of one long double ---------------------------------------------------------------


def _round_int(value: Fraction) -> int:
    """Round a non-negative Fraction to an integer, ties to even."""
    return _round_ratio(value.numerator, value.denominator)


def _round_ratio(num: int, den: int) -> int:
    """Round the non-negative ``num / den`` to an integer, ties to even."""
    whole, rest = divmod(num, den)
    twice = 2 * rest
    if twice > den or (twice == den and whole & 1):
        whole += 1
    return whole


def _scaled(mag: Fraction, power: int) -> int:
    """``mag * 10**power`` rounded to an integer (ties to even), in integer arithmetic."""
    if power >= 0:
        return _round_ratio(mag.numerator * 10**power, mag.denominator)
    return _round_ratio(mag.numerator, mag.denominator * 10 ** (-power))


class _Ratio:
    """A non-negative ``numerator / denominator`` without Fraction's normalisation cost."""

    __slots__ = ("numerator", "denominator")

    def __init__(self, numerator: int, denominator: int):
        self.numerator = numerator
        self.denominator = denominator


def _fixed(mag: Fraction, prec: int, alt: bool) -> str:
    scaled = _scaled(mag, prec)
    digits = _digits(scaled).rjust(prec + 1, "0")
    if prec == 0:
        return digits + ("." if alt else "")
    return digits[:-prec] + "." + digits[-prec:]


def _decimal_exponent(mag: Fraction) -> int:
    """The ``e`` with ``10**e <= mag < 10**(e+1)`` (``mag`` > 0)."""
    n, d = mag.numerator, mag.denominator
    exp = int((n.bit_length() - d.bit_length()) * 0.30102999566398)

    def at_least(e: int) -> bool:  # 10**e <= n/d
        return d * 10**e <= n if e >= 0 else d <= n * 10 ** (-e)

    while not at_least(exp):
        exp -= 1
    while at_least(exp + 1):
        exp += 1
    return exp


def _scientific(mag: Fraction, prec: int, alt: bool, upper: bool) -> tuple[str, int]:
    """Mantissa digits and the exponent of ``mag`` printed with %e (``prec`` decimals)."""
    if mag.numerator == 0:
        exp = 0
        digits = "0" * (prec + 1)
    else:
        exp = _decimal_exponent(mag)
        scaled = _scaled(mag, prec - exp)
        if scaled >= 10 ** (prec + 1):
            exp += 1
            scaled = _scaled(mag, prec - exp)
        digits = _digits(scaled)
    mantissa = digits[0] + ("." + digits[1:] if prec else ("." if alt else ""))
    return mantissa, exp


def _exp_text(exp: int, upper: bool) -> str:
    return ("E" if upper else "e") + ("-" if exp < 0 else "+") + str(abs(exp)).rjust(2, "0")


def _hex(mag: Fraction, prec: int | None, alt: bool, upper: bool) -> str:
    mag = Fraction(mag.numerator, mag.denominator)
    if mag == 0:
        body, exp = "0" + ("." + "0" * prec if prec else ("." if alt else "")), 0
    else:
        e2 = mag.numerator.bit_length() - mag.denominator.bit_length()
        if Fraction(2) ** e2 > mag:
            e2 -= 1
        mant = _round_int(mag * Fraction(2) ** (63 - e2))
        exp = e2 - 3
        frac_bits = mant & ((1 << 60) - 1)
        lead = mant >> 60
        frac = f"{frac_bits:015x}"
        if prec is None:
            frac = frac.rstrip("0")
        elif prec < 15:
            kept = _round_int(Fraction(frac_bits, 1 << (4 * (15 - prec))))
            if kept >> (4 * prec):
                lead += 1
                kept &= (1 << (4 * prec)) - 1
            frac = f"{kept:0{prec}x}" if prec else ""
        else:
            frac = frac + "0" * (prec - 15)
        body = f"{lead:x}" + ("." + frac if frac or alt else "")
    text = "0x" + body + "p" + ("-" if exp < 0 else "+") + str(abs(exp))
    return text.upper() if upper else text


def format_long_double(flags: str, width: int, prec: int | None, conv: str, value: LongDouble) -> str:
    """glibc ``printf("%<flags><width>.<prec>L<conv>", value)`` for one long double."""
    if not _is_finite(value):
        return format_parts(flags, width, prec, conv, _negative(value), None, math.isnan(value))
    return format_parts(flags, width, prec, conv, _negative(value), abs(_exact(value)))


def format_parts(flags: str, width: int, prec: int | None, conv: str, negative: bool,
                 mag: Fraction | _Ratio | None, nan: bool = False) -> str:
    """``format_long_double`` for a sign and a magnitude (None for inf or nan)."""
    upper = conv.isupper()
    kind = conv.lower()
    alt = "#" in flags
    if mag is None:
        body = "nan" if nan else "inf"
        body = body.upper() if upper else body
        zero_ok = False
    else:
        zero_ok = True
        if kind == "f":
            body = _fixed(mag, 6 if prec is None else prec, alt)
        elif kind == "e":
            p = 6 if prec is None else prec
            mantissa, exp = _scientific(mag, p, alt, upper)
            body = mantissa + _exp_text(exp, upper)
        elif kind == "g":
            p = 6 if prec is None else (prec or 1)
            _, exp = _scientific(mag, p - 1, alt, upper)
            if p > exp >= -4:
                body, tail = _fixed(mag, p - 1 - exp, alt), ""
            else:
                body, exp = _scientific(mag, p - 1, alt, upper)
                tail = _exp_text(exp, upper)
            if not alt and "." in body:
                body = body.rstrip("0").rstrip(".")
            body += tail
        else:
            body = _hex(mag, prec, alt, upper)
    sign = "-" if negative else "+" if "+" in flags else " " if " " in flags else ""
    total = len(sign) + len(body)
    if width > total:
        if "-" in flags:
            return sign + body + " " * (width - total)
        if "0" in flags and zero_ok:
            if kind == "a":
                return sign + body[:2] + "0" * (width - total) + body[2:]
            return sign + "0" * (width - total) + body
        return " " * (width - total) + sign + body
    return sign + body


class Format:
    """A checked ``-f`` FORMAT: literal prefix, one conversion, literal suffix."""

    def __init__(self, fmt: str):
        i = 0
        prefix = []
        while True:
            if i >= len(fmt):
                raise SeqError(f"format {quote(fmt)} has no % directive", usage=False)
            if fmt[i] == "%" and fmt[i + 1 : i + 2] == "%":
                prefix.append("%")
                i += 2
                continue
            if fmt[i] == "%":
                break
            prefix.append(fmt[i])
            i += 1
        match = _CONV_RE.match(fmt, i)
        assert match is not None
        j = match.end()
        if j >= len(fmt):
            raise SeqError(f"format {quote(fmt)} ends in %", usage=False)
        if fmt[j] not in "efgaEFGA":
            raise SeqError(f"format {quote(fmt)} has unknown %{fmt[j]} directive", usage=False)
        suffix = []
        k = j + 1
        while k < len(fmt):
            if fmt[k] == "%" and fmt[k + 1 : k + 2] == "%":
                suffix.append("%")
                k += 2
            elif fmt[k] == "%":
                raise SeqError(f"format {quote(fmt)} has too many % directives", usage=False)
            else:
                suffix.append(fmt[k])
                k += 1
        self.prefix = "".join(prefix)
        self.suffix = "".join(suffix)
        self.flags = match.group(1)
        self.width = _clamped_int(match.group(2) or "0")
        self.prec = None if match.group(3) is None else _clamped_int(match.group(3) or "0")
        if self.width > MAX_FIELD or (self.prec or 0) > MAX_FIELD:
            raise SeqError(f"format {quote(fmt)}: width or precision above {MAX_FIELD} is not supported",
                           usage=False)
        self.conv = fmt[j]

    def number(self, value: LongDouble) -> str:
        """The conversion alone (no prefix/suffix)."""
        return format_long_double(self.flags, self.width, self.prec, self.conv, value)

    def render(self, value: LongDouble) -> str:
        """The whole formatted text for ``value``."""
        return self.prefix + self.number(value) + self.suffix

    def number_ratio(self, numerator: int, denominator: int) -> str:
        """The conversion alone for the exact value ``numerator / denominator``."""
        return format_parts(self.flags, self.width, self.prec, self.conv, numerator < 0,
                            _Ratio(abs(numerator), denominator))


class Operand:
    """A scanned number: its value, print width and precision (GNU's ``scan_arg``)."""

    def __init__(self, arg: str):
        value = strtold(arg)
        if value is None:
            raise SeqError(f"invalid floating point argument: {quote(arg)}")
        if isinstance(value, float) and math.isnan(value):
            raise SeqError(f"invalid {quote('not-a-number')} argument: {quote(arg)}")
        self.value = value
        text = arg.lstrip(" \t\n\v\f\r+")
        self.width = 0
        self.precision = _INT_MAX
        point = text.find(".")
        if point < 0 and "p" not in text:
            self.precision = 0
        if not any(c in text for c in "xX") and _is_finite(value):
            fraction_len = 0
            self.width = len(text)
            if point >= 0:
                fraction_len = len(re.split("[eE]", text[point + 1 :], maxsplit=1)[0])
                self.precision = fraction_len
                if fraction_len == 0:
                    self.width -= 1
                elif point == 0 or not text[point - 1].isdigit():
                    self.width += 1
            e = text.find("e")
            if e < 0:
                e = text.find("E")
            if e >= 0:
                exponent = _strtol_prefix(text[e + 1 :])
                self.precision += -exponent if exponent < 0 else -min(self.precision, exponent)
                self.width -= len(text) - e
                if exponent < 0:
                    if point >= 0:
                        if e == point + 1:
                            self.width += 1
                    else:
                        self.width += 1
                    exponent = -exponent
                else:
                    if point >= 0 and self.precision == 0 and fraction_len:
                        self.width -= 1
                    exponent -= min(fraction_len, exponent)
                self.width += exponent


def _strtol_prefix(text: str) -> int:
    match = re.match(r"\s*([+-]?\d+)", text)
    return _clamped_int(match.group(1)) if match else 0


def _default_format(first: Operand, step: Operand, last: Operand, equal_width: bool) -> Format:
    prec = max(first.precision, step.precision)
    if prec != _INT_MAX and last.precision != _INT_MAX:
        if equal_width:
            first_width = first.width + (prec - first.precision)
            last_width = last.width + (prec - last.precision)
            if last.precision and prec == 0:
                last_width -= 1
            if last.precision == 0 and prec:
                last_width += 1
            if first.precision == 0 and prec:
                first_width += 1
            return Format(f"%0{max(first_width, last_width)}.{prec}Lf")
        return Format(f"%.{prec}Lf")
    return Format("%Lg")


def _split_negative_numbers(args: list[str]) -> tuple[list[str], list[str]]:
    """Split ``args`` where GNU seq stops parsing options: at a word like ``-1`` or ``-.5``."""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg.startswith("-") and arg[1:2] in (".", *"0123456789"):
            break
        if arg == "--":
            i += 1
            break
        if not arg.startswith("-") or arg == "-":
            break
        if arg.startswith("--"):
            name = arg[2:]
            if "=" not in name and any(k.startswith(name) for k in ("format", "separator")) and name:
                i += 1
        else:
            for pos in range(1, len(arg)):
                if arg[pos] in "fs":
                    if pos == len(arg) - 1:
                        i += 1
                    break
        i += 1
    return args[:i], args[i:]


def _all_digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


#: GNU's SEQ_FAST_STEP_LIMIT: the largest INCREMENT its exact decimal fast path takes.
_FAST_STEP_LIMIT = 200


def _fast_step(value: LongDouble | None) -> int:
    """The INCREMENT as GNU's fast path takes it (``0 < value <= 200``), else 0."""
    if isinstance(value, Fraction) and 0 < value <= _FAST_STEP_LIMIT:
        return int(value)
    return 0


def _seq_fast(ctx: CommandContext, first: str, last: str, separator: str, step: int = 1) -> bool:
    """GNU's integer fast path: print first..last by ``step`` in exact decimal arithmetic of
    any size; False if first > last (prints nothing)."""
    a = _parse_int(first)
    infinite = last == "inf"
    b = 0 if infinite else _parse_int(last)
    if not infinite and a > b:
        return False
    _write_integers(ctx, a, step, None if infinite else (b - a) // step + 1, 0, separator)
    ctx.stdout.write(b"\n")
    return True


# -- integer sequences in blocks ---------------------------------------------------------------

#: Numbers below this magnitude, stepped by an integer, are exact in a long double: GNU's
#: ``first + i * step`` then does no rounding and the sequence is plain integer arithmetic.
_EXACT_LIMIT = 1 << 63
#: A template block covers ``10**_BLOCK_DIGITS`` consecutive magnitudes sharing a high part.
_BLOCK_DIGITS = 4
_BLOCK = 10**_BLOCK_DIGITS
#: Steps up to this size use templates (larger steps leave too few numbers per block).
_TEMPLATE_MAX_STEP = 100
#: Numbers per chunk when no template applies.
_GENERIC_CHUNK = 4096
#: Target size of one rendered piece and of one write to stdout.
_PIECE_BYTES = 1 << 18
_WRITE_BYTES = 1 << 16


def _int_text(value: int, width: int) -> str:
    """``printf("%0<width>.0Lf")`` of an integer of any size (width 0: no padding)."""
    sign = "-" if value < 0 else ""
    digits = _digits(-value if value < 0 else value)
    return sign + digits.rjust(width - len(sign), "0")


def _generic_piece(first: int, step: int, count: int, width: int, sep: str) -> bytes:
    """``sep`` before each of ``count`` numbers ``first, first+step, ...``, as bytes."""
    values = range(first, first + step * count, step)
    if max(abs(first), abs(values[-1])) < _CHUNK_LIMIT:
        render = str if width == 0 else f"%0{width}d".__mod__
        text = sep + sep.join(map(render, values))
    else:
        text = sep + sep.join(_int_text(v, width) for v in values)
    return text.encode("utf-8", "surrogateescape")


class _Templates:
    """Pre-rendered low parts of full blocks, keyed by the first low and direction of travel.

    A block holds the magnitudes ``high * _BLOCK + low`` of one ``high``; the lows met in it
    depend only on the first one, so the block's text is ``head.join(template)`` where
    ``head`` is the sign and the padded high part: one C-level join instead of one ``str()``
    per number. There are at most ``step`` distinct templates per direction.
    """

    def __init__(self, step: int, sep: bytes):
        self.step = step
        self.sep = sep
        self.cache: dict[tuple[int, bool], list[bytes]] = {}

    def get(self, first_low: int, rising: bool) -> list[bytes]:
        """The join list: ``sep``, then each low (zero-filled) followed by ``sep``, the last bare."""
        key = (first_low, rising)
        template = self.cache.get(key)
        if template is None:
            lows = range(first_low, _BLOCK, self.step) if rising else range(first_low, -1, -self.step)
            pad = f"%0{_BLOCK_DIGITS}d".encode()
            template = [self.sep] + [pad % low + self.sep for low in lows[:-1]] + [pad % lows[-1]]
            self.cache[key] = template
        return template


def _integer_pieces(first: int, step: int, count: int | None, width: int,
                    separator: str) -> Iterator[bytes]:
    """Yield the text of ``count`` numbers (None: endless) from ``first`` by ``step``, each
    preceded by the separator, in pieces of bounded size."""
    sep = separator.encode("utf-8", "surrogateescape")
    mag_step = abs(step)
    templates = _Templates(mag_step, sep) if mag_step <= _TEMPLATE_MAX_STEP else None
    # a template block is only worth it (and bounded) when its numbers are short
    head_limit = 10**40
    if templates is not None and _BLOCK * (max(width, 45) + len(sep)) > 16 * _PIECE_BYTES:
        templates = None
    x = first
    left = count
    while left is None or left > 0:
        chunk = _GENERIC_CHUNK
        if templates is not None and x != 0:
            negative = x < 0
            mag = -x if negative else x
            rising = (step > 0) != negative
            high, low = divmod(mag, _BLOCK)
            if rising:  # at a block's first low when the previous number was in the block below
                in_block = (_BLOCK - 1 - low) // mag_step + 1
                aligned = low < mag_step
            else:
                in_block = low // mag_step + 1
                aligned = low + mag_step >= _BLOCK
            if aligned and 0 < high < head_limit and (left is None or left >= in_block):
                head = b"-" if negative else b""
                head += b"%0*d" % (max(0, width - _BLOCK_DIGITS - negative), high)
                yield head.join(templates.get(low, rising))
                x += step * in_block
                if left is not None:
                    left -= in_block
                continue
            chunk = in_block
        size = max(abs(x), abs(x + step * chunk)).bit_length() * 0.302 + 2
        chunk = min(chunk, max(1, int(_PIECE_BYTES // (max(size, width) + len(sep)))))
        if left is not None:
            chunk = min(chunk, left)
        yield _generic_piece(x, step, chunk, width, separator)
        x += step * chunk
        if left is not None:
            left -= chunk


def _write_integers(ctx: CommandContext, first: int, step: int, count: int | None, width: int,
                    separator: str) -> None:
    """Write ``count`` numbers (None: until stopped) from ``first`` by ``step``, separated by
    ``separator`` (no final newline), in blocks, checking the time limit before each write."""
    skip = len(separator.encode("utf-8", "surrogateescape"))
    pending: list[bytes] = []
    size = 0
    for piece in _integer_pieces(first, step, count, width, separator):
        if skip:
            piece = piece[skip:]
            skip = 0
        pending.append(piece)
        size += len(piece)
        if size >= _WRITE_BYTES:
            ctx.budget.check_time()
            ctx.stdout.write(b"".join(pending) if len(pending) > 1 else pending[0])
            pending.clear()
            size = 0
    if pending:
        ctx.budget.check_time()
        ctx.stdout.write(b"".join(pending))


def _print_integers(ctx: CommandContext, fmt: Format, first: LongDouble, step: LongDouble,
                    last: LongDouble, separator: str) -> bool:
    """Integer FIRST and INCREMENT printed with ``%.0Lf`` / ``%0W.0Lf``, in blocks.

    While ``|first| + i * |step|`` stays below ``_EXACT_LIMIT`` the long double loop is exact
    integer arithmetic, so the numbers are written in blocks; a sequence that runs past that
    bound hands over to the long double loop at the first inexact index. Returns False when
    not applicable (the caller then runs the long double loop from the start).
    """
    if fmt.conv != "f" or fmt.prec != 0 or fmt.prefix or fmt.suffix or fmt.flags not in ("", "0"):
        return False
    if not (isinstance(first, Fraction) and isinstance(step, Fraction)):
        return False
    if first.denominator != 1 or step.denominator != 1 or step == 0:
        return False
    a, b = first.numerator, step.numerator
    count: int | None
    if isinstance(last, Fraction):
        span = (last - a) / b
        count = max(0, math.floor(span) + 1)
    elif math.isinf(last):
        count = None if (last > 0) == (b > 0) else 0
    else:
        return False
    if abs(a) >= _EXACT_LIMIT:
        return False
    exact_count = (_EXACT_LIMIT - 1 - abs(a)) // abs(b) + 1  # indices whose value is exact
    if count == 0:
        return True
    width = fmt.width if fmt.flags == "0" else 0
    if count is not None and count < exact_count:  # the value past the end is exact too
        _write_integers(ctx, a, b, count, width, separator)
        ctx.stdout.write(b"\n")
        return True
    _write_integers(ctx, a, b, exact_count, width, separator)
    _print_numbers(ctx, fmt, first, step, last, separator, resume=exact_count)
    return True


def _print_numbers(ctx: CommandContext, fmt: Format, first: LongDouble, step: LongDouble,
                   last: LongDouble, separator: str, resume: int = 0) -> None:
    """GNU's ``print_numbers``: x = first + i*step in long double, with the rounding fix-up.

    ``resume`` > 0 continues a sequence whose indices below ``resume`` were already written
    (without a separator after the last of them).
    """
    step_neg = _negative(step) and step != 0
    parts: list[str] = []
    pending = 0
    if resume:
        x: LongDouble = _add(first, _mul(resume - 1, step))
        i = resume
        out_of_range = False
    else:
        if _print_exact(ctx, fmt, first, step, last, separator):
            return
        out_of_range = _lt(first, last) if step_neg else _lt(last, first)
        if out_of_range:
            return
        x = first
        i = 1
    written = bool(resume)
    while True:
        x0 = x
        if not written:
            parts.append(fmt.render(x))
            pending += 1
        written = False
        if out_of_range:
            break
        x = _add(first, _mul(i, step))
        i += 1
        out_of_range = _lt(x, last) if step_neg else _lt(last, x)
        if out_of_range:
            x_text = fmt.number(x)
            print_extra = False
            parsed = strtold(x_text)
            if parsed is not None and _eq(parsed, last):
                print_extra = fmt.render(x0) != fmt.prefix + x_text
            if not print_extra:
                break
        parts.append(separator)
        if pending >= 2000:
            ctx.budget.check_time()
            ctx.stdout.write("".join(parts).encode("utf-8", "surrogateescape"))
            parts.clear()
            pending = 0
    parts.append("\n")
    ctx.stdout.write("".join(parts).encode("utf-8", "surrogateescape"))


def _print_exact(ctx: CommandContext, fmt: Format, first: LongDouble, step: LongDouble,
                 last: LongDouble, separator: str) -> bool:
    """The same loop in plain integers when every value is exact in a long double.

    With a common power-of-two denominator D, x*D = first*D + i*step*D; while those integers
    stay below 2**63 every product and sum is exact in a 64-bit significand, so no rounding
    happens and the long double emulation can be skipped. Returns False when not applicable.
    """
    if not (isinstance(first, Fraction) and isinstance(step, Fraction) and isinstance(last, Fraction)):
        return False
    if step == 0:
        return False
    den = max(first.denominator, step.denominator)
    if den & (den - 1) or first.denominator & (first.denominator - 1) or step.denominator & (step.denominator - 1):
        return False
    a = first.numerator * (den // first.denominator)
    b = step.numerator * (den // step.denominator)
    count = abs((last - first) / step) + 2
    if abs(a) + (int(count) + 1) * abs(b) >= 1 << 63:
        return False
    last_num, last_den = last.numerator, last.denominator
    descending = b < 0

    def beyond(xn: int) -> bool:  # out of range: x past last
        lhs, rhs = xn * last_den, last_num * den
        return lhs < rhs if descending else rhs < lhs

    if beyond(a):
        return True
    parts: list[str] = []
    xn = a
    i = 1
    prefix, suffix = fmt.prefix, fmt.suffix
    out_of_range = False
    while True:
        x0n = xn
        parts.append(prefix + fmt.number_ratio(xn, den) + suffix)
        if out_of_range:
            break
        xn = a + i * b
        i += 1
        out_of_range = beyond(xn)
        if out_of_range:
            x_text = fmt.number_ratio(xn, den)
            parsed = strtold(x_text)
            if not (parsed is not None and _eq(parsed, last)):
                break
            if prefix + fmt.number_ratio(x0n, den) + suffix == prefix + x_text:
                break
        parts.append(separator)
        if len(parts) >= 4000:
            ctx.budget.check_time()
            ctx.stdout.write("".join(parts).encode("utf-8", "surrogateescape"))
            parts.clear()
    parts.append("\n")
    ctx.stdout.write("".join(parts).encode("utf-8", "surrogateescape"))
    return True


def _lt(a: LongDouble, b: LongDouble) -> bool:
    fa = a if isinstance(a, float) else None
    fb = b if isinstance(b, float) else None
    if fa is not None and math.isinf(fa) or fb is not None and math.isinf(fb):
        return float(a) < float(b)
    return _exact(a) < _exact(b)


def _eq(a: LongDouble, b: LongDouble) -> bool:
    return not _lt(a, b) and not _lt(b, a)


def _mul(i: int, step: LongDouble) -> LongDouble:
    if not _is_finite(step):
        return step
    return round_long_double(i * _exact(step))


def _add(a: LongDouble, b: LongDouble) -> LongDouble:
    if not _is_finite(a) or not _is_finite(b):
        return float(a) + float(b)
    return round_long_double(_exact(a) + _exact(b))


def run(ctx: CommandContext) -> int:
    """Print the sequence."""
    head, tail = _split_negative_numbers(ctx.args)
    parsed = parse_command_line(ctx, SPEC, HELP, args=head, version=VERSION, early_help=True)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    operands += tail
    fmt_text: str | None = None
    separator = "\n"
    equal_width = False
    for key, value in opts:
        if key == "f":
            fmt_text = value
        elif key == "s":
            separator = value or ""
        else:
            equal_width = True
    try:
        return _run(ctx, operands, fmt_text, separator, equal_width)
    except SeqError as err:
        if err.usage:
            return ctx.usage_error(str(err))
        ctx.error(str(err))
        return 1


def _run(ctx: CommandContext, operands: list[str], fmt_text: str | None, separator: str,
         equal_width: bool) -> int:
    if not operands:
        raise SeqError("missing operand")
    if len(operands) > 3:
        raise SeqError(f"extra operand {quote(operands[3])}")
    fmt = Format(fmt_text) if fmt_text is not None else None
    if fmt is not None and equal_width:
        raise SeqError("format string may not be specified when printing equal width strings")
    n = len(operands)
    fast_step = _fast_step(strtold(operands[1])) if n == 3 and _all_digits(operands[1]) else 1
    if (
        _all_digits(operands[0])
        and (n == 1 or _all_digits(operands[1]))
        and (n < 3 or (fast_step and _all_digits(operands[2])))
        and not equal_width and fmt is None and len(separator.encode("utf-8", "surrogateescape")) == 1
    ):
        if _seq_fast(ctx, "1" if n == 1 else operands[0], operands[-1], separator, fast_step):
            return 0
    scanned: list[Operand] = []
    for index, arg in enumerate(operands):
        scanned.append(Operand(arg))
        if n == 3 and index == 1 and scanned[1].value == 0:
            raise SeqError(f"invalid Zero increment value: {quote(arg)}")
    one = Operand("1")
    last = scanned[-1]
    first = scanned[0] if n >= 2 else one
    step = scanned[1] if n == 3 else one
    if (
        _is_finite(first.value) and first.precision == 0 and step.precision == 0
        and last.precision == 0 and not _negative(first.value) and _fast_step(step.value)
        and not _negative(last.value) and not equal_width and fmt is None
        and len(separator.encode("utf-8", "surrogateescape")) == 1
    ):
        s1 = _digits(_round_int(_exact(first.value)))
        s2 = "inf" if not _is_finite(last.value) else _digits(_round_int(_exact(last.value)))
        if _seq_fast(ctx, s1, s2, separator, _fast_step(step.value)):
            return 0
    if fmt is None:
        fmt = _default_format(first, step, last, equal_width)
        if _print_integers(ctx, fmt, first.value, step.value, last.value, separator):
            return 0
    _print_numbers(ctx, fmt, first.value, step.value, last.value, separator)
    return 0
