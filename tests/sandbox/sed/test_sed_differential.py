"""Differential tests: our sed against GNU sed 4.9 on the hand-written corpus and on 20,000
generated cases (seeded; a failure prints the shell command that reproduces it)."""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import corpus_cases  # noqa: E402
from sed_gen import generate  # noqa: E402
from sed_harness import SKIP_REASON, check_cases, reference_available  # noqa: E402

pytestmark = pytest.mark.skipif(not reference_available(), reason=SKIP_REASON)

#: 20 batches of 1,000 generated cases: 20,000 in all, each batch its own seed.
GENERATED_BATCHES = 20
BATCH_SIZE = 1000


def _assert_all_agree(cases) -> None:
    total, failures = check_cases(cases, workers=4)
    assert total == len(cases)
    assert not failures, f"{len(failures)} case(s) differ from GNU sed:\n\n" + "\n\n".join(failures)


def test_corpus_size() -> None:
    """The hand-written corpus holds at least 200 cases."""
    assert len(corpus_cases.cases()) >= 200


def test_corpus_matches_gnu() -> None:
    """Every corpus case: same stdout, stderr, exit status and files as GNU sed."""
    _assert_all_agree(corpus_cases.cases())


@pytest.mark.parametrize("seed", range(1, GENERATED_BATCHES + 1))
def test_generated_matches_gnu(seed: int) -> None:
    """A batch of generated scripts, options and inputs agrees with GNU sed."""
    _assert_all_agree(generate(seed * 7919, BATCH_SIZE))


def test_generator_is_reproducible() -> None:
    """The same seed gives the same cases (so a failure can be replayed)."""
    assert generate(5, 50) == generate(5, 50)
