"""sandbox.regex's glibc modes, through sed, against GNU sed 4.9 (generated, seeded cases).

* ``reg_newline`` (sed's ``M`` flag, glibc's REG_NEWLINE): ``.`` and ``[^...]`` skip a newline,
  ``\\W``, ``\\s`` and brackets that contain a newline still match it; on both engines (a
  leading ``\\b`` forces the backtracker).
* ``glibc_syntax``: repetition operators after anchors, at the start of an ERE, after another
  repetition in a BRE, and ERE braces that do not open a valid interval.
* ``charsets.fold_closure`` (cached and bisected for speed) equals its plain definition.

A failing case prints the shell command that reproduces it with GNU sed.
"""

from __future__ import annotations

import os
import random
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "sed"))

from sed_harness import SKIP_REASON, Case, check_cases, reference_available  # noqa: E402

from sandbox.regex import charsets  # noqa: E402

needs_sed = pytest.mark.skipif(not reference_available(), reason=SKIP_REASON)

_NEWLINE_ATOMS = ["\\W", "\\w", "\\s", "\\S", "[^a]", ".", "[[:space:]]", "[\\n]", "\\n",
                  "[^[:alpha:]]", "[[:punct:][:space:]]", "[^\\n]", "a", "b", "é", " "]


def _newline_cases(seed: int, count: int) -> list[Case]:
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        atoms = [rng.choice(_NEWLINE_ATOMS) + rng.choice(["", "", "*", "\\+", "\\{1,2\\}"])
                 for _ in range(rng.randint(1, 4))]
        pattern = "".join(atoms)
        if rng.random() < 0.3:
            pattern = "\\b" + pattern  # word assertions run on the backtracker
        if rng.random() < 0.2:
            pattern = pattern.replace("\\+", "\\(a\\|\\)\\1")  # a back-reference too
        flags = "M" + rng.choice(["", "", "g", "I", "gI"])
        kind = rng.randrange(3)
        if kind == 0:
            script = f"N;N;s/{pattern}/<&>/{flags}"
        elif kind == 1:
            script = f"$!N;s/{pattern}/<&>/{flags}"
        else:  # an address: only I and M are allowed there
            script = f"N;/{pattern}/{flags.replace('g', '')}d"
        lines = ["".join(rng.choice(["a", "b", " ", "\t", "é", "x", "-", ""])
                         for _ in range(rng.randint(0, 4))) for _ in range(rng.randint(1, 5))]
        cases.append(Case([script], "\n".join(lines).encode() + b"\n"))
    return cases


_ANCHORS_BRE = ["\\<", "\\>", "\\b", "\\B", "\\`", "\\'", "^", "$"]
_OPS_BRE = ["*", "\\+", "\\?", "\\{2\\}", "\\{1,\\}", "\\{,2\\}", "\\{", "\\{1", "\\{x\\}"]
_OPS_ERE = ["*", "+", "?", "{2}", "{1,}", "{,2}", "{", "{1", "{x}", "{1,x}", "{2,1}"]


def _syntax_cases(seed: int, count: int, extended: bool) -> list[Case]:
    rng = random.Random(seed)
    ops = _OPS_ERE if extended else _OPS_BRE
    group = ("(", ")", "|") if extended else ("\\(", "\\)", "\\|")
    cases = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(1, 4)):
            k = rng.random()
            if k < 0.35:
                parts.append(rng.choice(_ANCHORS_BRE))
            elif k < 0.6:
                parts.append(rng.choice(["a", "b", "*", "+", "{", "}", "."]))
            elif k < 0.7:
                parts.append(rng.choice(group[:1] + group[2:]))
            else:
                parts.append(rng.choice(ops))
        pattern = "".join(parts)
        if pattern.count(group[0]) > pattern.count(group[1]) and rng.random() < 0.7:
            pattern += group[1]
        args = (["-E"] if extended else []) + ["s/%s/[&]/g" % pattern.replace("/", "\\/")]
        text = "".join(rng.choice(["a", "b", "*", "+", "?", "{2}", " ", "ab", "\n"])
                       for _ in range(rng.randint(0, 6)))
        cases.append(Case(args, text.encode() + b"\n"))
    return cases


def _check(cases: list[Case]) -> None:
    total, failures = check_cases(cases, workers=2)
    assert total == len(cases)
    assert not failures, f"{len(failures)} case(s) differ from GNU sed:\n\n" + "\n\n".join(failures)


@needs_sed
@pytest.mark.parametrize("seed", [11, 12, 13])
def test_m_flag_newline_matching(seed: int) -> None:
    """Sed's M flag: which atoms may match an embedded newline, on both engines."""
    _check(_newline_cases(seed, 250))


@needs_sed
@pytest.mark.parametrize("extended", [False, True], ids=["BRE", "ERE"])
@pytest.mark.parametrize("seed", [21, 22])
def test_repetition_syntax_like_glibc(seed: int, extended: bool) -> None:
    """Repetition after anchors, at the start, after a repetition, odd braces: GNU sed's
    errors (wording included) and matches."""
    _check(_syntax_cases(seed * 2 + extended, 400, extended))


def test_generators_are_reproducible() -> None:
    """Same seed, same cases (so a failure can be replayed)."""
    assert _newline_cases(3, 20) == _newline_cases(3, 20)
    assert _syntax_cases(3, 20, True) == _syntax_cases(3, 20, True)


def _fold_closure_by_definition(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Every cased code point in ``ranges`` plus its counterparts, by brute force."""
    extra = []
    for cp in charsets._cased():
        if charsets.in_ranges(cp, ranges):
            extra.extend((ord(v), ord(v)) for v in charsets.fold_variants(chr(cp)))
    return charsets.merge_ranges(list(ranges) + extra)


def test_fold_closure_matches_its_definition() -> None:
    """The cached, bisected fold_closure equals the brute-force one on every POSIX class and
    on random ranges (ASCII, Latin/Greek/Cyrillic, the whole plane)."""
    for name in sorted(charsets.CLASSES):
        ranges = list(charsets.class_ranges(name))
        assert charsets.fold_closure(ranges) == _fold_closure_by_definition(ranges), name
    rng = random.Random(7)
    for _ in range(150):
        ranges = []
        for _ in range(rng.randint(0, 4)):
            lo = rng.choice([rng.randint(0, 0x7F), rng.randint(0, 0x600), rng.randint(0, 0x20000)])
            ranges.append((lo, lo + rng.choice([0, 3, 100, 5000])))
        assert charsets.fold_closure(ranges) == _fold_closure_by_definition(ranges), ranges
