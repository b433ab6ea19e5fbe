"""uniq: unit tests and differential tests against GNU coreutils."""

from __future__ import annotations

import random
import shlex
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402


def test_counts() -> None:
    assert run_command(["uniq", "-c"], stdin=b"a\na\nb") == (0, b"      2 a\n      1 b\n", b"")


def test_output_operand_writes_file() -> None:
    from sandbox.fs.memory import MemoryFS
    from sandbox.fs.vfs import VirtualFS

    vfs = VirtualFS({"/": MemoryFS({"in": b"x\nx\ny\n"})})
    assert run_command(["uniq", "in", "out"], fs=vfs) == (0, b"", b"")
    assert vfs.read_bytes("/out") == b"x\ny\n"


TEXT = (b"a\na\nb\nc\nc\nc\nd\nA\na\n\n\n x  1\n y  1\n\tz 1\nfoo bar\nfoo baz\nfoo baz\n"
        b"\xc3\xa9\n\xc3\x89\n\xc3\xa9\nabc1\nabd1\nabc2\r\nabc2\r\nlast")

ARGS = [
    "", "-c", "-d", "-u", "-D", "-i", "-ic", "-dc", "-u -d", "-uc", "-f 1", "-f 2", "-s 1", "-s 3",
    "-w 2", "-w 0", "-f 1 -s 1 -w 1", "-D -i", "--all-repeated=prepend", "--all-repeated=separate",
    "--all-repeated=none", "--all-repeated=p", "--group", "--group=both", "--group=append",
    "--group=prepend", "--group=separate", "-z", "-zc", "-2", "-1 -c", "-c2", "-f x", "-s -1",
    "-w 1k", "-f ' 2'", "-f +2", "-f 99999999999999999999999", "-c -D", "--group -c", "--group -u",
    "--all-repeated=bad", "--group=foo", "--group=", "-x", "--foo", "- - extra", "missing",
    "--count --repeated", "--unique --ignore-case", "--skip-fields=1 --check-chars=1",
    "--skip-chars 2", "-D -s 2 -w 1", "-d -u -D",
]


@pytest.mark.parametrize("args", ARGS, ids=repr)
def test_matches_gnu(args: str) -> None:
    gts.compare(["uniq", *shlex.split(args)], stdin=TEXT)


def test_matches_gnu_files() -> None:
    gts.compare(["uniq", "-c", "in", "out"], files={"in": b"q\nq\nr\n"})
    gts.compare(["uniq", "in"], files={"in": b""})
    gts.compare(["uniq", "-", "out"], stdin=b"1\n1\n")


def test_matches_gnu_generated() -> None:
    rng = random.Random(13)
    flag_pool = ["-c", "-d", "-u", "-i", "-D", "--all-repeated=separate", "--all-repeated=prepend",
                 "-f1", "-f2", "-s1", "-s2", "-w1", "-w3", "-z", "--group", "--group=both"]
    for _ in range(200):
        lines = [gts.gen_line(rng, long_ok=False) for _ in range(rng.randint(0, 6))]
        data = b""
        for _ in range(rng.randint(0, 25)):
            line = rng.choice(lines) if lines and rng.random() < 0.7 else gts.gen_line(rng, long_ok=False)
            data += line + (b"\n" if rng.random() < 0.95 else b"\r\n")
        if data and rng.random() < 0.2:
            data = data[:-1]
        flags = rng.sample(flag_pool, rng.randint(0, 3))
        gts.compare(["uniq", *flags], stdin=data)


@pytest.mark.parametrize("argv", [["uniq", "dd"], ["uniq", "f", "dd"]], ids=repr)
def test_matches_gnu_on_directories(argv: list[str]) -> None:
    gts.compare(argv, files={"f": b"x y\n"}, dirs=["dd"])


@pytest.mark.parametrize("block", [1, 7, 64, 1 << 20])
def test_plain_batches_match_gnu_at_block_sizes(block: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Plain uniq (with -f/-s/-w/-i keys) compares a batch of lines at a time: groups that
    cross batch edges, CRLF, NUL, invalid UTF-8 and no final newline, at every block size."""
    from sandbox.commands import _textutil

    monkeypatch.setattr(_textutil, "CHUNK", block)
    rng = random.Random(41)
    for _ in range(60):
        lines = [gts.gen_line(rng, long_ok=False) for _ in range(rng.randint(1, 5))]
        lines += [b"a\0b", b"\xff\xfe", b"x\r", b""]
        data = b"".join(rng.choice(lines) + b"\n" for _ in range(rng.randint(0, 30)))
        if data and rng.random() < 0.3:
            data = data[:-1]
        flags = rng.sample(["-i", "-f1", "-s1", "-w2", "-z"], rng.randint(0, 2))
        gts.compare(["uniq", *flags], stdin=data)
