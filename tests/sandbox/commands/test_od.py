"""od: differential tests against GNU coreutils 9.1 (every type and size, multiple types,
widths, skips and limits, duplicate suppression, partial blocks, NUL / invalid UTF-8 / empty /
large inputs, errors)."""

from __future__ import annotations

import random
import shlex
import struct
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox import Limits, Policy, Sandbox  # noqa: E402

def _long_doubles() -> bytes:
    """x87 values: normal, negative, zero, denormals, inf, NaNs, an unnormal, the extremes."""
    def ld(m: int, e: int, s: int = 0) -> bytes:
        return m.to_bytes(8, "little") + ((s << 15) | e).to_bytes(2, "little") + b"\0" * 6
    return b"".join([ld(1 << 63, 16383), ld(3 << 62, 16383, 1), ld(0, 0), ld(0, 0, 1), ld(1, 0),
                     ld((1 << 63) | 12345, 16390), ld(1 << 63, 32767), ld((1 << 63) | 1, 32767),
                     ld(0xC000000000000000, 32767, 1), ld(12345, 16383), ld(0xFFFFFFFFFFFFFFFF, 32766),
                     ld(1 << 63, 1), ld(0x8000000000000001, 16383), ld(0xCCCCCCCCCCCCCCCD, 16379)])


DATA = b"abcdefgh\x00\xff\x80\n\tz"
FLOATS = struct.pack("<4f", 1.5, -0.0, float("inf"), 1e-40) + struct.pack("<3d", float("nan"), -2.5e300, 5e-324)
FILES = {"in": DATA, "zeros": b"\0" * 100, "empty": b"", "floats": FLOATS, "bad": b"\xff\xfe\xc3(\xe2\x9c\x93\n",
         "rep": b"abcdefghijklmnop" * 4 + b"xyz",
         "ld": open(__file__, "rb").read(0) + _long_doubles(),
         "strs": b"ab\0hello\0wor\nld\0xyz\0a\tbcd\0\0\0lo\0ng str\0tail"}

HAND = [
    "in", "-t f4 in", "-t f8 in", "-t fF -t fD in", "-t a in", "-c in", "-A x -t x1z in", "-t d2 -t c in",
    "-w5 -t x1 in", "-w in", "-N 3 -j 2 in", "-t o1 -t d4 in", "-i -l -s in", "-t dC -t uS -t oI -t xL in",
    "-t x2 -w5 in", "-j 0x4 -N 010 in", "-A n -t x1 in", "-A d in", "-t q in", "-t d3 in", "-t x1q in",
    "-t f2 in", "-t fX in", "-A q in", "-j 100 in", "-j x in", "-N x in", "-w0 in", "nope in", "zeros", "-v zeros",
    "-t a1 in", "-t c2 in", "-t d in", "-t x in", "-t u in", "-t f in", "-t f floats", "-t f4 floats", "-t fD floats",
    "empty", "-c bad", "-t a bad", "rep", "-v rep", "-w8 -t x8 rep", "-t x1 -w3 rep", "-a -b -c -d -f -i -l -o -s -x in",
    "-j 1K zeros", "-j 1b zeros", "-N 0 in", "-j 14 in", "-j 15 in", "in in", "- in", "-A x -j 3 -N 5 -t d1z in",
    "-t oC -t oS -t oI -t oL in", "-t u8 -t d8 in", "-t d1 -t x1z -t c in", "--format=x2 --address-radix=d in",
    "--skip-bytes=2 --read-bytes=4 in", "--width=4 in", "--output-duplicates zeros", "-x", "--bogus", "-t", "-A",
    "-j -1 in", "-N 99999999999999999999999 in", "-w 4 in", "-tx1 -tz in", "-B in", "-D in", "-e in", "-F in",
    "-h in", "-H in", "-I in", "-L in", "-O in", "-X in", "-BDeFhHILOX in", "-S 3 strs", "-S strs", "--strings strs",
    "--strings=2 strs", "-S3 -A x strs", "-S 0 strs", "-S 3 -t x1 strs", "-S 2 -v strs", "-S 2 -A n strs", "-S x strs",
    "-S 2 -j 3 strs", "-S 2 -N 9 strs", "-S 2 -j 2 -N 12 strs", "-S 1 bad", "-S 4 zeros", "-S 2 -c strs", "in +10.", "in +10", "in 10", "-c in +1",
    "-c in +0x2", "+2", "-t x1 in +2", "in +2 +3", "in x", "-c in +1B", "-c in +b", "in +", "in 08", "in +0x",
    "-b in 7", "in -1", "-c in +1b", "+1 in", "-x in 0x4",
    "-t fL ld", "-t f16 ld", "-t fL -t x1 ld", "-t fL -w32 ld", "-t fLz ld", "-t fL in", "-t fL -t c floats",
    "--endian=x in", "--endian=big -t x2 in", "--endian=b -t x4 -t f4 in", "--endian=little -t x2 in",
    "--endian=big in", "--endian=big -t d8 -t u4 -t fD floats", "--endian=big -t fL ld", "--endian big -x in",
    "--traditional in", "--traditional", "-b --traditional in", "--traditional -c in 2", "--traditional -c in +2 +3",
    "--traditional -bc in 2 3", "--traditional -An -c in 2 3", "--traditional -Ax -c in 2 0x10", "--traditional -c 2",
    "--traditional -c 2 3", "--traditional -c in x", "--traditional -j1 -c in 2", "--traditional -c in in",
    "--traditional 1 2 3 4", "--traditional -c in 1. 10", "--traditional -c in 1b", "--traditional -c in 2. 8b",
]


@pytest.mark.parametrize("args", HAND, ids=repr)
def test_hand_written(args: str) -> None:
    gts.compare(["od", *shlex.split(args)], stdin=b"stdin\x00", files=FILES)


TYPES = ["fL", "a", "c", "d1", "d2", "d4", "d8", "o1", "o2", "o4", "o8", "u1", "u2", "u4", "u8", "x1", "x2", "x4", "x8",
         "f4", "f8", "x1z", "d2z", "dC", "uS", "oI", "xL", "fF", "fD"]


def test_generated() -> None:
    rng = random.Random("od")
    for _ in range(120):
        kind = rng.random()
        if kind < 0.2:
            data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 200)))
        elif kind < 0.4:
            data = rng.choice([b"\0", b"ab", b"\xff"]) * rng.randint(0, 100)
        else:
            data = gts.gen_input(rng, 8)
        args: list[str] = []
        for _ in range(rng.randint(0, 3)):
            args += ["-t", rng.choice(TYPES)]
        if rng.random() < 0.3:
            args.append("-w" + str(rng.choice([1, 2, 4, 8, 12, 16, 24, 32, 5])))
        if rng.random() < 0.3:
            args += ["-A", rng.choice("doxn")]
        if rng.random() < 0.2:
            args += ["-j", str(rng.randint(0, 20))]
        if rng.random() < 0.2:
            args += ["-N", str(rng.randint(0, 50))]
        if rng.random() < 0.2:
            args.append("-v")
        gts.compare(["od", *args], stdin=data, check_stderr=False)
        gts.compare(["od", *args], stdin=data)


def test_large_input_is_bounded_by_the_output_limit(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(bytes(range(256)) * 40000)
    sb = Sandbox(mounts={"/w": tmp_path}, cwd="/w", policy=Policy(allow={"od"}), limits=Limits(output_bytes=1 << 20))
    result = sb.run("od -v f")
    assert result.exit_code != 0 and b"output limit" in result.stderr


def test_generated_strings() -> None:
    gts.need("od")
    rng = random.Random("od-S")
    for _ in range(50):
        pieces = [rng.choice([b"\0", b"abc", b"hello world", b"\t", b"\n", b"x", b"\xff", b"ok\0", b"\0\0"])
                  for _ in range(rng.randint(0, 12))]
        args = ["-S", str(rng.randint(0, 6))]
        if rng.random() < 0.3:
            args += ["-A", rng.choice("doxn")]
        if rng.random() < 0.3:
            args += ["-j", str(rng.randint(0, 10))]
        if rng.random() < 0.3:
            args += ["-N", str(rng.randint(0, 30))]
        gts.compare(["od", *args, "f"], files={"f": b"".join(pieces)})


def test_generated_long_doubles() -> None:
    """-t fL on random x87 values (random bytes, and normals of every exponent range)."""
    gts.need("od")
    rng = random.Random("od-fL")
    chunks = []
    for _ in range(120):
        if rng.random() < 0.4:
            chunks.append(bytes(rng.randrange(256) for _ in range(16)))
        else:
            e = rng.choice([0, 1, rng.randint(1, 32766), rng.randint(16300, 16460), 32766, 32767])
            m = rng.getrandbits(64) | (1 << 63 if rng.random() < 0.9 else 0)
            chunks.append(m.to_bytes(8, "little") + ((rng.getrandbits(1) << 15) | e).to_bytes(2, "little") + b"\0" * 6)
    gts.compare(["od", "-t", "fL", "f"], files={"f": b"".join(chunks)})
    gts.compare(["od", "-A", "x", "-t", "fLz", "-w32", "f"], files={"f": b"".join(chunks[:40])})


def test_strings_of_a_host_file() -> None:
    """``od -S N`` over a file of a host directory (a LocalDir, not MemoryFS): it read the
    whole input with one read of 2**62 bytes, a MemoryError (``od -S 5 core.md`` in the corpus)."""
    from tests.sandbox.commands.files_support import check_all
    tree = {"core.md": b"# Core Memory\n\n- Name: Dana\n", "strs": FILES["strs"]}
    check_all([(["od", *args], tree) for args in (
        ["-S", "5", "core.md"], ["-S", "3", "strs"], ["-S", "2", "-N", "12", "strs"],
        ["-S", "3", "-j", "4", "strs", "core.md"], ["--strings", "-An", "strs"])])
