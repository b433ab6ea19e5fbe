"""The C accelerator's text functions: ``count_byte`` (wc -l's newline count) against
``bytes.count`` and ``fold`` against fold's pure-Python loop, on random inputs; their argument
checks; wc -l with and without the accelerator against GNU wc (fold's own differential tests,
tests/sandbox/commands/test_fold*.py, run either way by SANDBOX_NATIVE)."""

from __future__ import annotations

import os
import random
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox._native import linescan

native = linescan()
count_byte = getattr(native, "count_byte", None)
needs_native = pytest.mark.skipif(count_byte is None, reason="the C accelerator is not built "
                                  "(no compiler at install time, or SANDBOX_NATIVE=0)")


@needs_native
@settings(max_examples=int(os.environ.get("COUNT_BYTE_EXAMPLES", "2000")), deadline=None)
@given(st.binary(max_size=3000), st.integers(0, 255), st.integers(-5, 3100), st.integers(-5, 3100),
       st.sampled_from([bytes, bytearray, memoryview]))
def test_count_byte_is_bytes_count(data, byte, start, end, kind):
    s = max(0, min(start, len(data)))
    e = len(data) if end < 0 or end > len(data) else end
    want = data[s:e].count(bytes([byte])) if s <= e else 0
    assert count_byte(kind(data), byte, start, end) == want
    assert count_byte(kind(data), byte) == data.count(bytes([byte]))


@needs_native
def test_count_byte_refuses_bad_arguments():
    for args in [(b"x", 256), (b"x", -1)]:
        with pytest.raises(ValueError):
            count_byte(*args)
    for args in [("text", 10), (None, 10), (b"x",), (b"x", "\n")]:
        with pytest.raises(TypeError):
            count_byte(*args)


@pytest.mark.parametrize("native_on", ["1", "0"])
def test_wc_l_with_and_without_the_accelerator(tmp_path, monkeypatch, native_on):
    from sandbox.api import Sandbox

    monkeypatch.setenv("SANDBOX_NATIVE", native_on)
    rng = random.Random(7)
    for i in range(20):
        size = rng.choice([0, 1, 7, 4096, 1 << 20, 3 << 20])
        data = bytes(rng.choice(b"ab\n\r\0\xff") for _ in range(min(size, 5000))) * max(1, size // 5000)
        (tmp_path / f"f{i}").write_bytes(data)
        want = subprocess.run(["wc", "-l", f"f{i}"], cwd=tmp_path, capture_output=True).stdout
        got = Sandbox({"/": tmp_path}).run(f"cd / && wc -l f{i}")
        assert (got.stdout, got.exit_code) == (want, 0), (size, native_on)


needs_fold = pytest.mark.skipif(getattr(native, "fold", None) is None, reason="the C accelerator "
                                "is not built (no compiler at install time, or SANDBOX_NATIVE=0)")


@needs_fold
@settings(max_examples=int(os.environ.get("FOLD_EXAMPLES", "3000")), deadline=None)
@given(st.lists(st.sampled_from([b"a", b"b", b" ", b"\t", b"\b", b"\r", b"\n", b"\xc3\xa9", b"\0",
                                 b"wordy ", b"\t\t"]), max_size=80).map(b"".join),
       st.integers(1, 20), st.booleans(), st.booleans())
def test_fold_is_the_python_loop(data, width, count_bytes, spaces):
    from sandbox.commands.fold import Folder

    folder = Folder(width, count_bytes, spaces)
    os.environ["SANDBOX_NATIVE"] = "0"
    try:
        want = b"\n".join(folder.line(line) for line in data.split(b"\n"))
    finally:
        del os.environ["SANDBOX_NATIVE"]
    assert native.fold(data, width, count_bytes, spaces) == want


@needs_fold
def test_fold_refuses_bad_arguments():
    with pytest.raises(OverflowError):
        native.fold(b"x", (1 << 64) - 1, False, False)
    for args in [("x", 8, False, False), (b"x", -1, False, False), (b"x", 8)]:
        with pytest.raises((TypeError, OverflowError)):
            native.fold(*args)
    assert native.fold(b"", 8, False, False) == b""
    assert native.fold(b"abc", 1, False, False) == b"a\nb\nc"


needs_number_lines = pytest.mark.skipif(
    getattr(native, "number_lines", None) is None,
    reason="the C accelerator is not built (no compiler at install time, or SANDBOX_NATIVE=0)")

_INT64 = st.one_of(st.integers(-(1 << 63), (1 << 63) - 1), st.integers(-12, 12),
                   st.sampled_from([(1 << 63) - 3, -(1 << 63), -(1 << 63) + 2]))


@needs_number_lines
@settings(max_examples=int(os.environ.get("NUMBER_LINES_EXAMPLES", "2000")), deadline=None)
@given(st.lists(st.sampled_from([b"", b"x", b"two words", b"\t", b"\\:", b"\xc3\xa9", b"\r"]),
                max_size=40),
       st.sampled_from(["a", "t"]), _INT64, _INT64, st.integers(1, 30),
       st.sampled_from(["ln", "rn", "rz"]), st.sampled_from([b"\t", b"", b" | ", b"%d"]))
def test_number_lines_is_nl_s_python_path(lines, kind, start, incr, width, fmt, sep):
    """nl's C numbering of a block gives what its Python path gives, and the next number; a
    block whose numbers leave the 64-bit range is left to the Python path (None)."""
    from sandbox.commands.nl import Numberer, Style

    def numberer() -> Numberer:
        styles = {"body": Style(kind, "body"), "header": Style("n", "header"),
                  "footer": Style("n", "footer")}
        settings_ = {"start": start, "incr": incr, "join": 1, "renumber": True, "sep": sep,
                     "width": width, "format": fmt, "delim": b""}
        return Numberer(None, styles, settings_)  # type: ignore[arg-type]

    python, c = numberer(), numberer()
    block = b"".join(line + b"\n" for line in lines)
    done = c.native_block(native.number_lines, block)
    count = len(lines) if kind == "a" else sum(1 for x in lines if x)
    if not -(1 << 63) <= start + incr * count < (1 << 63):
        assert done is None
        return
    assert done is not None
    assert done == python.block(lines)
    assert c.line_no == python.line_no


@needs_number_lines
def test_number_lines_refuses_bad_arguments():
    for args in [("x\n", True, 1, 1, 6, 0, b"\t", b""), (b"x\n", True, 1 << 64, 1, 6, 0, b"\t", b""),
                 (b"x\n", True, 1, 1, 6, 0, b"\t")]:
        with pytest.raises((TypeError, OverflowError)):
            native.number_lines(*args)
    assert native.number_lines(b"", True, 5, 1, 6, 0, b"\t", b"") == (b"", 5)
    assert native.number_lines(b"a\n\nb\n", False, -2, 3, 3, ord("0"), b":", b"    ") == (
        b"-02:a\n    \n001:b\n", 4)


needs_cut_slices = pytest.mark.skipif(
    getattr(native, "cut_slices", None) is None,
    reason="the C accelerator is not built (no compiler at install time, or SANDBOX_NATIVE=0)")

_CUT_LIST = st.lists(st.tuples(st.integers(1, 12), st.integers(0, 14)), min_size=1, max_size=4).map(
    lambda pairs: ",".join(f"{a}-{a + b}" if b < 14 else f"{a}-" for a, b in pairs))


@needs_cut_slices
@settings(max_examples=int(os.environ.get("CUT_SLICES_EXAMPLES", "2000")), deadline=None)
@given(st.lists(st.sampled_from([b"", b"x", b"two words", b"\t", b"abcdefghijklmnop", b"\xc3\xa9\xff",
                                 b"\r", b"a,b,c"]), max_size=30),
       _CUT_LIST, st.booleans(), st.sampled_from([None, b":", b"", b"<->"]), st.sampled_from([b"\n", b"\0"]))
def test_cut_slices_is_cut_s_python_path(lines, spec, complement_, out_delim, eol):
    """cut -b's C slices of a block of whole lines give what its Python cutter gives line by
    line (ranges, --complement, --output-delimiter, -z)."""
    from sandbox.commands.cut import _byte_cutter, complement, parse_list

    ranges = parse_list(spec, positions=True)
    if complement_:
        ranges = complement(ranges)
    if not ranges:
        return
    cutter = _byte_cutter(ranges, b"\0" if out_delim == b"" else out_delim)  # (cut's empty delimiter)
    slices, delim = cutter.native
    block = b"".join(line + eol for line in lines)
    assert native.cut_slices(block, eol[0], slices, delim) == b"".join(cutter(x) + eol for x in lines)


@needs_cut_slices
def test_cut_slices_refuses_bad_arguments():
    for args in [("x\n", 10, ((0, 1),), None), (b"x\n", 10, ((0,),), None), (b"x\n", 10, ((-2, 1),), None),
                 (b"x\n", 10, ((0, 1),), "s"), (b"x\n", 10, [(0, 1)], None)]:
        with pytest.raises((TypeError, ValueError)):
            native.cut_slices(*args)
    assert native.cut_slices(b"", 10, ((0, -1),), None) == b""
    assert native.cut_slices(b"abc\n\nde\n", 10, ((0, 1), (2, -1)), b"|") == b"a|c\n\nd\n"
