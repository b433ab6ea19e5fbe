"""fold and nl block fast paths: differential tests against GNU coreutils 9.1 at read-block
sizes 1, 7, 64 and 1 MiB (block edges, CRLF, no final newline, NUL, invalid UTF-8, tabs, wide
characters, long lines)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import fastpath_support as fps  # noqa: E402
import gnu_text_support as gts  # noqa: E402

from sandbox.commands import _lineblocks  # noqa: E402

EXTRA = [b"back\bspace\tx", b"car\rriage\tyy", b"\t" * 20, b" " * 90, b"\x00" * 100,
         b"a" * 79 + b"\tb", b"a" * 80, b"a" * 81, b"\t" * 10 + b"a", b"1234567\t" * 12]


def _block(mp: pytest.MonkeyPatch, size: int) -> None:
    mp.setattr(_lineblocks, "BLOCK", size)


@pytest.mark.parametrize("width", ["8", "16", "40", "80", "24", "7", "13"])
def test_fold_widths(width: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def make(rng: random.Random):
        argv = ["fold", "-w", width]
        if rng.random() < 0.25:
            argv.append(rng.choice(["-s", "-b", "-bs"]))
        return argv, fps.gen_text(rng, extra=EXTRA), None

    fps.sweep(make, int(width), _block, monkeypatch, cases=fps.scaled(4))


def test_fold_default_width_files(monkeypatch: pytest.MonkeyPatch) -> None:
    def make(rng: random.Random):
        files = {"a": fps.gen_text(rng, extra=EXTRA), "b": fps.gen_text(rng)}
        return ["fold", "a", "b", "a"], b"", files

    fps.sweep(make, 3, _block, monkeypatch, cases=fps.scaled(6))


def test_fold_no_absent_byte() -> None:
    """A block holding every byte value: no marker byte is free, the general path runs."""
    data = bytes(range(256)) * 3 + b"\n" + b"\t".join([bytes(range(11, 256))] * 2) + b"\n"
    gts.compare(["fold", "-w", "16"], stdin=data)
    gts.compare(["fold"], stdin=data)


@pytest.mark.parametrize("args", [[], ["-ba"], ["-bt"], ["-bn"], ["-ba", "-i", "3", "-v", "-5", "-n", "rz"],
                                  ["-bt", "-n", "ln", "-w", "2", "-s", "%d|"], ["-ba", "-i", "0"],
                                  ["-bt", "-i", "-2", "-s", ""]], ids=repr)
def test_nl_styles(args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def make(rng: random.Random):
        return ["nl", *args], fps.gen_text(rng, extra=[b"\\:", b"\\:\\:", b"%s%d%%", b"%b"]), None

    fps.sweep(make, len(args) + 11, _block, monkeypatch, cases=fps.scaled(4))


def test_nl_overflow_in_a_block(monkeypatch: pytest.MonkeyPatch) -> None:
    for size in fps.BLOCK_SIZES:
        with monkeypatch.context() as mp:
            _block(mp, size)
            gts.compare(["nl", "-v", "9223372036854775800"], stdin=b"a\n\nb\n" * 10)
            gts.compare(["nl", "-ba", "-i", "-4", "-v", "-9223372036854775790"], stdin=b"a\n\nb\n" * 10)
