"""fgrep: GNU grep 3.8's wrapper (warning, then ``grep -F``); the helpers are egrep's."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import test_egrep as wrapper  # noqa: E402


def test_generated() -> None:
    wrapper.generated("fgrep", "-F", 2)


@pytest.mark.parametrize("args", [["a|b"], ["-x", "a|b"], ["-c", "x\ny", "f"], [], ["-Q", "x"], ["--nope"], ["-e"]])
def test_hand_written(args: list[str]) -> None:
    wrapper.check("fgrep", "-F", args, b"a\nx\na|b\n", {"f": b"x\ny\nz\n"})
