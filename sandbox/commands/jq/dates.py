"""jq's date builtins: gmtime, localtime, mktime, strftime, strptime. ``localtime`` and
``strflocaltime`` of a number follow the run's ``TZ`` variable (as date reads it; unset is UTC),
never the host's zone; everything else is UTC, as in jq."""

from __future__ import annotations

import datetime as _dt
import math
import re
import time
from typing import Any

from sandbox.commands.jq.errors import JQError


def _days_from_civil(y: int, m: int, d: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (any year)."""
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _civil_from_days(z: int) -> tuple[int, int, int]:
    """(year, month 1-12, day) of a day count since 1970-01-01 (any year)."""
    z += 719468
    era = (z if z >= 0 else z - 146096) // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + (3 if mp < 10 else -9)
    return y + (m <= 2), m, d


def _broken_down(secs: int) -> list:
    days, rem = divmod(secs, 86400)
    y, m, d = _civil_from_days(days)
    yday = days - _days_from_civil(y, 1, 1)
    return [y, m - 1, d, rem // 3600, rem % 3600 // 60, rem % 60, (days + 4) % 7, yday]


def gmtime(v: Any, who: str = "gmtime") -> list:
    """Seconds since the epoch to jq's broken-down time (seconds keep their fraction).

    Like jq, the whole seconds are the number truncated toward zero and the fraction is
    ``v - floor(v)``."""
    if type(v) not in (int, float):
        raise JQError(f"{who}() requires numeric inputs")
    if v != v or math.isinf(v):
        raise JQError(f"{who}() requires a finite number")
    secs = int(v)
    out = _broken_down(secs)
    if type(v) is float:
        out[5] = out[5] + (v - math.floor(v))
    return out


def _zone() -> tuple[Any, str | None] | None:
    """The run's TZ as ``date`` resolves it, or None when it is UTC (or unset)."""
    from sandbox.commands.date import resolve_zone
    from sandbox.commands.jq.interp import rt

    tz = rt().env.get("TZ")
    if not tz:
        return None
    zone, name = resolve_zone(tz)
    if zone is _dt.timezone.utc and name in (None, "UTC"):
        return None
    return zone, name


def localtime(v: Any) -> list:
    """``localtime``: broken-down time in the run's TZ (seconds keep their fraction)."""
    out = gmtime(v, "localtime")
    zone = _zone()
    if zone is None:
        return out
    try:
        local = _dt.datetime.fromtimestamp(int(v), zone[0])
    except (OverflowError, OSError, ValueError):
        return out
    frac = out[5] - int(out[5]) if type(out[5]) is float else 0
    return [local.year, local.month - 1, local.day, local.hour, local.minute,
            local.second + frac if frac else local.second, (local.weekday() + 1) % 7,
            local.timetuple().tm_yday - 1]


def _tm(v: Any, who: str) -> tuple:
    """Normalized (year, month0, mday, hour, min, sec, wday, yday) of a broken-down time;
    fields are truncated toward zero and missing ones are 0 (year 1900), as C's ``struct tm``."""
    if type(v) is not list or any(type(x) not in (int, float) for x in v):
        raise JQError(f"{who} requires parsed datetime inputs")
    year, mon, mday, hour, minute, sec = _fields(v)
    return tuple(_broken_down(_timegm(year, mon, mday, hour, minute, sec)))


def _fields(v: list) -> list[int]:
    """``struct tm`` fields as jq fills them: C casts (toward zero), the year through
    ``tm_year = year - 1900``, missing fields 0."""
    def cast(x: Any) -> int:
        return int(x) if x == x and not math.isinf(x) and abs(x) < 2**62 else 0

    fields = [cast(x) for x in v[:6]] + [0] * (6 - min(len(v), 6))
    fields[0] = (cast(v[0] - 1900) if v else -1900) + 1900 if v else 1900
    return fields


def _timegm(year: int, mon: int, mday: int, hour: int, minute: int, sec: int) -> int:
    y = year + mon // 12
    m = mon % 12
    days = _days_from_civil(y, m + 1, 1) + mday - 1
    return days * 86400 + hour * 3600 + minute * 60 + sec


def mktime(v: Any) -> int:
    """Broken-down time (UTC) to seconds since the epoch."""
    if type(v) is not list:
        raise JQError("mktime requires array inputs")
    if any(type(x) not in (int, float) for x in v):
        raise JQError("mktime requires parsed datetime inputs")
    return _timegm(*_fields(v))


def strftime(v: Any, fmt: Any, who: str = "strftime/1") -> str:
    """Format a time (number or broken-down time) with a C ``strftime`` format, in UTC."""
    name, offset = ("UTC" if who.startswith("strflocaltime") else "GMT"), "+0000"
    if type(v) in (int, float):
        local = _zone() if who.startswith("strflocaltime") else None
        if local is not None:
            try:
                at = _dt.datetime.fromtimestamp(int(v), local[0])
                name, offset = local[1] or at.strftime("%Z"), at.strftime("%z")
            except (OverflowError, OSError, ValueError):
                local = None
        v = localtime(v) if local is not None else gmtime(v)
    elif type(v) is not list:
        raise JQError(f"{who} requires parsed datetime inputs")
    if type(fmt) is not str:
        raise JQError(f"{who} requires a string format")
    year, mon, mday, hour, minute, sec, wday, yday = _tm(v, who)
    fmt2 = fmt.replace("%Z", name).replace("%z", offset)
    st = (year, mon + 1, mday, hour, minute, sec, (wday - 1) % 7, yday + 1, 0)
    try:
        return time.strftime(fmt2, st)
    except (ValueError, OverflowError):
        raise JQError(f"{who}: unknown system failure")


_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z")


def strptime(v: Any, fmt: Any) -> list:
    """Parse a string with a ``strptime`` format into broken-down time (UTC)."""
    if type(v) is not str:
        raise JQError(f"strptime/1 requires string inputs and arguments")
    if type(fmt) is not str:
        raise JQError("strptime/1 requires a string format")
    if fmt == "%Y-%m-%dT%H:%M:%SZ":
        m = _ISO.fullmatch(v)
        if m:
            y, mo, d, h, mi, se = (int(x) for x in m.groups())
            try:
                day = _dt.date(y, mo, d)
            except ValueError:
                day = None
            if day is not None and h < 24 and mi < 60 and se < 62:
                return [y, mo - 1, d, h, mi, se, (day.weekday() + 1) % 7, day.timetuple().tm_yday - 1]
    fmt2 = fmt.replace("%Z", "UTC") if "%Z" in fmt and "UTC" in v else fmt
    try:
        d = _dt.datetime.strptime(v, fmt2)
    except ValueError:
        raise JQError(f"date \"{v}\" does not match format \"{fmt}\"")
    if d.tzinfo is not None:
        d = (d - d.utcoffset()).replace(tzinfo=None)
    return [d.year, d.month - 1, d.day, d.hour, d.minute, d.second, (d.weekday() + 1) % 7, d.timetuple().tm_yday - 1]
