"""touch -d with GNU date phrases (from the file-management corpus), against bash + GNU
touch/stat/date: each script prints only what is stable between the two runs."""

from __future__ import annotations

import pytest

from tests.sandbox.shell.shell_difftools import check

SCRIPTS = [
    'touch a; touch -d "$(date -r a)" b; stat -c %Y a b | uniq | wc -l',
    "touch -d 'Fri Sep  4 10:00:00 UTC 2026' c; stat -c '%y' c",
    "touch -d '2 days ago' d; echo $(( ($(date +%s) - $(stat -c %Y d)) / 3600 ))",
    "touch -d yesterday e; echo $(( ($(date +%s) - $(stat -c %Y e)) / 3600 ))",
    "touch -d 'last week' f; echo $(( ($(date +%s) - $(stat -c %Y f)) / 86400 ))",
    "touch -d '2026-09-01 +1 day' g; stat -c %y g",
    "touch -d 'Sep 4 2026' h; stat -c %y h",
    "touch -d '4 Sep 2026 10:30' h; stat -c %y h",
    "touch -d bogus i; echo $?; ls",
    "touch -d '2026-13-01' j; echo $?",
    "touch -d 'tomorrow 00:00' l; stat -c %y l | cut -c11-",
    "touch -d '1 hour ago' m; echo $(( ($(date +%s) - $(stat -c %Y m)) / 60 ))",
    "touch -m -d '2026-09-05 12:00 UTC' n; stat -c %y n",
    "touch -d 'next monday' o; date -r o +%A",
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_touch_date_phrases(script: str) -> None:
    check(script)
