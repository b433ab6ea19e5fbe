"""The order of sed's output and its messages on one stream (``2>&1``), against GNU sed 4.9:
its stdout to a pipe or file is fully buffered in 4096-byte blocks and a message is written
at once, so a message comes before output that has not yet filled a block; a fatal error's
message comes before what the exit flushes; ``-u`` writes each line at once."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "shell"))
import shell_difftools as dt  # noqa: E402

needs_bash = pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")

SCRIPTS = [
    'printf "a\\n" > f; sed p f nope 2>&1 | cat',
    'sed p a.txt nope a.txt 2>&1 | cat; echo ${PIPESTATUS[@]}',
    'seq 2000 > s; sed p s nope s 2>&1 | grep -n sed',
    'seq 3000 > s; sed -n p s nope s nope2 s > out 2>&1; grep -n "sed:" out; wc -l < out',
    'sed -i s/a/b/ a.txt nope 2>&1; cat a.txt',
    'sed "s/a/b/w /dev/stdout" a.txt nope 2>&1',
    'sed -n "1p;2q5" a.txt nope 2>&1; echo $?',
    'sed -u p a.txt nope 2>&1 | cat',
    'sed p dir 2>&1 | cat; sed p a.txt dir 2>&1 | cat',
    'seq 5000 | sed "p;4000r nope" 2>&1 | tail -n 2',
]


@needs_bash
@pytest.mark.parametrize("script", SCRIPTS)
def test_sed_messages_and_output_in_gnus_order(script: str) -> None:
    dt.check(script, stderr=True)
