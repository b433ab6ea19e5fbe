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
