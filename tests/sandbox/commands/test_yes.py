"""yes: the repeated line against GNU coreutils 9.1 (first bytes through ``head -c``), options,
and the bounds: the output limit, a reader that goes away, the time limit with no reader."""

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

SB = Sandbox({}, policy=Policy(allow=frozenset({"yes", "head", "echo"})), limits=Limits(seconds=5))


def check(args: list[str], count: int = 300_000) -> None:
    """``yes ARGS | head -c COUNT``: same bytes, same head status; errors identical."""
    gts.need("yes")
    ref = subprocess.run(["yes", *args], capture_output=True, env=gts.REF_ENV, timeout=30) \
        if any(a.startswith("-") for a in args) and "--" not in args and not _plain(args) else None
    if ref is not None and ref.returncode != 0 or ref is not None and ref.stdout.startswith(b"Usage") \
            or ref is not None and ref.stdout.startswith(b"yes (GNU"):
        r = SB.run("yes " + " ".join(_q(a) for a in args))
        assert r.exit_code == ref.returncode and r.stderr == ref.stderr, args
        if ref.returncode == 0:
            assert ref.stdout.startswith(r.stdout), args
        return
    ref = subprocess.run(["sh", "-c", 'yes "$@" | head -c ' + str(count), "sh", *args], capture_output=True,
                         env=gts.REF_ENV, timeout=30)
    r = SB.run("yes " + " ".join(_q(a) for a in args) + f" | head -c {count}")
    assert (r.exit_code, r.stdout, r.stderr) == (ref.returncode, ref.stdout, ref.stderr), args


def _plain(args: list[str]) -> bool:
    return all(a == "-" or not a.startswith("-") for a in args)


def _q(arg: str) -> str:
    return "'" + arg.replace("'", "'\\''") + "'"


HAND = [[], ["x"], ["a", "b"], [""], ["", ""], ["-"], ["--"], ["--", "-n"], ["a", "--", "b"], ["-n"],
        ["a", "-n"], ["--help"], ["a", "--help"], ["--version"], ["--ver"], ["--nope"], ["é", "\t"],
        ["x" * 70000], ["a\nb"], ["-", "-"]]


@pytest.mark.parametrize("args", HAND)
def test_hand_written(args: list[str]) -> None:
    check(args)


def test_generated() -> None:
    rng = random.Random(7)
    words = ["y", "n", "", " ", "long" * 50, "é", "-", "a b", "x\ny", "--", "no"]
    for _ in range(50):
        check([rng.choice(words) for _ in range(rng.randint(0, 4))], rng.choice([1, 100, 4096, 65537, 300_000]))


def test_output_limit_ends_the_run() -> None:
    sb = Sandbox({}, policy=Policy(allow=frozenset({"yes"})), limits=Limits(seconds=5, output_bytes=100_000))
    start = time.monotonic()
    r = sb.run("yes")
    assert time.monotonic() - start < 2
    assert r.exit_code == 125 and r.stdout.startswith(b"y\n" * 50_000) and b"output limit" in r.stderr


def test_no_reader_is_bounded_by_the_time_limit() -> None:
    sb = Sandbox({}, policy=Policy(allow=frozenset({"yes"})), limits=Limits(seconds=0.5))
    start = time.monotonic()
    r = sb.run("yes > /dev/null")
    assert time.monotonic() - start < 3
    assert r.exit_code == 124 and b"time limit" in r.stderr
