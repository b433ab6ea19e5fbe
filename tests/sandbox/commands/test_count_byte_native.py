"""The C accelerator's ``count_byte`` (wc -l's newline count) against ``bytes.count`` on
random buffers and slices, its argument checks, and wc -l with and without it against GNU wc."""

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
