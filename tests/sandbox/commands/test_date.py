"""date: unit tests and differential tests against GNU coreutils (fixed -d inputs, TZ set)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402


def test_epoch_in_utc() -> None:
    assert run_command(["date", "-d", "@0"], env={"TZ": "UTC"}) == (0, b"Thu Jan  1 00:00:00 UTC 1970\n", b"")


def test_no_argument_prints_default_format() -> None:
    code, out, err = run_command(["date"])
    assert code == 0 and err == b""
    assert out.endswith(b"\n") and b" UTC " in out and len(out.split()) == 6


def test_invalid_date() -> None:
    assert run_command(["date", "-d", "xyz"]) == (1, b"", "date: invalid date \u2018xyz\u2019\n".encode())


DATES = ["@0", "@1700000000", "@1700000000.123", "@1.12045", "@0.000000005", "0005-01-01", "@-1", "@-1.5", "2024-01-05", "2024-01-05 10:20",
         "2024-01-05T10:20:30.5Z", "2024-01-05T10:20:30+02:00", "2024-01-05 10:20:30 +0200",
         "2024-02-29 23:59:59", "1999-12-31T23:59:59Z", "2000-01-01", "2024-12-30", "2021-01-03",
         "2024-07-01 12:00", "2024-03-31 02:30", "2024-06-15T08:05:09,123456789-05:30", "1970-01-01",
         "2038-01-19 03:14:08", "2024-1-5", "xyz", "2024-13-01", "2024-02-30", "@", "2024-01-05 25:00",
         "2024-01-31 1 month", "2024-01-05 3 days ago", "2024-01-05 10:00 +2 hours", "2024-03-10 -1 week",
         "2024-01-05 1 year ago 2 days", "2024-02-29 1 year", "2024-03-30 12:00 1 day", "2024-01-05 bogus",
         "2024-10-26 02:30 1 day", "2024-01-05 10:00 last hour", "2024-01-05 next week", "@0 1 day"]

FORMATS = [
    None, "+%F %T", "+%s.%N", "+%-d|%_d|%05d|%^a|%#a|%#Z|%^B|%10A|%-10A|%_H|%e|%0e|%-e|%3N",
    "+%:z|%::z|%:::z|%z|%P|%#p|%p|%q|%c|%x|%X|%r|%U|%W|%V|%G|%g|%j|%u|%w|%C|%y|%D|%h|%t|%n",
    "+%k|%l|%I|%R|%T|%s|%_3j|%-j|%_10s|%010s|%a %A %b %B|%Z|%%|%K|%", "+%-H:%-M:%-S %-m/%-y %-I%P",
    "+%_m|%_M|%_S|%_y|%_C|%_u|%_V|%^p|%^Z|%^b|%6N|%12N|%1N|%-N", "+plain text", "+", "+%Y%m%d%H%M%S",
    "+[%5%][%-%][%_%][%05%][%10K][%-K][%^K][%5:K][%5:%][%:%][%3%][%10%][%4K][%-10%][%Ey][%Od]",
    "+%N|%-N|%_N|%3N|%-3N|%_3N|%05N|%-5N|%_5N|%10N|%_10N|%-10N|%0N|%1N|%+5N",
    "+%_z|%-z|%010z|%_10:z|%3:z|%_3z|%^10a|%#10b|%-10b|%_10b|%010b|%05e|%_5e|%+e|%+10Y|%+3Y|%010p",
]


@pytest.mark.parametrize("tz", ["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata", "UTC0",
                                "EST5EDT", "Foo"])
def test_matches_gnu_formats(tz: str) -> None:
    # Every (date, format) pair runs in about half of the zones: the same coverage at half the cost.
    offset = len(tz)
    for i, date in enumerate(DATES):
        for j, fmt in enumerate(FORMATS):
            if (i + j + offset) % 4 in (0, 1):
                gts.compare(["date", "-d", date] + ([fmt] if fmt else []), env={"TZ": tz})


@pytest.mark.parametrize("args", [
    ["-d", "@0", "-I"], ["-d", "@0", "-Ihours"], ["-d", "@0", "-Iminutes"], ["-d", "@0", "-Iseconds"],
    ["-d", "@0", "-Ins"], ["-d", "@0", "-Id"], ["-d", "@0", "-Ix"], ["-d", "@0", "--iso-8601=s"],
    ["-d", "@0", "-R"], ["-d", "@0", "--rfc-3339=ns"], ["-d", "@0", "--rfc-3339=seconds"],
    ["-d", "@0", "--rfc-3339=date"], ["-d", "@0", "--rfc-3339=x"], ["-I", "-R"], ["-d", "@0", "-u"],
    ["-u", "-d", "2024-01-05 10:00", "+%F %T %Z"], ["-d", "@0", "+%s", "x"], ["0101"], ["-x"],
    ["--foo"], ["-d"], ["-d", "@1e3"], ["--date=@86400", "--utc"], ["-d", "@0", "-I", "+%s"],
    ["-d", "2024-01-05T10:20:30+02:00", "-Iseconds"], ["-d", "@0", "--rfc-email"],
], ids=repr)
def test_matches_gnu_options(args: list[str]) -> None:
    gts.compare(["date", *args], env={"TZ": "Europe/Paris"})


def test_matches_gnu_generated_epochs() -> None:
    rng = random.Random(23)
    convs = list("aAbBcCdDeFgGhHIjklmMnpPqrRsStTuUVwWxXyYzZ%") + [":z", "::z", ":::z", "N"]
    for _ in range(120):
        epoch = rng.randint(-2_000_000_000, 4_000_000_000)
        fmt = "+" + "|".join(
            "%" + rng.choice(["", "", "-", "_", "0", "^", "#"]) + rng.choice(["", "", "3", "10"]) + rng.choice(convs)
            for _ in range(4)
        )
        tz = rng.choice(["UTC", "Europe/Paris", "Australia/Adelaide", "America/Sao_Paulo", "Asia/Tokyo"])
        gts.compare(["date", "-d", f"@{epoch}", fmt], env={"TZ": tz})


def test_huge_width_is_refused() -> None:
    code, out, err = run_command(["date", "+%999999999Y"])
    assert code == 1 and out == b"" and b"too large" in err


# -- date items relative to now (GNU's parse-datetime grammar) --------------------------------

_ITEMS = {
    "day": ["monday", "mon", "fri.", "tuesday,", "sunday", "wed"],
    "ordday": ["next monday", "last friday", "this friday", "this tuesday", "third friday",
               "last sunday", "next sat", "first thursday"],
    "rel": ["next month", "2 weeks ago", "3 days", "+2 hours", "1 month ago", "last year",
            "next week", "tomorrow", "yesterday", "today", "now", "-1 day", "4 fortnights",
            "90 minutes ago", "next year", "10 secs"],
    "time": ["9am", "9:30", "9:30pm", "12am", "12pm", "10:00:30", "5 pm", "23:59"],
    "date": ["dec 25", "25 dec", "december 25, 2027", "12/25/2026", "12/25", "2026-01-31",
             "jan 31", "feb 29 2028", "13/25/2026", "feb 30"],
    "bad": ["noon", "midnight", "yesterday noon", "next", "3", "mon tue", "9am 10am"],
}


def _date_cases(count: int, seed: int) -> list[str]:
    rnd = random.Random(seed)
    cases = [w for words in _ITEMS.values() for w in words]
    kinds = ["day", "ordday", "rel", "time", "date"]
    while len(cases) < count:
        picked = rnd.sample(kinds, rnd.randint(2, 3))
        if rnd.random() < 0.05:
            picked.append("bad")
        rnd.shuffle(picked)
        cases.append(" ".join(rnd.choice(_ITEMS[k]) for k in picked))
    return cases


@pytest.mark.parametrize("tz", ["UTC", "America/New_York"])
@pytest.mark.parametrize("text", _date_cases(400, 12))
def test_relative_items_match_gnu(text: str, tz: str) -> None:
    """Relative items depend on now: both run within the same minute (or are run again)."""
    argv = ["date", "-d", text, "+%a %F %H:%M %Z"]
    for _attempt in range(3):
        ref = gts.reference(argv, env={"TZ": tz})
        ours = run_command(argv, env={"TZ": tz})
        if (ours[0], ours[1]) == (ref[0], ref[1]):
            break
    assert (ours[0], ours[1], ours[2]) == (ref[0], ref[1], ref[2]), gts.repro(argv, b"", None, {"TZ": tz})


# -- TZ="Zone/Name" prefix in -d strings (gnulib parse_datetime) ---------------------------------

TZ_PREFIX = [
    'TZ="Europe/Berlin" 2018-01-04 08:00', 'TZ="GMT" @1533427200', 'TZ="Bogus/Zone" 2018-01-04 08:00',
    '  TZ="UTC0" 2018-01-04', 'TZ="Europe/Berlin  2018-01-04', 'TZ=Europe/Berlin 2018-01-04',
    'TZ="Asia/Tokyo"2018-01-04 08:00', 'TZ="EST5EDT" 2018-07-04 08:00', 'TZ="a\\"b" 2018-07-04 08:00',
    'TZ="a\\xb" 2018-07-04', 'TZ="a\\\\b" 2018-07-04', 'TZ="" 2018-07-04 08:00',
    'TZ="Europe/Berlin" 2018-01-04 08:00 UTC', 'TZ="Europe/Berlin" 2018-01-04T08:00:00Z',
    'TZ="Europe/Berlin" 2018-01-04 08:00 +0300', 'TZ="../../etc/passwd" 2018-01-04 08:00',
    'TZ="/usr/share/zoneinfo/Asia/Tokyo" 2018-01-04 08:00', 'TZ="XYZ-3" 2018-01-04 08:00',
    'TZ="Europe/Berlin" 2018-03-25 02:30', 'TZ="Europe/Berlin" 2018-10-28 02:30', 'tz="Europe/Berlin" 2018-01-04',
    'TZ="Europe/Berlin" dec 25 2018 10:00', 'TZ="Asia/Kolkata" 2018-01-04 3 days ago',
    'TZ="America/New_York" 2018-03-11 12:00 -1 day', 'TZ="Australia/Sydney" 12/25/2018 9am',
    'TZ="Europe/Berlin" 2018-01-04 08:00 "', 'TZ="Europe/Berlin" xyz', 'TZ="UTC" 2018-01-04 25:00',
    'TZ="Europe/Berlin"', 'TZ="Europe/Berlin" @0', 'TZ="Pacific/Kiritimati" 2018-01-04 08:00:00.5',
    'x TZ="Europe/Berlin" 2018-01-04', 'TZ="Europe/Berlin" TZ="UTC" 2018-01-04',
]


@pytest.mark.parametrize("text", TZ_PREFIX)
@pytest.mark.parametrize("tz", ["America/Los_Angeles", "UTC"])
def test_tz_prefix_matches_gnu(text: str, tz: str) -> None:
    fmt = "+%F %T %Z %z" if text != 'TZ="Europe/Berlin"' else "+%Z %z"
    gts.compare(["date", "-d", text, fmt], env={"TZ": tz})
    gts.compare(["date", "-d", text], env={"TZ": tz})
    gts.compare(["date", "-u", "-d", text], env={"TZ": tz})


def test_tz_prefix_example() -> None:
    out = run_command(["date", "-d", 'TZ="Europe/Berlin" 2018-01-04 08:00'], env={"TZ": "America/Los_Angeles"})
    assert out == (0, b"Wed Jan  3 23:00:00 PST 2018\n", b"")


@pytest.mark.parametrize("tz", ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Europe/London"])
def test_ambiguous_local_times_match_gnu(tz: str) -> None:
    """A fall-back hour that occurs twice resolves as glibc's mktime does (first guess at the
    previous call's offset)."""
    for text in ["2018-10-28 02:30", "2018-11-04 01:30", "2018-04-01 02:30", "2018-10-28 01:30",
                 "2018-10-27 02:30 1 day", "2018-10-29 02:30 1 day ago", "2018-10-28 02:30 +1 hour",
                 "oct 28 2018 02:30", "oct 27 2018 02:30 1 day", "2018-11-03 01:30 1 day",
                 f'TZ="{tz}" 2018-10-28 02:30', f'TZ="{tz}" 2018-11-04 01:30']:
        gts.compare(["date", "-d", text, "+%F %T %Z %s"], env={"TZ": tz})


# -- nanosecond file times (FileStat.mtime_ns: local st_mtime_ns, memory's own) ---------------------

NS_SCRIPT = """touch -d 2012-01-23T12:34:56.123456789 f && date -r f +%N
date -r f '+%s.%N %T.%3N'
stat -c '%y|%.9Y|%Y|%.3Y|%.Y|%x' f
ls -l --full-time f | cut -d' ' -f6-
cp -p f g && date -r g +%s.%N && stat -c %.9Y g
touch -r f h && date -r h +%N
touch -d @-1.5 n && stat -c '%Y|%.9Y|%y' n && date -r n +%s.%N
touch -d @-0.5 m && stat -c '%.9Y|%.1Y|%8.1Y|%-8.1Y|' m
touch -d @1.000000001 o && date -r o +%s.%N && ls --full-time o | cut -d' ' -f6-
touch -d '2000-01-01 00:00:00.5' p && stat -c %.9Y p
touch -d 2012-01-23T12:34:56.1234567891 q && date -r q +%N
touch -t 202001021234.56 r && stat -c %.9Y r
mkdir d && touch -d @7.25 d && date -r d +%s.%N
"""


def _ns_lines(out: bytes) -> list[bytes]:
    return out.split(b"\n")


@pytest.mark.parametrize("backend", ["local", "memory"])
def test_nanosecond_times_match_gnu(backend: str, tmp_path: Path) -> None:
    import subprocess

    from sandbox.api import Sandbox
    from sandbox.fs.local import LocalDir
    from sandbox.fs.memory import MemoryFS
    from sandbox.policy import DEFAULT_ALLOW, Policy

    gts.need("stat")
    ref_dir = tmp_path / "ref"
    our_dir = tmp_path / "our"
    ref_dir.mkdir()
    our_dir.mkdir()
    env = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"}
    ref = subprocess.run(["bash", "-c", NS_SCRIPT], cwd=ref_dir, env=env, capture_output=True, timeout=60)
    mount = LocalDir(our_dir) if backend == "local" else MemoryFS()
    policy = Policy(allow=DEFAULT_ALLOW | {"cp", "touch", "mkdir", "stat", "ls", "cut", "date"})
    ours = Sandbox({"/w": mount}, cwd="/w", env={"TZ": "UTC"}, policy=policy).run(NS_SCRIPT)
    assert (ours.exit_code, ours.stderr) == (ref.returncode, ref.stderr)
    assert _ns_lines(ours.stdout) == _ns_lines(ref.stdout), (ours.stdout, ref.stdout)
