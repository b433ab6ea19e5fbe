"""grep: differential tests against GNU grep on generated patterns, inputs and options.

Seeded and reproducible: each failure prints the exact shell command that shows GNU's output.
Set GREP_CASES to change the number of cases per test (default: the CI count).
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import grep_support as gs  # noqa: E402

#: Cases per shard; 10 shards (4 BRE, 4 ERE, 2 fixed-string) make 20,000 cases by default.
CASES = int(os.environ.get("GREP_CASES", "2000"))
SHARDS = range(4)

SIMPLE_OPTIONS = ["-i", "-v", "-w", "-x", "-c", "-n", "-o", "-b", "-h", "-H", "-l", "-L", "-q",
                  "-s", "-T", "-Z", "-a", "-y", "--no-ignore-case", "-I"]


def _options(rng: random.Random) -> list[str]:
    opts = rng.sample(SIMPLE_OPTIONS, rng.choice([0, 1, 1, 2, 2, 3]))
    r = rng.random()
    if r < 0.1:
        opts.append(f"-m{rng.randint(0, 3)}")
    elif r < 0.2:
        opts.append(rng.choice(["-A", "-B", "-C"]) + str(rng.randint(0, 2)))
    elif r < 0.25:
        opts.append(f"-{rng.randint(1, 2)}")
    if rng.random() < 0.05:
        opts.append("--no-group-separator")
    if rng.random() < 0.05:
        opts.append("-z")
    return opts


def _cases(seed: int, count: int, syntax: str) -> list[gs.Case]:
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        extended = syntax == "E"
        pats = [gs.gen_pattern(rng, extended) for _ in range(rng.choice([1, 1, 1, 2]))]
        opts = _options(rng)
        if "-x" in opts and "-w" in opts:
            opts.remove("-w")  # GNU's -x -w -o combination prints stray empty lines: not compared
        if "-z" in opts and any(("^" in p[1:]) or ("$" in p[:-1]) for p in pats):
            opts.remove("-z")  # GNU -z: mid-pattern ^/$ may match at embedded newlines (quirk)
        args = [f"-{syntax}"] + opts
        if len(pats) == 1 and rng.random() < 0.7:
            args += ["-e", pats[0]]
        else:
            for p in pats:
                args += ["-e", p]
        files = {}
        stdin = b""
        if rng.random() < 0.5:
            stdin = gs.gen_input(rng)
        else:
            names = ["f1", "f2"][: rng.choice([1, 2])]
            for name in names:
                files[name] = gs.gen_input(rng)
            args += names
            if rng.random() < 0.05:
                args.append("missing")
        cases.append(gs.Case(args, files, stdin))
    return cases


def _fixed_cases(seed: int, count: int) -> list[gs.Case]:
    rng = random.Random(seed)
    cases = []
    words = ["a", "ab", "é", "É", "word", "Word", "x.y", "[a]", "\\", "*", " ", "ß", ""]
    for _ in range(count):
        pats = rng.sample(words, rng.randint(1, 3))
        args = ["-F"] + _options(rng)
        for p in pats:
            args += ["-e", p]
        cases.append(gs.Case(args, {}, gs.gen_input(rng)))
    return cases


def _check(cases: list[gs.Case]) -> None:
    failures = gs.compare(cases)
    assert not failures, gs.report(failures, len(cases))


@pytest.mark.parametrize("shard", SHARDS)
def test_generated_bre(shard: int) -> None:
    gs.need_grep()
    _check(_cases(1001 + shard, CASES, "G"))


@pytest.mark.parametrize("shard", SHARDS)
def test_generated_ere(shard: int) -> None:
    gs.need_grep()
    _check(_cases(2002 + shard, CASES, "E"))


@pytest.mark.parametrize("shard", range(2))
def test_generated_fixed(shard: int) -> None:
    gs.need_grep()
    _check(_fixed_cases(3003 + shard, CASES))
