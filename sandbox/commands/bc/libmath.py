"""bc's math library (``-l``): ``s c a l e j`` as native functions on ``number.Num``.

Written from the mathematics. Each function returns the exact value truncated toward zero to
the caller's ``scale`` (the scale of the result), which is what GNU bc 1.07.1 prints in
practice. Values are computed in binary fixed point with guard bits and a known error bound;
when the bound leaves the truncated digits in doubt the work is redone with more bits
(Ziv's method). Argument reduction: ``x mod pi/2`` and angle halving for ``s``/``c``, ``2^k`` and
halving/squaring for ``e``, ``2^k`` and square roots for ``l``, ``a(1/x)`` and half angles for
``a``; ``j`` sums its power series with enough extra bits for the cancellation.

Facts about GNU's ``-l`` kept here: ``l(x)`` for ``x <= 0`` is ``(1 - 10^scale)/1``; the result has
the caller's scale; ``j``'s order is truncated to an integer; the functions are numbered
``e l s a c j`` (1..6) and bind their parameters to variables 5 (``x``) and 13 (``j``'s ``n``), so a
bad call reports what a user function's bad call reports. The machine checks the time budget
through ``check_time``; results obey ``number.check`` (scale and digit bounds).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from sandbox.commands.bc import number as bn
from sandbox.commands.bc.number import Num, NumberLimit

#: Library function names by number (1..6).
NAMES: tuple[str, ...] = ("e", "l", "s", "a", "c", "j")

#: Parameters as the machine binds them (variable number, by reference); first is the last argument.
PARAMS: dict[str, list[tuple[int, bool]]] = {
    "e": [(5, False)], "l": [(5, False)], "s": [(5, False)], "a": [(5, False)],
    "c": [(5, False)], "j": [(5, False), (13, False)],
}

#: Most bits of working precision any function may use (about 150,000 digits).
MAX_WORK_BITS = 500_000

Check = Callable[[], None]


def call(name: str, args: list[Num], scale: int, check_time: Check) -> Num:
    """Run library function ``name`` on ``args`` (source order) at the caller's ``scale``."""
    if scale > bn.MAX_SCALE:
        raise NumberLimit(f"a result with scale {scale} (more than {bn.MAX_SCALE} fraction digits)")
    if name == "l":
        x = args[0]
        if x.m <= 0:
            p = bn.pow10(scale)
            return bn.check((1 - p) * p, scale)
    m = _FUNCS[name](args, scale, check_time)
    return bn.check(m, scale)


# -- the Ziv loop ------------------------------------------------------------------------------

Approx = Callable[[int], tuple[int, int]]


def _ziv(approx: Approx, scale: int, check_time: Check) -> int:
    """``trunc(f * 10^scale)`` from ``approx(B) = (A, E)`` with ``|f * 2^B - A| <= E``."""
    p = bn.pow10(scale)
    bits = int(scale * 3.3219280948873626) + 32
    while True:
        check_time()
        if bits > MAX_WORK_BITS:
            raise NumberLimit(f"a math library result needing more than {MAX_WORK_BITS} bits")
        a, err = approx(bits)
        lo, hi = a - err, a + err
        if lo >= 0:
            r1, r2 = (lo * p) >> bits, (hi * p) >> bits
            if r1 == r2:
                return r1
        elif hi <= 0:
            r1, r2 = ((-hi) * p) >> bits, ((-lo) * p) >> bits
            if r1 == r2:
                return -r1
        elif max(-lo, hi) * p < (1 << bits):
            return 0
        bits += bits // 2 + 32


# -- fixed point helpers ---------------------------------------------------------------------

def _mul(a: int, b: int, w: int) -> int:
    """``a * b / 2^w`` truncated toward zero (so a shrinking series reaches 0)."""
    p = a * b
    return p >> w if p >= 0 else -((-p) >> w)


def _div(a: int, b: int) -> int:
    """``a / b`` truncated toward zero (``b > 0``)."""
    return a // b if a >= 0 else -((-a) // b)


def _fixed(x: Num, w: int) -> int:
    """``floor(|x| * 2^w)``."""
    a = abs(x.m)
    if w >= 0:
        return (a << w) // bn.pow10(x.scale)
    return a // (bn.pow10(x.scale) << -w)


#: The most precise pi and ln 2 made so far: name -> (bits, value); fewer bits are a shift.
_CONSTANTS: dict[str, tuple[int, int]] = {}


def _constant(name: str, w: int, make: Callable[[int], int]) -> int:
    """``name`` at ``w`` bits within 2 units, from the cache when it holds as many bits."""
    have = _CONSTANTS.get(name)
    if have is None or have[0] < w:
        have = _CONSTANTS[name] = (w, make(w))
    return have[1] >> (have[0] - w)


def _atan_inv(n: int, w: int, check_time: Check) -> int:
    """``atan(1/n) * 2^w`` (error a few units per term)."""
    t = (1 << w) // n
    n2 = n * n
    total = t
    k = 1
    sign = -1
    while t:
        t //= n2
        k += 2
        total += sign * (t // k)
        sign = -sign
        if k & 63 == 1:
            check_time()
    return total


def _pi(w: int, check_time: Check) -> int:
    """``pi * 2^w`` within 2 units (Machin's formula)."""
    def make(w: int) -> int:
        g = w + 24
        return (16 * _atan_inv(5, g, check_time) - 4 * _atan_inv(239, g, check_time)) >> 24
    return _constant("pi", w, make)


def _ln2(w: int, check_time: Check) -> int:
    """``ln 2 * 2^w`` within 2 units: ``2 atanh(1/3)``."""
    def make(w: int) -> int:
        g = w + 24
        t = (1 << g) // 3
        total = t
        k = 1
        while t:
            t //= 9
            k += 2
            total += t // k
            if k & 63 == 1:
                check_time()
        return (2 * total) >> 24
    return _constant("ln2", w, make)


def _abs_log2(x: Num) -> float:
    """An estimate of ``log2 |x|`` (x not zero) that never overflows."""
    a = abs(x.m)
    b = a.bit_length()
    head = a >> max(0, b - 60)
    return math.log2(head) + max(0, b - 60) - x.scale * 3.3219280948873626


# -- e(x) --------------------------------------------------------------------------------------

def _e(args: list[Num], scale: int, check_time: Check) -> int:
    x = args[0]
    if x.m == 0:
        return bn.pow10(scale)
    lx = _abs_log2(x)
    if x.m > 0 and (lx > 20 or 2 ** lx * 0.4342944819032518 + scale > bn.MAX_DIGITS):
        raise NumberLimit(f"a result of more than {bn.MAX_DIGITS} digits")
    if x.m < 0 and lx > 40:  # e^x < 2^-(10^12): truncates to 0 at any allowed scale
        return 0
    # e^x = 2^k * e^r, k = round(x / ln 2), |r| <= ln 2 / 2 (+ tiny)
    k = round(_fixed(x, 64) / 2.0 ** 64 / math.log(2))
    if x.m < 0:
        k = -k

    def approx(bits: int) -> tuple[int, int]:
        if k < -bits - 8:
            return 0, 1
        w = bits + max(k, 0) + 40 + abs(k).bit_length()
        q = max(12, math.isqrt(w) // 2)  # halvings: fewer series terms at high precision
        w += q
        xr = _fixed(x, w)
        if x.m < 0:
            xr = -xr
        r = xr - k * (_ln2(w + 8, check_time) >> 8)
        # e^(r / 2^q) by Taylor, then square q times
        rq = _div(r, 1 << q)
        one = 1 << w
        total = one
        t = one
        i = 0
        while t:
            i += 1
            t = _div(_mul(t, rq, w), i)
            total += t
            check_time()
        for _ in range(q):
            total = total * total >> w
            check_time()
        shift = w - bits - k  # times 2^k, down to `bits`
        return (total >> shift if shift >= 0 else total << -shift), 2

    return _ziv(approx, scale, check_time)


# -- l(x) --------------------------------------------------------------------------------------

def _l(args: list[Num], scale: int, check_time: Check) -> int:
    x = args[0]
    if x.m == bn.pow10(x.scale):
        return 0
    # x = 2^k * y, y in [1/sqrt2, sqrt2)
    k = x.m.bit_length() - bn.pow10(x.scale).bit_length()

    def approx(bits: int) -> tuple[int, int]:
        r = max(8, math.isqrt(bits) // 3)  # square roots taken
        w = bits + r + max(abs(k), 1).bit_length() + 40
        one = 1 << w
        # y = x / 2^k at w bits
        sh = w - k
        y = (x.m << sh) // bn.pow10(x.scale) if sh >= 0 else x.m // (bn.pow10(x.scale) << -sh)
        kk = k
        while y * y > 2 << (2 * w):
            y >>= 1
            kk += 1
        while 2 * y * y < 1 << (2 * w):
            y <<= 1
            kk -= 1
        for _ in range(r):
            y = math.isqrt(y << w)
            check_time()
        t = ((y - one) << w) // (y + one)
        t2 = t * t >> w
        total = t
        p = t
        i = 1
        while p:
            p = _mul(p, t2, w)
            i += 2
            total += _div(p, i)
            check_time()
        ln = (total << (r + 1))
        if kk:
            ln += kk * _ln2(w, check_time)
        val = ln >> (w - bits)
        return val, 2

    return _ziv(approx, scale, check_time)


# -- s(x), c(x) --------------------------------------------------------------------------------

def _sincos(x: Num, bits: int, want_cos: bool, check_time: Check) -> tuple[int, int]:
    """``sin x`` or ``cos x`` at ``bits`` bits, error within 2 units."""
    h = max(8, math.isqrt(bits) // 4)  # angle halvings
    lx = _abs_log2(x) if x.m else -1.0
    extra = max(0, int(lx) + 4)
    w = bits + 2 * h + 40
    wp = w + extra + 8
    xr = _fixed(x, wp)
    if x.m < 0:
        xr = -xr
    half_pi = _pi(wp, check_time) >> 1
    k = (2 * xr + half_pi) // (2 * half_pi)  # round(x / (pi/2))
    r = (xr - k * half_pi) >> (wp - w)
    quadrant = (k + (1 if want_cos else 0)) % 4
    # sin and cos of r / 2^h by Taylor (t = r^i / i!), then double the angle h times
    rh = _div(r, 1 << h)
    one = 1 << w
    s = rh
    c = one
    t = rh
    i = 1
    while t:
        i += 1
        t = _div(_mul(t, rh, w), i)
        q4 = i % 4
        if q4 == 0:
            c += t
        elif q4 == 1:
            s += t
        elif q4 == 2:
            c -= t
        else:
            s -= t
        check_time()
    for _ in range(h):
        s, c = (2 * s * c) >> w, (c * c - s * s) >> w
        check_time()
    val = (s, c, -s, -c)[quadrant]
    return val >> (w - bits), 2


def _s(args: list[Num], scale: int, check_time: Check) -> int:
    x = args[0]
    if x.m == 0:
        return 0
    return _ziv(lambda b: _sincos(x, b, False, check_time), scale, check_time)


def _c(args: list[Num], scale: int, check_time: Check) -> int:
    x = args[0]
    if x.m == 0:
        return bn.pow10(scale)
    return _ziv(lambda b: _sincos(x, b, True, check_time), scale, check_time)


# -- a(x) --------------------------------------------------------------------------------------

def _a(args: list[Num], scale: int, check_time: Check) -> int:
    x = args[0]
    if x.m == 0:
        return 0
    big = abs(x.m) > bn.pow10(x.scale)
    neg = x.m < 0

    def approx(bits: int) -> tuple[int, int]:
        h = max(10, math.isqrt(bits) // 3)  # angle halvings
        w = bits + h + 40
        one = 1 << w
        if big:
            t = (bn.pow10(x.scale) << w) // abs(x.m)
        else:
            t = _fixed(x, w)
        # halve the angle: atan t = 2 atan(t / (1 + sqrt(1 + t^2)))
        for _ in range(h):
            t = (t << w) // (one + math.isqrt((one << w) + t * t))
            check_time()
        t2 = t * t >> w
        total = t
        p = t
        i = 1
        sign = -1
        while p:
            p = p * t2 >> w
            i += 2
            total += sign * (p // i)
            sign = -sign
            check_time()
        total <<= h
        if big:
            total = (_pi(w, check_time) >> 1) - total
        if neg:
            total = -total
        return total >> (w - bits), 2

    return _ziv(approx, scale, check_time)


# -- j(n, x) -----------------------------------------------------------------------------------

def _j(args: list[Num], scale: int, check_time: Check) -> int:
    n_arg, x = args
    n = n_arg.int_part()
    sign = 1
    if n < 0:
        n = -n
        if n % 2:
            sign = -sign
    if x.m == 0:
        return sign * bn.pow10(scale) if n == 0 else 0
    if x.m < 0 and n % 2:
        sign = -sign
    # J_n(x) = (x/2)^n / n! * S,  S = sum_k (-y^2)^k / (k! (n+1)...(n+k)),  y = |x| / 2
    ly = _abs_log2(x) - 1  # log2 y
    if n > 10 ** 9:
        if ly < 25:
            return 0
        raise NumberLimit("a Bessel function of so large an order")
    lf = n * ly - math.lgamma(n + 1) / math.log(2)  # log2 of the factor
    if ly > 40:
        raise NumberLimit(f"a math library result needing more than {MAX_WORK_BITS} bits")
    y2 = 2 ** (2 * ly)
    lm = y2 / (n + 1) / math.log(2)  # log2 of a bound of the terms of S
    a = abs(x.m)
    b = 2 * bn.pow10(x.scale)  # y = a / b

    def approx(bits: int) -> tuple[int, int]:
        if lf + lm < -bits - 16:
            return 0, 1
        nterms = int(2 * y2 ** 0.5) + bits + 16
        # f * (largest term of S) <= I_n(|x|) <= e^|x|
        w = bits + max(0, int(min(lf + lm, 2 ** ly * 2.8853900817779268))) + 2 * nterms.bit_length() + 48
        if w > MAX_WORK_BITS:
            raise NumberLimit(f"a math library result needing more than {MAX_WORK_BITS} bits")
        aa, bb = a * a, b * b
        t = 1 << w
        total = t
        k = 0
        while True:
            k += 1
            t = -_div(t * aa, bb * k * (n + k))
            total += t
            if t == 0 and k * (n + k) * bb > aa:
                break
            check_time()
        # times (a/b)^n / n!
        num = a ** n
        den = b ** n * math.factorial(n)
        val = (total * num) // (den << (w - bits))
        return sign * val, 3

    return _ziv(approx, scale, check_time)


_FUNCS: dict[str, Callable[[list[Num], int, Check], int]] = {
    "e": _e, "l": _l, "s": _s, "a": _a, "c": _c, "j": _j,
}
