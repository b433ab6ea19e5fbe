"""The range fast path (``/A/,/B/CMD`` and ``/A/,/B/{BODY}``, ``sandbox.commands.sed.ranges``)
gives exactly GNU sed's output: ranges ending on a later line only (B is not tried on the start
line), ranges left open at the end of the input or across blocks, -n with p, d, s and y as
segment transforms, bodies the executor runs line by line, and the input's last line without
its newline; at read-block sizes 1, 7, 64 and 1 MiB."""

from __future__ import annotations

import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import sandbox.commands.sed.ranges as ranges  # noqa: E402
from sed_harness import SKIP_REASON, Case, check_cases, reference_available  # noqa: E402

SCRIPTS = [
    ["/a/,/b/{s/the/THE/;p}"], ["-n", "/a/,/b/p"], ["/a/,/b/d"], ["/a/,/b/s/the/THE/g"],
    ["/a/,/b/y/abt/xyz/"], ["/a/,/b/{p;s/e/E/g;p}"], ["-n", "/a/,/b/{p;p}"], ["/a/,/b/{s/a/A/;d}"],
    ["-n", "/a/,/b/{=}"], ["/a/,/b/c\\\nCHANGED"], ["/a/,/b/{/x/d}"], ["/a/,/b/a\\\nafter"],
    ["/a/,/b/i\\\nbefore"], ["/a/,/a/d"], ["-n", "/a/,/a/p"], ["/^a/,/b$/d"], ["-n", "/x*/,/b/p"],
    ["-n", "/a/,/x*/p"], ["/a\\nb/,/c/d"], ["-n", "/a/,/b\\nc/p"], ["-E", "/(a|b)c/,/d+/d"],
    ["/a/I,/b/Id"], ["/a/,/b/s/e/\\n/"], ["-n", "/a/,/b/s/the/X/p"], ["/a/,/b/s/t\\(h\\)e/\\1/"],
    ["/a/,/b/!d"], ["/a/,/b/{s/the/THE/2}"], ["-E", "/a/,/b/s/(t)(h)/\\2\\1/g"], ["/a/,/b/{}"],
    ["-n", "/a/,/b/{s/e/E/;p;s/t/T/g;p}"], ["/a/,/b/{p;d}"], ["-s", "/a/,/b/d", "in.txt", "in.txt"],
    ["/a/,/b/d", "in.txt"], ["-n", "/a/,/b/p", "in.txt", "in.txt"], ["/\xc3\xa9/,/b/d"],
    ["/a/,/b/{s/the/THE/;w out.txt\n}"], ["/a/,/b/{s/the/THE/;t;s/e/E/}"], ["/a/,/b/{x;p;x}"],
    ["/a/,/b/{s/the/THE/;$d}"], ["/a/,/b/{N;p}"], ["/a/,/b/l"], ["/a/,/b/=;p"],
]
WORDS = [b"a", b"b", b"the a", b"the b", b"ab", b"c", b"x", b"the", b"tothe", b"d dd", b"ac",
         b"", b"\xc3\xa9t\xc3\xa9", b"\xff the", b"\x00a", b"THE b\r", b"xx the the", b"bc", b"zz"]


def _cases(seed: int, n: int) -> list[Case]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        data = b"\n".join(rng.choice(WORDS) for _ in range(rng.randint(0, 40)))
        if data and rng.random() < 0.7:
            data += b"\n"
        out.append(Case(list(rng.choice(SCRIPTS)), data, {"in.txt": data}))
    return out


@pytest.mark.skipif(not reference_available(), reason=SKIP_REASON)
@pytest.mark.parametrize("block", [1, 7, 64, 1 << 20])
def test_range_path_matches_gnu(monkeypatch, block: int) -> None:
    monkeypatch.setattr(ranges, "BLOCK", block)
    total, failures = check_cases(_cases(block + 7, int(os.environ.get("SED_RANGE_CASES", "150"))))
    assert not failures, "\n\n".join(failures)


@pytest.mark.skipif(not reference_available(), reason=SKIP_REASON)
def test_every_script_matches_gnu() -> None:
    rng = random.Random(5)
    cases = []
    for script in SCRIPTS:
        for _ in range(3):
            data = b"\n".join(rng.choice(WORDS) for _ in range(rng.randint(5, 60))) + b"\n"
            cases.append(Case(list(script), data, {"in.txt": data}))
    total, failures = check_cases(cases)
    assert not failures, "\n\n".join(failures)


def test_range_path_is_taken(monkeypatch) -> None:
    """The benchmark's range script and the common one-command ranges take the range path,
    with segment steps for the bodies that have them."""
    from sandbox.commands.testing import run_command

    seen = []
    real = ranges._RangeRun.__init__

    def spy(self, ex, first, steps, rx_a, rx_b):  # type: ignore[no-untyped-def]
        seen.append(steps is not None)
        real(self, ex, first, steps, rx_a, rx_b)
    monkeypatch.setattr(ranges._RangeRun, "__init__", spy)
    for argv in (["sed", "/pricing/,/budget/{s/the/THE/;p}"], ["sed", "-n", "/a/,/b/p"],
                 ["sed", "/a/,/b/d"], ["sed", "-n", "/a/,/b/{=}"]):
        code, out, _ = run_command(argv, stdin=b"pricing a the\nb\nbudget\n")
        assert code == 0 and out
    assert seen == [True, True, True, False]
