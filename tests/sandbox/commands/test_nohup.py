"""Differential tests of ``nohup`` against GNU coreutils 9.1 (through the whole sandbox, where
no standard stream is a terminal, as in the reference runs here): the command's output and
status pass through, no ``nohup.out`` appears (the resulting trees are compared), GNU's
messages and exit statuses for its own errors; the guard checks the command."""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from exec_support import check_all, missing  # noqa: E402
from test_nice import check_refused  # noqa: E402

pytestmark = pytest.mark.skipif(missing("nohup") is not None, reason=str(missing("nohup")))

HAND = [
    "nohup echo hi", "nohup echo hi; echo $?; ls", "nohup cat f1", "echo in | nohup cat",
    "nohup false; echo $?", "nohup; echo $?", "nohup -x echo; echo $?",
    "nohup --bogus; echo $?", "nohup --help=x; echo $?", "nohup --help | head -4",
    "nohup --he", "nohup --version", "nohup --help --version | head -1",
    "nohup --version --help | head -1", "nohup -- echo hi", "nohup --; echo $?",
    "nohup cat -- f1", "nohup printf '%s\\n' a b", "nohup nohup echo x",
    "nohup sort f1 f1 > out; cat out; ls", "nohup cat nosuch; echo $?", "nohup nice nice",
    "nohup env A=1 printenv A", "nohup echo x 2>&1 | cat", "nohup echo x >&2",
    "nohup -n echo; echo $?", "nohup true; echo $?",
    "nohup seq 3 | nohup tac", "nohup head -c 3 f1; echo; ls",
]


@pytest.mark.parametrize("script", HAND)
def test_hand_written(script: str) -> None:
    check_all([(script, {"f1": b"one\ntwo\n"})])


@pytest.mark.parametrize("script,why", [
    ("nohup bash -c 'rm f'", "never runs"),
    ("nohup sh", "never runs"),
    ("nohup python3 x.py", "not an allowed command"),
    ("x=rm; nohup $x f", "named at run time"),
    ("nohup nice env sh", "never runs"),
    ("nohup -- rm f", "read-only"),
    ("nohup touch g", "read-only"),
])
def test_guard_checks_the_wrapped_command(script: str, why: str) -> None:
    check_refused(script, why, frozenset({"nohup", "nice", "env", "rm", "touch", "echo"}))
