"""basenc: differential tests against GNU coreutils 9.1's basenc (stdout, stderr, status) on
generated and hand-written inputs for every encoding, -d, -i and -w."""

from __future__ import annotations

import base64
import random
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

ENCODINGS = ["base64", "base64url", "base32", "base32hex", "base16", "base2msbf", "base2lsbf", "z85"]


def compare(args: list[str], stdin: bytes = b"", files: dict[str, bytes] | None = None,
            dirs: list[str] | None = None) -> None:
    """Ours and GNU agree."""
    gts.compare(["basenc", *args], stdin=stdin, files=files, dirs=dirs)


def encoded(encoding: str, data: bytes) -> bytes:
    """GNU's own encoding of ``data`` (unwrapped), the raw material for decode cases."""
    gts.need("basenc")
    if encoding == "z85":
        data = data[: len(data) - len(data) % 4]
    return subprocess.run(["basenc", f"--{encoding}", "-w0"], input=data, capture_output=True,
                          env=gts.REF_ENV, check=True).stdout


def mangle(rng: random.Random, text: bytes) -> bytes:
    """Encoded text with hostile edits: newlines, CRLF, garbage, '=', truncation, case."""
    text = bytearray(text)
    for _ in range(rng.randint(0, 4)):
        kind = rng.randrange(8)
        pos = rng.randint(0, len(text))
        if kind == 0:
            text[pos:pos] = b"\n"
        elif kind == 1:
            text[pos:pos] = b"\r\n"
        elif kind == 2:
            text[pos:pos] = bytes([rng.choice(b"*+/-_ =\x00\xff~.#abcxyzWXYZ89")])
        elif kind == 3 and text:
            del text[rng.randrange(len(text)):]
        elif kind == 4:
            text = bytearray(text.lower()) if rng.random() < 0.5 else text
        elif kind == 5:
            text[pos:pos] = b"=" * rng.randint(1, 3)
        elif kind == 6 and text:
            text[rng.randrange(len(text))] = rng.randrange(256)
        else:
            text += b"\n"
    return bytes(text)


def raw_data(rng: random.Random) -> bytes:
    kind = rng.randrange(5)
    if kind == 0:
        return b""
    if kind == 1:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 40)))
    if kind == 2:
        return gts.gen_input(rng)
    if kind == 3:
        return rng.randbytes(rng.choice([4, 8, 12, 3, 5, 1000, 30720, 30721, 30724, 61441]))
    return b"hello world\n" * rng.randint(1, 50)


def test_generated_encode() -> None:
    rng = random.Random(85)
    for _ in range(80):
        enc = rng.choice(ENCODINGS)
        args = [f"--{enc}"]
        if rng.random() < 0.6:
            args.append(rng.choice(["-w0", "-w1", "-w3", "-w76", "-w 5", "--wrap=64", "-w100000"]))
        compare(shlex.split(" ".join(args)), stdin=raw_data(rng))


def test_generated_decode() -> None:
    rng = random.Random(58)
    for _ in range(120):
        enc = rng.choice(ENCODINGS)
        text = encoded(enc, raw_data(rng))
        if rng.random() < 0.3:
            step = rng.randint(1, 80)
            text = b"\n".join(text[i:i + step] for i in range(0, len(text), step)) + b"\n"
        if rng.random() < 0.6:
            text = mangle(rng, text)
        args = [f"--{enc}", rng.choice(["-d", "--decode", "-di"])]
        if rng.random() < 0.3:
            args.append("-i")
        compare(args, stdin=text)


@pytest.mark.parametrize("enc", ENCODINGS)
@pytest.mark.parametrize("stdin", [
    b"", b"a", b"ab", b"abc", b"abcd", b"abcde", b"hello\r\nworld\r\n", b"no final newline",
    b"bad \xff\xfe utf8 \xc3\n", b"\x00\x00\x00\x00", b"\xff" * 8,
])
def test_encode_inputs(enc: str, stdin: bytes) -> None:
    compare([f"--{enc}"], stdin=stdin)


DECODE_CASES = {
    "base64": [b"YWJj", b"YWJj\n", b"YW Jj", b"YWJ", b"YQ==", b"YQ=", b"YQ==YQ==", b"Y_-J", b"YW\r\nJj\r\n"],
    "base64url": [b"YWJj", b"-_-_", b"QUJD+w==", b"QUJD_w==", b"QUJD-w==", b"YQ==\n", b"YW*Jj"],
    "base32": [b"MFRGG===", b"MFRGG", b"mfrgg===", b"MFRG G===", b"MFRGG===\r\n", b"ME======"],
    "base32hex": [b"C5H66===", b"C5H66", b"WXYZ====", b"c5h66===", b"G0", b"C5H6\n6===\n"],
    "base16": [b"414243", b"41424", b"41 42", b"4a", b"4A\n4B\n", b"41=", b"4G", b"\r\n41"],
    "base2msbf": [b"01000001", b"0100000", b"01000001\n01000010", b"01000002", b"0100 0001", b"01000001="],
    "base2lsbf": [b"10000010", b"1000001", b"10000010\r\n", b"100000102"],
    "z85": [b"vpAZ(", b"vpAZ", b"vpAZ(\nvpAZ(", b"%%%%%", b"#####", b"vp\"Z(", b"vpAZ( ", b"0000000000"],
}


@pytest.mark.parametrize("enc,stdin", [(e, s) for e, cases in DECODE_CASES.items() for s in cases])
@pytest.mark.parametrize("flags", [["-d"], ["-d", "-i"]])
def test_decode_hand_written(enc: str, stdin: bytes, flags: list[str]) -> None:
    compare([f"--{enc}", *flags], stdin=stdin)


def test_base64url_rejects_whole_read() -> None:
    """A '+' in the second 5600-byte read: GNU writes the first read only."""
    text = base64.urlsafe_b64encode(bytes(range(256)) * 40)
    assert len(text) > 11200
    for pos in (10, 5599, 5600, 6000, 11199, 11200):
        compare(["--base64url", "-d"], stdin=text[:pos] + b"+" + text[pos:])
    compare(["--base64url", "-d", "-i"], stdin=text[:6000] + b"+/" + text[6000:])


def test_z85_long_bad_length() -> None:
    for size in (30721, 61439, 30720 * 3 + 2):
        compare(["--z85"], stdin=bytes(range(256)) * (size // 256) + b"x" * (size % 256))
        compare(["--z85", "-w", "50"], stdin=b"a" * size)


def test_large_round_trip() -> None:
    data = random.Random(1).randbytes(200_000)
    for enc in ENCODINGS:
        compare([f"--{enc}"], stdin=data)
        compare([f"--{enc}", "-d"], stdin=encoded(enc, data))


@pytest.mark.parametrize("args", [
    "", "-d", "--base64 a b", "-w x --base64", "--base64 -w -1", "--base64 -w 99999999999999999999999",
    "--base64 -w ' 5'", "--base64 -w 5x", "--foo", "-x", "--base", "--base6", "--base16 --base64",
    "--base64 --base16", "--base64 missing", "--base64 -- -", "--z85 --help", "--help", "--version",
    "--base32h", "--base2", "--z --decode", "-w x --foo", "--foo -w x", "--base64 -w x --help", "--help -w x",
    "--version --foo", "--foo --version",
])
def test_command_lines(args: str) -> None:
    argv = shlex.split(args)
    ref_run = subprocess.run(["basenc", *argv], capture_output=True, env=gts.REF_ENV, input=b"")
    if ("--help" in argv or "--version" in argv) and ref_run.returncode == 0:
        ref = ref_run.stdout
        from sandbox.commands.testing import run_command
        code, out, _ = run_command(["basenc", *argv])
        assert code == 0 and ref.startswith(out) and out
        return
    compare(argv, stdin=b"abc\n")


def test_files() -> None:
    files = {"f": b"hello\n", "g": b"aGVsbG8K\n"}
    compare(["--base64", "f"], files=files)
    compare(["--base64", "-d", "g"], files=files)
    compare(["--base16", "d"], files=files, dirs=["d"])
    compare(["--base16", "-d", "d"], files=files, dirs=["d"])
    compare(["--base2msbf", "-"], stdin=b"x", files=files)
