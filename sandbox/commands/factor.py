"""``factor``: print the prime factors of each number (GNU coreutils 9.1, arbitrary size).

Numbers come from the operands or, with none, from standard input as tokens separated by
space, tab and newline (GNU's ``readtoken``; a NUL ends a token's text). Each number may start
with spaces and one ``+``; anything else that is not an ASCII digit is
``factor: ‘x’ is not a valid positive integer`` (exit 1 at the end). Output is
``N: p1 p2 ...`` in ascending order, or with ``-h``/``--exponents`` (coreutils 9.2's option;
9.1 has none) ``p^e`` for repeated factors.

Factoring is trial division by the primes below 1000, a perfect-power check, BPSW primality and
Brent's variant of Pollard's rho, with ``ctx.budget.check_time()`` inside every loop (and a
Python-level modular power for huge moduli) so a hard number ends in the run's time limit
rather than hanging. A number of more than ``MAX_DIGITS`` digits is refused in one line.
"""

from __future__ import annotations

import math
from typing import Iterator

from sandbox.commands._quoting import quote
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_in_order
from sandbox.fs.base import FSError
from sandbox.limits import Budget

SPEC = OptionSpec("h", {"exponents": (NO_ARG, "h"), "help": (NO_ARG, "help"), "version": (NO_ARG, "version")})

USAGE = """Usage: factor [NUMBER]...
  or:  factor OPTION
Print the prime factors of each specified integer NUMBER.  If none
are specified on the command line, read them from standard input.

  -h, --exponents   print repeated factors in form p^e unless e is 1
      --help        display this help and exit
      --version     output version information and exit
"""

#: Longest number (in decimal digits) we try to factor; beyond it one line refuses it.
MAX_DIGITS = 100_000
#: Moduli above this many bits use the interruptible modular power.
_BIG_BITS = 4096
_DELIMS = b" \t\n"
_READ = 64 * 1024


def _small_primes(limit: int) -> list[int]:
    sieve = bytearray([1]) * limit
    sieve[0:2] = b"\0\0"
    for i in range(2, int(limit ** 0.5) + 1):
        if sieve[i]:
            sieve[i * i :: i] = bytes(len(range(i * i, limit, i)))
    return [i for i in range(limit) if sieve[i]]


_PRIMES = _small_primes(1000)
_MR_BASES_64 = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)


# -- decimal conversion beyond Python's 4300-digit str/int limit --------------------------------

def _from_decimal(digits: str, budget: Budget) -> int:
    """``int(digits)`` for any length (divide and conquer)."""
    if len(digits) <= 4000:
        return int(digits)
    budget.check_time()
    half = len(digits) // 2
    low = len(digits) - half
    return _from_decimal(digits[:half], budget) * 10 ** low + _from_decimal(digits[half:], budget)


def _to_decimal(n: int, budget: Budget, width: int = 0) -> str:
    """``str(n)`` for any size, zero-padded to ``width`` when given."""
    if n.bit_length() <= 13000:
        return str(n).rjust(width, "0")
    budget.check_time()
    digits = int(n.bit_length() * 0.30103) + 1
    low = digits // 2
    high, rest = divmod(n, 10 ** low)
    return _to_decimal(high, budget, max(0, width - low)) + _to_decimal(rest, budget, low)


# -- arithmetic ---------------------------------------------------------------------------------

def _powmod(base: int, exp: int, mod: int, budget: Budget) -> int:
    """``pow(base, exp, mod)``, checking the time limit per step when ``mod`` is huge."""
    if mod.bit_length() <= _BIG_BITS:
        return pow(base, exp, mod)
    result = 1
    base %= mod
    for bit in bin(exp)[2:]:
        budget.check_time()
        result = result * result % mod
        if bit == "1":
            result = result * base % mod
    return result


def _strong_probable_prime(n: int, a: int, budget: Budget) -> bool:
    d, s = n - 1, 0
    while not d & 1:
        d >>= 1
        s += 1
    x = _powmod(a, d, n, budget)
    if x == 1 or x == n - 1:
        return True
    for _ in range(s - 1):
        budget.check_time()
        x = x * x % n
        if x == n - 1:
            return True
    return False


def _jacobi(a: int, n: int) -> int:
    a %= n
    result = 1
    while a:
        while not a & 1:
            a >>= 1
            if n & 7 in (3, 5):
                result = -result
        a, n = n, a
        if a & 3 == 3 and n & 3 == 3:
            result = -result
        a %= n
    return result if n == 1 else 0


def _strong_lucas(n: int, budget: Budget) -> bool:
    """The strong Lucas probable-prime test with Selfridge's parameters (n odd, not a square)."""
    d = 5
    while True:
        j = _jacobi(d, n)
        if j == -1:
            break
        if j == 0 and abs(d) != n:
            return False
        d = -d - 2 if d > 0 else -d + 2
    p, q = 1, (1 - d) // 4
    k, s = n + 1, 0
    while not k & 1:
        k >>= 1
        s += 1
    # Compute U_k, V_k, Q^k mod n by binary expansion of k.
    u, v, qk = 0, 2, 1
    inv2 = (n + 1) // 2
    for bit in bin(k)[2:]:
        budget.check_time()
        u, v = u * v % n, (v * v - 2 * qk) % n
        qk = qk * qk % n
        if bit == "1":
            u, v = (p * u + v) * inv2 % n, (d * u + p * v) * inv2 % n
            qk = qk * q % n
    if u == 0 or v == 0:
        return True
    for _ in range(s - 1):
        v = (v * v - 2 * qk) % n
        qk = qk * qk % n
        if v == 0:
            return True
    return False


def is_prime(n: int, budget: Budget) -> bool:
    """Whether ``n`` is prime: deterministic Miller-Rabin below 2**64, BPSW above."""
    if n < 2:
        return False
    for p in _PRIMES[:25]:
        if n % p == 0:
            return n == p
    if n < 1 << 64:
        return all(_strong_probable_prime(n, a, budget) for a in _MR_BASES_64)
    if not _strong_probable_prime(n, 2, budget):
        return False
    if math.isqrt(n) ** 2 == n:
        return False
    return _strong_lucas(n, budget)


def _perfect_power(n: int, budget: Budget) -> tuple[int, int] | None:
    """(root, k) with root**k == n and k prime, or None."""
    for k in _PRIMES:
        if 1 << k > n:
            return None
        budget.check_time()
        root = _iroot(n, k)
        if root ** k == n:
            return root, k
    return None


def _iroot(n: int, k: int) -> int:
    """The integer k-th root of n (floor)."""
    if k == 2:
        return math.isqrt(n)
    x = 1 << ((n.bit_length() + k - 1) // k)
    while True:
        y = ((k - 1) * x + n // x ** (k - 1)) // k
        if y >= x:
            return x
        x = y


def _rho(n: int, budget: Budget) -> int:
    """A non-trivial factor of the odd composite ``n`` (Brent's cycle finding)."""
    step = 16 if n.bit_length() > _BIG_BITS else 128
    for c in range(1, 1 << 62):
        y, r, q, g = 2, 1, 1, 1
        x = ys = y
        while g == 1:
            x = y
            for i in range(r):
                if not i % step:
                    budget.check_time()
                y = (y * y + c) % n
            k = 0
            while k < r and g == 1:
                budget.check_time()
                ys = y
                for _ in range(min(step, r - k)):
                    y = (y * y + c) % n
                    q = q * abs(x - y) % n
                g = math.gcd(q, n)
                k += step
            r *= 2
        if g == n:
            g = 1
            while g == 1:
                budget.check_time()
                ys = (ys * ys + c) % n
                g = math.gcd(abs(x - ys), n)
        if g != n:
            return g
    raise AssertionError("unreachable")


def factorize(n: int, budget: Budget) -> list[int]:
    """The prime factors of ``n`` in ascending order, with repeats (none for 0 and 1)."""
    found: list[int] = []
    if n < 2:
        return found
    for p in _PRIMES:
        if p * p > n:
            break
        while n % p == 0:
            found.append(p)
            n //= p
    if n > 1:
        todo = [n]
        while todo:
            budget.check_time()
            m = todo.pop()
            if m < 1_000_000 or is_prime(m, budget):  # no factor below 1000: prime below 10**6
                found.append(m)
                continue
            power = _perfect_power(m, budget)
            if power is not None:
                todo.extend([power[0]] * power[1])
                continue
            d = _rho(m, budget)
            todo.extend([d, m // d])
    found.sort()
    return found


# -- the command --------------------------------------------------------------------------------

def _line(number: str, factors: list[int], exponents: bool, budget: Budget) -> bytes:
    parts = [number, ":"]
    i = 0
    while i < len(factors):
        j = i
        while j < len(factors) and factors[j] == factors[i]:
            j += 1
        text = _to_decimal(factors[i], budget)
        if exponents and j - i > 1:
            parts.append(f" {text}^{j - i}")
        else:
            parts.append(f" {text}" * (1 if exponents else j - i))
        i = j
    parts.append("\n")
    return "".join(parts).encode()


class _Output:
    """GNU factor's two output paths: lines of numbers below 2**127 gather in a buffer written
    in pieces of at most 512 bytes (whole lines) and at exit; a larger number's line (GMP's
    path, through stdio) is written at once. So ``factor 3 2^127`` prints 2^127's line first."""

    PIPE_BUF = 512

    def __init__(self, ctx: CommandContext):
        self.ctx = ctx
        self.buffered = b""

    def line(self, value: int, text: bytes) -> None:
        """Write one result line for ``value``."""
        if value >> 127:
            self.ctx.stdout.write(text)
            return
        self.buffered += text
        if len(self.buffered) >= self.PIPE_BUF:
            cut = self.buffered.rindex(b"\n", 0, self.PIPE_BUF) + 1
            self.ctx.stdout.write(self.buffered[:cut])
            self.buffered = self.buffered[cut:]

    def flush(self) -> None:
        """Write what is buffered (GNU: at exit)."""
        if self.buffered:
            self.ctx.stdout.write(self.buffered)
            self.buffered = b""


def _factor_one(ctx: CommandContext, out: _Output, raw: bytes, exponents: bool) -> bool:
    """Print one number's factors, or its error; False on error."""
    text = raw.lstrip(b" ")
    if text[:1] == b"+":
        text = text[1:]
    if not text or not all(48 <= c <= 57 for c in text):
        ctx.error(f"{quote(raw)} is not a valid positive integer")
        return False
    digits = text.lstrip(b"0").decode() or "0"
    if len(digits) > MAX_DIGITS:
        ctx.error(f"{quote(raw[:20] + b'...')} has more than {MAX_DIGITS} digits: "
                  "too large to factor in the sandbox")
        return False
    n = _from_decimal(digits, ctx.budget)
    out.line(n, _line(digits, factorize(n, ctx.budget), exponents, ctx.budget))
    return True


def _tokens(ctx: CommandContext) -> Iterator[bytes]:
    """Standard input's tokens (GNU ``readtoken`` with delimiters space, tab, newline)."""
    pending = b""
    table = bytes.maketrans(b"\t\n", b"  ")
    while True:
        block = ctx.stdin.read(_READ)
        if not block:
            break
        ctx.budget.check_time()
        words = (pending + block).translate(table).split(b" ")
        pending = words.pop()
        for word in words:
            if word:
                yield word
    if pending:
        yield pending


def run(ctx: CommandContext) -> int:
    """Run ``factor``."""
    parsed = parse_in_order(ctx, SPEC, USAGE, "factor (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    exponents = any(key == "h" for key, _ in opts)
    ok = True
    out = _Output(ctx)
    if operands:
        for operand in operands:
            ok &= _factor_one(ctx, out, operand.encode("utf-8", "surrogateescape"), exponents)
    else:
        try:
            for token in _tokens(ctx):
                ok &= _factor_one(ctx, out, token.split(b"\0", 1)[0], exponents)
        except FSError as err:
            out.flush()
            ctx.error(f"read error: {err}")
            return 1
    out.flush()
    return 0 if ok else 1
