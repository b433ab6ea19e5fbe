"""Small option gaps found by the file-management corpus, against bash + the GNU tools."""

from __future__ import annotations

import pytest

from tests.sandbox.shell.shell_difftools import check

SCRIPTS = [
    "file -s notes.md a.txt", "file -sb notes.md", "file -n a.txt", "file -p -b data.jsonl",
    "file -snp empty.txt dir",
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_accepted_options(script: str) -> None:
    check(script)


def test_find_printf_sparseness_and_zone() -> None:
    """``%S`` (C's %g of 512-byte blocks over the size, 1 when empty) and ``%TZ`` (UTC)."""
    from tests.sandbox.commands.files_support import check_all
    tree = {"e": b"", "x": b"x", "s": b"1\n" * 3000, "d/f": b"abc"}
    check_all([(["find", ".", "-printf", fmt], tree) for fmt in (
        "%S %p\n", "%TZ %Tz %AZ %CZ %p\n", "%-10S|%p\n", "%S %b %k %s\n")])
