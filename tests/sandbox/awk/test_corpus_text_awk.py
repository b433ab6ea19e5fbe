"""awk cases found by the text-tools corpus, each compared with gawk: ``cmd | getline`` (with
and without a variable) leaves NR and FNR alone, in BEGIN, in a rule and in END."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import awk_support as S  # noqa: E402

CASES = [
    ['BEGIN { "echo hi" | getline; print $0, NR, NF }'],
    ['BEGIN { "echo a; echo b" | getline x; print x, NR; "echo a; echo b" | getline x; print x, NR }'],
    ['{ "echo hi" | getline; print $0, NR, FNR }'],
    ['{ "echo one two" | getline v; print v, NR, FNR, $0 }'],
    ['END { "echo hi" | getline; print $0, NR }'],
    ['NR == 1 { while (("echo x; echo y" | getline l) > 0) n++; print n, NR }'],
]


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_case(case: list[str]) -> None:
    S.need_gawk()
    S.compare(case, stdin=b"line1\nline2\n")
