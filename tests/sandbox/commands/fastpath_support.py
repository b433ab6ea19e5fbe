"""Shared pieces of the differential tests of the block fast paths (fold, nl, cut, wc, uniq,
tr, head, tail, sed, diff): generated inputs that stress block edges, and a loop that runs each
case at several read-block sizes against the real tool (``gnu_text_support.compare``).

The test files are not a package: they put this directory on ``sys.path`` and import it.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import Callable

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

#: Read-block sizes every fast path is checked at: tiny ones put block edges everywhere.
BLOCK_SIZES = [1, 7, 64, 1 << 20]

#: Generated cases per block size; ``FASTPATH_CASES=200`` runs a longer sweep.
CASES = int(os.environ.get("FASTPATH_CASES", "12"))


def scaled(n: int) -> int:
    """``n`` cases at the default ``CASES``, proportionally more or fewer otherwise."""
    return max(1, n * CASES // 12)

PIECES = [
    b"memory", b"note", b"user", b"the", b"budget", b"pricing", b"deadline", b"a", b"ok", b"42",
    b"caf\xc3\xa9", b"\xe4\xb8\xad\xe6\x96\x87", b"\xf0\x9f\x98\x80", b"\xff\xfe", b"\xc3", b"\x00",
    b"\t", b"\t\t", b" ", b"  ", b"x" * 30, b"-", b",", b":", b"a,b", b"c:d", b"THE", b"\x01",
]


def gen_line(rng: random.Random, long_ok: bool = True) -> bytes:
    """One line (no newline): words, blanks, tabs, wide and invalid UTF-8, NULs; sometimes long."""
    if long_ok and rng.random() < 0.03:
        return (b"word\t" if rng.random() < 0.5 else b"long ") * rng.randint(40, 600)
    n = rng.randint(0, 22)
    sep = rng.choice([b" ", b" ", b"\t", b",", b":"])
    return sep.join(rng.choice(PIECES) for _ in range(n))


def gen_text(rng: random.Random, max_lines: int = 60, extra: list[bytes] | None = None,
             long_ok: bool = True) -> bytes:
    """A text of generated lines: repeats, empty lines, sometimes CRLF, sometimes ``extra``
    lines mixed in, sometimes no final newline, sometimes empty."""
    if rng.random() < 0.03:
        return b""
    lines: list[bytes] = []
    for _ in range(rng.randint(1, max_lines)):
        r = rng.random()
        if lines and r < 0.2:
            lines.append(rng.choice(lines))
        elif r < 0.27:
            lines.append(b"")
        elif extra and r < 0.37:
            lines.append(rng.choice(extra))
        else:
            lines.append(gen_line(rng, long_ok))
    eol = b"\r\n" if rng.random() < 0.1 else b"\n"
    data = eol.join(lines)
    if rng.random() < 0.85:
        data += eol
    return data


def sweep(make: Callable[[random.Random], tuple[list[str], bytes, dict[str, bytes] | None]],
          seed: int, patch: Callable[[pytest.MonkeyPatch, int], None], monkeypatch: pytest.MonkeyPatch,
          cases: int = CASES, sizes: list[int] | None = None) -> None:
    """For each block size, set it with ``patch(monkeypatch, size)`` and compare ``cases``
    generated cases (``make(rng)`` returns argv, stdin, files) with the real tool."""
    for size in sizes or BLOCK_SIZES:
        rng = random.Random(seed * 1000 + size)
        with monkeypatch.context() as mp:
            patch(mp, size)
            for _ in range(cases):
                argv, stdin, files = make(rng)
                gts.compare(argv, stdin=stdin, files=files)
