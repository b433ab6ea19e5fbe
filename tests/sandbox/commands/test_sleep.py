"""sleep: operand syntax and messages against GNU coreutils 9.1 (with ``timeout`` around the
reference), and the real pause bounded by the run's time limit."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox import Limits, Policy, Sandbox  # noqa: E402
from sandbox.commands.sleep import duration  # noqa: E402
from sandbox.commands.testing import run_command  # noqa: E402


def check(args: list[str]) -> None:
    """GNU sleep and ours agree on status and messages; valid durations are not waited for
    (ours is compared through ``duration`` with GNU accepting it under ``timeout``)."""
    gts.need("sleep")
    ref = subprocess.run(["timeout", "0.05", "sleep", *args], capture_output=True, env=gts.REF_ENV, timeout=30)
    if ref.returncode == 124:  # GNU accepted it and was sleeping: ours must accept it too
        assert all(duration(a) is not None for a in args if a != "--"), args
        return
    if ref.returncode == 0:  # a zero pause
        assert sum(duration(a) or 0 for a in args if a != "--") < 0.05, args
    ours = run_command(["sleep", *args])
    assert ours == (ref.returncode, ref.stdout, ref.stderr), f"sleep {args!r}"


HAND = ["", "1x", "-1", "-- -1", "-- -0", "1 x y", "nan", "0x", "1e", " 1", "1 ", "+1", "0x.8", "infinityd",
        "1.5.2", "1e5q", "0", "0s", "0m", "0h", "0d", "0.0001", ".5", "5.", "1e-9", "0x0p3", "inf", "INF",
        "--help2", "--", "-- 0", "0 0 0", "0ms", "1S", "1M", "\udcff", "1e99999", "0e99999", "-- -inf",
        "NaN(1)", "0.", "00", "0x1p-20", "1sec"]


@pytest.mark.parametrize("line", HAND)
def test_hand_written(line: str) -> None:
    check(line.split(" ") if line else [])


@pytest.mark.parametrize("seed", range(2))
def test_generated(seed: int) -> None:
    rng = random.Random(seed)
    pieces = ["0", "1", ".", "e", "-", "+", "x", "5", "s", "m", "h", "d", "p", "inf", " ", "0x"]
    for _ in range(40):
        args = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 4))) for _ in range(rng.randint(1, 3))]
        if any(a.startswith("-") for a in args):
            args.insert(0, "--")
        check(args)


def test_really_sleeps_and_sums() -> None:
    start = time.monotonic()
    assert run_command(["sleep", "0.1", "0.001m"]) == (0, b"", b"")
    assert time.monotonic() - start >= 0.15


def test_sleeping_past_the_deadline_ends_the_run() -> None:
    sb = Sandbox({}, policy=Policy(allow=frozenset({"sleep", "echo"})),
                 limits=Limits(seconds=0.5))
    start = time.monotonic()
    r = sb.run("sleep 1d; echo after")
    assert time.monotonic() - start < 2
    assert r.exit_code == 124 and b"time limit" in r.stderr and b"after" not in r.stdout
