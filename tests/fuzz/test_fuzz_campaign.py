"""A bounded fuzz campaign with fixed seeds, part of every test run (the long one is
``python -m tests.fuzz --minutes 30``). A failure prints each problem with a minimised
reproducer: add it to ``test_fuzz_findings.py`` and fix it."""

from __future__ import annotations

import pytest

from tests.fuzz.campaign import Campaign

#: Seconds per shard; two shards run side by side under ``pytest -n 2``.
SECONDS = 40


@pytest.mark.parametrize("seed", [20261201, 20261202])
def test_bounded_campaign_finds_nothing(seed: int) -> None:
    report = Campaign(seed, limit=1.0).run(SECONDS)
    assert report.cases > 500, report.summary()
    assert not report.findings, report.summary()
