"""strings: differential tests against GNU binutils 2.40 on generated binary and text inputs
(NUL, invalid UTF-8, empty, large), every supported option and the errors."""

from __future__ import annotations

import random
import shlex
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

DATA = b"ab\x00hello world\x00xyz1234\n\tfoo bar\x01\xffsome text here\n"
FILES = {"st": DATA, "empty": b"", "utf": "caf\u00e9 ok \u2713 done\n".encode(), "tail": b"\x00\x00abcd",
         "wide": "hello wide\tworld\u0100x\n".encode("utf-16-le") + b"\x00" + "odd".encode("utf-16-be"),
         "wide4": "wide4 text\nmore".encode("utf-32-le") + "BE text".encode("utf-32-be"),
         "big": (b"x" * 3000 + b"\x00" + b"word" * 10 + b"\xff") * 50}

HAND = [
    "st", "-n 3 st", "-t d st", "-t x -n 2 st", "-t o st", "-a st", "-n 0 st", "-n x st", "nope", "-q st", "",
    "-f st st", "-3 st", "-td st", "-n 4 -- st", "-e s st", "-s , st", "-w st", "-e S utf", "utf", "-t q st",
    "-e q st", "-n 99999999999 st", "-t d -f st", "tail", "empty", "big", "-t x big", "-o st", "-d st", "-12 st",
    "--bytes=6 st", "--radix=x st", "--print-file-name st", "--output-separator='|' st", "--include-all-whitespace st",
    "-n 0x5 st", "-n 010 st", "-wn 2 st", "-f -", "-", "st nope st", "-e S -w utf", "-s '' st", "-n 1 st",
    "-e l wide", "-e b wide", "-e L wide4", "-e B wide4", "-e l -t x wide", "-e b -t d -n 2 wide", "-e L -w wide4",
    "-e l st", "-e B st",
]


@pytest.mark.parametrize("args", HAND, ids=repr)
def test_hand_written(args: str) -> None:
    gts.compare(["strings", *shlex.split(args)], stdin=DATA, files=FILES)


def test_generated() -> None:
    gts.need("strings")
    rng = random.Random("strings")
    for _ in range(100):
        pieces = []
        for _ in range(rng.randint(0, 12)):
            k = rng.random()
            if k < 0.4:
                pieces.append(bytes(rng.randrange(256) for _ in range(rng.randint(0, 10))))
            elif k < 0.7:
                pieces.append(gts.gen_line(rng, long_ok=False))
            else:
                pieces.append(rng.choice([b"\t", b"\n", b"\r\n", b"\x00", "é✓".encode(), b"\x7f", b" "]))
        data = b"".join(pieces)
        args = []
        if rng.random() < 0.5:
            args += ["-n", str(rng.randint(1, 8))]
        if rng.random() < 0.3:
            args += ["-t", rng.choice("odx")]
        for flag in ("-w", "-f", "-a"):
            if rng.random() < 0.15:
                args.append(flag)
        if rng.random() < 0.3:
            args += ["-e", rng.choice("sSlbLB")]
            if rng.random() < 0.5:
                data = data.decode("latin-1").encode(rng.choice(["utf-16-le", "utf-16-be", "utf-32-le"])) + data
        gts.compare(["strings", *args, "f"], files={"f": data})
