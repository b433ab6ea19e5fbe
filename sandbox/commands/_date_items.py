"""GNU's date input items (``date -d``) beyond ISO 8601 and ``@EPOCH``, as parse-datetime reads them.

A string is a sequence of items, each optional and in any order:

- time of day: ``9:30``, ``9:30:15.5``, ``9am``, ``9:30 pm``, ``12am``;
- calendar date: ``12/25/2026``, ``12/25``, ``2026-12-25``, ``dec 25``, ``december 25, 2027``,
  ``25 dec``, ``25 dec 2027``;
- day of the week: ``monday``, ``mon``, ``fri.``, ``tuesday,``, with an ordinal: ``next monday``,
  ``last friday``, ``this friday``, ``third friday`` (``next`` is 1, ``last`` -1, ``this`` 0);
- relative: ``3 days``, ``+2 hours``, ``2 weeks ago`` (``ago`` negates the item before it),
  ``next month``, ``last year``, ``tomorrow``, ``yesterday``, ``today``, ``now``;
- zone: ``UTC``, ``GMT``, ``Z``, and parse-datetime's abbreviations (``CEST``, ``EST``, ``PDT``,
  ``JST``...; a summer-time name, or a name followed by ``DST``, is one hour more; a name
  followed by ``+hh[mm]`` is moved by it). GNU reads the local zone's own names (``CET``/
  ``CEST`` under TZ=Europe/Berlin) as local time of that DST state; here they are the table's;
- a bare number: a time (``9``, ``0930``), a date of more than four digits (``20260901``) or,
  after a date, a year.

Result rules (parse-datetime's): without a time item, a date or a day name means midnight while
relative items alone keep the current time; a day name moves forward to that weekday (by the
ordinal); then years, months and days are added (overflowing days roll into the next month, as
mktime does), then hours, minutes and seconds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta

#: A sign may be apart from its digits (``now + 30 minutes``); a sign before anything else is
#: dropped, as parse-datetime's lexer drops it.
_TOKEN_RE = re.compile(r"\s*(?:([A-Za-z]+)\.?|([+-]\s*\d+|\d+)|(.))")

_MONTHS = {name: i + 1 for i, names in enumerate([
    ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
    ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
    ("october", "oct"), ("november", "nov"), ("december", "dec")]) for name in names}
#: Weekday numbers as struct tm counts them (Sunday 0).
_DAYS = {name: i for i, names in enumerate([
    ("sunday", "sun"), ("monday", "mon"), ("tuesday", "tue", "tues"),
    ("wednesday", "wed", "wednes"), ("thursday", "thu", "thur", "thurs"), ("friday", "fri"),
    ("saturday", "sat")]) for name in names}
_ORDINALS = {"last": -1, "this": 0, "next": 1, "first": 1, "third": 3, "fourth": 4, "fifth": 5,
             "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11,
             "twelfth": 12}
#: unit -> (field, multiplier); fields: months, days, seconds.
_UNITS = {"year": ("months", 12), "month": ("months", 1), "fortnight": ("days", 14),
          "week": ("days", 7), "day": ("days", 1), "hour": ("seconds", 3600),
          "minute": ("seconds", 60), "min": ("seconds", 60), "second": ("seconds", 1),
          "sec": ("seconds", 1)}
_WORD_DAYS = {"tomorrow": 1, "yesterday": -1, "today": 0, "now": 0}
_ZONES = {"utc", "gmt", "z", "ut"}
#: parse-datetime's time_zone_table: name -> (minutes east of UTC, a summer-time name).
_ZONE_TABLE = {
    "wet": (0, False), "west": (0, True), "bst": (0, True), "art": (-180, False),
    "brt": (-180, False), "brst": (-180, True), "nst": (-210, False), "ndt": (-210, True),
    "ast": (-240, False), "adt": (-240, True), "clt": (-240, False), "clst": (-240, True),
    "est": (-300, False), "edt": (-300, True), "cst": (-360, False), "cdt": (-360, True),
    "mst": (-420, False), "mdt": (-420, True), "pst": (-480, False), "pdt": (-480, True),
    "akst": (-540, False), "akdt": (-540, True), "hst": (-600, False), "hast": (-600, False),
    "hadt": (-600, True), "sst": (-720, False), "wat": (60, False), "cet": (60, False),
    "cest": (60, True), "met": (60, False), "mez": (60, False), "mest": (60, True),
    "mesz": (60, True), "eet": (120, False), "eest": (120, True), "cat": (120, False),
    "sast": (120, False), "eat": (180, False), "msk": (180, False), "msd": (180, True),
    "ist": (330, False), "sgt": (480, False), "kst": (540, False), "jst": (540, False),
    "gst": (600, False), "nzst": (720, False), "nzdt": (720, True),
}


class ItemsError(ValueError):
    """The string is not a sequence of date items."""


@dataclass
class Items:
    """What the items said; None where they said nothing."""

    year: int | None = None
    month: int | None = None
    day: int | None = None
    hour: int | None = None
    minute: int = 0
    second: int = 0
    nanos: int = 0
    weekday: int | None = None
    weekday_ordinal: int = 0
    utc: bool = False
    #: A numeric zone after the time (``9:30 +2``): minutes east of UTC.
    zone_minutes: int | None = None
    rel: dict[str, int] = field(default_factory=lambda: {"months": 0, "days": 0, "seconds": 0})
    rels_seen: bool = False

    @property
    def dates_seen(self) -> bool:
        """A calendar date was given."""
        return self.month is not None


def _unit(word: str) -> str | None:
    if word in _UNITS:
        return word
    if word.endswith("s") and word[:-1] in _UNITS:
        return word[:-1]
    return None


def _tokens(text: str) -> list[tuple[str, str]]:
    """('w', word) / ('n', number) / ('p', punctuation) tokens; words keep a trailing dot off."""
    out: list[tuple[str, str]] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if m is None or m.end() == pos:
            raise ItemsError(text)
        pos = m.end()
        if m.group(1):
            out.append(("w", m.group(1).lower()))
        elif m.group(2):
            out.append(("n", re.sub(r"\s+", "", m.group(2))))
        elif m.group(3) in "+-":
            continue
        else:
            out.append(("p", m.group(3)))
    return out


def parse_items(text: str) -> Items:
    """Read ``text`` as date items; raise ``ItemsError`` for anything else."""
    toks = _tokens(text)
    it = Items()
    i = 0
    n = len(toks)

    def kind(j: int) -> str | None:
        return toks[j][0] if j < n else None

    def val(j: int) -> str:
        return toks[j][1] if j < n else ""

    def meridian(j: int) -> int | None:
        if kind(j) == "w" and val(j) in ("am", "a", "pm", "p"):
            return 0 if val(j).startswith("a") else 12
        return None

    def set_time(hour: int, minute: int, second: int, nanos: int, mer: int | None) -> None:
        if it.hour is not None:
            raise ItemsError(text)
        if mer is not None:
            if not 1 <= hour <= 12:
                raise ItemsError(text)
            hour = hour % 12 + mer
        if hour > 23 or minute > 59 or second > 60:
            raise ItemsError(text)
        it.hour, it.minute, it.second, it.nanos = hour, minute, second, nanos

    def set_date(year: int | None, month: int, day: int) -> None:
        if it.month is not None:
            raise ItemsError(text)
        it.year, it.month, it.day = year, month, day

    def set_weekday(day: int, ordinal: int) -> None:
        if it.weekday is not None:
            raise ItemsError(text)
        it.weekday, it.weekday_ordinal = day, ordinal

    def add_rel(unit: str, count: int) -> None:
        fld, scale = _UNITS[unit]
        it.rel[fld] += count * scale
        it.rels_seen = True

    while i < n:
        k, v = toks[i]
        if k == "p" and v == ",":
            i += 1
            continue
        if k == "n":
            signed = v[0] in "+-"
            num = int(v)
            # time: H:MM[:SS[.frac]] [am|pm]
            if not signed and kind(i + 1) == "p" and val(i + 1) == ":" and kind(i + 2) == "n":
                minute = int(val(i + 2))
                j = i + 3
                second = nanos = 0
                if kind(j) == "p" and val(j) == ":" and kind(j + 1) == "n":
                    second = int(val(j + 1))
                    j += 2
                    if kind(j) == "p" and val(j) in ".," and kind(j + 1) == "n":
                        nanos = int(val(j + 1)[:9].ljust(9, "0"))
                        j += 2
                mer = meridian(j)
                set_time(num, minute, second, nanos, mer)
                i = j + (mer is not None)
                if kind(i) == "n" and val(i)[0] in "+-" and len(val(i)) in (2, 3, 5):
                    it.zone_minutes = _hhmm(val(i))
                    i += 1
                continue
            # date: M/D[/Y], or Y/M/D when the first number has four digits or more
            if not signed and kind(i + 1) == "p" and val(i + 1) == "/" and kind(i + 2) == "n":
                month, day = num, int(val(i + 2))
                year = None
                j = i + 3
                if kind(j) == "p" and val(j) == "/" and kind(j + 1) == "n":
                    if len(v) >= 4:
                        year, month, day = num, day, int(val(j + 1))
                    else:
                        year = _year(val(j + 1))
                    j += 2
                set_date(year, month, day)
                i = j
                continue
            # date: YYYY-MM-DD (ISO; the sign of the next numbers is the dash)
            if (not signed and kind(i + 1) == "n" and val(i + 1).startswith("-")
                    and kind(i + 2) == "n" and val(i + 2).startswith("-")):
                set_date(_year(v), -int(val(i + 1)), -int(val(i + 2)))
                i += 3
                continue
            # date: D MONTH [YYYY]
            if not signed and kind(i + 1) == "w" and val(i + 1) in _MONTHS:
                set_date(None, _MONTHS[val(i + 1)], num)
                i += 2
                continue
            # relative: N UNIT [ago]
            if kind(i + 1) == "w" and _unit(val(i + 1)):
                count = num
                j = i + 2
                if kind(j) == "w" and val(j) == "ago":
                    count = -count
                    j += 1
                add_rel(_unit(val(i + 1)), count)  # type: ignore[arg-type]
                i = j
                continue
            # day: N DAYNAME
            if kind(i + 1) == "w" and val(i + 1) in _DAYS:
                set_weekday(_DAYS[val(i + 1)], num)
                i += 2
                continue
            mer = meridian(i + 1)
            if mer is not None and not signed:
                set_time(num, 0, 0, 0, mer)
                i += 2
                continue
            if signed:
                raise ItemsError(text)
            # a bare number: a year after a date, else a time (H, HH, HMM, HHMM)
            if it.dates_seen and it.year is None and not it.rels_seen \
                    and (it.hour is not None or len(v) > 2):
                it.year = _year(v)
            elif len(v) <= 4:
                set_time(num // 100 if len(v) > 2 else num, num % 100 if len(v) > 2 else 0,
                         0, 0, None)
            else:  # more than four digits: YYYYMMDD (parse-datetime's number rule)
                set_date(num // 10000, num // 100 % 100, num % 100)
            i += 1
            continue
        if k == "w":
            if v in _WORD_DAYS:
                add_rel("day", _WORD_DAYS[v])
                i += 1
                continue
            if (v == "t" and it.dates_seen and it.hour is None and kind(i + 1) == "n"
                    and kind(i + 2) == "p" and val(i + 2) == ":"):
                i += 1  # 2026-09-01T10:00: ISO 8601's T between the date and the time
                continue
            if v == "t":  # else the military zone T, UTC-7 (20260901T1030)
                if it.zone_minutes is not None or it.utc:
                    raise ItemsError(text)
                it.zone_minutes = -420
                i += 1
                continue
            if v in _ZONES or v in _ZONE_TABLE:
                if it.zone_minutes is not None or it.utc:
                    raise ItemsError(text)
                minutes, summer = _ZONE_TABLE.get(v, (0, False))
                i += 1
                if not summer and kind(i) == "w" and val(i) == "dst":
                    summer = True
                    i += 1
                elif (kind(i) == "n" and val(i)[0] in "+-" and len(val(i)) in (2, 3, 5)
                        and not (kind(i + 1) == "w" and _unit(val(i + 1)))):
                    minutes += _hhmm(val(i))  # UTC+2, EST -0130: the zone moved by hh[mm]
                    i += 1
                if v in _ZONES and minutes == 0 and not summer:
                    it.utc = True
                else:
                    it.zone_minutes = minutes + 60 * summer
                continue
            if v in _ORDINALS:
                ordinal = _ORDINALS[v]
                unit = _unit(val(i + 1)) if kind(i + 1) == "w" else None
                if unit is not None:
                    j = i + 2
                    if kind(j) == "w" and val(j) == "ago":
                        ordinal = -ordinal
                        j += 1
                    add_rel(unit, ordinal)
                    i = j
                    continue
                if kind(i + 1) == "w" and val(i + 1) in _DAYS:
                    set_weekday(_DAYS[val(i + 1)], ordinal)
                    i += 2
                    continue
                raise ItemsError(text)
            if _unit(v):
                count = 1
                j = i + 1
                if kind(j) == "w" and val(j) == "ago":
                    count = -1
                    j += 1
                add_rel(_unit(v), count)  # type: ignore[arg-type]
                i = j
                continue
            if v in _DAYS:
                set_weekday(_DAYS[v], 0)
                i += 1
                continue
            if v in _MONTHS:
                # MONTH D [, YYYY]
                if kind(i + 1) == "n" and not val(i + 1)[0] in "+-":
                    day = int(val(i + 1))
                    j = i + 2
                    year = None
                    if kind(j) == "p" and val(j) == "," and kind(j + 1) == "n":
                        year = _year(val(j + 1))
                        j += 2
                    set_date(year, _MONTHS[v], day)
                    i = j
                    continue
                raise ItemsError(text)
        raise ItemsError(text)
    return it


def _hhmm(signed: str) -> int:
    """A numeric zone (``+2``, ``-05``, ``+0530``) as minutes east of UTC."""
    digits = int(signed[1:])
    offset = digits * 60 if len(signed) <= 3 else digits // 100 * 60 + digits % 100
    return -offset if signed[0] == "-" else offset


def _year(digits: str) -> int:
    """A year as written: two digits are 1969-2068, as POSIX and GNU read them."""
    year = int(digits.lstrip("+"))
    if len(digits.lstrip("+-")) == 2:
        year += 1900 if year >= 69 else 2000
    return year


def resolve(it: Items, now: datetime, now_nanos: int) -> tuple[datetime, int]:
    """The local wall-clock time (naive) and nanoseconds the items name, relative to ``now``
    (naive local); raise ``ItemsError`` for a date that does not exist."""
    year = it.year if it.year is not None else now.year
    month = it.month if it.month is not None else now.month
    day = it.day if it.day is not None else now.day
    if it.hour is not None:
        hour, minute, second, nanos = it.hour, it.minute, it.second, it.nanos
    elif it.rels_seen and not it.dates_seen and it.weekday is None:
        hour, minute, second, nanos = now.hour, now.minute, now.second, now_nanos
    else:
        hour = minute = second = nanos = 0
    try:
        base = datetime(year, month, day, hour, minute, min(second, 59))
    except (ValueError, OverflowError):
        raise ItemsError("date") from None
    if it.weekday is not None and not it.dates_seen:
        wday = (base.weekday() + 1) % 7
        ordinal = it.weekday_ordinal
        shift = (it.weekday - wday + 7) % 7 + 7 * (ordinal - (1 if ordinal > 0 and wday != it.weekday else 0))
        base += timedelta(days=shift)
    months, days = it.rel["months"], it.rel["days"]
    if months or days:
        index = base.year * 12 + base.month - 1 + months
        try:
            first = datetime(index // 12, index % 12 + 1, 1, base.hour, base.minute, base.second)
            base = first + timedelta(days=base.day - 1 + days)
        except (ValueError, OverflowError):
            raise ItemsError("date") from None
    return base, nanos
