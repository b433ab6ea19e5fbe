"""Block fast paths of wc, uniq, cut and head: differential tests against GNU coreutils 9.1 at
read-block sizes 1, 7, 64 and 1 MiB (block edges, CRLF, no final newline, NUL, invalid and
truncated UTF-8, printable and non-printable non-ASCII characters, long lines)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import fastpath_support as fps  # noqa: E402

from sandbox.commands import _textutil, wc  # noqa: E402

#: Non-ASCII characters glibc and Python class differently or that wc treats apart: C1
#: controls, no-break and other Unicode spaces, zero-width and joiner characters, unassigned
#: and private-use code points, and printable ones.
UNICODE = ["\u0085", "\u00a0", "\u1680", "\u2000", "\u2007", "\u200b", "\u2028", "\u202f", "\u2060",
           "\u3000", "\u0378", "\ue000", "\U0001f600", "\u00e9", "\u4e2d", "\ufeff", "\U000e0001", "\u0301"]
EXTRA = [c.encode() for c in UNICODE] + [b"a" + c.encode() + b"b" for c in UNICODE] + [
    b"\xe4\xb8", b"\xc3", b"\x80", b"x\xf0\x9f\x98", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x0b\x0c x",
    b"\xf4\x8f\xbf\xbf", b"\xf7\xbf\xbf\xbf a", b"\xf8\x88\x80\x80\x80", b"\xf8\x87\xbf\xbf\xbf", b"\xfb\xbf\xbf\xbf\xbf",
    b"\xfc\x84\x80\x80\x80\x80", b"\xfc\x83\x80\x80\x80\x80", b"\xfd\xbf\xbf\xbf\xbf\xbf", b"\xfe\xff", b"\xc0\x80", b"\xe0\x80\x80"]


def _wc_block(mp: pytest.MonkeyPatch, size: int) -> None:
    mp.setattr(wc, "CHUNK", size)


@pytest.mark.parametrize("args", [[], ["-w"], ["-m"], ["-l"], ["-c"], ["-mw"], ["-lwmc"], ["-L"], ["-wL"]],
                         ids=repr)
def test_wc(args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def make(rng: random.Random):
        return ["wc", *args], fps.gen_text(rng, extra=EXTRA), None

    fps.sweep(make, len(args) + 40, _wc_block, monkeypatch, cases=fps.scaled(5))


def test_wc_files(monkeypatch: pytest.MonkeyPatch) -> None:
    def make(rng: random.Random):
        files = {"a": fps.gen_text(rng, extra=EXTRA), "b": fps.gen_text(rng, extra=EXTRA)}
        return ["wc", "a", "b", "-", "a"], fps.gen_text(rng, extra=EXTRA), files

    fps.sweep(make, 41, _wc_block, monkeypatch, cases=fps.scaled(4))


def _uniq_block(mp: pytest.MonkeyPatch, size: int) -> None:
    from sandbox.commands import _lineblocks

    mp.setattr(_textutil, "CHUNK", size)
    mp.setattr(_lineblocks, "BLOCK", size)


def _runs(rng: random.Random) -> bytes:
    """Lines with runs of equal neighbours (and of equal keys under -f/-s/-w/-i)."""
    pool = [b"a", b"A", b"b", b"", b"x y", b"z y", b"x  y", b"\xc3\xa9", b"\xc3\x89", b"a\x00",
            b"1 a", b"2 a", b"1 b", b"%d %s", b"      1 x"]
    lines = []
    for _ in range(rng.randint(0, 40)):
        lines += [rng.choice(pool)] * rng.choice([1, 1, 1, 2, 3, 7])
    data = b"\n".join(lines)
    if lines and rng.random() < 0.8:
        data += b"\n"
    return data


@pytest.mark.parametrize("args", [[], ["-c"], ["-d"], ["-u"], ["-cd"], ["-cu"], ["-du"], ["-c", "-f1"],
                                  ["-d", "-s1"], ["-u", "-w1"], ["-ci"], ["-z", "-c"], ["-D"], ["--group"]],
                         ids=repr)
def test_uniq(args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def make(rng: random.Random):
        data = _runs(rng) if rng.random() < 0.7 else fps.gen_text(rng)
        if "-z" in args:
            data = data.replace(b"\n", b"\0")
        return ["uniq", *args], data, None

    fps.sweep(make, len(args) + 60, _uniq_block, monkeypatch, cases=fps.scaled(5))


def _head_block(mp: pytest.MonkeyPatch, size: int) -> None:
    from sandbox.commands import head

    mp.setattr(head, "BLOCK", size)


@pytest.mark.parametrize("count", ["0", "1", "3", "17", "200", "-z 5"])
def test_head_lines(count: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def make(rng: random.Random):
        data = fps.gen_text(rng)
        if "-z" in count:
            data = data.replace(b"\n", b"\0")
        return ["head", "-n", *count.split()[::-1]], data, {"f": fps.gen_text(rng)}

    fps.sweep(make, len(count) + 80, _head_block, monkeypatch, cases=fps.scaled(3))


def test_head_leaves_the_rest_to_the_next_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a seekable input head consumes exactly its lines (GNU seeks back too)."""
    sys.path.insert(0, str(Path(__file__).parents[1] / "shell"))
    import shell_difftools as sd

    from sandbox.commands import head

    data = b"".join(b"line %d\n" % i for i in range(3000))
    for size in fps.BLOCK_SIZES:
        with monkeypatch.context() as mp:
            mp.setattr(head, "BLOCK", size)
            for script in ("{ head -n 3; cat; } < f | wc -l", "{ head -n 2000 >/dev/null; head -n 2; } < f",
                           "{ head -n 1; head -c 3; head -n 1; } < f"):
                assert sd.compare(script, b"", {"f": data}) is None, script


def _cut_block(mp: pytest.MonkeyPatch, size: int) -> None:
    from sandbox.commands import _lineblocks

    mp.setattr(_lineblocks, "BLOCK", size)
    mp.setattr(_textutil, "CHUNK", size)


@pytest.mark.parametrize("args", [["-f1"], ["-d", ",", "-f1"], ["-d", ":", "-f1"], ["-d", " ", "-f", "1"],
                                  ["-z", "-d", ",", "-f1"], ["-s", "-d", ",", "-f1"], ["-d", ",", "-f2"],
                                  ["-s", "-d", ":", "-f2"], ["-d", ":", "-f3"], ["-c", "3-9"], ["-b", "2"]], ids=repr)
def test_cut_fields_and_bytes(args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def make(rng: random.Random):
        data = fps.gen_text(rng)
        if "-z" in args:
            data = data.replace(b"\n", b"\0")
        return ["cut", *args], data, None

    fps.sweep(make, len(args) + 90, _cut_block, monkeypatch, cases=fps.scaled(4))
