"""File names in patch headers: GNU's ``fetchname`` (quoted names, ``-p`` stripping, the
timestamp after the name), ``best_name``'s tie-breaks, and ``quotearg``'s shell style."""

from __future__ import annotations

import calendar
import re

from sandbox.commands._quoting import SAFE_BYTES, SHELL_SPECIAL_BYTES

#: ``tv_sec`` of a header without a (parsable) timestamp.
NO_STAMP = -1


def quotearg(name: str | bytes) -> str:
    """A name as GNU patch prints it (gnulib's shell quoting style): as is when harmless,
    else in single quotes (``'\\''`` for a quote), or in double quotes when its only
    trouble is a single quote; unprintable bytes other than tab, CR and LF stay raw and
    unquoted (patch runs in the C locale: so do all bytes >= 0x80)."""
    data = name if isinstance(name, bytes) else name.encode("utf-8", "surrogateescape")
    text = data.decode("utf-8", "surrogateescape")
    need = not data
    compat = True
    has_quote = False
    i = 0
    n = len(data)
    while i < n:
        c = data[i]
        if c in SAFE_BYTES:
            pass
        elif c in (0x7B, 0x7D):
            if n == 1:
                need = True
            else:
                compat = False
        elif c in (0x23, 0x7E):
            if i == 0:
                need = True
            else:
                compat = False
        elif c == 0x20:
            need = True
        elif c == 0x27:
            need = has_quote = True
        elif c in SHELL_SPECIAL_BYTES or c in (0x5C, 0x09, 0x0A, 0x0D):
            need = True
            compat = False
        elif c < 0x20 or c >= 0x7F:  # (patch runs in the C locale: bytes >= 0x80 too)
            compat = False
        i += 1
    if not need:
        return text
    if has_quote and compat:
        return '"' + text + '"'
    return "'" + text.replace("'", "'\\''") + "'"


_ESCAPES = {ord("a"): 7, ord("b"): 8, ord("f"): 12, ord("n"): 10, ord("r"): 13, ord("t"): 9,
            ord("v"): 11, ord("\\"): 92, ord('"'): 34}


def parse_c_string(at: bytes) -> tuple[bytes | None, int]:
    """A ``"quoted"`` C string at the start of ``at``: (its value or None, the offset after it)."""
    out = bytearray()
    i = 1
    n = len(at)
    while True:
        if i >= n or at[i] == 0:
            return None, i
        c = at[i]
        i += 1
        if c == 0x22:
            return bytes(out), i
        if c == 0x5C:
            c = at[i] if i < n else 0
            i += 1
            if c in _ESCAPES:
                c = _ESCAPES[c]
            elif 0x30 <= c <= 0x33:
                acc = (c - 0x30) << 6
                for shift in (3, 0):
                    c = at[i] if i < n else 0
                    i += 1
                    if not 0x30 <= c <= 0x37:
                        return None, i
                    acc |= (c - 0x30) << shift
                c = acc
            else:
                return None, i
        out.append(c)


def strip_leading_slashes(name: bytes, strip: int) -> bytes | None:
    """``-p``: the name without its first ``strip`` components (all but the last when
    ``strip`` is -1); None when it has too few."""
    s = strip
    n = 0
    p = 0
    length = len(name)
    while p < length:
        if name[p] == 0x2F:
            while p + 1 < length and name[p + 1] == 0x2F:
                p += 1
            if strip < 0:
                n = p + 1
            else:
                s -= 1
                if s >= 0:
                    n = p + 1
        p += 1
    if (strip < 0 or s <= 0) and n < length:
        return name[n:]
    return None


_MONTHS = {m: i for i, m in enumerate(
    "jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}
_ISO = re.compile(
    rb"^\s*(\d{4})-(\d\d?)-(\d\d?)[ T]+(\d\d?):(\d\d)(?::(\d\d)(?:[.,]\d*)?)?"
    rb"\s*(?:(UTC|GMT|Z)|([+-])(\d\d):?(\d\d))?\s*$", re.I)
_CTIME = re.compile(
    rb"^\s*(?:[a-z]{3}[a-z]*,?\s+)?([a-z]{3})[a-z]*\s+(\d\d?)\s+(\d\d?):(\d\d)(?::(\d\d))?"
    rb"\s+(\d{4})\s*(?:(UTC|GMT|Z)|([+-])(\d\d):?(\d\d))?\s*$", re.I)


def parse_stamp(text: bytes) -> int:
    """Seconds since the epoch of a header's timestamp (UTC when it gives no zone), or
    ``NO_STAMP`` (the forms diff writes; GNU's get_date reads more)."""
    m = _ISO.match(text)
    if m:
        year, month, day, hour, minute = (int(m.group(k)) for k in range(1, 6))
        second = int(m.group(6) or 0)
        sign, zh, zm = m.group(8), m.group(9), m.group(10)
    else:
        m = _CTIME.match(text)
        if not m or m.group(1).lower().decode() not in _MONTHS:
            return NO_STAMP
        month = _MONTHS[m.group(1).lower().decode()]
        day, hour, minute = int(m.group(2)), int(m.group(3)), int(m.group(4))
        second = int(m.group(5) or 0)
        year = int(m.group(6))
        sign, zh, zm = m.group(8), m.group(9), m.group(10)
    if not (1 <= month <= 12 and 1 <= day <= 31 and hour < 24 and minute < 60 and second < 61):
        return NO_STAMP
    stamp = calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0))
    if sign:
        offset = int(zh) * 3600 + int(zm) * 60
        stamp -= offset if sign == b"+" else -offset
    return stamp


def fetchname(at: bytes, strip: int, want_stamp: bool
              ) -> tuple[bool, bytes | None, bytes | None, int | None]:
    """GNU's ``fetchname`` on the text after ``--- ``/``+++ ``/``*** ``/``Index:``.

    Returns (whether it set anything, the name or None, the timestamp text, the timestamp):
    a name is set with its timestamp text; ``/dev/null`` sets only the timestamp 0 (when
    ``want_stamp``); a name too short for ``-p``, a malformed quoted name, and (without
    ``want_stamp``) a name followed by more words set nothing.
    """
    i = 0
    n = len(at)
    while i < n and at[i] in b" \t\n\r\v\f":
        i += 1
    at = at[i:]
    if at[:1] == b'"':
        name, t = parse_c_string(at)
        if name is None:
            return False, None, None, None
    else:
        t = 0
        n = len(at)
        while t < n:
            if at[t] in b" \t\n\r\v\f":
                u = t
                while at[u] != 9 and u + 1 < n and at[u + 1] in b" \t\n\r\v\f":
                    u += 1
                if at[u] != 9 and at.find(b"\t" if want_stamp else b"\n", u + 1) >= 0:
                    t += 1
                    continue
                break
            t += 1
        name = at[:t]
    nul = name.find(b"\0")
    if nul >= 0:
        name = name[:nul]
    if name == b"/dev/null":
        return (True, None, None, 0) if want_stamp else (False, None, None, None)
    stripped = strip_leading_slashes(name, strip)
    if stripped is None:
        return False, None, None, None
    rest = at[t:]
    end = len(rest)
    if end and rest[end - 1] == 0x0A:
        end -= 1
    if end and rest[end - 1] == 0x0D:
        end -= 1
    timestr = rest[:end]
    stamp = NO_STAMP
    if rest[:1] != b"\n":
        if not want_stamp:
            return False, None, None, None
        stamp = parse_stamp(rest)
        if stamp != NO_STAMP and -25 * 3600 < stamp < 26 * 3600:
            stamp = 0
    return True, stripped, timestr, stamp


def prefix_components(name: bytes, is_dir=None) -> int:
    """Leading directory components of ``name``; with ``is_dir(prefix)``, only as many as
    exist as directories."""
    count = 0
    for f in range(1, len(name)):
        if name[f] == 0x2F and name[f - 1] != 0x2F:
            if is_dir is not None and not is_dir(name[:f]):
                break
            count += 1
    return count


def dangerous(name: bytes) -> bool:
    """GNU's test for a name patch refuses to touch: absolute, or with a ``..`` component."""
    if name.startswith(b"/"):
        return True
    return any(part == b".." for part in name.split(b"/"))
