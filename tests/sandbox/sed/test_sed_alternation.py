"""``s/L1|L2/REP/g`` (an alternation of plain strings) on the lines holding one of them
(``fastpath._substitute_lines``): the same output as GNU sed, also when alternatives overlap,
hold each other, or meet another's replacement (then ``re.sub`` runs instead of replacing in
turn); at read-block sizes 1, 7, 64 and 1 MiB."""

from __future__ import annotations

import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import sandbox.commands.sed.fastpath as fastpath  # noqa: E402
from sed_harness import SKIP_REASON, Case, check_cases, reference_available  # noqa: E402

SCRIPTS = [
    ["-E", "s/(budget|deadline)/[\\1]/g"], ["-E", "s/budget|deadline/<&>/g"], ["s/ab\\|cd/X/g"],
    ["-E", "s/(ab|bc)/X/g"], ["-E", "s/(a|ab)/[\\1]/g"], ["-E", "s/(ab|a)/[&]/g"], ["-E", "s/(a|b)/b/g"],
    ["-E", "s/(a|b)/ab/g"], ["-E", "s/(b|a)/\\1\\1/g"], ["-E", "s/(cd|dc)/\\\\/g"], ["-E", "s/(aa|b)/-/g"],
    ["-E", "s/(\xc3\xa9|x)/E/g"], ["-E", "s/(ab|ab)/Y/g"], ["-E", "s/(ab|cd|ef)/\\0\\0/g"],
    ["-E", "s/(a|x)/\\n/g"], ["-E", "s/(x|yz)/a/g"], ["-E", "s/(x|y)/[\\1]/"], ["-n", "-E", "s/(a|b)/X/gp"],
    ["-E", "s/(x|y)/%/2"], ["-E", "s/(ab|cd)/X/gI"], ["-E", "s/(x|)/-/g"], ["-E", "s/(a|b)/X/g", "in.txt"],
]
WORDS = [b"ab", b"abc", b"bcd", b"cdab", b"aab", b"ba", b"xyz", b"yzx", b"", b"\xc3\xa9t\xc3\xa9",
         b"\xff", b"budget deadline", b"deadlinebudget", b"efab", b"AB cd", b"a\x00b", b"dc\r", b"xx"]


def _cases(seed: int, n: int) -> list[Case]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        data = b"\n".join(b" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 4)))
                          for _ in range(rng.randint(0, 30)))
        if data and rng.random() < 0.7:
            data += b"\n"
        out.append(Case(list(rng.choice(SCRIPTS)), data, {"in.txt": data}))
    return out


@pytest.mark.skipif(not reference_available(), reason=SKIP_REASON)
@pytest.mark.parametrize("block", [1, 7, 64, 1 << 20])
def test_alternation_matches_gnu(monkeypatch, block: int) -> None:
    monkeypatch.setattr(fastpath, "BLOCK", block)
    total, failures = check_cases(_cases(block + 3, int(os.environ.get("SED_ALT_CASES", "120"))))
    assert not failures, "\n\n".join(failures)


def test_replacing_in_turn_is_chosen_only_when_exact() -> None:
    exact = fastpath._replace_in_turn_is_exact
    assert exact([b"deadline", b"budget"], [b"[deadline]", b"[budget]"])
    assert not exact([b"ab", b"bc"], [b"X", b"X"])  # "abc": the scan takes ab, not bc
    assert not exact([b"ab", b"a"], [b"1", b"2"])  # one inside the other
    assert not exact([b"a", b"b"], [b"b", b"x"])  # the second pass would see the first's output
    assert not exact([b"ab", b"cd"], [b"xc", b"y"])  # "xc" + "d..." would make a new "cd"
