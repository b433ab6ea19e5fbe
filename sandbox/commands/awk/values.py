"""awk values: numbers (``float``), strings (``bytes``), strnums (``StrNum``) and the
uninitialized value (``UNINIT``), with gawk's conversions and comparisons."""

from __future__ import annotations

import math
import re

from sandbox.commands.awk.fmt import format_number


class StrNum(bytes):
    """Input data (fields, getline, ARGV, ENVIRON, split() elements, -v): a string that
    compares as a number when it looks like one."""

    __slots__ = ()


class Str(bytes):
    """A string assigned to a field (fields are otherwise kept as raw strnum bytes)."""

    __slots__ = ()


class Uninit(bytes):
    """The uninitialized value: "" and 0 at once."""

    __slots__ = ()


UNINIT = Uninit()
EMPTY_STRNUM = StrNum()


class AwkArray(dict):
    """An awk array: subscripts are bytes."""

    __slots__ = ()


_WS = b" \t\n\r\f\v"
_NUM_PREFIX = re.compile(rb"[ \t\n\r\f\v]*([-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)")
_MAGIC = re.compile(rb"[ \t\n\r\f\v]*([-+])(inf|nan)", re.I)
_FULL_NUM = re.compile(
    rb"[ \t\n\r\f\v]*[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?[ \t\n\r\f\v]*\Z")
_FULL_MAGIC = re.compile(rb"[ \t\n\r\f\v]*[-+](?:inf|nan)[ \t\n\r\f\v]*\Z", re.I)
INF = math.inf
NAN = math.nan


def str_to_num(s: bytes) -> float:
    """The numeric value of a string as gawk's strtod (no hex, ``+inf``/``-nan`` only signed)."""
    if not s:
        return 0.0
    try:
        f = float(s)
    except ValueError:
        return _slow_num(s)
    if f - f == 0.0 and 95 not in s:
        return f
    return _slow_num(s)


def _slow_num(s: bytes) -> float:
    m = _MAGIC.match(s)
    if m:
        # gawk: a signed inf/nan only when it is the whole (trimmed) string
        if len(s.strip(_WS)) != 4:
            return 0.0
        sign = -1.0 if m.group(1) == b"-" else 1.0
        if m.group(2).lower() == b"inf":
            return sign * INF
        return -NAN if sign < 0 else NAN
    m = _NUM_PREFIX.match(s)
    if m:
        try:
            return float(m.group(1))
        except (ValueError, OverflowError):
            return 0.0
    return 0.0


def looks_numeric(s: bytes) -> bool:
    """True if a strnum's text is a number (leading/trailing blanks allowed)."""
    if not s:
        return False
    try:
        f = float(s)
    except ValueError:
        return bool(_FULL_MAGIC.match(s))
    if f - f == 0.0 and 95 not in s:
        return True
    return bool(_FULL_NUM.match(s) or _FULL_MAGIC.match(s))


def strnum_value(s: bytes):
    """The number of a strnum that looks numeric, else None."""
    if not s:
        return None
    try:
        f = float(s)
    except ValueError:
        if _FULL_MAGIC.match(s):
            return _slow_num(s)
        return None
    if f - f == 0.0 and 95 not in s:
        return f
    if _FULL_NUM.match(s) or _FULL_MAGIC.match(s):
        return _slow_num(s)
    return None


def to_num(v) -> float:
    if type(v) is float:
        return v
    return str_to_num(v)


def special_float(v: float) -> bytes:
    if v != v:
        return b"-nan" if math.copysign(1.0, v) < 0 else b"+nan"
    return b"-inf" if v < 0 else b"+inf"


def num_to_str(v: float, fmt: bytes) -> bytes:
    """A number as a string: integers as integers, others through ``fmt`` (CONVFMT/OFMT)."""
    if v.is_integer():
        return b"%d" % int(v)
    if v - v != 0.0:
        return special_float(v)
    if fmt == b"%.6g":
        return b"%.6g" % v
    return format_number(fmt, v)


def to_bool(v) -> bool:
    t = type(v)
    if t is float:
        return v != 0.0
    if t is StrNum:
        n = strnum_value(v)
        if n is not None:
            return n != 0.0
        return len(v) > 0
    if t is Uninit:
        return False
    return len(v) > 0


def subscript_of_num(v: float, convfmt: bytes) -> bytes:
    if v.is_integer():
        return b"%d" % int(v)
    return num_to_str(v, convfmt)
