"""expand and unexpand: differential tests against GNU coreutils 9.1."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import text_cmds_support as tcs  # noqa: E402

TEXT = (b"a\tb\tc\td\te\tf\n\t\tlead\n  \t x\ty\n\bq\tw\n\r\tz\nab\b\b\bc\td\nno tab\n\xc3\xa9\tx\n"
        b"        a       b\n    \t  x  y        z\nabcdefg h\nabcdefg  h\nabcdefg         h\n \t \t x\n"
        b"\b   \b    q\n  \r    w\ntrailing        \n                \n\x00\t\xff   x\r\nend  \t")

TAB_ARGS = [
    "", "-t 4", "-t 4,8,12", "-t 4,/8", "-t 4,+8", "-t +4", "-t /4", "-t 2,5", "-t 0", "-t 4,4", "-t 4,2",
    "-t /4,8", "-t 4,/8,+2", "-t +4,+8", "-t x", "-t 4x", "-t '1 2,3'", "-t ''", "-t /0", "-t 4,/0", "-t -1",
    "-4", "-4,8", "-2,+3", "-t 3 -t 7", "-t 99999999999999999999999", "-t 1", "-x", "--foo", "--tabs=3",
    "nonexist -", "-t", "-t 4/8", "-t 4+8",
]


@pytest.mark.parametrize("args", TAB_ARGS + ["-i", "-i -t 3", "--initial --tabs=2,6"], ids=repr)
def test_expand_matches_gnu(args: str) -> None:
    tcs.line(f"expand {args}", stdin=TEXT)


@pytest.mark.parametrize("args", TAB_ARGS + ["-a", "--all", "-t 4 --first-only", "-2 -4", "-2 , -4", "-3,5", "-t 2 -5", "--first-only -a", "-a -t 3"],
                         ids=repr)
def test_unexpand_matches_gnu(args: str) -> None:
    tcs.line(f"unexpand {args}", stdin=TEXT)


def test_inputs_form_one_stream() -> None:
    files = {"x1": b"ab", "x2": b"\tc\n  ", "x3": b"      d\n"}
    tcs.line("expand x1 x2 x3 -", stdin=b"\tq", files=files)
    tcs.line("unexpand -a x1 x2 x3 -", stdin=b"        q", files=files)


def _gen(rng: random.Random) -> bytes:
    lines = []
    for _ in range(rng.randint(0, 12)):
        parts = [rng.choice([b" ", b"  ", b"\t", b"    ", b"a", b"bc", b"defgh", b"\b", b"\xc3\xa9", b"x" * 9])
                 for _ in range(rng.randint(0, 10))]
        lines.append(b"".join(parts))
    return b"\n".join(lines) + (b"\n" if rng.random() < 0.8 else b"")


TAB_LISTS = [None, "4", "1", "3", "2,5,9", "4,/6", "3,+5", "/3", "+2", "8,16,24"]


def test_expand_generated() -> None:
    def make(rng: random.Random):
        argv = ["expand"]
        tab = rng.choice(TAB_LISTS)
        if tab:
            argv += ["-t", tab]
        if rng.random() < 0.3:
            argv.append("-i")
        return argv, _gen(rng) if rng.random() < 0.7 else tcs.gen_text(rng), None

    tcs.sweep(make, seed=99)


def test_unexpand_generated() -> None:
    def make(rng: random.Random):
        argv = ["unexpand"]
        tab = rng.choice(TAB_LISTS)
        if tab:
            argv += ["-t", tab]
        if rng.random() < 0.4:
            argv.append("-a")
        if rng.random() < 0.1:
            argv.append("--first-only")
        return argv, _gen(rng) if rng.random() < 0.7 else tcs.gen_text(rng), None

    tcs.sweep(make, seed=100)
