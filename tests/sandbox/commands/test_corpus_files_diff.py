"""diff's obsolete ``-NUM`` context option (``-u0``, ``-c1``, ``-3``), found by the
file-management corpus, against bash + GNU diff 3.8."""

from __future__ import annotations

import pytest

from tests.sandbox.shell.shell_difftools import check

SETUP = ("seq 1 20 > y1 && seq 1 20 | sed 's/^10$/X/' > y2 && touch -d '2026-09-01 10:00' y1 y2 && ")
SCRIPTS = [
    "diff -u0 y1 y2", "diff -3 y1 y2", "diff -c1 y1 y2", "diff -1 y1 y2", "diff -u -1 -2 y1 y2",
    "diff -u1 -U5 y1 y2", "diff -U1 -5 -u y1 y2", "diff -5 -U1 y1 y2", "diff -u12 y1 y2 | wc -l",
    "diff -uw0 y1 y2", "diff -0u y1 y2", "diff -I 5 -u0 y1 y2", "diff --label=a -u2 --label b y1 y2",
    "diff -W 50 -y1 y1 y2 | head -3", "diff -u0 -q y1 y2", "diff -u0 y1 y2 | tail -n +3",
    "diff -C 2 -7 y1 y2", "diff -c --context=1 -4 y1 y2", "diff -x 1 -u0 y1 y2", "diff -u0 y1 y1; echo $?",
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_digit_context(script: str) -> None:
    check(SETUP + script)
