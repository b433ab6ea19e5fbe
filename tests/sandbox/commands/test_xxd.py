"""xxd: differential tests against vim 9.0's xxd (2022-01-14): every dump style, columns,
groups, seeks, lengths, reverse (-r, -r -p) including round trips and garbage, output files,
NUL / invalid UTF-8 / empty / large inputs, usage errors."""

from __future__ import annotations

import random
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

DATA = b"abcdefgh\x00\xff\x80\n\tz"
FILES = {"in": DATA, "zeros": b"\0" * 100, "empty": b"", "7up": b"x" * 40, "big": bytes(range(256)) * 2,
         "dump": b"00000000: 6162 6364  abcd\n", "ps": b"6162\n  63 64\nzz65\n", "out": b"0123456789"}

HAND = [
    "in", "-p in", "-i in", "-b in", "-e in", "-u -g 1 in", "-c 5 in", "-l 3 -s 2 in", "-s -3 in", "-g 3 in",
    "-e -g 4 in", "-c 300 in", "-c 0 in", "-p -c 4 in", "-g 0 in", "-s 100 in", "-s +2 in", "-i -C -u in",
    "-b -c 3 -g 2 in", "-e -g 3 in", "-o 16 -d in", "-c 20 -g 5 in", "-s -100 in", "-q in", "-v", "-i -n foo in",
    "-a zeros", "-a in", "-a empty", "empty", "-i empty", "-p empty", "-i", "-i 7up", "-s 5", "-s -1", "-s 0x10 big",
    "-l 0x20 big", "-l 010 big", "-l -5 in", "-cols 4 in", "-c4 in", "-g", "-ps -c 3 in", "--p in", "-r dump",
    "-r -p ps", "-r -s 2 dump", "-r -b dump", "-r -i dump", "nope", "in out", "-r dump out", "-r -p ps out",
    "-r -s 4 dump out", "in - ", "a b c", "-- in", "-C -i 7up", "-capitalize -i 7up", "-u -p in", "-d -a zeros",
    "-e -c 6 in", "-b -a zeros", "-c 257 in", "-c -1 in", "-e -g 8 big", "-h", "-E in", "-E big", "-E -b in", "-E -u -c 8 big",
    # -ps -c 0: all on one line (the corpus's ``xxd -p -c 0 -l 40 core.md``), ended even when empty
    "-p -c 0 big", "-p -c 0 -l 40 big", "-p -c 0 empty", "-ps -c0 -u in", "-p -c -1 in", "-r -p -c 0 ps",
    "-i -c 0 in", "-b -c 0 in", "-e -c 0 in",
]


@pytest.mark.parametrize("args", HAND, ids=repr)
def test_hand_written(args: str) -> None:
    gts.compare(["xxd", *shlex.split(args)], stdin=DATA, files=FILES)


def _xxd(args: list[str], data: bytes) -> bytes:
    return subprocess.run(["xxd", *args], input=data, capture_output=True, timeout=30).stdout


def test_generated_dumps() -> None:
    gts.need("xxd")
    rng = random.Random("xxd")
    for _ in range(100):
        data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 150))) if rng.random() < 0.5 else gts.gen_input(rng, 6)
        if rng.random() < 0.15:
            data = b"\0" * rng.randint(0, 80) + data
        args: list[str] = []
        style = rng.choice(["", "-p", "-i", "-b", "-e"])
        if style:
            args.append(style)
        for opt, values in (("-c", [1, 3, 4, 8, 12, 16, 20, 32]), ("-g", [0, 1, 2, 3, 4, 8]), ("-l", [0, 5, 40]),
                            ("-s", [0, 3, 17, "+2"])):
            if rng.random() < 0.25:
                args += [opt, str(rng.choice(values))]
        for flag in ("-u", "-a", "-d"):
            if rng.random() < 0.15:
                args.append(flag)
        if rng.random() < 0.5:
            gts.compare(["xxd", *args, "f"], files={"f": data})
        else:
            gts.compare(["xxd", *args], stdin=data)


def test_generated_reverse() -> None:
    gts.need("xxd")
    rng = random.Random("xxd-r")
    for _ in range(80):
        data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 100)))
        ps = rng.random() < 0.4
        cols = rng.choice([4, 8, 16, 30])
        dump = _xxd((["-p"] if ps else []) + ["-c", str(cols)], data)
        if rng.random() < 0.3:
            lines = dump.split(b"\n")
            k = rng.randrange(len(lines))
            lines.insert(k, rng.choice([b"garbage here", b"", b"  ", b"zz", b"0x41"]))
            dump = b"\n".join(lines)
        if rng.random() < 0.2:
            dump = dump.replace(b"\n", b"\r\n")
        args = ["-r"] + (["-p"] if ps else []) + (["-c", str(cols)] if rng.random() < 0.7 else [])
        if rng.random() < 0.2:
            args += ["-s", str(rng.randint(0, 5))]
        gts.compare(["xxd", *args], stdin=dump)
