"""The *sum family (md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum): differential
tests against GNU coreutils 9.1 on generated files, options and checksum lists (well formed,
corrupted, BSD-tagged, escaped names, CRLF, NUL)."""

from __future__ import annotations

import random
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

ALGOS = ["md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum"]

FILES = {
    "a": b"abc",
    "empty": b"",
    "nul": b"\x00\x00x\x00",
    "bad": b"\xff\xfe\xc3\n\x80",
    "crlf": b"one\r\ntwo\r\n",
    "big": bytes(range(256)) * 12,
    "back\\slash": b"x",
    "new\nline": b"y",
    "cr\rname": b"z",
    "sp ace": b"w",
}
DIRS = ["sub"]


def _sums(prog: str, names: list[str], extra: list[str] | None = None) -> bytes:
    gts.need(prog)
    import tempfile, os  # noqa: E401
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in FILES.items():
            Path(tmp, name).write_bytes(data)
        return subprocess.run([prog, *(extra or []), *names], cwd=tmp, capture_output=True,
                              env=gts.REF_ENV).stdout


HAND = [
    "a", "a empty nul bad crlf big", "-b a", "-t a", "--tag a", "--tag -b a", "--tag -t a", "-t --tag a",
    "-z a", "-z 'back\\slash' 'new\nline'", "--tag -z 'new\nline'", "'back\\slash' 'new\nline' 'cr\rname'",
    "--tag 'back\\slash' 'new\nline'", "missing a", "sub", "-", "- a -", "", "--binary a", "--text a",
    "--zero a", "--quiet a", "--status a", "--strict a", "-w a", "--warn a", "--ignore-missing a",
    "-c -b a", "-c -t a", "-c --tag a", "-c -z a", "-x", "--bogus", "--che", "--st a",
    "--status --quiet a", "--quiet --status --strict --warn --ignore-missing a", "-c missing",
    "-c sub", "-c empty", "-c bad",
]


@pytest.mark.parametrize("prog", ALGOS)
@pytest.mark.parametrize("args", HAND, ids=repr)
def test_hand_written(prog: str, args: str) -> None:
    gts.compare([prog, *shlex.split(args)], stdin=b"stdin data\n", files=FILES, dirs=DIRS)


B2_HAND = ["-l 8 a", "-l 256 --tag a", "-l 0 a", "-l 7 a", "-l 1024 a", "-l x a", "-l '' a",
           "-l 512 --tag a", "--length=16 a", "-l +8 a", "-l ' 8' a", "-l"]


@pytest.mark.parametrize("args", B2_HAND, ids=repr)
def test_b2sum_length(args: str) -> None:
    gts.compare(["b2sum", *shlex.split(args)], files=FILES)


def _check_list(rng: random.Random, prog: str) -> bytes:
    names = list(FILES)
    good = _sums(prog, names).split(b"\n")[:-1]
    tagged = _sums(prog, names, ["--tag"]).split(b"\n")[:-1]
    lines: list[bytes] = []
    for _ in range(rng.randint(0, 8)):
        kind = rng.random()
        line = rng.choice(good if rng.random() < 0.6 else tagged)
        if kind < 0.15:  # flip a hex digit
            k = line.find(b"(") + 5 if line.startswith((b"MD5", b"SHA", b"BLAKE", b"\\")) and b") = " in line else 3
            k = line.rfind(b"= ") + 3 if b") = " in line else (4 if line.startswith(b"\\") else 3)
            line = line[:k] + (b"0" if line[k:k + 1] != b"0" else b"1") + line[k + 1:]
        elif kind < 0.2:
            line = line.upper() if rng.random() < 0.5 else line[:10]
        elif kind < 0.25:
            line = line.replace(b"  ", b" *", 1)
        elif kind < 0.3:
            line = line.replace(b"  a", b"  nosuch")
        elif kind < 0.35:
            line = rng.choice([b"", b"# comment", b"garbage", b"\t" + line, b"  " + line, line + b"\r",
                               b"\\" + line, line.replace(b"  ", b" "), line + b"\x00tail",
                               b"MD5 (a) = zz", b"SHA1 (a)", line.replace(b" = ", b"="), b"\\\\"])
        elif kind < 0.4:
            line = line.replace(b"  ", b"  sub", 1) if rng.random() < 0.5 else line.replace(b"  ", b"  -", 1)
        lines.append(line)
    eol = b"\r\n" if rng.random() < 0.1 else b"\n"
    body = eol.join(lines)
    if rng.random() < 0.85:
        body += eol
    return body


CHECK_FLAGS = ["", "--quiet", "--status", "--strict", "-w", "--ignore-missing", "--warn --strict",
               "--quiet -w", "--status -w", "-w --status", "--ignore-missing --quiet"]


@pytest.mark.parametrize("prog", ALGOS)
def test_generated_checks(prog: str) -> None:
    gts.need(prog)
    rng = random.Random(f"check-{prog}")
    for _ in range(40):
        listing = _check_list(rng, prog)
        flags = shlex.split(rng.choice(CHECK_FLAGS))
        files = {**FILES, "list": listing}
        if rng.random() < 0.5:
            gts.compare([prog, "-c", *flags, "list"], files=files, dirs=DIRS)
        else:
            gts.compare([prog, "--check", *flags], stdin=listing, files=files, dirs=DIRS)


@pytest.mark.parametrize("prog", ALGOS)
def test_generated_digests(prog: str) -> None:
    rng = random.Random(f"digest-{prog}")
    for _ in range(50):
        files = {f"f{i}": gts.gen_input(rng) for i in range(rng.randint(1, 4))}
        if rng.random() < 0.2:
            files["blob"] = bytes(rng.randrange(256) for _ in range(rng.randint(0, 5000)))
        names = list(files)
        rng.shuffle(names)
        flags = rng.choice([[], ["-b"], ["--tag"], ["-z"], ["-t"], ["--tag", "-z"]])
        if prog == "b2sum" and rng.random() < 0.3:
            flags = [*flags, "-l", str(rng.choice([8, 64, 160, 256, 504]))]
        gts.compare([prog, *flags, *names, *(["-"] if rng.random() < 0.2 else [])],
                    stdin=gts.gen_input(rng), files=files)


def test_large_file_streams() -> None:
    gts.compare(["sha256sum", "x"], files={"x": b"\xab" * (9 << 20)})
