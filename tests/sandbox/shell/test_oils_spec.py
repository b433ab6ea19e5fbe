"""The Oils spec suite (``../shared/conformance/oils/*.test.sh``): each case run by ``bash -c``
(the oracle) and by the sandbox; stdout and status compared. Cases listed in
``oils_skips.txt`` are expected to fail (each with its reason); any other valid case must pass,
and a listed case that passes fails the test (remove it from the list), unless its reason
starts with "flaky" (timing-dependent cases). The machinery is in
``oils_spec_support.py``; run it as a script for the per-file table."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from oils_spec_support import (  # noqa: E402
    BASH, SPEC_DIR, load_skips, run_all, summary,
)

pytestmark = pytest.mark.skipif(BASH is None or not SPEC_DIR.is_dir(),
                                reason="bash 5.2 or ../shared/conformance/oils is missing")


@pytest.mark.parametrize("dynamic", [False, True], ids=["default", "dynamic"])
def test_oils_spec_suite(dynamic: bool) -> None:
    """Every valid case passes unless listed; every listed case still fails (the dynamic run
    uses ``Policy(dynamic=True)`` and its own list, ``oils_skips_dynamic.txt``)."""
    results = run_all(dynamic=dynamic)
    print("\n" + summary(results))
    skips = load_skips(dynamic)
    unexpected = [r for r in results if r.valid and not r.passed and r.case.key not in skips]
    fixed = [r for r in results if r.passed and r.case.key in skips
             and not skips[r.case.key].startswith("flaky")]
    lines = [f"FAILS (not in oils_skips.txt): {r.case.key}\n  bash: {r.bash!r}\n  ours: {r.ours!r}"
             for r in unexpected]
    lines += [f"PASSES (remove from oils_skips.txt): {r.case.key}" for r in fixed]
    assert not lines, "\n".join(lines)
