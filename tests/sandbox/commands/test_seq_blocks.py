"""seq's block-rendered integer path: differential tests against GNU seq 9.1, the hand-over to
the long double loop past 2**63, streaming through the shell, time limit and bounded memory."""

from __future__ import annotations

import io
import random
import sys
import threading
import tracemalloc
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox.api import Sandbox  # noqa: E402
from sandbox.commands import seq  # noqa: E402
from sandbox.commands.base import CommandContext  # noqa: E402
from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.errors import BrokenPipe  # noqa: E402
from sandbox.fs.memory import MemoryFS  # noqa: E402
from sandbox.fs.vfs import VirtualFS  # noqa: E402
from sandbox.limits import Budget, Limits  # noqa: E402

STEPS = [1, 1, 1, 2, 7, -1, -1, -3, 3, 5, 10, 99, 100, 101, 1000, 123457, -250, 10**9]
SEPARATORS = [None, None, ",", "", "ab", "\t", ", ", "\u00e9", "--"]


def _range_around(rng: random.Random, centre: int, step: int) -> tuple[int, int]:
    """FIRST and LAST near ``centre``, spanning up to ~25,000 steps, in either direction."""
    span = rng.choice([0, 1, 3, 20, 300, 12_000, 25_000]) * abs(step)
    first = centre + rng.randint(-span, span) if span else centre
    last = first + (span if step > 0 else -span) + rng.randint(-abs(step), abs(step))
    if rng.random() < 0.1:  # empty: LAST on the wrong side
        first, last = last, first
    return first, last


def _random_case(rng: random.Random) -> list[str]:
    """One seq command line with integer operands and default/-w/-s formatting."""
    step = rng.choice(STEPS) * rng.choice([1, 1, 1, -1])
    centre = rng.choice([
        0, 5, -5, 100, -100, 10_000, -10_000, 9_995, 99_990, -99_990, 1_000_000, 123_456_789,
        10**12, -(10**12), 10**17, 2**62, -(2**62), 2**63 - 20_000, -(2**63) + 20_000,
        rng.randint(-40_000, 40_000), 2**64 - 100, -(2**64) + 100,
    ])
    first, last = _range_around(rng, centre, step)
    if abs(centre) >= 2**63 - 20_000:  # past the exact bound GNU's long double loop is emulated: slow
        last = first + (last - first) // 100
    opts: list[str] = []
    if rng.random() < 0.35:
        opts.append("-w")
    sep = rng.choice(SEPARATORS)
    if sep is not None:
        opts += ["-s", sep]
    first_text = str(first)
    if rng.random() < 0.1 and first >= 0:
        first_text = "0" * rng.randint(1, 12) + first_text  # widens -w
    if rng.random() < 0.05 and first >= 0:
        first_text = "+" + first_text
    shape = rng.random()
    if shape < 0.1 and 1 <= first and last <= 60_000 and step == 1:
        operands = [str(last)]  # LAST alone: from 1
    elif shape < 0.2 and step == 1:
        operands = [first_text, str(last)]
    else:
        operands = [first_text, str(step), str(last)]
    return ["seq", *opts, "--", *operands]


FIXED = [
    "95 105", "-w 95 105", "9995 10010", "-w 9995 10010", "-w -105 -95", "-s, -w -10010 -9990",
    "10010 -1 9990", "-w 10010 -3 9000", "-w -s '' 1 12", "-s abc -5 5", "-w -25000 7 25000",
    "-s , 0 3 40000", "-w 100000 -1 80000", "1 0", "5 -1 5", "-w -0003 2 15", "-- -5 -1 -15",
    "-w 00000000000000000000001 2 30", "-s == 9223372036854765807 3 9223372036854775807",
    "9223372036854765807 7 9223372036854785807", "-w -9223372036854775807 5 -9223372036854755807",
    "-9223372036854755807 -3 -9223372036854785807", "18446744073709541615 9 18446744073709571615",
    "1 2 inf", "-s ,, 1 inf", "5 -1 inf", "-1 -1 -inf", "1e4 3 2e4", "-w 1.5e1 2 40",
    "99999999999999999999999999999999999990 100000000000000000000000000000000000010",
    "-s: 9999999999999999999999999999999999999999990 10000000000000000000000000000000000000000010",
    # GNU's exact decimal fast path takes increments up to 200 (visible past 2**64)
    "18446744073709551617 3 18446744073709551629", "18446744073709551617 +3 18446744073709551629",
    "18446744073709551610 200 18446744073709552610", "18446744073709551610 201 18446744073709552610",
    "18446744073709551610 0200 18446744073709552610", "-s, 18446744073709551611 1e2 18446744073709553611",
    "18446744073709551617 18446744073709551616", "-s ab 18446744073709551611 3 18446744073709551630",
    "999999999999999999999999999999999999990000 7 1000000000000000000000000000000000000030000",
    "1 200 100000", "1 201 100000", "7 0 9", "1 00 5", "1 0x2 9",
]


@pytest.mark.parametrize("args", FIXED, ids=repr)
def test_fixed_cases_match_gnu(args: str) -> None:
    import shlex

    argv = ["seq", *shlex.split(args)]
    if "inf" in args:
        _compare_prefix(argv, 200_000)
    else:
        gts.compare(argv)


def _compare_prefix(argv: list[str], nbytes: int) -> None:
    """Compare the first ``nbytes`` of an endless sequence (GNU's is cut by ``head -c``)."""
    gts.need("seq")
    import shlex
    import subprocess

    ref = subprocess.run(["bash", "-c", f"{shlex.join(argv)} | head -c {nbytes}"], env=gts.REF_ENV,
                         capture_output=True, timeout=60).stdout
    out = _CappedWriter(nbytes)
    ctx = CommandContext(argv=argv, stdin=io.BytesIO(), stdout=out, stderr=io.BytesIO(),
                         fs=VirtualFS({"/": MemoryFS({})}))
    code = None
    try:
        code = seq.run(ctx)
    except BrokenPipe:
        pass
    if code is not None:  # the sequence ended (nothing to print): compare it all
        assert code == 0
    assert out.data[:nbytes] == ref, f"differs from: {shlex.join(argv)} | head -c {nbytes}"


class _CappedWriter:
    """A pipe whose reader leaves after ``limit`` bytes (the write that crosses it fails)."""

    def __init__(self, limit: int):
        self.limit = limit
        self.data = bytearray()
        self.writes = 0

    def write(self, data: bytes) -> int:
        """Keep up to ``limit`` bytes, then raise ``BrokenPipe``."""
        self.writes += 1
        if len(self.data) >= self.limit:
            raise BrokenPipe()
        self.data += data[: self.limit - len(self.data)]
        return len(data)

    def flush(self) -> None:
        """Nothing buffered."""


def test_generated_integer_ranges_match_gnu() -> None:
    rng = random.Random(20261129)
    for _ in range(400):
        gts.compare(_random_case(rng))


def _fast_and_slow(argv: list[str], monkeypatch: pytest.MonkeyPatch, limit: int) -> tuple[tuple, tuple]:
    """Output with the block path (exact bound ``limit``) and with the long double loop alone."""
    with monkeypatch.context() as patch:
        patch.setattr(seq, "_EXACT_LIMIT", limit)
        fast = run_command(argv)
    with monkeypatch.context() as patch:
        patch.setattr(seq, "_print_integers", lambda *args: False)
        slow = run_command(argv)
    return fast, slow


def test_hand_over_to_long_double_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a small exact bound the block path stops mid-sequence and the long double loop
    finishes it: the output must equal the long double loop's from the start."""
    rng = random.Random(77)
    for _ in range(120):
        argv = _random_case(rng)
        if any(a.endswith("inf") for a in argv):
            continue
        limit = rng.choice([1, 2, 50, 1000, 10_007, 30_000, 2**40])
        fast, slow = _fast_and_slow(argv, monkeypatch, limit)
        assert fast == slow, f"argv={argv} _EXACT_LIMIT={limit}"


def test_block_path_is_taken_for_integer_ranges(monkeypatch: pytest.MonkeyPatch) -> None:
    """The differential tests above exercise the block path, not the long double loop."""
    calls: list[int] = []
    original = seq._write_integers

    def spy(ctx, first, step, count, width, separator):  # type: ignore[no-untyped-def]
        calls.append(step)
        return original(ctx, first, step, count, width, separator)

    monkeypatch.setattr(seq, "_write_integers", spy)
    for args in (["-w", "95", "105"], ["-s", "ab", "-5", "3", "40000"], ["10", "-7", "-30"],
                 ["-s", "", "1", "5"], ["1", "9"]):
        run_command(["seq", *args])
    assert calls == [1, 3, -7, 1, 1]


def test_templates_serve_both_directions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Magnitudes rising and falling (positive and negative numbers, both step signs) are
    rendered from block templates, not one number at a time."""
    seen: list[bool] = []
    original = seq._Templates.get

    def spy(self, first_low, rising):  # type: ignore[no-untyped-def]
        seen.append(rising)
        return original(self, first_low, rising)

    monkeypatch.setattr(seq._Templates, "get", spy)
    for args, rising in ((["-s", ",", "1", "7", "50000"], True), (["50000", "-3", "1"], False),
                         (["-w", "-50000", "1", "-1"], False), (["-s", "", "-1", "-1", "-50000"], True)):
        seen.clear()
        code, out, _ = run_command(["seq", *args])
        assert code == 0 and out
        assert seen and set(seen) == {rising}, (args, seen[:5])


@pytest.mark.parametrize("argv", [
    ["seq", "-s", "\udcff", "-3", "2", "20010"],
    ["seq", "-w", "-s", "\udcfe\u00e9", "--", "-20010", "3", "7"],
    ["seq", "-s", "\udcff", "1", "3"],
])
def test_non_utf8_separator_matches_gnu(argv: list[str]) -> None:
    """A separator that is not UTF-8 (surrogate-escaped argv) is written as its raw bytes."""
    gts.compare(argv)


def _sandbox(seconds: float = 10.0) -> Sandbox:
    return Sandbox({"/": MemoryFS({})}, limits=Limits(seconds=seconds))


@pytest.mark.parametrize("script,expected", [
    ("seq 1 100000000 | head -n 3", b"1\n2\n3\n"),
    ("seq 1 1000000000 | head -1", b"1\n"),
    ("seq -w 1 100000000000 | head -n 2", b"000000000001\n000000000002\n"),
    ("seq -1 -1 -100000000000 | head -n 2", b"-1\n-2\n"),
    ("seq -s, 5 3 100000000000 | head -c 12", b"5,8,11,14,17"),
    ("seq 1 100000000 | head -n 100000 | tail -n 1", b"100000\n"),
])
def test_huge_sequence_into_a_closed_pipe(script: str, expected: bytes) -> None:
    """The reader leaving ends seq at once (it would otherwise run into the 10 s limit)."""
    result = _sandbox().run(script)
    assert (result.exit_code, result.stdout, result.stderr) == (0, expected, b"")


@pytest.mark.parametrize("script", [
    "seq 1 100000000000 > /dev/null",
    "seq -w -s, -100000000000 7 100000000000 > /dev/null",
    "seq 100000000000 -1 1 > /dev/null",
    "seq 2 inf > /dev/null",
])
def test_time_limit_stops_a_huge_sequence(script: str) -> None:
    """seq checks the deadline between blocks (a watchdog turns a hang into a failure)."""
    results: list = []
    worker = threading.Thread(target=lambda: results.append(_sandbox(seconds=0.3).run(script)), daemon=True)
    worker.start()
    worker.join(120)
    assert results, f"{script!r} ignored the 0.3 s time limit"
    result = results[0]
    assert result.exit_code == 124
    assert result.stderr == b"sandbox: time limit of 0.3s exceeded; make the command do less work\n"


class _Discard:
    """A pipe that throws data away and whose reader leaves after ``limit`` bytes."""

    def __init__(self, limit: int):
        self.limit = limit
        self.total = 0
        self.writes = 0

    def write(self, data: bytes) -> int:
        """Count the bytes; raise ``BrokenPipe`` once ``limit`` is passed."""
        self.writes += 1
        self.total += len(data)
        if self.total > self.limit:
            raise BrokenPipe()
        return len(data)

    def flush(self) -> None:
        """Nothing buffered."""


@pytest.mark.parametrize("args", [["-w", "-s", "ab", "1", "3", "100000000000"], ["1", "inf"],
                                  ["-5", "7", "100000000000"], ["100000000000", "-1", "1"]])
def test_memory_stays_bounded(args: list[str]) -> None:
    """A huge sequence streams: peak allocation stays far below its output size."""
    sink = _Discard(40_000_000)
    ctx = CommandContext(argv=["seq", *args], stdin=io.BytesIO(), stdout=sink, stderr=io.BytesIO(),
                         fs=VirtualFS({"/": MemoryFS({})}), budget=Budget(Limits(seconds=120)))
    tracemalloc.start()
    try:
        with pytest.raises(BrokenPipe):
            seq.run(ctx)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert sink.writes > 100  # written in many pieces
    assert peak < 8_000_000, f"peak {peak} bytes for 40 MB of output"
