"""``date``: print the date and time (GNU coreutils 9.1).

``date [-u] [-d STRING | -f FILE | -r FILE] [+FORMAT | -I[FMT] | -R | --rfc-3339=FMT]`` (``-f``:
each line of FILE, ``-`` for standard input, as a ``-d`` STRING). FORMAT takes GNU's
conversions and flags (``-``, ``_``, ``0``, ``^``, ``#``, widths, ``%:z`` forms, ``%N`` precision)
in the C locale. ``-d`` accepts ``@EPOCH[.frac]``, ISO 8601 dates and date-times (``T`` or space,
fractions, ``Z`` / ``±hh[:mm]`` offsets), ``now``, ``today``, ``yesterday``, ``tomorrow`` and the
empty string. The zone is the sandbox env's ``TZ`` if set (``-u`` forces UTC), else UTC. The
clock is never set (``-s`` is refused): a date operand without ``+`` is refused as GNU refuses an
invalid date.
"""

from __future__ import annotations

import dataclasses
import errno
import re
import time
from datetime import datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo

from sandbox.commands._quoting import quote, quotef
from sandbox.commands._textutil import ArgmatchError, argmatch
from sandbox.commands.base import CommandContext
from sandbox.commands._date_items import ItemsError, parse_items, resolve
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError, mtime_ns_of

#: What ``--version`` prints (GNU's text).
VERSION = """date (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by David MacKenzie."""

SPEC = OptionSpec(
    short="d:f:I::r:Rs:u",
    long={
        "version": (NO_ARG, "version"),
        "date": (REQUIRED, "d"),
        "file": (REQUIRED, "f"),
        "iso-8601": (OPTIONAL, "I"),
        "reference": (REQUIRED, "r"),
        "rfc-email": (NO_ARG, "R"),
        "rfc-822": (NO_ARG, "R"),
        "rfc-2822": (NO_ARG, "R"),
        "rfc-3339": (REQUIRED, "rfc-3339"),
        "set": (REQUIRED, "s"),
        "debug": (NO_ARG, "debug"),
        "uct": (NO_ARG, "u"),
        "universal": (NO_ARG, "u"),
        "utc": (NO_ARG, "u"),
    },
)

DEFAULT_FORMAT = "%a %b %e %H:%M:%S %Z %Y"
_ISO_FORMATS = {
    "date": "%Y-%m-%d",
    "hours": "%Y-%m-%dT%H%:z",
    "minutes": "%Y-%m-%dT%H:%M%:z",
    "seconds": "%Y-%m-%dT%H:%M:%S%:z",
    "ns": "%Y-%m-%dT%H:%M:%S,%N%:z",
}
_RFC3339_FORMATS = {"date": "%Y-%m-%d", "seconds": "%Y-%m-%d %H:%M:%S%:z", "ns": "%Y-%m-%d %H:%M:%S.%N%:z"}
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December"]
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_ISO_RE = re.compile(
    r"\s*(\d{4})-(\d{1,2})-(\d{1,2})"
    r"(?:(?:[Tt]|\s+)(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?"
    r"\s*(?:([Zz]|UTC|GMT)\b|([+-])(\d{1,2})(?::?(\d{2}))?\b)?)?"
)
_EPOCH_RE = re.compile(r"\s*@\s*([+-]?)(\d+)(?:[.,](\d+))?\s*\Z")


class DateError(Exception):
    """A refused date; ``str()`` is GNU's message."""


class Moment:
    """An instant: whole seconds since the epoch plus nanoseconds, and the zone to show it in."""

    def __init__(self, seconds: int, nanos: int, zone: tzinfo, zone_name: str | None = None):
        self.seconds = seconds
        self.nanos = nanos
        self.zone = zone
        self.zone_name = zone_name
        try:
            self.local = (_EPOCH + timedelta(seconds=seconds)).astimezone(zone)
        except OverflowError:
            raise DateError("time out of range") from None

    def offset_seconds(self) -> int:
        """UTC offset in seconds."""
        off = self.local.utcoffset()
        return int(off.total_seconds()) if off is not None else 0

    def abbreviation(self) -> str:
        """The zone abbreviation (%Z)."""
        if self.zone_name is not None:
            return self.zone_name
        return self.local.tzname() or "UTC"



HELP = '''Usage: date [OPTION]... [+FORMAT]
Display the date and time in the given FORMAT.

  -d, --date=STRING          display time described by STRING, not 'now'
                             (@EPOCH, ISO 8601 dates and times, now, today, yesterday, tomorrow)
  -I[FMT], --iso-8601[=FMT]  output date/time in ISO 8601 format (date, hours, minutes, seconds, ns)
  -R, --rfc-email            output date and time in RFC 5322 format
      --rfc-3339=FMT         output date/time in RFC 3339 format (date, seconds, ns)
  -r, --reference=FILE       display the last modification time of FILE
  -u, --utc, --universal     print Coordinated Universal Time (UTC)

FORMAT takes strftime conversions (%a %b %d %F %H %M %S %s %N %z %:z %Z ...)
and the flags - _ 0 ^ # with an optional width.
'''

def resolve_zone(tz: str | None) -> tuple[tzinfo, str | None]:
    """The zone for a ``TZ`` value (None or empty: UTC), and a fixed abbreviation if any."""
    if not tz:
        return timezone.utc, "UTC"
    name = tz[1:] if tz.startswith(":") else tz
    match = re.fullmatch(r"([A-Za-z]{3,})([+-]?\d{1,2})(?::(\d{2}))?", name)
    if match and not re.fullmatch(r"[A-Z]{3}\d[A-Z]{3}", name):
        hours = int(match.group(2))
        minutes = int(match.group(3) or 0)
        offset = -(hours * 3600 + (minutes * 60 if hours >= 0 else -minutes * 60))
        return timezone(timedelta(seconds=offset)), match.group(1)
    if name and ".." not in name and not name.startswith("/"):
        try:
            return ZoneInfo(name), None
        except (ValueError, OSError, KeyError):
            pass
    abbreviation = re.match(r"[A-Za-z]*", name)
    return timezone.utc, (abbreviation.group() if abbreviation and len(abbreviation.group()) >= 3 else "UTC")


_REL_UNITS = {"year": ("months", 12), "month": ("months", 1), "fortnight": ("days", 14),
              "week": ("days", 7), "day": ("days", 1), "hour": ("seconds", 3600),
              "minute": ("seconds", 60), "min": ("seconds", 60), "second": ("seconds", 1),
              "sec": ("seconds", 1)}
_REL_RE = re.compile(
    r"\s*(?:(?P<word>yesterday|tomorrow|today|now)"
    r"|(?:(?P<num>[+-]?\s*\d+)|(?P<ord>next|last|this))?\s*"
    r"(?P<unit>years?|months?|fortnights?|weeks?|days?|hours?|minutes?|mins?|seconds?|secs?)"
    r"(?P<ago>\s+ago\b)?)",
    re.I,
)


def _relative_items(text: str) -> tuple[int, int, int] | None:
    """Parse GNU relative items (``3 days ago``, ``+2 hours``, ``next week``, ``yesterday``):
    (months, days, seconds), or None if ``text`` is not entirely such items."""
    months = days = seconds = 0
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        match = _REL_RE.match(text, pos)
        if not match or match.end() == pos:
            return None
        pos = match.end()
        if match.group("word"):
            word = match.group("word").lower()
            days += {"yesterday": -1, "tomorrow": 1}.get(word, 0)
            continue
        count = 1
        if match.group("num"):
            count = int(match.group("num").replace(" ", "").replace("\t", ""))
        elif match.group("ord"):
            count = {"next": 1, "last": -1, "this": 0}[match.group("ord").lower()]
        if match.group("ago"):
            count = -count
        unit = match.group("unit").lower()
        unit = unit[:-1] if unit.endswith("s") and unit[:-1] in _REL_UNITS else unit
        field, scale = _REL_UNITS[unit]
        if field == "months":
            months += count * scale
        elif field == "days":
            days += count * scale
        else:
            seconds += count * scale
    return months, days, seconds


def _tz_prefix(text: str) -> tuple[str, str] | None:
    """gnulib parse_datetime's leading ``TZ="VALUE"`` (after white space): the zone's value
    (``\\`` and ``\"`` unescaped) and the rest of the string; None when there is none (or it
    is malformed: no closing quote, or a backslash before another character)."""
    body = text.lstrip(" \t\n\v\f\r")
    if not body.startswith('TZ="'):
        return None
    value: list[str] = []
    i = 4
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            i += 1
            if i >= len(body) or body[i] not in '\\"':
                return None
            value.append(body[i])
        elif ch == '"':
            return "".join(value), body[i + 1:]
        else:
            value.append(ch)
        i += 1
    return None


def parse_date(text: str, now: Moment, zone: tzinfo) -> tuple[int, int]:
    """Parse a ``-d`` STRING into (seconds since the epoch, nanoseconds). A leading
    ``TZ="Zone/Name"`` reads the rest in that zone (an unknown name is UTC, as glibc's
    tzalloc takes it)."""
    prefix = _tz_prefix(text)
    if prefix is None:
        return _parse_date(text, now, zone)
    value, rest = prefix
    if value.startswith("/usr/share/zoneinfo/"):
        value = value[len("/usr/share/zoneinfo/"):]
    zone = resolve_zone(value)[0] if value else timezone.utc
    try:
        return _parse_date(rest, Moment(now.seconds, now.nanos, zone), zone)
    except DateError:
        raise DateError(f"invalid date {quote(text)}") from None


def _parse_date(text: str, now: Moment, zone: tzinfo) -> tuple[int, int]:
    match = _EPOCH_RE.match(text)
    if match:
        if len(match.group(2).lstrip("0")) > 15:
            raise DateError(f"invalid date {quote(text)}")
        seconds = int(match.group(2))
        frac = (match.group(3) or "")[:9].ljust(9, "0")
        nanos = int(frac)
        if match.group(1) == "-":
            seconds = -seconds
            if nanos:
                seconds -= 1
                nanos = 1_000_000_000 - nanos
        return seconds, nanos
    if len(text) > 1000:
        raise DateError(f"invalid date {quote(text)}")
    match = _ISO_RE.match(text)
    if match:
        rest = text[match.end():]
        relative = _relative_items(rest)
        # after a time, a sign apart from its digits is a zone (``10:00 + 2 days`` is +02:00
        # and one day), as parse-datetime reads it
        apart = match.group(4) and not match.group(8) and not match.group(9) \
            and re.match(r"\s*[+-]\s+\d", rest)
        if relative is None or apart:
            return _parse_items(text, now, zone)
        year, month, day = int(match.group(1)), int(match.group(2)), int(match.group(3))
        hour = int(match.group(4) or 0)
        minute = int(match.group(5) or 0)
        second = int(match.group(6) or 0)
        nanos = int((match.group(7) or "")[:9].ljust(9, "0"))
        if match.group(8):
            base_zone: tzinfo = timezone.utc
        elif match.group(9):
            offset = int(match.group(10)) * 3600 + int(match.group(11) or 0) * 60
            base_zone = timezone(timedelta(seconds=-offset if match.group(9) == "-" else offset))
        else:
            base_zone = zone
        try:
            naive = datetime(year, month, day, hour, minute, second)
        except ValueError:
            raise DateError(f"invalid date {quote(text)}") from None
        if base_zone is zone and not match.group(8) and not match.group(9) and zone is not timezone.utc:
            epoch = _to_epoch(naive, zone)
            back = (_EPOCH + timedelta(seconds=epoch)).astimezone(zone).replace(tzinfo=None)
            if back != naive:
                raise DateError(f"invalid date {quote(text)}")
    else:
        return _parse_items(text, now, zone)
    months, days, seconds = relative
    if months or days:
        base = naive
        try:
            index = naive.year * 12 + naive.month - 1 + months
            first = datetime(index // 12, index % 12 + 1, 1, naive.hour, naive.minute, naive.second)
            naive = first + timedelta(days=naive.day - 1 + days)
        except (ValueError, OverflowError):
            raise DateError(f"invalid date {quote(text)}") from None
        return _to_epoch(naive, base_zone, base) + seconds, nanos
    return _to_epoch(naive, base_zone) + seconds, nanos


def _parse_items(text: str, now: Moment, zone: tzinfo) -> tuple[int, int]:
    """``-d`` STRING as GNU's date items (``next monday``, ``tomorrow 9am``, ``dec 25``...)."""
    try:
        items = parse_items(text)
        naive, nanos = resolve(items, now.local.replace(tzinfo=None, microsecond=0), now.nanos)
    except ItemsError:
        raise DateError(f"invalid date {quote(text)}") from None
    base_zone = timezone.utc if items.utc else zone
    if items.zone_minutes is not None:
        base_zone = timezone(timedelta(minutes=items.zone_minutes))
    hint = None
    if items.rel["months"] or items.rel["days"]:  # GNU's first mktime: the date before them
        plain = dataclasses.replace(items, rel={**items.rel, "months": 0, "days": 0})
        try:
            hint = resolve(plain, now.local.replace(tzinfo=None, microsecond=0), now.nanos)[0]
        except ItemsError:
            hint = None
    return _to_epoch(naive, base_zone, hint) + items.rel["seconds"], nanos


def _to_epoch(naive: datetime, zone: tzinfo, hint: datetime | None = None) -> int:
    """``naive`` local time in ``zone`` as epoch seconds. A time that occurs twice (a
    fall-back hour) is resolved as glibc's mktime does: its first guess takes ``naive`` at the
    offset of the previous mktime call (``hint``, the date before relative items were added;
    none: offset 0), then steps to the offset in force at the guess."""
    aware = naive.replace(tzinfo=zone)
    early = int((aware - _EPOCH).total_seconds())
    late = int((naive.replace(tzinfo=zone, fold=1) - _EPOCH).total_seconds())
    if early == late or isinstance(zone, timezone):
        return early
    for candidate in (early, late):
        if (_EPOCH + timedelta(seconds=candidate)).astimezone(zone).replace(tzinfo=None) != naive:
            return early  # a skipped (spring-forward) time, not an ambiguous one
    as_utc = int((naive.replace(tzinfo=timezone.utc) - _EPOCH).total_seconds())
    offset = 0
    if hint is not None:
        previous = _to_epoch(hint, zone)
        offset = int((_EPOCH + timedelta(seconds=previous)).astimezone(zone).utcoffset().total_seconds())
    guess = as_utc - offset
    for _ in range(6):
        at = (_EPOCH + timedelta(seconds=guess)).astimezone(zone).utcoffset()
        step = as_utc - int(at.total_seconds())
        if step == guess:
            break
        guess = step
    return guess if guess in (early, late) else early


# -- strftime --------------------------------------------------------------------------------

_CONV_RE = re.compile(r"%([-_0^#+]*)(\d*)(:{0,3})([EO]?)([a-zA-Z%+])")
_SPACE_PADDED = {"e", "k", "l"}
_YEARISH = {"Y": 4, "C": 2, "G": 4}


def _number(value: int, digits: int, pad: str, width: int | None, yearish: bool = False,
            tz_sign: bool = False, colon_mask: int = 0) -> str:
    """gnulib's do_number machinery: sign, digits (with ``:`` for %:z), padding to width."""
    negative = value < 0
    magnitude = -value if negative else value
    always_sign = tz_sign
    if yearish:
        always_sign = pad == "+" and ((99 if digits == 2 else 9999) < magnitude or (width is not None and digits < width))
    body = ""
    mask = colon_mask
    while True:
        if mask & 1:
            body = ":" + body
        mask >>= 1
        body = str(magnitude % 10) + body
        magnitude //= 10
        if magnitude == 0 and mask == 0:
            break
    if not pad:
        pad = "0"
    if width is None:
        width = digits
    sign = "-" if negative else ("+" if always_sign else "")
    shortage = width - len(sign) - len(body)
    padding = 0 if pad == "-" or shortage <= 0 else shortage
    out = ""
    if sign:
        if pad == "_":
            out += " " * padding
            width -= padding
        out += sign
        width -= 1
    return out + _fill(body, pad, width)


def _fill(text: str, pad: str, width: int | None) -> str:
    """gnulib's width_add: pad ``text`` on the left to ``width`` ('0'/'+' zeros, else spaces)."""
    if pad == "-" or width is None or len(text) >= width:
        return text
    return ("0" if pad in ("0", "+") else " ") * (width - len(text)) + text


def _nanoseconds(nanos: int, pad: str, width: int | None) -> str:
    """%N as GNU date 9.1 prints it: a width is a precision; '-' and '_' drop trailing zeros
    (when a width is given, or always for '_'), padding after the digits."""
    digits = f"{nanos:09d}"
    if not width:
        if pad != "_":
            return digits
        width = 9
    ndigs = min(width, 9)
    text = digits[:ndigs]
    if pad in ("-", "_"):
        text = text.rstrip("0") or "0"
    if pad == "-":
        return text
    return text + ("0" if pad in ("", "0", "+") else " ") * (width - len(text))


#: Widest field a format may ask for (GNU allows more; we bound the output).
MAX_WIDTH = 65536
_KNOWN = set("aAbBcCdDeFgGhHIjklmMnNpPqrRsStTuUVwWxXyYzZ%")


def _bad_format(raw: str, conv: str, colons: str, pad: str, width: int | None) -> str:
    """An unknown or malformed directive, copied as written and padded as GNU date 9.1 does
    (its padding counts one character less for a ``%%`` or ``:`` directive)."""
    counted = len(raw) - 1 if (conv == "%" or colons) else len(raw)
    if pad == "-" or width is None or counted >= width:
        return raw
    return ("0" if pad in ("0", "+") else " ") * (width - counted) + raw


def strftime(fmt: str, moment: Moment) -> str:
    """GNU ``fprintftime`` in the C locale for ``moment``."""
    t = moment.local
    wday = t.isoweekday() % 7
    yday = t.timetuple().tm_yday - 1
    iso_year, iso_week, _ = t.isocalendar()
    hour12 = t.hour % 12 or 12
    numbers: dict[str, tuple[int, int]] = {
        "C": (t.year // 100, 2), "d": (t.day, 2), "e": (t.day, 2), "G": (iso_year, 4),
        "g": (iso_year % 100, 2), "H": (t.hour, 2), "I": (hour12, 2), "j": (yday + 1, 3),
        "k": (t.hour, 2), "l": (hour12, 2), "m": (t.month, 2), "M": (t.minute, 2),
        "q": ((t.month - 1) // 3 + 1, 1), "s": (moment.seconds, 1), "S": (t.second, 2),
        "u": (t.isoweekday(), 1), "U": ((yday + 7 - wday) // 7, 2), "V": (iso_week, 2),
        "w": (wday, 1), "W": ((yday + 7 - (wday + 6) % 7) // 7, 2), "y": (t.year % 100, 2),
        "Y": (t.year, 4),
    }
    # name: (text, what '#' does: "upper" or "lower")
    names: dict[str, tuple[str, str]] = {
        "a": (_DAYS[t.weekday()][:3], "upper"), "A": (_DAYS[t.weekday()], "upper"),
        "b": (_MONTHS[t.month - 1][:3], "upper"), "h": (_MONTHS[t.month - 1][:3], "upper"),
        "B": (_MONTHS[t.month - 1], "upper"), "p": ("AM" if t.hour < 12 else "PM", "lower"),
        "P": ("am" if t.hour < 12 else "pm", "none"), "Z": (moment.abbreviation(), "lower"),
        "n": ("\n", "none"), "t": ("\t", "none"), "%": ("%", "none"),
    }
    composite = {"c": "%a %b %e %H:%M:%S %-Y", "D": "%m/%d/%y", "x": "%m/%d/%y", "F": "%Y-%m-%d",
                 "r": "%I:%M:%S %p", "R": "%H:%M", "T": "%H:%M:%S", "X": "%H:%M:%S"}

    out: list[str] = []
    pos = 0
    while pos < len(fmt):
        nxt = fmt.find("%", pos)
        if nxt < 0:
            out.append(fmt[pos:])
            break
        out.append(fmt[pos:nxt])
        match = _CONV_RE.match(fmt, nxt)
        if not match:
            out.append(fmt[nxt:])
            break
        flags, width_text, colons, _modifier, conv = match.groups()
        pos = match.end()
        raw = match.group(0)
        width = int(width_text) if width_text and len(width_text) < 10 else (None if not width_text else MAX_WIDTH + 1)
        if width is not None and width > MAX_WIDTH:
            raise DateError(f"field width {width_text} in the format is too large (at most {MAX_WIDTH})")
        upper = "^" in flags
        swap = "#" in flags
        pad = next((f for f in reversed(flags) if f in "-_0+"), "")
        if (colons and conv != "z") or (conv == "%" and (flags or width_text)) or conv not in _KNOWN:
            out.append(_bad_format(raw, conv, colons, pad, width))
            continue
        if conv == "z":
            offset = moment.offset_seconds()
            negative = offset < 0
            offset = abs(offset)
            hours, rest = divmod(offset, 3600)
            minutes, seconds = divmod(rest, 60)
            level = len(colons)
            if level == 3:
                level = 2 if seconds else 1 if minutes else 3
            if level == 0:
                digits, mask, value = 5, 0, hours * 100 + minutes
            elif level == 1:
                digits, mask, value = 6, 0o4, hours * 100 + minutes
            elif level == 2:
                digits, mask, value = 9, 0o24, hours * 10000 + minutes * 100 + seconds
            else:
                digits, mask, value = 3, 0, hours
            out.append(_number(-value if negative else value, digits, pad, width, tz_sign=not negative,
                               colon_mask=mask))
            continue
        if conv == "N":
            out.append(_nanoseconds(moment.nanos, pad, width))
            continue
        if conv in composite:
            text = strftime(composite[conv], moment)
            if upper:
                text = text.upper()
            out.append(_fill(text, pad, width))
            continue
        if conv in numbers:
            value, digits = numbers[conv]
            if not pad and conv in _SPACE_PADDED:
                pad = "_"
            out.append(_number(value, digits, pad, width, yearish=conv in _YEARISH))
            continue
        if conv in names:
            text, hash_case = names[conv]
            if conv == "P":
                pass  # GNU: %P is always lower case, whatever the flags
            elif upper:
                text = text.upper()
            elif swap and hash_case == "upper":
                text = text.upper()
            elif swap and hash_case == "lower":
                text = text.lower()
            out.append(_fill(text, pad, width))
            continue
        out.append(_bad_format(raw, conv, colons, pad, width))
    return "".join(out)


# -- the command ---------------------------------------------------------------------------------


def _now() -> tuple[int, int]:
    ns = time.time_ns()
    return ns // 1_000_000_000, ns % 1_000_000_000


def run(ctx: CommandContext) -> int:
    """Print the date."""
    parsed = parse_command_line(ctx, SPEC, HELP, version=VERSION, early_help=True)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    utc = False
    date_text: str | None = None
    reference: str | None = None
    fmt: str | None = None
    formats_given = 0
    batch: str | None = None
    for key, value in opts:
        if key == "u":
            utc = True
        elif key == "d":
            date_text = value or ""
        elif key == "r":
            reference = value or ""
        elif key == "I":
            formats_given += 1
            try:
                choice = argmatch("--iso-8601", value, ["hours", "minutes", "date", "seconds", "ns"]) if value else "date"
            except ArgmatchError as err:
                return ctx.usage_error(str(err))
            fmt = _ISO_FORMATS[choice]
        elif key == "R":
            formats_given += 1
            fmt = "%a, %d %b %Y %H:%M:%S %z"
        elif key == "rfc-3339":
            formats_given += 1
            try:
                choice = argmatch("--rfc-3339", value or "", ["date", "seconds", "ns"])
            except ArgmatchError as err:
                return ctx.usage_error(str(err))
            fmt = _RFC3339_FORMATS[choice]
        elif key == "f":
            batch = value or ""
        elif key == "s":
            ctx.error("setting the date or reading dates from a file is not supported in the sandbox")
            return 1
    if formats_given > 1:
        ctx.error("multiple output formats specified")
        return 1
    if sum(x is not None for x in (date_text, reference, batch)) > 1:
        return ctx.usage_error("the options to specify dates for printing are mutually exclusive")
    if operands:
        if len(operands) > 1:
            return ctx.usage_error(f"extra operand {quote(operands[1])}")
        if not operands[0].startswith("+") and (date_text is not None or reference is not None
                                                or batch is not None):
            return ctx.usage_error(
                f"the argument {quote(operands[0])} lacks a leading '+';\nwhen using an option "
                "to specify date(s), any non-option\nargument must be a format string beginning "
                "with '+'")
        if not operands[0].startswith("+"):
            ctx.error(f"invalid date {quote(operands[0])}")
            return 1
        if fmt is not None:
            ctx.error("multiple output formats specified")
            return 1
        fmt = operands[0][1:]
    zone, fixed_name = (timezone.utc, "UTC") if utc else resolve_zone(ctx.env.get("TZ"))
    if batch is not None:
        return _batch(ctx, batch, fmt, zone, fixed_name)
    try:
        seconds, nanos = _now()
        now = Moment(seconds, nanos, zone, fixed_name)
        if reference is not None:
            try:
                seconds, nanos = divmod(mtime_ns_of(ctx.stat(reference)), 1_000_000_000)
            except FSError as err:
                ctx.error(f"{quotef(reference)}: {err}")
                return 1
        elif date_text is not None:
            seconds, nanos = parse_date(date_text, now, zone)
        moment = Moment(seconds, nanos, zone, fixed_name)
        text = strftime(fmt if fmt is not None else DEFAULT_FORMAT, moment)
    except DateError as err:
        ctx.error(str(err))
        return 1
    ctx.stdout.write((text + "\n").encode("utf-8", "surrogateescape"))
    return 0


def _batch(ctx: CommandContext, source: str, fmt: str | None, zone: tzinfo,
           fixed_name: str | None) -> int:
    """``-f FILE``: each line of FILE (``-``: standard input) as a ``-d`` string, printed in
    turn; a line that is no date is reported and the status is 1 (GNU's batch_convert)."""
    try:
        data = ctx.stdin.read() if source == "-" else ctx.read_bytes(source)
    except FSError as err:
        if err.errno == errno.EISDIR:
            return 0  # GNU: fopen succeeds, the first getline fails, nothing is said
        ctx.error(f"{quotef(source)}: {err}")
        return 1
    status = 0
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    for raw in lines:
        text = raw.decode("utf-8", "surrogateescape")
        try:
            seconds, nanos = _now()
            seconds, nanos = parse_date(text, Moment(seconds, nanos, zone, fixed_name), zone)
            out = strftime(fmt if fmt is not None else DEFAULT_FORMAT,
                           Moment(seconds, nanos, zone, fixed_name))
        except DateError as err:
            ctx.error(str(err))
            status = 1
            continue
        ctx.stdout.write((out + "\n").encode("utf-8", "surrogateescape"))
        ctx.budget.check_time()
    return status
