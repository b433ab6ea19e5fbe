"""Differential tests of ``timeout`` against GNU coreutils 9.1 (through the whole sandbox):
options, durations, signals, exit statuses and messages; plus the time limit itself."""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from exec_support import check_all, missing  # noqa: E402

pytestmark = pytest.mark.skipif(missing("timeout") is not None, reason=str(missing("timeout")))

HAND = [
    "timeout 1 true; echo $?",
    "timeout 1 false; echo $?",
    "timeout 5 cat f1",
    "timeout 0 cat f1; echo $?",
    "timeout 1.5 cat f1",
    "timeout 1m cat f1",
    "timeout 1h cat f1; timeout 1d cat f1",
    "timeout inf cat f1; timeout INF cat f1",
    "timeout .5 cat f1; timeout 1. cat f1; timeout 1e1 cat f1",
    "timeout ' 1' cat f1",
    "timeout x true; echo $?",
    "timeout 1x true; echo $?",
    "timeout 1S true; echo $?",
    "timeout -1 true; echo $?",
    "timeout -- 1 cat f1",
    "timeout; echo $?",
    "timeout 1; echo $?",
    "timeout -s KILL 1 cat f1; echo $?",
    "timeout -s 9 1 cat f1; echo $?",
    "timeout -s sigterm 1 cat f1; echo $?",
    "timeout -s FOO 1 true; echo $?",
    "timeout -s 99 1 true; echo $?",
    "timeout -k 1 1 false; echo $?",
    "timeout -k x 1 false; echo $?",
    "timeout --kill-after=2s --signal=HUP 3 cat f1; echo $?",
    "timeout --preserve-status 2 false; echo $?",
    "timeout --foreground 2 cat f1; echo $?",
    "timeout -v 2 cat f1; echo $?",
    "timeout -z 1 true; echo $?",
    "timeout --bogus 1 true; echo $?",
    "echo hi | timeout 2 cat",
    "timeout 2 env -i A=1 printenv A",
]


@pytest.mark.parametrize("script", HAND)
def test_hand_written(script: str) -> None:
    check_all([(script, {"f1": b"one\n"})])


@pytest.mark.parametrize("script", [
    "timeout 0.3 seq inf > /dev/null; echo $?",
    "{ timeout -s KILL 0.3 seq inf > /dev/null; } 2>/dev/null; echo $?",  # bash: "Killed"
    "timeout --preserve-status 0.3 seq inf > /dev/null; echo $?",
    "timeout -s HUP --preserve-status 0.3 seq inf > /dev/null; echo $?",
])
def test_times_out_as_gnu(script: str) -> None:
    check_all([(script, {})])


def test_verbose_message_on_timeout() -> None:
    check_all([("timeout -v 0.3 seq inf > /dev/null; echo $?", {})])
