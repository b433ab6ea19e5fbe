"""ReDoS: catastrophic patterns on hostile input never hang grep.

Each case runs our grep under a small time limit (``Limits(seconds=...)``). The outcome must be
either GNU grep's own answer (patterns RE2 runs in linear time, or the memoised backtracker) or
the "regex took too long" ``LimitExceeded`` raised by the bounded backtracker. A watchdog thread
turns a hang into a failure instead of a stuck test run.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "grep"))
import grep_support as gs  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.errors import LimitExceeded  # noqa: E402
from sandbox.limits import Limits  # noqa: E402
from sandbox.regex import compile_regex  # noqa: E402

A = b"a" * 3000
AX = b"a" * 40 + b"!"

# (grep arguments, input)
CASES: list[tuple[list[str], bytes]] = [
    (["-E", "(a*)*b"], A + b"\n"),
    (["-E", "(a+)+b"], A + b"\n"),
    (["-E", "(a|aa)+$"], A + b"!\n"),
    (["-E", "(a|a)*b"], A + b"\n"),
    (["-E", "(.*a){20}"], A + b"\n"),
    (["-E", "(a?){30}a{30}"], b"a" * 30 + b"\n"),
    (["-E", "^(a+)+$"], AX + b"\n"),
    (["-E", "(x+x+)+y"], b"x" * 3000 + b"\n"),
    (["-E", "(\\w+\\s?)*$"], b"word " * 600 + b"!\n"),
    (["\\(a*\\)*b"], A + b"\n"),
    (["-E", "\\<(a*)*b"], A + b"\n"),
    (["-E", "(a|aa)+\\>!"], A + b"\n"),
    (["-wE", "(a*)*"], A + b"\n"),
    (["-E", "(a*)*\\1b"], AX + b"\n"),
    (["-E", "(a|aa)+\\1$"], AX + b"\n"),
    (["-E", "(a*)(a*)(a*)\\3\\2\\1b"], b"a" * 300 + b"\n"),
    (["\\(a*\\)*\\1b"], AX + b"\n"),
    (["\\(\\(a*\\)*\\2\\)*b"], AX + b"\n"),
    (["-E", "((a+)\\2)+b"], AX + b"\n"),
    (["-E", "(.*)(.*)(.*)(.*)\\4\\3\\2\\1x"], b"ab" * 200 + b"\n"),
    (["-E", "^(a|a?)+\\1$"], AX + b"\n"),
    (["-E", "(a+)+\\1\\1\\1b"], AX * 3 + b"\n"),
    (["-cE", "(.+)\\1"], (b"abcdefghij" * 100 + b"\n") * 20),
]


def _run_bounded(args: list[str], data: bytes, seconds: float) -> object:
    result: dict[str, object] = {}

    def target() -> None:
        try:
            result["value"] = run_command(["grep"] + args, stdin=data,
                                          limits=Limits(seconds=seconds))
        except BaseException as exc:  # noqa: BLE001 - reported below
            result["value"] = exc

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(timeout=seconds * 20 + 30)
    assert not worker.is_alive(), f"grep {args} did not stop: the regex engine hangs"
    return result["value"]


def test_at_least_20_catastrophic_patterns() -> None:
    assert len(CASES) >= 20


@pytest.mark.parametrize("args,data", CASES, ids=[" ".join(c[0]) for c in CASES])
def test_catastrophic_pattern_is_bounded(args: list[str], data: bytes) -> None:
    outcome = _run_bounded(args, data, seconds=1.0)
    if isinstance(outcome, LimitExceeded):
        assert outcome.limit == "seconds"
        assert "regex took too long" in str(outcome) or "time limit" in str(outcome)
        return
    assert not isinstance(outcome, BaseException), f"unexpected {outcome!r}"
    gs.need_grep()
    gnu = gs.run_gnu(gs.Case(args, {}, data))
    assert outcome == gnu, gs.Case(args, {}, data).command()


def test_backtracker_raises_limit_in_a_worker_thread() -> None:
    # Nested back-references cannot be memoised: the bounded engine must give up by itself.
    from sandbox.limits import Budget

    rx = compile_regex(rb"\(\(a*\)*\2\)*\1b", budget=Budget(Limits(seconds=0.3)))
    assert not rx.uses_re2
    box: dict[str, object] = {}

    def target() -> None:
        try:
            box["value"] = rx.search(b"a" * 60 + b"!")
        except LimitExceeded as exc:
            box["value"] = exc

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive()
    value = box["value"]
    assert value is None or isinstance(value, LimitExceeded)
