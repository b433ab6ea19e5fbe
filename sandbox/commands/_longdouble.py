"""x87 80-bit long doubles for ``od -t fL``: decode the 10 bytes (of a 16-byte datum) and print
them as gnulib's ``ldtoastr`` does: the shortest ``%.*Lg`` (precision from LDBL_DIG = 18, or
from 1 below LDBL_MIN) that reads back as the same value. Exact arithmetic on ``Fraction``s;
glibc prints unnormals, pseudo-infinities and pseudo-NaNs as ``nan``.
"""

from __future__ import annotations

from fractions import Fraction

MIN_NORMAL = Fraction(1, 1 << 16382)
_QUANTUM_EXP = -16382 - 63


def decode(b: bytes) -> tuple[str | None, Fraction, Fraction]:
    """(special text or None, the value printf prints, the value the FPU compares) of a
    little-endian 80-bit long double (they differ only for pseudo-denormals)."""
    m = int.from_bytes(b[:8], "little")
    se = int.from_bytes(b[8:10], "little")
    sign, e = se >> 15, se & 0x7FFF
    neg = "-" if sign else ""
    if e == 0x7FFF:
        return (neg + "inf" if m == 1 << 63 else neg + "nan"), Fraction(0), Fraction(0)
    if e and not m >> 63:
        return neg + "nan", Fraction(0), Fraction(0)
    exp = (e if e else 1) - 16383 - 63
    fpu = Fraction(m) * (Fraction(2) ** exp)
    # A denormal with its integer bit set (pseudo-denormal): glibc's printf ignores the bit.
    shown = Fraction(m & ((1 << 63) - 1)) * (Fraction(2) ** exp) if not e else fpu
    if shown == 0 and sign:
        return "-0", Fraction(0), Fraction(0)
    return None, (-shown if sign else shown), (-fpu if sign else fpu)


def _floor_log2(v: Fraction) -> int:
    k = v.numerator.bit_length() - v.denominator.bit_length()
    if Fraction(2) ** k > v:
        k -= 1
    elif Fraction(2) ** (k + 1) <= v:
        k += 1
    return k


def _round_half_even(v: Fraction) -> int:
    q, r = divmod(v.numerator, v.denominator)
    twice = 2 * r
    if twice > v.denominator or (twice == v.denominator and q & 1):
        q += 1
    return q


def _to_long_double(v: Fraction) -> Fraction | None:
    """The nearest 80-bit long double to ``v > 0`` (None when it overflows)."""
    k = _floor_log2(v)
    if k < -16382:
        quantum = Fraction(2) ** _QUANTUM_EXP
        return _round_half_even(v / quantum) * quantum
    scale = Fraction(2) ** (k - 63)
    m = _round_half_even(v / scale)
    if m == 1 << 64:
        m, k = 1 << 63, k + 1
        scale = Fraction(2) ** (k - 63)
    if k > 16383:
        return None
    return m * scale


def _format_g(v: Fraction, prec: int) -> str:
    """C ``%.{prec}Lg`` of ``v > 0`` with exact round-half-even."""
    e = int(_floor_log2(v) * 0.30102999566398120) - 1
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
        return f"{mant}e{'-' if e < 0 else '+'}{abs(e):02d}"
    if e >= 0:
        whole, frac = digits[: e + 1], digits[e + 1 :]
    else:
        whole, frac = "0", "0" * (-e - 1) + digits
    frac = frac.rstrip("0")
    return whole + ("." + frac if frac else "")


def long_double_text(b: bytes) -> str:
    """What ``od -t fL`` prints for one datum (its first 10 bytes are the x87 value)."""
    special, value, fpu = decode(b)
    if special is not None:
        return special
    if value == 0:
        return "0"
    neg = value < 0
    mag, target = (-value, -fpu) if neg else (value, fpu)
    start = 1 if mag < MIN_NORMAL else 18
    for prec in range(start, 22):
        text = _format_g(mag, prec)
        if _to_long_double(Fraction(text)) == target:
            return ("-" if neg else "") + text
    return ("-" if neg else "") + _format_g(mag, 21)
