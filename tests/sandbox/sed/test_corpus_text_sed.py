"""sed cases found by the text-tools corpus, against GNU sed 4.9: a range whose end is
``first~step`` ends on its start line when that line matches the step (``3,1~2p`` prints line 3
only), from a line-number, regex or ``$`` start; --posix turns off GNU's regex operators
(``\\w``, ``\\<``..., and ``\\+ \\? \\|`` in a BRE, stand for the plain characters)."""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from sed_harness import SKIP_REASON, Case, check_cases, reference_available  # noqa: E402

LINES = b"".join(b"%d\n" % i for i in range(1, 13))
ADDRS = ["3,1~2", "3,5~2", "3,6~2", "3,4~3", "2,0~4", "3,2~4", "1,3~5", "4,1~1", "5,0~3",
         "5~0", "3,5~0", "3,3~0", "3,1~0", "/4/,1~1", "/4/,2~2", "/4/,3~3", "$,1~1", "0,/3/"]


@pytest.mark.skipif(not reference_available(), reason=SKIP_REASON)
def test_step_range_ends_match_gnu() -> None:
    cases = [Case(["-n", f"{a}p"], LINES) for a in ADDRS]
    cases += [Case([f"{a}d"], LINES) for a in ADDRS]
    cases += [Case([f"{a}s/$/ x/"], LINES) for a in ADDRS]
    count, failures = check_cases(cases)
    assert not failures, "\n".join(failures)
    assert count == 3 * len(ADDRS)


POSIX_SCRIPTS = [
    "s/a\\+/X/", "s/a\\?b/X/", "s/a\\|b/X/g", "s/\\w/X/", "s/a\\{2\\}/X/", "s/\\(a\\)\\1/X/",
    "s/[\\w]/X/g", "s/\\<a/X/g", "s/\\bab/X/", "/a\\+b/d", "s/\\s/_/g", "s/\\`a/X/",
]


@pytest.mark.skipif(not reference_available(), reason=SKIP_REASON)
def test_posix_regex_operators_match_gnu() -> None:
    text = b"aa+b?|w ab a|b\n`a b's\n"
    cases = [Case(["--posix", s], text) for s in POSIX_SCRIPTS]
    cases += [Case(["--posix", "-E", s], text) for s in
              ["s/a+/X/", "s/a|b/X/g", "s/a?/X/", "s/\\w/X/", "s/\\+/P/", "s/[[:alpha:]]+/W/g"]]
    count, failures = check_cases(cases)
    assert not failures, "\n".join(failures)
    assert count == len(POSIX_SCRIPTS) + 6
