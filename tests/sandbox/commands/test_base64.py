"""base64 and base32: differential tests against GNU coreutils 9.1 (encoding with every wrap,
decoding valid, concatenated, truncated, padded-in-the-middle and garbage input, -i)."""

from __future__ import annotations

import base64 as b64
import random
import shlex
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

FILES = {"a": b"abc", "empty": b"", "bin": bytes(range(256)) * 3, "text": b"hello world\n" * 20}

HAND = [
    "a", "empty", "bin", "text", "-w 0 bin", "-w 1 a", "-w 3 a", "-w 4 a", "--wrap=10 text", "-w x a",
    "-w -1 a", "-w ' 5' a", "-w 5x a", "-w 1k a", "-w 99999999999999999999999 a", "-w 9223372036854775807 a",
    "-w +2 a", "a text", "missing", "sub", "-d sub", "-", "-d", "-di", "--decode", "--ignore-garbage -d",
    "-x", "--bogus", "-w", "--wr=3 a", "-- a", "-d missing",
]

DECODE_INPUTS = [
    b"YQ", b"YQ=", b"YQ==", b"YQ==YQ==", b"Y=Q=", b"YW Jj", b"YWJj\nZA==", b"!!", b"YWJjZA=", b"YWJ=",
    b"YWJjZGVm=Z", b"YWJj\r\n", b"YR==", b"YWJ\nj\n\n", b"\n\n", b"", b"=", b"====", b"YWJj====",
    b"Y\nW\nJ\nj", b"YWJj\x00", b"\xffYWJj", b"MFRGG===", b"MFRGG", b"MFRGGZA=", b"MZXW6===",
    b"mfrgg===", b"MFRGG=\n==", b"MF======", b"MFR=====", b"MFRG====", b"AA======", b"7777777=",
]


@pytest.mark.parametrize("prog", ["base64", "base32"])
@pytest.mark.parametrize("args", HAND, ids=repr)
def test_hand_written(prog: str, args: str) -> None:
    gts.compare([prog, *shlex.split(args)], stdin=b"stdin\x00data\n", files=FILES, dirs=["sub"])


@pytest.mark.parametrize("prog", ["base64", "base32"])
@pytest.mark.parametrize("data", DECODE_INPUTS, ids=repr)
def test_decode_edge_cases(prog: str, data: bytes) -> None:
    gts.compare([prog, "-d"], stdin=data)
    gts.compare([prog, "-d", "-i"], stdin=data)


def _noisy(rng: random.Random, text: bytes) -> bytes:
    out = bytearray(text)
    for _ in range(rng.randint(0, 4)):
        pos = rng.randint(0, len(out))
        out[pos:pos] = rng.choice([b"\n", b"\n\n", b"=", b"!", b" ", b"\r", b"\x00", b"\xff", b"-", b"A"])
    if out and rng.random() < 0.3:
        del out[rng.randrange(len(out))]
    return bytes(out)


@pytest.mark.parametrize("prog", ["base64", "base32"])
def test_generated(prog: str) -> None:
    gts.need(prog)
    rng = random.Random(f"basenc-{prog}")
    enc = b64.b64encode if prog == "base64" else b64.b32encode
    for _ in range(70):
        data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 300)))
        mode = rng.random()
        if mode < 0.35:
            args = rng.choice([[], ["-w", str(rng.randint(0, 90))], ["-w0"]])
            gts.compare([prog, *args], stdin=data)
        else:
            text = enc(data)
            if rng.random() < 0.5:
                text = b"\n".join(text[i:i + 76] for i in range(0, len(text), 76)) + b"\n"
            if mode < 0.5 and rng.random() < 0.5:
                text = text + enc(data[: rng.randint(0, 10)])
            if mode > 0.6:
                text = _noisy(rng, text)
            args = ["-d", *(["-i"] if rng.random() < 0.4 else [])]
            gts.compare([prog, *args], stdin=text)


@pytest.mark.parametrize("prog", ["base64", "base32"])
def test_large_round_trip(prog: str) -> None:
    data = bytes(random.Random(1).randrange(256) for _ in range(1 << 16)) * 12
    enc = b64.encodebytes(data) if prog == "base64" else b64.b32encode(data)
    gts.compare([prog, "f"], files={"f": data})
    gts.compare([prog, "-d", "f"], files={"f": enc})
