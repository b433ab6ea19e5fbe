"""column -L/--keep-empty-lines, found by the text-tools corpus, against util-linux column:
a blank line is an empty row (padded as a row of empty cells) or an empty fill entry; input of
blank lines only is no table at all, but a JSON record of nulls."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import text_cmds_support as tcs  # noqa: E402

CASES = [
    ("-L -t", b"a b\n\nc d\n"), ("-L", b"a\n\nb\n"), ("-L -t -s' ' -o'|'", b"a b\n\nc d\n"),
    ("-L -t", b"a b\n   \nc d\n"), ("-L -t -s, -N X,Y", b"a,b\n\n"), ("-L -J -s, -N X,Y", b"a,b\n\n"),
    ("-L -t", b"a b c\nd\n\ne f\n"), ("-L -t", b"\n\n"), ("-L", b"\n\n"),
    ("--keep-empty-lines -c 20", b"x\n\n\ny\n"), ("-t", b"a b\n\nc d\n"), ("-L -t", b"\n\nx\n"),
    ("-L -J -N a", b"\n"), ("-L -t -R 2", b"1 22\n\n333 4\n"),
]


@pytest.mark.parametrize("args,stdin", CASES)
def test_keep_empty_lines_matches_column(args: str, stdin: bytes) -> None:
    tcs.line(f"column {args}", stdin=stdin)
