"""egrep: GNU grep 3.8's wrapper (warning, then ``grep -E``), compared with ``grep -E`` run by
the reference plus the warning line grep 3.8 prints (the installed egrep may be Debian's,
which has no warning)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402


def check(name: str, flag: str, args: list[str], stdin: bytes, files: dict[str, bytes]) -> None:
    """``NAME ARGS`` is ``grep FLAG ARGS`` after the obsolescence warning."""
    gts.need("grep")
    ref = gts.reference(["grep", flag, *args], stdin, files)
    ours = run_command([name, *args], stdin=stdin, files=files)
    warning = f"{name}: warning: {name} is obsolescent\n".encode()
    assert ours == (ref[0], ref[1], warning + ref[2]), f"{name} {args!r}"


PATTERNS = ["a|b", "^x", "(ab)+", "a{2}", "[0-9]+", "a.c", "é", "", "(", "a||b", "\\", "x$", "a+b", "b?"]


def generated(name: str, flag: str, seed: int, count: int = 60) -> None:
    """``count`` random grep command lines through the wrapper."""
    rng = random.Random(seed)
    for _ in range(count):
        files = {"f": gts.gen_input(rng, 10), "g": gts.gen_input(rng, 10)}
        opts = rng.sample(["-i", "-v", "-c", "-n", "-o", "-x", "-w", "-l", "-h", "-H", "-q", "-s", "-Z"],
                          rng.randint(0, 3))
        operands = rng.sample(["f", "g", "nope", "-"], rng.randint(0, 3))
        check(name, flag, opts + ["-e", rng.choice(PATTERNS)] + operands, gts.gen_input(rng, 10), files)


def test_generated() -> None:
    generated("egrep", "-E", 1)


@pytest.mark.parametrize("args", [["a|b"], ["-c", "x|y", "f"], [], ["-Q", "x"], ["--nope"], ["-e"]])
def test_hand_written(args: list[str]) -> None:
    check("egrep", "-E", args, b"a\nx\nb\n", {"f": b"x\ny\nz\n"})
