"""date -d strings found by the text-tools corpus: a sign apart from its digits, Y/M/D with
slashes, parse-datetime's zone abbreviations (summer names, DST, a zone moved by +hh[mm]) and
the ISO ``T`` before relative items (else T is the military zone), YYYYMMDD numbers, and an
operand without ``+`` beside -d/-r/-f, and -f FILE; each against GNU date, with and without fixed dates."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402

FIXED = [
    "2026/09/19", "2026/9/1 10:00", "10/09/26", "2026/13/01", "026/09/01",
    "2026-09-01 08:42:10 CEST", "2026-09-01 10:00 EST", "2026-09-01 10:00 PDT",
    "2026-09-01 10:00 CET", "10:00 JST 2026-09-01", "2026-09-01 10:00 IST",
    "2026-09-01 10:00 NZDT", "Sep 19 2026 14:00 EDT", "sep 19 2026 10am cet",
    "2026-09-01 10:00 UTC+2", "2026-09-01 10:00 EST DST", "2026-09-01 10:00 CEST DST",
    "2026-09-01 10:00 EST +1", "2026-09-01 10:00 UTC EST", "2026-09-01 10:00 UTC +1 day",
    "2026-09-01 10:00 EST -0130", "2026-09-01 10:00 GMT+0530", "2026-09-01 10:00 GMT DST",
    "2026-09-01 10:00 CET 5 days ago", "2026-09-01 10:00 MSK", "2026-09-01 10:00 -05",
    "2026-09-01 08:00 + 2 days", "2026-09-01 10:00 + 2", "2026-09-01 10:00:00 + 1 hour",
    "2026-09-01T10:00 - 2 hours", "2026-09-01T10:00 +3 days", "2026-09-01 - 1 week",
    "2026-09-01 +- 2 days", "2026-09-01 08:42 - 3 hours", "2026-09-01 + 1 day",
    "2026-09-01 10:00 +2 hours", "2026-09-01 10:00 utc", "2026-09-01 10:00 Z",
    "20260901", "20260901 1030", "20260901 10:30", "1030 20260901", "20260931", "2026090",
    "202609011", "20260901 20260902", "20260901 +1 day", "020260901", "19991231 2359",
    "20260901T1030", "2026-09-01 10:00 T", "10:00 t", "17882496001788249600",
    "99999999999999999999999", "123456789012", "2026090100",
]
RELATIVE = [
    "now + 30 minutes", "now+30 minutes", "+ 2 days", "now - 1 hour", "- 1 day",
    "sunday + 1 week", "now -30 minutes", "1 hour ago - 5 minutes", "tomorrow 10:00 PST",
    "10:00 MSK", "10:00 ut", "today + 1 week", "next friday - 1 day",
]


@pytest.mark.parametrize("text", FIXED)
@pytest.mark.parametrize("tz", ["UTC", "Asia/Tokyo"])
def test_fixed_strings_match_gnu(text: str, tz: str) -> None:
    gts.need("date")
    gts.compare(["date", "-d", text, "+%F %T %Z"], env={"TZ": tz})
    gts.compare(["date", "-u", "-d", text], env={"TZ": tz})


@pytest.mark.parametrize("argv", [
    ["-d", "2026-09-01", "x"], ["-u", "-d", "2026-09-01", "x"], ["-r", "f", "x"],
    ["-d", "2026-09-01", "x", "y"], ["-d", "2026-09-01", "+%F", "x"], ["x"], ["2026"],
])
def test_operand_without_plus_matches_gnu(argv: list[str]) -> None:
    """With -d or -r, an operand not starting with + is refused with GNU's three lines."""
    gts.need("date")
    gts.compare(["date", *argv], files={"f": b"x"} if "-r" in argv else None)


@pytest.mark.parametrize("argv,stdin", [
    (["-u", "-f", "dl.txt", "+%F_%T"], b""), (["-u", "-f", "-", "+%F"], b"2026-09-01"),
    (["-f", "nosuch"], b""), (["-u", "-f", "dl.txt", "-d", "2026-09-01"], b""),
    (["-f", "dl.txt", "-r", "dl.txt"], b""), (["-u", "--file=dl.txt", "+%a"], b""),
    (["-d", "2026-09-01", "-r", "dl.txt"], b""), (["-u", "-f", "dl.txt", "x"], b""),
    (["-u", "-f", "dl.txt", "-R"], b""), (["-u", "-f", "."], b""), (["-u", "-f", "-"], b"@0\n@86400\n"),
])
def test_batch_file_matches_gnu(argv: list[str], stdin: bytes) -> None:
    """-f FILE: every line a -d string (an empty line is today's midnight, so fixed lines only)."""
    gts.need("date")
    gts.compare(["date", *argv], stdin=stdin,
                files={"dl.txt": b"2026-09-01\nbad\n2026-09-02 10:00\n@1788252130\n"})


@pytest.mark.parametrize("text", RELATIVE)
def test_strings_relative_to_now_match_gnu(text: str) -> None:
    """Both run within the same minute, or are run again."""
    gts.need("date")
    argv = ["date", "-d", text, "+%a %F %H:%M %Z"]
    for _attempt in range(3):
        ref = gts.reference(argv, env={"TZ": "UTC"})
        ours = run_command(argv, env={"TZ": "UTC"})
        if (ours[0], ours[1]) == (ref[0], ref[1]):
            break
    assert (ours[0], ours[1], ours[2]) == (ref[0], ref[1], ref[2]), gts.repro(argv, b"", None, {"TZ": "UTC"})
