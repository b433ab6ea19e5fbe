"""seq: unit tests and differential tests against GNU coreutils."""

from __future__ import annotations

import random
import sys
from fractions import Fraction
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox.commands import seq  # noqa: E402
from sandbox.commands.testing import run_command  # noqa: E402


def test_simple_range() -> None:
    assert run_command(["seq", "3"]) == (0, b"1\n2\n3\n", b"")


def test_long_double_rounding_is_emulated() -> None:
    # 0.1 as an x87 long double is 0xC.CCCCCCCCCCCCCCDp-7.
    assert seq.strtold("0.1") == Fraction(0xCCCCCCCCCCCCCCCD, 2**67)


def test_zero_increment_is_refused() -> None:
    code, out, err = run_command(["seq", "1", "0", "3"])
    assert (code, out) == (1, b"")
    assert err.startswith("seq: invalid Zero increment value: \u20180\u2019\n".encode())


CASES = [
    "1", "0", "5", "3 7", "7 3", "1 2 10", "10 -3 -5", "1 0.1 1.3", "-w 1 0.5 3", "-w -1 1",
    "-w 8 10", "-w -- -10 3 5", "-f %.3e 1 3", "0.15 0.1 0.5", "-f %.1f 0.05 0.1 0.5",
    "1e2 1e2 5e2", "-s , 1 5", "-s ab 1 3", "-s= 1 3", "0x10 0x12", "-w 1.5e1 20", "1 -1", "-- -5 -3",
    "-1.5 -0.5 1", "-f %g 1e20 1e20 3e20", "-f %a 1 2", "-f %La 0.1 0.1", "-f %A 3 5",
    "-f x%%%gy 1 2", "-f %d 1", "-f %g%g 1", "-f % 1", "-f abc 1", "0 0", "1 0 3", "nan", "x",
    "1 2 3 4", "1.0 3", "1. 3", ".5 2", "-w .5 2", "-s -1 1 3", "5 -1 1", "-f %010.3f -2 0.7 2",
    "-f %-8gX 1 3", "-f %+#g 1 2", "-- -0 1", "1e-3 1e-3 5e-3", "0.000001 0.000001 0.000003",
    "-f %.20Lf 0.1 0.1", "-f %.25Lf 0.1 0.1", "-w -f %g 1", "", "-x 1", "--foo 1", "-w 0.1 0.01 0.15",
    "-f %E 12345 1e5 3e5", "-f %G 1e-5 1e-5 3e-5", "1.5e1 1e0 1.8e1", "-w 1e1 1e-1 1.05e1",
    "-w -5.5 2.25 4", "100000000000000000000000 100000000000000000000002",
    "18446744073709551615 18446744073709551617", "-f %.0f 0.5 1 4.5", "-f %#.0f 1 2",
    "-f %#x 1", "+3 +5", " 4 6", "1 0.3333 2", "-1 -1", "1 inf 3", "--format=%.2f 1 2",
    "--separator=: 1 3", "--equal-width 9 11", "-ws, 8 11", "1 1e-20 1",
]


@pytest.mark.parametrize("args", CASES, ids=repr)
def test_matches_gnu(args: str) -> None:
    gts.compare(["seq", *args.split()])


def test_matches_gnu_generated() -> None:
    rng = random.Random(5)
    numbers = ["0", "1", "2", "-1", "-3", "0.5", "0.25", "1.5", "-0.75", "0.1", "0.01", "3.0",
               "1e1", "2e-1", "1.5e2", ".3", "-.2", "10", "007", "0x3", "1.", "99", "0.05"]
    for _ in range(200):
        n = rng.randint(1, 3)
        args = [rng.choice(numbers) for _ in range(n)]
        if n == 3 and args[1].lstrip("-").strip("0.e") == "":
            args[1] = "1"
        opts: list[str] = []
        roll = rng.random()
        if roll < 0.2:
            opts.append("-w")
        elif roll < 0.4:
            opts += ["-f", rng.choice(["%g", "%.3f", "%08.2f", "%e", "%-6.1fX", "%+g", "%.12g"])]
        if rng.random() < 0.2:
            opts += ["-s", rng.choice([",", "--", " ", ""])]
        gts.compare(["seq", *opts, "--", *args])


def test_hostile_sizes_are_bounded() -> None:
    code, out, err = run_command(["seq", "-f", "%.99999999f", "1", "1"])
    assert code == 1 and out == b"" and b"not supported" in err
    code, out, _ = run_command(["seq", "9" * 5000, "9" * 5000])
    assert code == 0 and out == b"9" * 5000 + b"\n"


def test_exact_integer_loop_matches_long_double_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(31)
    numbers = ["0", "1", "-2", "0.5", "0.25", "-1.75", "3", "10", "0.125", "7.5", "-0.5"]
    cases = [[rng.choice(numbers) for _ in range(3)] for _ in range(150)]
    cases = [c for c in cases if float(c[1]) != 0]
    formats = [[], ["-f", "%.2f"], ["-f", "%g"], ["-f", "%e"], ["-w"], ["-f", "%a"], ["-f", "%.0f"]]
    fast = [run_command(["seq", *formats[i % len(formats)], "--", *c]) for i, c in enumerate(cases)]
    monkeypatch.setattr(seq, "_print_exact", lambda *args: False)
    slow = [run_command(["seq", *formats[i % len(formats)], "--", *c]) for i, c in enumerate(cases)]
    assert fast == slow
