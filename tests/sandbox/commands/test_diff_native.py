"""diff's C path (``_linescan.diff_classes``: lines split, identical ends skipped, class
numbers and first-pass discard codes) against the pure-Python path it replaces, on random
inputs: the function's results against the Python analysis, and diff's whole output with
the accelerator on and off (``SANDBOX_NATIVE``), over CRLF, missing final newlines, NUL
bytes, invalid UTF-8, empty and identical files. GNU agreement itself is test_diff.py's (run
with the accelerator on and with ``SANDBOX_NATIVE=0``)."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox._native import linescan
from sandbox.commands.diff import _Lines
from sandbox.commands.diff.analyze import _discard_codes
from sandbox.commands.testing import run_command
from sandbox.fs.memory import MemoryFS
from sandbox.fs.vfs import VirtualFS

native = linescan()
diff_classes = getattr(native, "diff_classes", None)
needs_native = pytest.mark.skipif(diff_classes is None, reason="the C accelerator is not built "
                                  "(no compiler at install time, or SANDBOX_NATIVE=0)")

PIECES = [b"a", b"b", b"alpha", b"x = 1;", b"", b"}", b"{", b"caf\xc3\xa9", b"bad\xff\xfe",
          b"nul\0byte", b"cr\r", b"\r", b" a", b"a ", b"\t", b"A", b"long " * 9,
          b"\xe6\x97\xa5\xe6\x9c\xac", b"\x80", b"sixteen bytes!!!", b"seventeen bytes!!"]


def _split(data: bytes) -> list[bytes]:
    """diff's lines: each ends after a newline; a last one may lack it."""
    lines = [ln + b"\n" for ln in data.split(b"\n")]
    if data.endswith(b"\n"):
        lines.pop()
    else:
        lines[-1] = lines[-1][:-1]
    return lines if data else []


def _python_analysis(d0: bytes, d1: bytes, horizon: int, minimal: bool):  # type: ignore[no-untyped-def]
    """What the Python path computes for what diff_classes returns."""
    a, b = _split(d0), _split(d1)
    n0, n1 = len(a), len(b)
    pre = 0
    while pre < n0 and pre < n1 and a[pre] == b[pre]:
        pre += 1
    suf = 0
    while suf < n0 - pre and suf < n1 - pre and a[n0 - 1 - suf] == b[n1 - 1 - suf]:
        suf += 1
    pre, suf = max(0, pre - horizon), max(0, suf - horizon)
    eq0, eq1 = a[pre:n0 - suf], b[pre:n1 - suf]
    codes = ([bytearray(len(eq0)), bytearray(len(eq1))] if minimal
             else _discard_codes(eq0, eq1))
    return a, b, pre, suf, eq0, eq1, codes


def _check_classes(d0: bytes, d1: bytes, horizon: int, minimal: bool) -> None:
    a, b, pre, suf, eq0, eq1, codes = _python_analysis(d0, d1, horizon, minimal)
    got = diff_classes(d0, d1, horizon, minimal)
    assert got[:2] == (pre, suf)
    assert list(_Lines(d0, got[2])) == a
    assert list(_Lines(d1, got[3])) == b
    ids0, ids1 = list(memoryview(got[4]).cast("i")), list(memoryview(got[5]).cast("i"))
    assert len(ids0) == len(eq0) and len(ids1) == len(eq1)
    # one numbering for both files, equal exactly when the lines are equal, from 0 in order
    seen: dict[bytes, int] = {}
    for line, c in zip(eq0 + eq1, ids0 + ids1):
        assert seen.setdefault(line, len(seen)) == c
    assert [bytes(c) for c in got[6:]] == [bytes(c) for c in codes]
    assert all(isinstance(c, bytearray) for c in got[6:])


def _lines_of(rng: random.Random, n: int, vocab: int) -> list[bytes]:
    pieces = PIECES[:vocab]
    return [rng.choice(pieces) + (b"%d" % rng.randrange(vocab) if rng.random() < 0.3 else b"")
            for _ in range(n)]


def _edited(rng: random.Random, lines: list[bytes]) -> list[bytes]:
    out = list(lines)
    for _ in range(rng.randint(0, 8)):
        pos = rng.randint(0, len(out))
        op = rng.random()
        if op < 0.3:
            out[pos:pos] = _lines_of(rng, rng.randint(1, 5), len(PIECES))
        elif op < 0.6:
            del out[pos:pos + rng.randint(1, 5)]
        elif op < 0.8:
            out[pos:pos + rng.randint(1, 3)] = _lines_of(rng, rng.randint(1, 3), len(PIECES))
        elif out:
            seg = out[pos:pos + rng.randint(1, 4)]
            out[rng.randint(0, len(out)):0] = seg
    return out


def _joined(rng: random.Random, lines: list[bytes]) -> bytes:
    sep = b"\r\n" if rng.random() < 0.15 else b"\n"
    data = sep.join(lines)
    if lines and rng.random() < 0.8:
        data += sep
    return data


def _pair(rng: random.Random) -> tuple[bytes, bytes]:
    kind = rng.random()
    base = _lines_of(rng, rng.choice([0, 1, 2, 5, 20, 60, 300]), rng.randint(1, len(PIECES)))
    a = _joined(rng, base)
    if kind < 0.08:
        return a, a  # identical
    if kind < 0.12:
        return a, b""
    if kind < 0.16:
        return b"", a
    if kind < 0.2:  # the same lines, only the last newline differs
        return a.rstrip(b"\n"), a.rstrip(b"\n") + b"\n"
    return a, _joined(rng, _edited(rng, base))


@needs_native
def test_classes_match_the_python_analysis_seeded() -> None:
    rng = random.Random(9001)
    for _ in range(int(os.environ.get("DIFF_NATIVE_CASES", "600"))):
        d0, d1 = _pair(rng)
        _check_classes(d0, d1, rng.choice([0, 0, 1, 3, 10]), rng.random() < 0.15)


@needs_native
@settings(max_examples=int(os.environ.get("DIFF_NATIVE_EXAMPLES", "400")), deadline=None)
@given(st.lists(st.sampled_from(PIECES + [b"\n", b"\r\n", b"\0"]), max_size=60),
       st.lists(st.sampled_from(PIECES + [b"\n", b"\r\n", b"\0"]), max_size=60),
       st.integers(0, 4), st.booleans())
def test_classes_match_the_python_analysis_hypothesis(p0, p1, horizon, minimal) -> None:
    _check_classes(b"".join(p0), b"".join(p1), horizon, minimal)


@needs_native
def test_classes_many_repeats() -> None:
    """Lines repeated more than ``many`` times in the other file get code 2."""
    rng = random.Random(5)
    for n in (70, 300, 1200, 5000):
        base = [b"}" if rng.random() < 0.3 else b"line %d" % rng.randrange(n) for _ in range(n)]
        other = [b"{" if rng.random() < 0.05 else x for x in base]
        other[rng.randrange(n):0] = [b"}"] * 40
        d0, d1 = b"\n".join(base) + b"\n", b"\n".join(other) + b"\n"
        _check_classes(d0, d1, 0, False)
        got = diff_classes(d0, d1, 0, False)
        assert 2 in got[6] or 2 in got[7] or n < 300


@needs_native
def test_classes_argument_checks() -> None:
    for args in [("a", b"b", 0, False), (b"a", None, 0, False), (b"a", b"b"), (b"a", b"b", "0", 1)]:
        with pytest.raises(TypeError):
            diff_classes(*args)
    # any bytes-like input; a negative horizon counts as 0
    assert diff_classes(bytearray(b"x\ny\n"), memoryview(b"x\nz\n"), -3, False)[:2] == (1, 0)


def test_lines_sequence() -> None:
    """``_Lines`` answers what a list of the lines answers."""
    data = b"one\r\ntwo\n\nfour\0\nfive"
    want = _split(data)
    offsets = memoryview(bytearray(8 * (len(want) + 1))).cast("q")
    pos = 0
    for k, line in enumerate(want):
        offsets[k] = pos
        pos += len(line)
    offsets[len(want)] = pos
    lines = _Lines(data, offsets.tobytes())
    assert len(lines) == len(want)
    for i in range(-len(want), len(want)):
        assert lines[i] == want[i]
    for s in [slice(None), slice(1, 3), slice(3, 1), slice(-2, None), slice(0, 99), slice(None, None, 2)]:
        assert lines[s] == want[s]
    with pytest.raises(IndexError):
        lines[len(want)]


OPTIONS = [[], ["-u"], ["-c"], ["-U0"], ["-U1"], ["-C2"], ["-U7"], ["-a"], ["-a", "-u"], ["-d"],
           ["-d", "-u"], ["-B"], ["-u", "-B"], ["-y"], ["-y", "-W", "40"], ["-s"], ["-q"],
           ["--strip-trailing-cr"], ["-i", "-u"], ["-b"]]


def _run(fs: VirtualFS, argv: list[str], native_on: str) -> tuple[int, bytes, bytes]:
    old = os.environ.get("SANDBOX_NATIVE")
    os.environ["SANDBOX_NATIVE"] = native_on
    try:
        return run_command(argv, fs=fs)
    finally:
        if old is None:
            del os.environ["SANDBOX_NATIVE"]
        else:
            os.environ["SANDBOX_NATIVE"] = old


@needs_native
def test_output_with_and_without_the_accelerator() -> None:
    rng = random.Random(9002)
    for case in range(int(os.environ.get("DIFF_NATIVE_RUNS", "1000"))):
        d0, d1 = _pair(rng)
        if rng.random() < 0.05:
            d0 += b"\0"  # binary unless -a
        opts = rng.choice(OPTIONS)
        fs = VirtualFS({"/": MemoryFS({"f1": d0, "f2": d1})})
        argv = ["diff", *opts, "f1", "f2"]
        assert _run(fs, argv, "1") == _run(fs, argv, "0"), (case, argv, d0, d1)


@needs_native
def test_big_files_with_and_without_the_accelerator() -> None:
    """A few thousand mostly distinct lines, a few percent changed (discards, Myers'
    too-expensive cut-off, boundary shifts at size)."""
    rng = random.Random(9003)
    for _ in range(8):
        n = rng.randint(1000, 5000)
        base = [rng.choice([b"", b"}", b"{"]) if rng.random() < 0.2 else b"line %d" % rng.randrange(n)
                for _ in range(n)]
        other = list(base)
        for _ in range(int(n * rng.choice([0.01, 0.05, 0.1]))):
            i = rng.randrange(len(other))
            op = rng.random()
            if op < 0.4:
                other[i] = b"changed %d" % rng.randrange(n)
            elif op < 0.7:
                other.insert(i, rng.choice([b"", b"}", b"new"]))
            elif len(other) > 1:
                del other[i]
        fs = VirtualFS({"/": MemoryFS({"f1": b"\n".join(base) + b"\n", "f2": b"\n".join(other)})})
        for opts in ([], ["-u"], ["-d"]):
            argv = ["diff", *opts, "f1", "f2"]
            assert _run(fs, argv, "1") == _run(fs, argv, "0"), argv
