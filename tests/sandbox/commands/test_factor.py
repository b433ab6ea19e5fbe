"""factor: differential tests against GNU coreutils 9.1's factor (bytes and exit status), the
``-h`` form derived from GNU's plain output, and the time-limit bound on hard numbers."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox import Limits, Policy, Sandbox  # noqa: E402
from sandbox.commands.factor import _to_decimal, is_prime  # noqa: E402
from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.limits import Budget  # noqa: E402

BUDGET = Budget(Limits(seconds=600))


def compare(args: list[str], stdin: bytes = b"") -> None:
    """Ours and GNU agree on stdout, stderr and status."""
    gts.compare(["factor", *args], stdin=stdin)


def next_prime(n: int) -> int:
    """The least prime >= n (only used to build inputs; GNU judges the output)."""
    while not is_prime(n, BUDGET):
        n += 1
    return n


def number(rng: random.Random) -> str:
    """A number of one of many shapes and sizes, up to ~40 digits."""
    kind = rng.randrange(10)
    if kind == 0:
        n = rng.randrange(0, 1000)
    elif kind == 1:
        n = rng.randrange(1, 1 << rng.randint(10, 64))
    elif kind == 2:
        n = next_prime(rng.randrange(2, 10 ** rng.randint(2, 40)))
    elif kind == 3:
        n = next_prime(rng.randrange(2, 10 ** rng.randint(1, 12))) ** 2
    elif kind == 4:  # semiprime: one factor small enough for rho, the other up to 30 digits
        n = next_prime(rng.randrange(10 ** 3, 10 ** rng.randint(4, 9))) * next_prime(rng.randrange(2, 10 ** rng.randint(5, 30)))
    elif kind == 5:
        n = rng.choice([2, 3, 5, 7, 10, 6]) ** rng.randint(1, 120)
    elif kind == 6:
        n = 1
        for _ in range(rng.randint(1, 8)):
            n *= next_prime(rng.randrange(2, 10 ** rng.randint(1, 6)))
    elif kind == 7:
        n = rng.choice([2 ** 64 - 1, 2 ** 64, 2 ** 64 + 1, 2 ** 127 - 1, 2 ** 127, 2 ** 127 + 2, 2 ** 63, 2 ** 128 - 2])
    elif kind == 8:
        n = next_prime(rng.randrange(10 ** 5, 10 ** 7)) ** rng.randint(2, 5)
    else:
        n = rng.randrange(1, 10 ** rng.randint(1, 20))
    text = str(n)
    if rng.random() < 0.1:
        text = "0" * rng.randint(1, 5) + text
    if rng.random() < 0.05:
        text = " " * rng.randint(1, 3) + ("+" if rng.random() < 0.5 else "") + text
    return text


BAD = ["", "-1", "1.5", "0x10", "12a", "++3", "+", " ", "１２", "\xff", "1 2", "1e3", "٣", "+-1", " -2", "\t3"]


def test_generated_numbers() -> None:
    rng = random.Random(9100)
    for _ in range(300):
        args = [number(rng) for _ in range(rng.randint(1, 4))]
        if rng.random() < 0.1:
            args.insert(rng.randint(0, len(args)), rng.choice(BAD))
        if rng.random() < 0.3:
            compare([], stdin=rng.choice([" ", "\n", "\t", "  \n"]).join(args).encode() + rng.choice([b"", b"\n"]))
        else:
            compare(["--", *args] if any(a.startswith("-") for a in args) else args)


@pytest.mark.parametrize("args", [
    [], ["--"], ["0"], ["1"], ["2"], ["4"], ["007"], ["+12"], ["  +12"], ["12 "], [""], ["-5"], ["--", "-5"],
    ["\xff"], ["++1"], ["12", "x", "13"], ["--help"], ["--he"], ["--foo"], ["-x"], ["--version", "x"],
    [str(2 ** 127 - 1)], [str(2 ** 127)], [str(2 ** 128)], [str(2 ** 64 + 1)], [str(10 ** 40)],
    ["--foo", "--help"], ["-x", "--version"], ["9" * 40], [str(2 ** 200)], [str(3 ** 300)], ["1" + "0" * 4500], [str(2 ** 10000)], ["2" + "0" * 6000],
])
def test_operands(args: list[str]) -> None:
    if args[:1] in (["--help"], ["--he"]):
        gts.need("factor")
        ref = subprocess.run(["factor", *args], capture_output=True, env=gts.REF_ENV).stdout
        code, out, _ = run_command(["factor", *args])
        mine = out.replace(b"  -h, --exponents   print repeated factors in form p^e unless e is 1\n", b"")
        assert code == 0 and ref.startswith(mine)
        return
    if "--version" in args and args[0] == "--version":
        gts.need("factor")
        ref = subprocess.run(["factor", *args], capture_output=True, env=gts.REF_ENV).stdout
        code, out, _ = run_command(["factor", *args])
        assert code == 0 and ref.startswith(out)
        return
    compare(args)


@pytest.mark.parametrize("stdin", [
    b"", b"\n", b"12", b"12\n13\n", b"12\r\n13\r\n", b"  6\t8  9\n\n", b"12\x00ab 7\n", b"\x00\n",
    b"\xff\xfe 10\n", b"caf\xc3\xa9 4\n", b"1 2 3 4 5 6 7 8 9 10 11 12\n", b"+5\n-5\n5\n", b"\t\t\n 99",
    b"\v12\n", b"12\f\n", b"5" + b"0" * 5000 + b"\n", (b"123456789 " * 3000) + b"\n",
])
def test_stdin(stdin: bytes) -> None:
    compare([], stdin=stdin)


def _exponent_form(plain: bytes) -> bytes:
    """GNU's plain output rewritten as coreutils 9.2's ``-h`` prints it."""
    out = []
    for line in plain.splitlines(keepends=True):
        head, colon, rest = line.partition(b":")
        factors = rest.split()
        parts = []
        i = 0
        while i < len(factors):
            j = i
            while j < len(factors) and factors[j] == factors[i]:
                j += 1
            parts.append(factors[i] + (b"^%d" % (j - i) if j - i > 1 else b""))
            i = j
        out.append(head + colon + b"".join(b" " + p for p in parts) + b"\n")
    return b"".join(out)


@pytest.mark.parametrize("flag", ["-h", "--exponents", "--exp"])
def test_exponents(flag: str) -> None:
    gts.need("factor")
    rng = random.Random(flag)
    nums = [number(rng) for _ in range(60)] + ["0", "1", "1024", "360", str(2 ** 100 * 3 ** 5)]
    small = [n for n in nums if int(n) < 2 ** 127]  # one buffered stream: -h lines are shorter
    for group in [small] + [[n] for n in nums if int(n) >= 2 ** 127]:
        ref = subprocess.run(["factor", *group], capture_output=True, env=gts.REF_ENV)
        code, out, err = run_command(["factor", flag, *group])
        assert (code, out, err) == (ref.returncode, _exponent_form(ref.stdout), ref.stderr)


def test_hostile_semiprime_hits_time_limit() -> None:
    p, q = next_prime(10 ** 19 + 12345), next_prime(3 * 10 ** 19 + 777)
    box = Sandbox({}, policy=Policy(allow=frozenset({"factor"})), limits=Limits(seconds=1))
    result = box.run(f"factor {p * q}")
    assert result.exit_code == 124
    assert result.stderr.count(b"\n") == 1 and b"time limit" in result.stderr
    assert b"Traceback" not in result.stderr


def test_huge_prime_is_bounded() -> None:
    big = 2 ** 44497 - 1  # a Mersenne prime of 13395 digits: proving it takes long, bounded too
    box = Sandbox({}, policy=Policy(allow=frozenset({"factor"})), limits=Limits(seconds=0.5))
    result = box.run(f"factor {_to_decimal(big, BUDGET)}")
    assert result.exit_code in (0, 124)
    assert result.stderr.count(b"\n") <= 1 and b"Traceback" not in result.stderr


def test_too_many_digits_refused() -> None:
    code, out, err = run_command(["factor", "1" * 100_001])
    assert code == 1 and out == b""
    assert re.fullmatch(rb"factor: .* has more than 100000 digits: too large to factor in the sandbox\n", err)
