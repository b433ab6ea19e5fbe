"""bc's numbers: exact decimals with a scale, and libbc's operations (number.c of GNU bc 1.07.1).

A ``Num`` is ``m / 10**scale`` for a Python int ``m``; every operation truncates toward zero at
the scale libbc gives its result (``+ -``: the larger scale; ``*``: ``min(a+b, max(scale, a, b))``;
``/``: ``scale``; ``%``: ``max(scale + b, a)``; ``^``: ``min(a*e, max(scale, a))``, or ``scale``
for a negative exponent). Zero is never negative. Results larger than ``MAX_DIGITS`` digits or
with a scale above ``MAX_SCALE`` raise ``NumberLimit`` instead of exhausting memory.
"""

from __future__ import annotations

#: Most digits (integer + fraction) any value may have.
MAX_DIGITS = 100_000
#: Largest scale a result may have.
MAX_SCALE = 12_000
#: Bits of a mantissa of about ``MAX_DIGITS`` decimal digits.
MAX_BITS = int(MAX_DIGITS * 3.321928094887362) + 1

_POW10: dict[int, int] = {}


class NumberLimit(Exception):
    """A result would be larger than the sandbox allows; ``str()`` says what was refused."""


def pow10(k: int) -> int:
    """``10**k`` (cached for small k)."""
    p = _POW10.get(k)
    if p is None:
        p = 10 ** k
        if k < 4096:
            _POW10[k] = p
    return p


def digits(n: int) -> str:
    """Decimal digits of a non-negative int of any size (Python refuses > 4300 at once)."""
    if n < 10 ** 4000:
        return str(n)
    k = 1
    while pow10(2 * k * 2000) <= n:
        k *= 2
    high, low = divmod(n, pow10(k * 2000))
    return digits(high) + digits(low).rjust(k * 2000, "0")


def parse_digits(text: str) -> int:
    """``int(text)`` for a decimal digit string of any length."""
    if len(text) <= 4000:
        return int(text)
    half = len(text) // 2
    return parse_digits(text[:-half]) * pow10(half) + parse_digits(text[-half:])


def _tdiv(a: int, b: int) -> int:
    """Integer division truncating toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


class Num:
    """An exact decimal ``m / 10**scale`` (immutable)."""

    __slots__ = ("m", "scale")

    def __init__(self, m: int, scale: int = 0):
        self.m = m
        self.scale = scale

    def __repr__(self) -> str:
        return f"Num({self.m}, {self.scale})"

    def is_zero(self) -> bool:
        """True for any zero."""
        return self.m == 0

    def is_neg(self) -> bool:
        """True below zero."""
        return self.m < 0

    def int_part(self) -> int:
        """The integer part, truncated toward zero."""
        return _tdiv(self.m, pow10(self.scale)) if self.scale else self.m

    def n_len(self) -> int:
        """libbc's ``n_len``: digits of the integer part (at least 1)."""
        i = abs(self.int_part())
        return len(digits(i)) if i else 1

    def to_long(self) -> int:
        """``bc_num2long``: the integer part, 0 when it does not fit in a C long."""
        i = self.int_part()
        return i if abs(i) <= 9223372036854775807 else 0

    def text(self) -> str:
        """Base-10 text as bc prints it (no wrapping): ``-``, integer digits, ``.`` fraction."""
        if self.m == 0:
            return "0"
        a = abs(self.m)
        s = digits(a)
        if self.scale:
            s = s.rjust(self.scale + 1, "0")
            ip, fp = s[:-self.scale], s[-self.scale:]
            s = ("" if ip == "0" else ip) + "." + fp
        return "-" + s if self.m < 0 else s


ZERO = Num(0)
ONE = Num(1)


def check(m: int, scale: int) -> Num:
    """A new ``Num``, or ``NumberLimit`` when it is beyond the sandbox's bounds."""
    if scale > MAX_SCALE:
        raise NumberLimit(f"a result with scale {scale} (more than {MAX_SCALE} fraction digits)")
    if m and abs(m).bit_length() > MAX_BITS:
        raise NumberLimit(f"a result of more than {MAX_DIGITS} digits")
    return Num(m, scale)


def from_int(i: int) -> Num:
    """``bc_int2num``."""
    return Num(i, 0)


def rescale(a: Num, scale: int) -> int:
    """``a``'s mantissa at ``scale`` (truncating when smaller)."""
    if scale >= a.scale:
        return a.m * pow10(scale - a.scale)
    return _tdiv(a.m, pow10(a.scale - scale))


def truncate(a: Num, scale: int) -> Num:
    """``a`` cut to at most ``scale`` fraction digits."""
    if a.scale <= scale:
        return a
    return Num(rescale(a, scale), scale)


_SMALL = 1 << 256


def add(a: Num, b: Num, scale_min: int = 0) -> Num:
    """``bc_add``."""
    s = a.scale
    if s == b.scale and s >= scale_min:
        m = a.m + b.m
    else:
        s = max(s, b.scale, scale_min)
        m = rescale(a, s) + rescale(b, s)
    if -_SMALL < m < _SMALL and s <= MAX_SCALE:
        return Num(m, s)
    return check(m, s)


def sub(a: Num, b: Num, scale_min: int = 0) -> Num:
    """``bc_sub``."""
    s = a.scale
    if s == b.scale and s >= scale_min:
        m = a.m - b.m
    else:
        s = max(s, b.scale, scale_min)
        m = rescale(a, s) - rescale(b, s)
    if -_SMALL < m < _SMALL and s <= MAX_SCALE:
        return Num(m, s)
    return check(m, s)


def mul(a: Num, b: Num, scale: int) -> Num:
    """``bc_multiply``: the product truncated to ``min(a+b, max(scale, a, b))`` digits."""
    full = a.scale + b.scale
    ps = min(full, max(scale, a.scale, b.scale))
    if a.m and b.m and abs(a.m).bit_length() + abs(b.m).bit_length() > MAX_BITS + 64:
        raise NumberLimit(f"a product of more than {MAX_DIGITS} digits")
    m = a.m * b.m
    if full > ps:
        m = _tdiv(m, pow10(full - ps))
    return check(m, ps)


def div(a: Num, b: Num, scale: int) -> Num | None:
    """``bc_divide``: the quotient truncated to ``scale`` digits; None when ``b`` is zero."""
    if b.m == 0:
        return None
    if scale > MAX_SCALE:
        raise NumberLimit(f"a quotient with scale {scale} (more than {MAX_SCALE} fraction digits)")
    e = scale + b.scale - a.scale
    if e >= 0:
        q = _tdiv(a.m * pow10(e), b.m)
    else:
        q = _tdiv(a.m, b.m * pow10(-e))
    return check(q, scale)


def mod(a: Num, b: Num, scale: int) -> Num:
    """``bc_modulo`` (``b`` is not zero): ``a - (a / b) * b`` at ``max(scale + b, a)``."""
    rscale = max(a.scale, b.scale + scale)
    q = div(a, b, scale)
    assert q is not None
    return sub(a, mul(q, b, rscale), rscale)


def compare(a: Num, b: Num) -> int:
    """-1, 0 or 1."""
    if a.scale == b.scale:
        x, y = a.m, b.m
    else:
        s = max(a.scale, b.scale)
        x, y = rescale(a, s), rescale(b, s)
    return (x > y) - (x < y)


def power(a: Num, exponent: int, scale: int) -> Num | None:
    """``bc_raise`` for an integer ``exponent`` (exact power, then truncated); None for 0^-n."""
    if exponent == 0:
        return ONE
    neg = exponent < 0
    e = -exponent if neg else exponent
    rscale = scale if neg else min(a.scale * e, max(scale, a.scale))
    if a.m == 0:
        return None if neg else Num(0, rscale)
    bits = abs(a.m).bit_length()
    if (bits - 1) * e > MAX_BITS + 64 or a.scale * e > MAX_DIGITS:
        raise NumberLimit(f"a power of more than {MAX_DIGITS} digits")
    exact = Num(a.m ** e, a.scale * e)
    if neg:
        return div(ONE, exact, rscale)
    return check(truncate(exact, rscale).m, min(exact.scale, rscale))


def is_near_zero(a: Num, scale: int) -> bool:
    """``bc_is_near_zero``: the digits up to ``scale`` are 0, or all 0 but a final 1."""
    s = min(scale, a.scale)
    return abs(rescale(a, s)) <= 1


def sqrt(a: Num, scale: int) -> Num | None:
    """``bc_sqrt``: Newton's iteration as libbc runs it; None below zero."""
    c = compare(a, ZERO)
    if c < 0:
        return None
    if c == 0:
        return ZERO
    if compare(a, ONE) == 0:
        return ONE
    rscale = max(scale, a.scale)
    if rscale > MAX_SCALE:
        raise NumberLimit(f"a square root with scale {rscale} (more than {MAX_SCALE} fraction digits)")
    point5 = Num(5, 1)
    if compare(a, ONE) < 0:
        guess = ONE
        cscale = a.scale
    else:
        n = a.n_len()
        half = mul(from_int(n), point5, 0)
        guess = power(from_int(10), half.int_part(), 0)
        cscale = 3
    while True:
        guess1 = guess
        q = div(a, guess, cscale)
        assert q is not None
        guess = add(q, guess1, 0)
        guess = mul(guess, point5, cscale)
        diff = sub(guess, guess1, cscale + 1)
        if is_near_zero(diff, cscale):
            if cscale < rscale + 1:
                cscale = min(cscale * 3, rscale + 1)
            else:
                break
    r = div(guess, ONE, rscale)
    assert r is not None
    return r
