"""wc: unit tests and differential tests against GNU coreutils."""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox.commands import wc  # noqa: E402
from sandbox.commands.testing import run_command  # noqa: E402


def test_default_counts_from_pipe_use_width_7() -> None:
    assert run_command(["wc"], stdin=b"a b\nc\n") == (0, b"      2       3       6\n", b"")


def test_single_count_single_file_has_width_1() -> None:
    assert run_command(["wc", "-l", "f"], files={"f": b"1\n2\n"}) == (0, b"2 f\n", b"")


def test_missing_file_and_total() -> None:
    code, out, err = run_command(["wc", "-c", "f", "nope"], files={"f": b"abc"})
    assert (code, out, err) == (1, b"3 f\n3 total\n", b"wc: nope: No such file or directory\n")


def test_words_span_chunk_edges() -> None:
    counter = wc._Counter(True, True, True)
    for piece in [b"ab", b"c d", b"\xc3", b"\xa9 ", b"x"]:
        counter.feed(piece)
    counter.feed(b"", final=True)
    assert (counter.counts.words, counter.counts.chars, counter.counts.max_line) == (3, 8, 8)


FILES = {
    "empty": b"",
    "plain": b"one two\nthree\n",
    "nofinal": b"a b c",
    "crlf": b"x y\r\nzz\r\n",
    "utf8": "na\u00efve caf\u00e9 \u4e2d\u6587\tx\n\u3000y\u00a0z\n".encode(),
    "bad": b"\xff\xfe a\x00b \x01\n\xe2\x82",
    "long": b"w " * 5000 + b"\n" + b"\tq" * 300,
}

OPTION_SETS = [[], ["-l"], ["-w"], ["-c"], ["-m"], ["-L"], ["-lw"], ["-cm"], ["-lwmcL"],
               ["--lines", "--words"], ["--bytes"], ["--chars"], ["--max-line-length"], ["-Lc"]]


@pytest.mark.parametrize("opts", OPTION_SETS, ids=repr)
def test_matches_gnu_on_files(opts: list[str]) -> None:
    for name in FILES:
        gts.compare(["wc", *opts, name], files=FILES)
        gts.compare(["wc", *opts], stdin=FILES[name])
    gts.compare(["wc", *opts, *FILES], files=FILES)
    gts.compare(["wc", *opts, "plain", "-", "missing", "utf8"], stdin=b"s t\n", files=FILES)


@pytest.mark.parametrize("args", [["-x"], ["--foo"], ["--lines=3"], ["missing"], ["missing", "plain"],
                                  ["-l", "--", "-"], ["--w", "plain"], ["--", "--lines"]], ids=repr)
def test_matches_gnu_errors(args: list[str]) -> None:
    gts.compare(["wc", *args], stdin=b"a\n", files=FILES)


def test_matches_gnu_generated() -> None:
    rng = random.Random(7)
    letters = "lwcmL"
    for case in range(150):
        data = gts.gen_input(rng)
        opts = "".join(rng.sample(letters, rng.randint(0, 3)))
        args = [f"-{opts}"] if opts else []
        if case % 2:
            gts.compare(["wc", *args, "f"], files={"f": data})
        else:
            gts.compare(["wc", *args], stdin=data)


def test_matches_gnu_every_unicode_class_sample() -> None:
    rng = random.Random(11)
    samples = [0x85, 0xA0, 0xAD, 0x300, 0x378, 0x1680, 0x180E, 0x2000, 0x2007, 0x200B, 0x2028,
               0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF, 0xFF01, 0x1F600, 0xE000, 0xF0000, 0x10FFFD,
               0x1100, 0x1160, 0x4E00, 0xD7A3, 0x0E31]
    for combo in itertools.combinations(samples, 2):
        text = "a" + chr(combo[0]) + "b" + chr(combo[1]) + "\tc\n" + chr(rng.choice(samples))
        gts.compare(["wc", "-wmL"], stdin=text.encode())


def test_streams_across_chunk_edges() -> None:
    from sandbox.commands._textutil import CHUNK

    data = b"w" * (CHUNK - 1) + "\u00e9".encode() + b" x\n"
    expected = b"      1       2 %7d %7d\n" % (CHUNK + 3, CHUNK + 2)
    assert run_command(["wc", "-lwmL"], stdin=data) == (0, expected, b"")


@pytest.mark.parametrize("argv", [["wc", "dd"], ["wc", "-l", "dd", "f"]], ids=repr)
def test_matches_gnu_on_directories(argv: list[str]) -> None:
    gts.compare(argv, files={"f": b"x y\n"}, dirs=["dd"])


NAMES0 = {"plain": FILES["plain"], "utf8": FILES["utf8"], "list": b"plain\0utf8\0", "one": b"plain\0",
          "odd": b"plain\0\0missing\0-\0utf8", "dash": b"-\0plain\0"}


@pytest.mark.parametrize("args", [
    ["--files0-from=list"], ["-l", "--files0-from", "one"], ["--files0-from=one"], ["-c", "--files0-from=odd"],
    ["--files0-from=dash"], ["--files0-from=-"], ["-lw", "--files0-from=-"], ["--files0-from=nosuch"],
    ["--files0-from=list", "plain"], ["--files0-from=dd"], ["--files0-from"],
], ids=repr)
def test_files0_from_matches_gnu(args: list[str]) -> None:
    """``find ... -print0 | wc --files0-from=-`` (the file corpus): names from a file or stdin
    (then width 1: GNU does not stat a stream's names first), empty names, ``-``, errors."""
    for stdin in (b"plain\0utf8\0", b"plain\0-\0", b"utf8", b""):
        gts.compare(["wc", *args], stdin=stdin, files=NAMES0, dirs=["dd"])
