"""hexdump: differential tests against util-linux 2.38 (default, -C -x -d -o -b -c and their
combinations, -n -s with size suffixes, * suppression, -v, partial blocks, errors, and -e/-f
format strings: hand-written and generated)."""

from __future__ import annotations

import random
import re
import shlex
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402

DATA = b"abcdefgh\x00\xff\x80\n\tz"
FILES = {"in": DATA, "zeros": b"\0" * 100, "empty": b"", "rep": b"a" * 57 + b"b", "bad": b"\xff\xfe\xc3(\xe2\x9c\x93\n"}

HAND = [
    "in", "-C in", "-x in", "-c in", "-d in", "-o in", "-b in", "-C -n 5 -s 2 in", "zeros", "-v zeros", "-C zeros",
    "empty", "-C empty", "nope", "-C nope in", "-s 100 in", "-n x in", "-q in", "-C -s 0x2 in", "-C -s 1k in",
    "-C in in", "-C -x in", "-x -C in", "-x -c rep", "-n -1 in", "-n 0 in", "-s -1 in", "-c bad", "-C bad", "",
    "-", "-C -", "-n 3", "-s 010 in", "-n 1KiB zeros", "-n 1KB zeros", "-s 1K zeros", "-s 5q in",
    "--canonical --length=4 in", "--skip=3 in", "--no-squeezing rep", "-bcCdox in", "-V",
    "--two-bytes-hex in", "nope nope",
]


@pytest.mark.parametrize("args", HAND, ids=repr)
def test_hand_written(args: str) -> None:
    gts.compare(["hexdump", *shlex.split(args)], stdin=DATA, files=FILES)


def test_generated() -> None:
    gts.need("hexdump")
    rng = random.Random("hexdump")
    for _ in range(100):
        kind = rng.random()
        if kind < 0.3:
            data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 120)))
        elif kind < 0.5:
            data = rng.choice([b"\0", b"ab", b"x"]) * rng.randint(0, 90)
        else:
            data = gts.gen_input(rng, 6)
        args = [f"-{c}" for c in rng.sample("Cxdobc", rng.randint(0, 2))]
        if rng.random() < 0.25:
            args += ["-n", str(rng.randint(0, 60))]
        on_file = rng.random() < 0.5
        if on_file and rng.random() < 0.4:  # -s on a pipe fails in util-linux; ours seeks when it can
            args += ["-s", str(rng.randint(0, 40))]
        if rng.random() < 0.2:
            args.append("-v")
        if on_file:
            gts.compare(["hexdump", *args, "f"], files={"f": data})
        else:
            gts.compare(["hexdump", *args], stdin=data)


FMT_DATA = b"abc\x00\x01\x7f\x80\xff d\n\t" + bytes(range(0, 256, 7)) + b"\x00" * 40 + b"\x3f\xf0" + b"\0" * 6
FMT_FILES = {"in": FMT_DATA, "hx": b"abc\x00\x01\x7f\x80\xff d\n\t", "empty": b"", "zeros": b"\0" * 70,
             "fmt": b'# comment\n\n  "%x\\n"\n\t4/1 "%02x" "\\n"\n', "fmt2": b'"%_ad: " 8/1 "%3_u" "\\n"',
             "blank": b"\n\n# only comments\n", "badfmt": b'"%y"\n'}

FORMAT_HAND = [
    ['16/1 "%_u|" "\n"', "hx"], ['3 "%x\n"', "hx"], ['"%_Ad|%_Ao|%4_Ax\n" "%x\n"', "hx"],
    ['4/1 "%3_c|" "\n"', "hx"], ['8/1 "%-4_u|" "\n"', "hx"], ['"%e\n"', "hx"], ['1/4 "%e\n"', "hx"],
    ['"%8.3f\n" "%g\n"', "hx"], ['1/8 "%G\n"', "hx"], ['"%s\n"', "hx"], ['2/4 "%5.1s|" "\n"', "hx"],
    ['"%c%c\n"', "hx"], ['/1 "%c%c\n"', "hx"], ['"%_p"', "hx"], ['"%ld\n"', "hx"], ['"%hhx"', "hx"],
    ['"%#o %+d % d %#X\n"', "hx"], ['1/1 "%_a " 1/1 "%x" "\n"', "hx"], ['3/1 "%x " 2 "%_ax "', "hx"],
    ['"[%_Ax] %x <\n"', "hx"], ['"%x\n" "%_Ax\n" "%d\n"', "hx"], ['"%_A" 4/1 "%x"', "hx"], ['"%_A"', "hx"],
    ['"%_Ax" 4/1 "%x"', "hx"], ['4/1 "%x" "%_A"', "hx"], ['"%_Ay" "%x"', "hx"], ['"%_cx" "%x"', "hx"],
    ['"%03_pX" "%x"', "hx"], ['"%_ax"', "hx"], ['"%x %_ax\n"', "hx"], ['4/1 "%02X" " %_ad\n"', "hx"],
    ['"100%%\n"', "hx"], ['"a\\"b" "%x"', "hx"], ['"\\x41|\\q|\\\\|\\a\\b\\f\\r\\t\\v|\\e" "%x\n"', "hx"],
    ['"%" "\n"', "hx"], ['"ab%"', "hx"], ['"%5"', "hx"], ['"%_"', "hx"], ['"%_a"', "hx"], ['4', "hx"],
    ['1/2 "%c"', "hx"], ['/2 "%x\n"', "hx"], ['3/ "%x\n"', "hx"], ['3/1"%x\n"', "hx"], ['"%x"3/1', "hx"],
    ['2/3 "%x"', "hx"], ['1/4 "%x %x"', "hx"], ['"%5.3s|"', "hx"], ['"%y"', "hx"], ['"%_z"', "hx"],
    ['"%_ay"', "hx"], ['"only text"', "hx"], ['"%.2s"', "hx"], ['"%x"', "empty"], ['"%_Ax\n" "%x"', "empty"],
    ['/8 "%016x\n"', "in"], ['/8 "%-20d|\n"', "in"], ['/8 "%u\n"', "in"], ['/8 "%o\n"', "in"], ['1/8 "%e\n"', "in"],
    ['/2 "%+6d|" "\n"', "in"], ['/1 "%#5x|%#o|" "\n"', "in"], ['"%08.3d|%-8.3i|%.0d|\n"', "zeros"],
    ['"%_ad %_ao %_ax\n" 4/1 "%3d"', "in"], ['8/1 "%02x" "\n"', "zeros"], ['"%.0e|%#.0f|%+.3g|%010.2f|%-12e|\n"', "in"],
    ['1/4 "%f\n"', "in"], ['"%10.4_c|%-3_p|%.2_u|" "\n"', "in"], ['""', "hx"], ['"  "', "hx"], ['   ', "hx"],
    ['2/1 "%x" 2/1 "[%x]\n"', "in"], ['1/1 "%x" "\n" 1/1 "(%x)\n"', "hx"], ['2 "%x\t"', "hx"],
    ['"\\', "hx"], ['"x\\"', "hx"],
    # specs glibc's printf cannot parse are printed as written
    ['"%5-d\n"', "hx"], ['"%1 2x|\n"', "hx"], ['"%5-f\n"', "hx"], ['"%1 2_p|\n"', "hx"], ['"%2-c|\n"', "hx"],
    ['"%3-_u|\n"', "hx"], ['"%1-.2s|\n"', "hx"], ['"%3.x|\n"', "hx"], ['4/1 "%1 2_c|" "\n"', "in"],
    ['4/1 "%1 2_u|" "\n"', "in"], ['3/1 "%1 2x|" "\n"', "hx"], ['3/1 "% 1 2x|" "\n"', "hx"], ['"%.3.2s|\n"', "hx"],
]


@pytest.mark.parametrize("case", FORMAT_HAND, ids=repr)
def test_format_strings_hand_written(case: list[str]) -> None:
    fmt, name = case
    gts.compare(["hexdump", "-e", fmt, name], files=FMT_FILES)


@pytest.mark.parametrize("args", [
    "-e '\"%x\\n\"' -e '\"%_ad\\n\"' hx", "-C -e '4/1 \"%02x\" \"\\n\"' hx", "-e '4/1 \"%02x\" \"\\n\"' -C hx",
    "-x -e '\"%d\\n\"' -c hx", "-b -d -o -e '\"%x\\n\"' hx", "-f fmt hx", "-f fmt2 in", "-f blank hx", "-f badfmt hx",
    "-f nofile hx", "-f . hx", "-f fmt -e '\"%_Ax\\n\"' hx", "-e '\"%x\\n\"' -n 6 hx", "-e '\"%x\\n\"' -n x hx",
    "-n x -e '\"%y\"' hx", "-e '\"%y\"' -e bad hx", "-e '\"%y\"' -n x hx", "-e '\"%x\\n\"' -s 5 hx",
    "-e '\"%_Ad\\n\" \"%x\"' -s 100 hx", "-e '\"%_Ad\\n\"' -s 3 hx", "-e '4/1 \"%02x\" \"\\n\"' zeros",
    "-v -e '4/1 \"%02x\" \"\\n\"' zeros", "-e '\"%_ad \" 4/1 \"%02x\" \"\\n\"' -e '\"%_Ad\\n\"' zeros",
    "-e '\"%_ad \" 4/1 \"%02x\" \"\\n\"' -e '\"%_Ad\\n\"' -n 12 zeros", "-e '8/1 \"%02x\" \"\\n\"' -n 16 zeros",
    "-e '\"%x\\n\"' hx hx", "-e '\"%x\\n\"' nope hx", "-e '\"%x\\n\"' nope", "-e '\"%x\\n\"' empty",
    "-e '\"%_Ax\\n\"' empty", "-e '\"%x\"' -C -n 0 hx", "-e '\"%_Ax\\n\"' -n 0 -s 4 hx", "-e '\"%x\\n\"' -s 1k zeros",
    "-C -s 3 -n 20 -e '\"%_Ad\\n\"' in", "-x -e '\"\\n\"' in", "-e '\"%07.7_ax \" 8/2 \"%04x \" \"\\n\"' in",
], ids=repr)
def test_format_strings_with_options(args: str) -> None:
    gts.compare(["hexdump", *shlex.split(args)], files=FMT_FILES)


def test_format_from_stdin() -> None:
    gts.compare(["hexdump", "-e", '4/1 "%02x " "\\n"'], stdin=FMT_DATA)
    gts.compare(["hexdump", "-e", '"%_ad:" 4/1 " %3_c" "\\n"', "-v"], stdin=b"\0" * 33)


_INT_COUNTS = [None, 1, 2, 4, 8]


def _random_unit(rng: random.Random) -> str:
    """A random format unit that util-linux accepts (mostly) or refuses (sometimes)."""
    kind = rng.random()
    width = rng.choice(["", "", "3", "5", "-4", "08", "12", "-1"] + (["1 2", "5-"] if rng.random() < 0.1 else []))
    flags = rng.choice(["", "", "", "#", "+", " ", "0"])
    prec = rng.choice(["", "", "", ".2", ".0", ".5"])
    text = rng.choice(["", " ", "|", ", ", "\\t", "<", ":"])
    if kind < 0.45:
        conv = rng.choice("diouxX")
        bcnt = rng.choice(_INT_COUNTS + [3] * (rng.random() < 0.05))
        spec = f"%{flags}{width}{prec}{conv}"
    elif kind < 0.55:
        conv = rng.choice("eEfgG")
        bcnt = rng.choice([None, 4, 8])
        spec = f"%{flags}{width}{rng.choice(['', '.3', '.0', '.10'])}{conv}"
    elif kind < 0.75:
        conv = rng.choice(["c", "_c", "_p", "_u"])
        bcnt = rng.choice([None, 1])
        spec = f"%{width.replace('0', '')}{conv}"
    elif kind < 0.85:
        bcnt = rng.choice([None, 2, 4])
        spec = f"%{width.replace('0', '')}.{rng.randint(1, 6)}s"
    else:
        bcnt = None
        spec = f"%{rng.choice(['', '06.6', '8', '-5'])}_a{rng.choice('dox')}"
    reps = rng.choice(["", "", "2", "4", "8", "16"])
    prefix = reps
    if bcnt is not None:
        prefix += f"/{bcnt}"
    trail = rng.choice(["", " ", "\\n", "  ", "|"])
    return f'{prefix} "{text}{spec}{trail}"'.strip()


def _random_format(rng: random.Random) -> str:
    units = [_random_unit(rng) for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.3:
        units.insert(0, rng.choice(['"%_ad: "', '"%07.7_ax "', '"%_ao "']))
    if rng.random() < 0.7:
        units.append('"\\n"')
    return " ".join(units)


def _reads_past_end(args: list[str]) -> bool:
    """A string util-linux reads past the end of (a unit ending in ``%`` and flags: its
    strchr(spec, c) finds the NUL), reporting whatever byte follows in memory."""
    from sandbox.commands.hexdump import HexFormatError, add_fmt

    for flag, value in zip(args, args[1:]):
        if flag != "-e":
            continue
        try:
            fus = add_fmt(value)
        except HexFormatError:
            return False
        for fu in fus:
            m = re.search(r"%([.#\-+ 0-9]*)$", fu.fmt)
            if m and (fu.bcnt or "." not in m.group(1)):
                return True
    return False


@pytest.mark.parametrize("seed", range(4))
def test_format_strings_generated(seed: int) -> None:
    gts.need("hexdump")
    rng = random.Random(f"hexdump-e-{seed}")
    for _ in range(30):
        kind = rng.random()
        if kind < 0.4:
            data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 70)))
        elif kind < 0.6:
            data = rng.choice([b"\0", b"ab", b"x", b"\xff\x7f"]) * rng.randint(0, 60)
        else:
            data = gts.gen_input(rng, 4)
        args = []
        for _ in range(rng.randint(1, 2)):
            args += ["-e", _random_format(rng)]
        if rng.random() < 0.25:
            args += ["-e", rng.choice(['"%_Ad\\n"', '"end %_Ax\\n"', '"%08_Ao\\n"'])]
        if rng.random() < 0.15:
            args.insert(rng.randrange(len(args) + 1), rng.choice(["-C", "-x", "-c", "-b", "-d", "-o"]))
        if rng.random() < 0.25:
            args += ["-n", str(rng.randint(0, 50))]
        if rng.random() < 0.25:
            args += ["-s", str(rng.randint(0, 20))]
        if rng.random() < 0.3:
            args.append("-v")
        if _reads_past_end(args):
            continue  # undefined behaviour in util-linux (pinned by the "%A" hand cases)
        gts.compare(["hexdump", *args, "f"], files={"f": data})
