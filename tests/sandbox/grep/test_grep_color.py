"""grep --color against GNU grep 3.8: SGR sequences for matches, file names, line numbers,
byte offsets, separators and context; ``GREP_COLORS`` (every capability, ``rv``, ``ne``,
malformed values) and the deprecated ``GREP_COLOR`` with its warning; ``--color=auto`` (never a
terminal here) and invalid ``--color`` values (GNU prints its help and exits 0).
Set GREP_COLOR_CASES to change the number of generated cases.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import grep_support as gs  # noqa: E402

CASES = int(os.environ.get("GREP_COLOR_CASES", "600"))

COLORS = ["", "ms=01;32", "mc=35", "mt=4", "sl=1", "cx=2", "sl=1:cx=2", "sl=1:cx=2:rv",
          "rv", "ne", "ms=:fn=", "fn=1;34:ln=33:bn=31:se=0", "ms=1:ne:sl=7", "ms=1x:fn=32",
          "fn=32:ms=1x", "=1", "ms=1=2", "xx=1:ms=7", "mt", "mt=:mc=1", "ms=5:mt", "se=",
          "ln=:bn=:se=:fn=", "sl=33:mt=1:rv:cx=34", "::", "ms"]
LEGACY = ["", "", "", "1;32", "7", "1;3x", ";"]
OPTIONS = ["-n", "-b", "-H", "-h", "-o", "-v", "-i", "-w", "-c", "-l", "-L", "-Z", "-T", "-x"]
PATTERNS = ["a", "ab", "b*", "x", "^a", "a$", "é", "[ab]", "", "a\\|b", "\\<a"]


def _cases(seed: int, count: int) -> list[gs.Case]:
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        opts = ["--color=always"] + rng.sample(OPTIONS, rng.choice([0, 1, 1, 2, 3]))
        if "-x" in opts and "-w" in opts:
            opts.remove("-w")  # GNU's -x -w with an empty match prints stray bytes: not compared
        if rng.random() < 0.3:
            opts.append(rng.choice(["-A1", "-B1", "-C1", "-1", "--group-separator=::"]))
        env = {}
        spec = rng.choice(COLORS)
        if spec:
            env["GREP_COLORS"] = spec
        legacy = rng.choice(LEGACY)
        if legacy:
            env["GREP_COLOR"] = legacy
        args = opts + ["-e", rng.choice(PATTERNS)]
        if rng.random() < 0.5:
            files = {"f1": gs.gen_input(rng), "f2": gs.gen_input(rng)}
            cases.append(gs.Case(args + ["f1", "f2"], files, env=env))
        else:
            cases.append(gs.Case(args, {}, gs.gen_input(rng), env=env))
    return cases


def test_color_generated_like_gnu() -> None:
    gs.need_grep()
    cases = _cases(5151, CASES)
    failures = gs.compare(cases)
    assert not failures, gs.report(failures, len(cases))


@pytest.mark.parametrize("args", [
    ["--color=always", "a"], ["--colour=always", "a"], ["--color=ALWAYS", "a"],
    ["--color=yes", "a"], ["--color=force", "a"], ["--color=auto", "a"], ["--color", "a"],
    ["--color=tty", "a"], ["--color=never", "a"], ["--color=no", "a"], ["--color=bad", "a"],
    ["--color=", "a"], ["--help"], ["--color=always", "-c", "a", "f1", "f2"],
    ["--color=always", "-l", "a", "f1", "f2"], ["--color=always", "-lZ", "a", "f1", "f2"],
    ["--color=always", "-A1", "a", "f1"], ["--color=always", "-o", "-n", "a", "f1"],
])
def test_color_options_like_gnu(args: list[str]) -> None:
    gs.need_grep()
    files = {"f1": b"a b a\nno\nxx\nab\r\n\xff a\n", "f2": b"none\n"}
    for env in ({}, {"GREP_COLOR": "1;32"}, {"GREP_COLORS": "sl=1:cx=2:ms=4"}):
        failures = gs.compare([gs.Case(args, files, env=env)])
        assert not failures, gs.report(failures, 1)
