"""jq's date builtins: gmtime, localtime, mktime, strftime, strptime (always UTC in the sandbox:
the host's time zone is never consulted)."""

from __future__ import annotations

import calendar
import datetime as _dt
import math
import time
from typing import Any

from sandbox.commands.jq.errors import JQError
from sandbox.commands.jq.values import describe


def gmtime(v: Any) -> list:
    """Seconds since the epoch to jq's broken-down time (seconds keep their fraction)."""
    if type(v) not in (int, float):
        raise JQError("gmtime() requires a number")
    if v != v or math.isinf(v):
        raise JQError("gmtime() requires a finite number")
    secs = math.floor(v)
    frac = v - secs
    try:
        d = _dt.datetime(1970, 1, 1) + _dt.timedelta(seconds=secs)
    except OverflowError:
        raise JQError("error converting number of seconds since epoch to datetime")
    sec: Any = d.second + frac
    if type(v) is int or frac == 0:
        sec = d.second if type(v) is int else float(d.second)
    return [d.year, d.month - 1, d.day, d.hour, d.minute, sec, (d.weekday() + 1) % 7, d.timetuple().tm_yday - 1]


def _tm(v: Any, who: str) -> tuple:
    if type(v) is not list or not v or any(type(x) not in (int, float) for x in v):
        raise JQError(f"{who} requires parsed datetime inputs")
    v = list(v) + [0] * (6 - len(v))
    year, mon, mday, hour, minute, sec = (int(math.floor(x)) for x in v[:6])
    wday = int(v[6]) if len(v) > 6 and type(v[6]) in (int, float) else 0
    yday = int(v[7]) if len(v) > 7 and type(v[7]) in (int, float) else 0
    return year, mon, mday, hour, minute, sec, wday, yday


def mktime(v: Any) -> int:
    """Broken-down time (UTC) to seconds since the epoch."""
    if type(v) is not list:
        raise JQError("mktime requires array of 6 numbers")
    year, mon, mday, hour, minute, sec, _w, _y = _tm(v, "mktime")
    if mday == 0:
        mday = 1
    return calendar.timegm((year, mon + 1, mday, hour, minute, sec, 0, 0, 0))


def strftime(v: Any, fmt: Any, who: str = "strftime/1") -> str:
    """Format a time (number or broken-down time) with a C ``strftime`` format, in UTC."""
    if type(v) in (int, float):
        v = gmtime(v)
    elif type(v) is not list:
        raise JQError(f"{who} requires parsed datetime inputs")
    if type(fmt) is not str:
        raise JQError(f"{who} requires a string format")
    year, mon, mday, hour, minute, sec, wday, yday = _tm(v, who)
    fmt2 = fmt.replace("%Z", "UTC").replace("%z", "+0000")
    st = (year, mon + 1, mday, hour, minute, sec, (wday - 1) % 7, yday + 1, 0)
    try:
        return time.strftime(fmt2, st)
    except (ValueError, OverflowError) as e:
        raise JQError(f"strftime/1: unknown system failure")


def strptime(v: Any, fmt: Any) -> list:
    """Parse a string with a ``strptime`` format into broken-down time (UTC)."""
    if type(v) is not str:
        raise JQError(f"strptime/1 requires string inputs and arguments")
    if type(fmt) is not str:
        raise JQError("strptime/1 requires a string format")
    fmt2 = fmt.replace("%Z", "UTC") if "%Z" in fmt and "UTC" in v else fmt
    try:
        d = _dt.datetime.strptime(v, fmt2)
    except ValueError:
        raise JQError(f"date \"{v}\" does not match format \"{fmt}\"")
    if d.tzinfo is not None:
        d = (d - d.utcoffset()).replace(tzinfo=None)
    return [d.year, d.month - 1, d.day, d.hour, d.minute, d.second, (d.weekday() + 1) % 7, d.timetuple().tm_yday - 1]


def dateadd_check(v: Any) -> None:
    """Placeholder kept for the builtin table's symmetry."""
    return None
