"""column: differential tests against util-linux 2.38."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import text_cmds_support as tcs  # noqa: E402

FILES = {"t1": b"a b c\nddd  e\n\n  \nfff g h i\n", "t2": b"a b\n", "em": b"",
         "s100": b"".join(b"%d\n" % i for i in range(1, 101))}
TEXT = (b"a\n  \n\n  b\nc  \n\xe4\xb8\xad\xe6\x96\x87\nx\ty\nq\r\na\xffb c\na\x00b c\nd\re f\n\tg\x0bh i\n"
        b"\xe2\x80\x8bz q\na,;b\n,,b,\nlast no newline")

ARGS = [
    "", "-c 30", "-x", "-x -c 40", "-t", "-t -s ' '", "-t -o '|'", "-t -s ,;", "-t -s ''", "-t -o ''", "-c 0",
    "-c x", "-c -5", "-c 5", "-t -c 10", "--foo", "t1", "t1 nonexist", "-t t1 nonexist", "-t nonexist",
    "nonexist", "em nonexist", "-t t1 t2", "-", "-c 200", "-x -c 17", "s100", "-x s100", "-c 120 s100",
    "-c 7 s100", "-t -s , -o ' | '", "--table --separator=: --output-separator=::", "--fillrows --output-width 50",
    "-c", "-V", "--version", "-c 99999999999", "-c ' 40'", "-c +40",
]


@pytest.mark.parametrize("args", ARGS, ids=repr)
def test_matches_util_linux(args: str) -> None:
    tcs.line(f"column {args}", stdin=TEXT, files=FILES)


def test_columns_environment() -> None:
    tcs.compare(["column", "s100"], files=FILES, env={"COLUMNS": "30"})
    tcs.compare(["column", "-x", "s100"], files=FILES, env={"COLUMNS": "200"})


WORDS = [b"a", b"bb", b"ccc", b"dddddddd", b"e" * 15, b"\xc3\xa9t\xc3\xa9", b"\xe4\xb8\xad", b"x,y", b"1:2",
         b"", b" ", b"\t", b"\xff", b"long entry with spaces"]


def test_generated() -> None:
    def make(rng: random.Random):
        lines = []
        for _ in range(rng.randint(0, 30)):
            sep = rng.choice([b" ", b"  ", b"\t", b",", b":"])
            lines.append(sep.join(rng.choice(WORDS) for _ in range(rng.randint(1, 5))))
        data = b"\n".join(lines) + (b"\n" if rng.random() < 0.8 else b"")
        argv = ["column"]
        if rng.random() < 0.5:
            argv.append("-t")
            if rng.random() < 0.5:
                argv += ["-s", rng.choice([",", ":", ",:", " "])]
            if rng.random() < 0.3:
                argv += ["-o", rng.choice(["|", " ", " : "])]
        elif rng.random() < 0.4:
            argv.append("-x")
        if rng.random() < 0.5:
            argv += ["-c", str(rng.choice([10, 20, 30, 40, 60, 80, 100]))]
        return argv, data, None

    tcs.sweep(make, seed=111)
