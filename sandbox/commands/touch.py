"""``touch``: change file timestamps, creating missing files (GNU coreutils 9.1).

Options: ``-c`` (do not create), ``-d DATE``, ``-t [[CC]YY]MMDDhhmm[.ss]``, ``-r FILE``, and
``-a``/``-m``/``-f`` accepted. Times are UTC. ``-d`` understands ``@SECONDS``, ``YYYY-MM-DD``,
``YYYY-MM-DD HH:MM[:SS[.frac]]`` (``T`` or space, optional ``Z``/``UTC``) and ``now``; any
other GNU date phrase goes to ``date -d``'s parser (in UTC); what it can't read is an
``invalid date format``. The sandbox filesystem keeps one
time per file, so ``-a``/``-m`` both set it. Times are exact to the nanosecond (a
``Timestamp``: ``-d ...56.123456789`` keeps all nine digits, ``-r`` copies the reference's
``mtime_ns``) where the backend stores them (local directories, memory). New files are
private (0600).
"""

from __future__ import annotations

import calendar
import errno
import re
import time

from sandbox.commands._quoting import quote, quoteaf
from sandbox.commands._writing import new_slash_errno, operands_of
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FileStat, FSError, Timestamp, file_time_ns, mtime_ns_of

SPEC = OptionSpec(
    "acd:fmr:t:h",
    {
        "no-create": (NO_ARG, "c"),
        "date": (REQUIRED, "d"),
        "reference": (REQUIRED, "r"),
        "time": (REQUIRED, "time"),
        "no-dereference": (NO_ARG, "h"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: touch [OPTION]... FILE...
Update the access and modification times of each FILE to the current time.

A FILE argument that does not exist is created empty, unless -c is supplied.

  -a                     change only the access time
  -c, --no-create        do not create any files
  -d, --date=STRING      parse STRING and use it instead of current time
  -f                     (ignored)
  -m                     change only the modification time
  -r, --reference=FILE   use this file's times instead of current time
  -t STAMP               use [[CC]YY]MMDDhhmm[.ss] instead of current time
      --help        display this help and exit
      --version     output version information and exit
"""

_ISO = re.compile(
    r"\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|UTC|\+00:?00)?\s*$",
    re.I,
)
_STAMP = re.compile(r"(\d{2}|\d{4})?(\d{2})(\d{2})(\d{2})(\d{2})(?:\.(\d{2}))?$")


class _BadDate(Exception):
    """A date the command cannot understand (message already formatted)."""


def _frac_ns(frac: str) -> int:
    """Nanoseconds of a fraction's digits (``123456789``; more digits are truncated)."""
    return int(frac[:9].ljust(9, "0")) if frac else 0


def parse_date(text: str, now: float) -> float:
    """Seconds since the epoch for a ``-d`` string (see the module docstring), as a
    ``Timestamp`` that keeps every nanosecond digit."""
    stripped = text.strip()
    if stripped.lower() in ("now", ""):
        return now
    if stripped.startswith("@"):
        if not re.fullmatch(r"@\s*[-+]?\d+(?:[.,]\d+)?", stripped):
            raise _BadDate(f"invalid date format {quote(text)}")
        number = stripped[1:].strip().replace(",", ".")
        whole, _, frac = number.partition(".")
        negative = whole.startswith("-")
        seconds = int(whole.lstrip("+-") or 0)
        ns = seconds * 1_000_000_000 + _frac_ns(frac)
        return Timestamp(-ns if negative else ns)
    match = _ISO.match(text)
    if not match:
        return _date_phrase(text, now)
    year, month, day, hour, minute, second, frac, _ = match.groups()
    try:
        base = calendar.timegm((int(year), int(month), int(day), int(hour or 0), int(minute or 0),
                                int(second or 0), 0, 0, 0))
        time.gmtime(base)
        if not (1 <= int(month) <= 12 and 1 <= int(day) <= calendar.monthrange(int(year), int(month))[1]):
            raise ValueError
        if int(hour or 0) > 23 or int(minute or 0) > 59 or int(second or 0) > 60:
            raise ValueError
    except (ValueError, OverflowError):
        raise _BadDate(f"invalid date format {quote(text)}") from None
    return Timestamp(base * 1_000_000_000 + _frac_ns((frac or ".")[1:]))


def _date_phrase(text: str, now: float) -> float:
    """Any other GNU date phrase (``2 days ago``, ``yesterday 10:00``, ``date``'s own output
    ``Fri Sep  4 10:00:00 UTC 2026``), read by ``date -d``'s parser in UTC."""
    from datetime import timezone

    from sandbox.commands.date import DateError, Moment
    from sandbox.commands.date import parse_date as parse_phrase
    now_ns = int(now * 1_000_000_000) if not isinstance(now, Timestamp) else int(now.ns)
    seconds, nanos = divmod(now_ns, 1_000_000_000)
    try:
        when, frac = parse_phrase(text, Moment(seconds, nanos, timezone.utc, "UTC"), timezone.utc)
    except (DateError, ValueError, OverflowError):
        raise _BadDate(f"invalid date format {quote(text)}") from None
    return Timestamp(when * 1_000_000_000 + frac)


def parse_stamp(text: str) -> float:
    """Seconds since the epoch for a ``-t [[CC]YY]MMDDhhmm[.ss]`` stamp, in UTC."""
    match = _STAMP.match(text)
    if not match:
        raise _BadDate(f"invalid date format {quote(text)}")
    year_text, month, day, hour, minute, second = match.groups()
    if year_text is None:
        year = time.gmtime().tm_year
    elif len(year_text) == 2:
        yy = int(year_text)
        year = 1900 + yy if yy >= 69 else 2000 + yy
    else:
        year = int(year_text)
    try:
        m, d, h, mi, s = int(month), int(day), int(hour), int(minute), int(second or 0)
        if not (1 <= m <= 12 and 1 <= d <= calendar.monthrange(year, m)[1] and h <= 23 and mi <= 59 and s <= 60):
            raise ValueError
        return Timestamp(calendar.timegm((year, m, d, h, mi, s, 0, 0, 0)) * 1_000_000_000)
    except (ValueError, OverflowError):
        raise _BadDate(f"invalid date format {quote(text)}") from None


def writes(args: list[str]) -> list[str]:
    """The files this command line may create or touch."""
    return operands_of(SPEC, args)[1]


def run(ctx: CommandContext) -> int:
    """Run ``touch``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="touch (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    keys = {key for key, _ in opts}
    now = Timestamp(file_time_ns())  # the kernel's clock for file times, as UTIME_NOW
    when: float = now
    try:
        for key, value in opts:
            if key == "d":
                when = parse_date(value or "", now)
            elif key == "t":
                when = parse_stamp(value or "")
            elif key == "time":
                groups = [["atime", "access", "use"], ["mtime", "modify"]]
                found = {i for i, g in enumerate(groups) for w in g if w.startswith(value or "")}
                if not any(value in g for g in groups) and len(found) != 1:
                    ctx.error(f"{'ambiguous' if found else 'invalid'} argument {quote(value or '')} for "
                              f"{quote('--time')}\nValid arguments are:\n"
                              + "\n".join("  - " + ", ".join(quote(w) for w in g) for g in groups))
                    ctx.stderr.write(b"Try 'touch --help' for more information.\n")
                    return 1
            elif key == "r":
                try:
                    when = Timestamp(mtime_ns_of(ctx.stat(value or "")))
                except FSError as e:
                    ctx.error(f"failed to get attributes of {quoteaf(value or '')}: {e}")
                    return 1
    except _BadDate as e:
        ctx.error(str(e))
        return 1
    if not operands:
        return ctx.usage_error("missing file operand")
    no_create = "c" in keys
    status = 0
    for operand in operands:
        ctx.budget.check_time()
        if operand == "-":
            continue  # GNU touches standard output: nothing to do in the sandbox
        try:
            st: FileStat | None = ctx.stat(operand)
        except FSError as e:
            if operand.endswith("/") and e.errno == errno.ENOENT and new_slash_errno(ctx, operand) == errno.ENOTDIR:
                # a new ``name/``: open(2) fails with EISDIR, which GNU ignores; then setting
                # the times fails (ENOENT, which -c silences)
                if not no_create:
                    ctx.error(f"setting times of {quoteaf(operand)}: {e}")
                    status = 1
                continue
            if no_create:
                if e.errno != errno.ENOENT:  # GNU only tries to set the times
                    ctx.error(f"setting times of {quoteaf(operand)}: {e}")
                    status = 1
                continue
            st = None
        if st is not None and operand.endswith("/") and not st.is_dir:  # ``file/``
            ctx.error(f"setting times of {quoteaf(operand)}: {FSError(errno.ENOTDIR, operand)}")
            status = 1
            continue
        exists = st is not None
        try:
            if not exists:
                ctx.append_bytes(operand, b"")
        except FSError as e:
            ctx.error(f"cannot touch {quoteaf(operand)}: {e}")
            status = 1
            continue
        try:
            ctx.set_mtime(operand, when)
        except FSError as e:
            ctx.error(f"setting times of {quoteaf(operand)}: {e}")
            status = 1
    return status
