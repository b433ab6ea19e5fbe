"""du --time / --time-style / --inodes (from the file-management corpus), against bash + GNU du.
(``--time=atime|ctime`` show the one time the jail keeps, the modification time: not compared.)"""

from __future__ import annotations

import pytest

from tests.sandbox.shell.shell_difftools import check

SETUP = ("mkdir -p dt/a && touch -d 2026-01-01 dt/a/x dt/y && touch -d '2026-02-02 10:11:12' dt/a/z "
         "&& touch -d 2025-01-01 dt/a dt; ")
SCRIPTS = [
    "du --time dt", "du --time -a --time-style=full-iso dt", "du --time-style=iso --time dt",
    "du --time-style=+%F --time -s dt", "du --time=bogus dt; echo $?", "du --inodes -a dt",
    "du --inodes -sh dt", "du --time-style=bogus --time dt; echo $?", "du --time-style=iso dt",
    "du --time -c dt dt/y", "du --inodes -c dt", "du --inodes -k dt", "du -a --time --time-style=long dt",
    "du -ah --time dt | sort -k2", "TIME_STYLE=full-iso du --time -s dt", "du --time -S dt",
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_du_time_and_inodes(script: str) -> None:
    check(SETUP + script)


EXCLUDE_FROM = [
    "du -X nosuch .; echo $?", "printf '*.txt\\n\\nsub\\n' > ex; du -a -X ex", "printf 'x*\\n' > ex; du -a --exclude-from=ex .",
    "printf '*.txt\\n' | du -X - -a", "printf '*.txt\\n' > ex; du -a -X ex --exclude='*.md'",
]


@pytest.mark.parametrize("script", EXCLUDE_FROM)
def test_du_exclude_from(script: str) -> None:
    check(script)
