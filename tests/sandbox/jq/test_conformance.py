"""jq's own test suite (``../shared/conformance/jq.test`` and ``jq-man.test``) against our jq.

One pytest test per file (the ~800 cases run in a loop, fast). Every case must pass or be
listed in ``skips.txt`` with a reason; skipped cases count as not passed in the printed
``passed / total``. A listed case that now passes is reported too (stale skip).
For ``%%FAIL`` cases we require a compile error; the wording of jq's bison messages is not
compared (see ``jq_conformance.run_case``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from jq_conformance import CONFORMANCE_DIR, read_cases, read_skips, run_case  # noqa: E402

TARGETS = {"jq.test": 0.95, "jq-man.test": 0.98}


@pytest.mark.parametrize("filename", sorted(TARGETS))
def test_conformance_file(filename: str) -> None:
    """Run every case of one conformance file; print and assert the pass rate."""
    path = CONFORMANCE_DIR / filename
    if not path.exists():
        pytest.skip(f"conformance data missing: {path} (CI keeps shared/ beside the checkout)")
    cases = read_cases(path)
    skips = read_skips()
    passed = 0
    unexpected: list[str] = []
    stale: list[str] = []
    for case in cases:
        ok, why = run_case(case)
        if ok:
            passed += 1
            if case.key in skips:
                stale.append(case.key)
        elif case.key not in skips:
            unexpected.append(f"{case.key}: {case.program!r}: {why}")
    rate = passed / len(cases)
    summary = f"{filename}: {passed} / {len(cases)} passed ({rate:.1%}; target {TARGETS[filename]:.0%}; {sum(1 for c in cases if c.key in skips)} skipped with reasons in skips.txt)"
    print(summary)
    assert not unexpected, summary + "\nfailing cases not in skips.txt:\n" + "\n".join(unexpected)
    assert not stale, summary + "\nskipped cases that now pass (remove them from skips.txt): " + ", ".join(stale)
    assert rate >= TARGETS[filename], summary
