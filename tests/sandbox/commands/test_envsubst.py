"""Differential tests of ``envsubst`` against GNU gettext 0.21's: generated texts full of
``$``, ``${``, names, braces and digits, random environments and SHELL-FORMATs."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402
import text_cmds_support as tcs  # noqa: E402

NAMES = ["A", "B", "_", "_x1", "HOME", "a_b", "X9", "LONG_NAME_2", "v", "Q"]
PIECES = [b"$", b"${", b"}", b"{", b"$$", b"9", b" ", b"\n", b"-", b"\\", b"'", b'"', b"\xc3\xa9",
          b"\x00", b"\xff", b"text", b"$9", b"${9}", b"${ A}", b"$-", b"${}", b"$ {A}"]


def _gen_text(rng: random.Random) -> bytes:
    out = []
    for _ in range(rng.randint(0, 30)):
        r = rng.random()
        name = rng.choice(NAMES).encode()
        if r < 0.3:
            out.append(b"$" + name)
        elif r < 0.5:
            out.append(b"${" + name + rng.choice([b"}", b"}", b"", b" }", b"x}"]))
        elif r < 0.6:
            out.append(name)
        else:
            out.append(rng.choice(PIECES))
    if rng.random() < 0.2:
        out.append(tcs.gen_text(rng, 3))
    return b"".join(out)


def _gen_env(rng: random.Random) -> dict[str, str]:
    values = ["", "1", "two words", "$A", "${B}", "é", "multi\nline", "x" * 50]
    return {n: rng.choice(values) for n in NAMES if rng.random() < 0.5}


def test_generated_substitution() -> None:
    rng = random.Random(5201)
    for _ in range(tcs.CASES * 2):
        argv = ["envsubst"]
        if rng.random() < 0.5:
            argv.append(_gen_text(rng).replace(b"\x00", b"").decode("utf-8", "surrogateescape"))
        gts.compare(argv, stdin=_gen_text(rng), env=_gen_env(rng))


def test_generated_variables() -> None:
    rng = random.Random(5202)
    for _ in range(tcs.CASES):
        fmt = _gen_text(rng).replace(b"\x00", b"").decode("utf-8", "surrogateescape")
        gts.compare(["envsubst", rng.choice(["-v", "--variables", "--var"]), fmt],
                    stdin=b"$A\n", env=_gen_env(rng))


@pytest.mark.parametrize("args", [
    [], ["-v"], ["a", "b"], ["-v", "a", "b"], ["-z"], ["--bogus"], ["-V"], ["--version"],
    ["--help"], ["-h"], ["--h"], ["-V", "-z"], ["-z", "-V"], ["--help", "-V"], ["-hv"],
    ["--variables=x"], ["--", "-v"], ["$A", "-v"], ["-v", "--", "$A ${B}"], ["$"], ["${"],
    ["${A"], ["$A$B"], ["${A}${B}x"],
])
def test_command_lines(args: list[str]) -> None:
    gts.compare(["envsubst"] + args, stdin=b"$A ${B} $C ${A $ ${ $$A\n", env={"A": "1", "B": "2"})
