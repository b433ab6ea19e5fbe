"""Differential tests: every corpus script runs with real bash (LC_ALL=C.UTF-8, TZ=UTC) and
with the sandbox over identical temporary directories; stdout, exit status and the resulting
files must be identical. A script needing a command that is not registered yet is skipped
(with the command named)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import shell_difftools as dt  # noqa: E402
from diff_scripts import SCRIPTS  # noqa: E402

pytestmark = pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")


@pytest.mark.parametrize("script,stdin", SCRIPTS, ids=[f"s{i:03d}" for i in range(len(SCRIPTS))])
def test_same_as_bash(script: str, stdin: bytes) -> None:
    missing = dt.missing_commands(script)
    if missing:
        pytest.skip(f"needs commands not registered yet: {', '.join(missing)}")
    problem = dt.compare(script, stdin)
    assert problem is None, problem


def test_corpus_is_large_enough() -> None:
    assert len(SCRIPTS) >= 300
    assert len({s for s, _ in SCRIPTS}) == len(SCRIPTS), "duplicate scripts in the corpus"
