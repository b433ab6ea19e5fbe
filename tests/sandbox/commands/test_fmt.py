"""fmt: differential tests against GNU coreutils 9.1 (its line-breaking costs, byte for byte)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import text_cmds_support as tcs  # noqa: E402

WORDS = ["the", "quick", "brown", "fox.", "jumps", "over", "(lazy)", "dog!", "a", "Mr.", '"quoted."', "end?",
         "x" * 12, "hello,", "world;", "caf\u00e9", "[note]", "it's", "e.g.", "--", "word)", "'single'"]


def paragraphs(rng: random.Random, count: int = 12, prefix: str = "") -> bytes:
    """Generated paragraphs: indents (spaces, tabs), sentence ends, blank lines, odd spacing."""
    out: list[str] = []
    for _ in range(count):
        first = rng.choice(["", "", "  ", "\t", "    ", " "])
        rest = rng.choice([first, first, "", "   ", "\t"])
        for k in range(rng.randint(1, 7)):
            joiner = rng.choice([" ", " ", " ", "  ", "\t", "   "])
            line = joiner.join(rng.choice(WORDS) for _ in range(rng.randint(0, 16)))
            out.append(prefix + (first if k == 0 else rest) + line + rng.choice(["", "", " ", "  "]))
        out.append(rng.choice(["", "", prefix, "   "]))
    data = "\n".join(out)
    if rng.random() < 0.8:
        data += "\n"
    if rng.random() < 0.1:
        data = data.replace("\n", "\r\n")
    return data.encode()


TEXT = paragraphs(random.Random(3))
HOSTILE = (b"a\x00b c\xff\xfe d\n\n\xc3\xa9t\xc3\xa9 is. Here  two\r\nlines\x0bwith\x0cform\n" + b"w " * 700
           + b"\n" + b"y" * 6000 + b" tail\n" + b"z " * 1200 + b"\nno newline at end")

ARGS = [
    "", "-w 40", "-u", "-s", "-c", "-t", "-w 30 -g 20", "-60", "-p '# '", "-u -w 50", "-c -w 30", "-t -w 25",
    "-w 0", "-w 2500", "-w 2501", "-w x", "-g 80", "-g 10", "-w 20 -g 30", "-w -1", "-1", "-10 -u", "-w 5 -3",
    "-p ''", "-p '  x'", "-p 'x  '", "-s -w 20", "-c -t", "-x", "--foo", "--width=33 --uniform-spacing",
    "--split-only --width 10", "--crown-margin --goal=30", "--tagged-paragraph --prefix=' '", "nonexist -",
]


@pytest.mark.parametrize("args", ARGS, ids=repr)
def test_matches_gnu(args: str) -> None:
    tcs.line(f"fmt {args}", stdin=TEXT)


@pytest.mark.parametrize("args", ["", "-w 20", "-s", "-u -w 60", "-p w"])
def test_hostile_input(args: str) -> None:
    tcs.line(f"fmt {args}", stdin=HOSTILE)


def test_prefixed_paragraphs() -> None:
    rng = random.Random(8)
    data = paragraphs(rng, 8, prefix="# ") + paragraphs(rng, 4) + paragraphs(rng, 4, prefix="  # ")
    for args in (["-p", "# "], ["-p", "#"], ["-p", "  # ", "-w", "30"], ["-w", "50"]):
        tcs.compare(["fmt", *args], stdin=data)


def test_files() -> None:
    tcs.line("fmt -w 30 a b - a", stdin=b"from stdin, a line of words\n",
             files={"a": b"\tfirst file.  Two spaces\n", "b": b"no newline"})


def test_generated() -> None:
    def make(rng: random.Random):
        argv = ["fmt"]
        if rng.random() < 0.7:
            argv += ["-w", str(rng.choice([10, 20, 30, 40, 50, 60, 75, 100]))]
        if rng.random() < 0.2:
            argv += ["-g", str(rng.randint(5, 10))]
        for flag in ("-u", "-s", "-c", "-t"):
            if rng.random() < 0.15:
                argv.append(flag)
        data = paragraphs(rng, rng.randint(1, 10)) if rng.random() < 0.85 else tcs.gen_text(rng)
        return argv, data, None

    tcs.sweep(make, seed=155)
