"""expr: differential tests against GNU coreutils 9.1's expr (stdout, stderr, exit status)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.limits import Limits  # noqa: E402


def check(args: list[str]) -> None:
    """Our expr and GNU's agree on status, stdout and stderr."""
    gts.need("expr")
    ref = subprocess.run(["expr", *args], capture_output=True, env=gts.REF_ENV, timeout=30)
    ours = run_command(["expr", *args])
    assert ours == (ref.returncode, ref.stdout, ref.stderr), f"expr {args!r}"


HAND = [
    "-1 + 2", "-- -1 + 2", "--", "-- --", "--help x", "-x", "--x", "1 + a", "1 / 0", "1 % 0",
    "a : (", "abc : a\\(b\\)", "( 1", "1 )", ")", "1 +", "length", "substr abc 2", "1 2",
    "a : b : c", "match", "0", "-0", "", "a & 0", "0 | ", " | ", "99999999999999999999 * 9999999999999",
    "+ length", "index abc", "quote x", "a < b", "1 :", "5 % -3", "-5 / 3", "-5 % 3", "éa : ..",
    "abc : \\(x\\)*", "substr héllo 2 3", "index héllo lé", "length héllo", "substr abc -1 2",
    "substr abc 0 2", "substr abc 2 99999999999999999999999", "substr abc 1 18446744073709551615",
    "substr abc 18446744073709551616 1", "a : \\(", "a : *a", "a : a\\{1", "10 < 9", "10 < 9a",
    "-0 = 0", "007 = 7", "007", "007 + 0", "1 | 1 / 0", "0 & 1 / 0", "( 1", "( 1 2", "a = ( b )",
    "+ +", "x : x*", "a\nb : a.b", "ab : \\(a\\)\\(b\\)", "abc : b", "abc : .*", "aaa : a\\+",
    "ab : a\\|b", "abc : \\(a\\)\\|x", "x : \\(a\\)\\|x", "match abc ab", "length length",
    "length + length", "substr", "index", "( )", "( ( 1 ) )", "1 - - 1", "a != b", "2 >= 10",
    "2 > 10", "b >= a", "'' = ''", "= = =", "* * *", "- - -", ": : :", "| | |", "& & &",
    "1 + 2 * 3", "( 1 + 2 ) * 3", "1 < 2 = 1", "3 - 2 - 1", "8 / 2 / 2", "0 | 0 & 1",
    "\udcff : .", "\udcff\udcfe : \\(.*\\)", "length \udcff", "index a\udcffb \udcff",
    "-1 * -1", "--1 + 1", "1.5 + 1", " 1 + 1", "+1 + 1", "1 + 1 +", "abc : a\\(x\\)\\?",
    "a : \\1", "a : [", "a : [[:foo:]]", "a : \\{1\\}", "b : [a-", "ab : a\\{2,1\\}",
]


@pytest.mark.parametrize("line", HAND)
def test_hand_written(line: str) -> None:
    check(line.split(" ") if line else [""])


TOKENS = ["1", "0", "-3", "12", "007", "-0", "abc", "b", "", "é", "a b", "99999999999999999999", "x*",
          "\\(.\\)", "^a", "a.c", "[0-9]*", "\\(b*\\)c", "length", "match", "index", "substr", "+",
          "(", ")", "|", "&", "<", "<=", "=", "==", "!=", ">=", ">", "-", "*", "/", "%", ":", "quote"]
BINARY = ["|", "&", "<", "<=", "=", "==", "!=", ">=", ">", "+", "-", "*", "/", "%", ":"]
ATOMS = ["1", "0", "-3", "12", "007", "-0", "abc", "b", "", "é", "99999999999999999999", "x*", "2",
         "\\(.\\)", "a.c", "[0-9]*", "\\(b*\\)c", "ab*", "5", "-17"]


def gen_expr(rng: random.Random, depth: int = 0) -> list[str]:
    """A random, mostly well-formed expression (sometimes with a stray token)."""
    r = rng.random()
    if depth > 3 or r < 0.3:
        return [rng.choice(ATOMS)]
    if r < 0.65:
        return gen_expr(rng, depth + 1) + [rng.choice(BINARY)] + gen_expr(rng, depth + 1)
    if r < 0.72:
        return ["("] + gen_expr(rng, depth + 1) + [")"]
    if r < 0.78:
        return ["length"] + gen_expr(rng, 9)
    if r < 0.84:
        return ["substr", rng.choice(ATOMS), rng.choice(["1", "2", "0", "-1", "9"]), rng.choice(["1", "3", "0", "x"])]
    if r < 0.9:
        return ["index", rng.choice(ATOMS), rng.choice(["a", "bc", "é", "0", "9"])]
    if r < 0.95:
        return ["match", rng.choice(ATOMS), rng.choice(ATOMS)]
    return ["+", rng.choice(TOKENS)]


@pytest.mark.parametrize("seed", range(4))
def test_generated(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        args = gen_expr(rng)
        if rng.random() < 0.15:
            args.insert(rng.randrange(len(args) + 1), rng.choice(TOKENS))
        check(args)


def test_huge_integers_are_exact_and_fast() -> None:
    big = "7" * 200_000
    code, out, _ = run_command(["expr", big, "*", big, "/", big])
    assert (code, out) == (0, big.encode() + b"\n")


def test_backtracking_regex_is_bounded() -> None:
    from sandbox.errors import LimitExceeded
    with pytest.raises(LimitExceeded):
        run_command(["expr", "a" * 40 + "b", ":", "\\(a*\\)*\\1b\\1c"], limits=Limits(seconds=0.5))


REGEX_PIECES = ["a", "b", ".", "*", "\\(", "\\)", "\\{1,2\\}", "[ab]", "[^a]", "^", "$", "\\+", "\\?", "\\|",
                "\\1", "é", "x", "[[:digit:]]", "\\.", "[", "]", "\\{", "\\}"]


@pytest.mark.parametrize("seed", range(2))
def test_generated_matches(seed: int) -> None:
    rng = random.Random(100 + seed)
    for _ in range(60):
        subject = "".join(rng.choice(["a", "b", "ab", "é", "1", "x", "\n", ".", ""]) for _ in range(rng.randint(0, 6)))
        pattern = "".join(rng.choice(REGEX_PIECES) for _ in range(rng.randint(1, 5)))
        check([subject, ":", pattern] if rng.random() < 0.7 else ["match", subject, pattern])
