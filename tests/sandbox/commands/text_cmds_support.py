"""Shared pieces of the differential tests of nl, tac, rev, paste, fold, fmt, expand, unexpand,
column, split, shuf, tsort, comm, join and cmp: hostile generated inputs and a loop that compares
many seeded cases with the real tool (``gnu_text_support.compare``).

The test files are not a package: they put this directory on ``sys.path`` and import it.
"""

from __future__ import annotations

import os
import random
import shlex
import sys
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

#: Generated cases per command; ``TEXT_CMDS_CASES=500`` runs a longer sweep.
CASES = int(os.environ.get("TEXT_CMDS_CASES", "60"))

compare = gts.compare
need = gts.need

EXTRA_LINES = [
    b"a\x00b", b"\xff\xfeinvalid", b"\xc3", b"caf\xc3\xa9 na\xc3\xafve", b"\xe4\xb8\xad\xe6\x96\x87 \xe5\xad\x97",
    b"\tlead tab", b"trail tab\t", b"x\ty\tz", b"back\bspace", b"car\rriage", b"   ", b"",
    b"one two three four five six seven eight nine ten eleven twelve",
]


def gen_text(rng: random.Random, max_lines: int = 25) -> bytes:
    """A hostile input: ``gts.gen_input``'s mix plus NULs, invalid UTF-8, tabs, CR, unicode."""
    base = gts.gen_input(rng, max_lines)
    if rng.random() < 0.5:
        lines = base.split(b"\n")
        for _ in range(rng.randint(1, 4)):
            lines.insert(rng.randint(0, len(lines)), rng.choice(EXTRA_LINES))
        base = b"\n".join(lines)
    return base


def sweep(make: Callable[[random.Random], tuple[list[str], bytes, dict[str, bytes] | None]],
          seed: int, cases: int = CASES, check_stderr: bool = True) -> None:
    """Compare ``cases`` generated cases; ``make(rng)`` returns (argv, stdin, files)."""
    rng = random.Random(seed)
    for _ in range(cases):
        argv, stdin, files = make(rng)
        compare(argv, stdin=stdin, files=files, check_stderr=check_stderr)


def line(args: str, stdin: bytes = b"", files: dict[str, bytes] | None = None) -> None:
    """Compare one hand-written command line (shell-split)."""
    compare(shlex.split(args), stdin=stdin, files=files)
