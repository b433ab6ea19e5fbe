"""jq values in Python: type names, ordering, equality, number formatting and JSON encoding.

Values are ``None``, ``bool``, ``int`` (integers from literals and input, kept exact as jq 1.7
keeps large integer literals), ``float`` (everything computed), ``str``, ``list`` and ``dict``
(key order preserved). Beware that ``bool`` is an ``int`` in Python: type checks use ``type()``.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

DBL_MAX = 1.7976931348623157e308
_SAFE_INT = 1 << 53

_json_compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)
_json_compact_ascii = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), check_circular=False)
_SURROGATES = re.compile("[\ud800-\udfff]")


def type_name(v: Any) -> str:
    """jq's name for the type of ``v``."""
    t = type(v)
    if t is str:
        return "string"
    if t is int or t is float:
        return "number"
    if t is dict:
        return "object"
    if t is list:
        return "array"
    if t is bool:
        return "boolean"
    if v is None:
        return "null"
    raise TypeError(f"not a jq value: {t.__name__}")


def is_number(v: Any) -> bool:
    """True for a jq number (not a boolean)."""
    t = type(v)
    return t is int or t is float


def normalize_number(x: float | int) -> float | int:
    """An arithmetic result as jq holds it: exact ints only within 2**53, else a double."""
    if type(x) is int and not -_SAFE_INT <= x <= _SAFE_INT:
        return float(x)
    return x


# -- number formatting -------------------------------------------------------------------------


def _digits(x: float) -> tuple[str, int]:
    """Shortest round-trip digits of a positive finite double and its decimal point position."""
    r = repr(x)
    mant, _, exp = r.partition("e")
    a, _, b = mant.partition(".")
    if b == "0":
        b = ""
    digits = a + b
    decpt = len(a) + (int(exp) if exp else 0)
    stripped = digits.lstrip("0")
    decpt -= len(digits) - len(stripped)
    return stripped.rstrip("0") or "0", decpt


def format_float(x: float) -> str:
    """Format a double exactly as jq's ``jvp_dtoa_fmt`` does (17 significant digits at most)."""
    if x != x:
        return "null"
    if x == 0:
        return "-0" if math.copysign(1.0, x) < 0 else "0"
    if math.isinf(x):
        x = DBL_MAX if x > 0 else -DBL_MAX
    sign = "-" if x < 0 else ""
    s, decpt = _digits(abs(x))
    nd = len(s)
    if decpt <= -4 or decpt > nd + 15:
        out = s[0] + ("." + s[1:] if nd > 1 else "") + "e"
        e = decpt - 1
        out += ("-" if e < 0 else "+") + ("%02d" % abs(e))
        return sign + out
    if decpt <= 0:
        return sign + "0." + "0" * (-decpt) + s
    if decpt >= nd:
        return sign + s + "0" * (decpt - nd)
    return sign + s[:decpt] + "." + s[decpt:]


def format_number(v: int | float) -> str:
    """jq's text for a number."""
    if type(v) is int:
        return str(v)
    return format_float(v)


def _fix_float(x: float) -> Any:
    """A stand-in that Python's json encoder prints the way jq prints ``x``."""
    if x != x:
        return None
    if math.isinf(x):
        return DBL_MAX if x > 0 else -DBL_MAX
    if x.is_integer():
        if -1e16 < x < 1e16:
            return int(x)
        text = format_float(x)
        if "e" not in text:
            return int(text)
    return x


def fix_for_json(v: Any) -> Any:
    """``v`` with every float replaced so that ``json`` prints it as jq does (same object when
    nothing needs changing)."""
    t = type(v)
    if t is float:
        return _fix_float(v)
    if t is dict:
        changed = None
        for k, item in v.items():
            ti = type(item)
            if ti is float or ti is dict or ti is list:
                fixed = fix_for_json(item)
                if fixed is not item or ti is float:
                    if changed is None:
                        changed = dict(v)
                    changed[k] = fixed
        return v if changed is None else changed
    if t is list:
        changed_list = None
        for i, item in enumerate(v):
            ti = type(item)
            if ti is float or ti is dict or ti is list:
                fixed = fix_for_json(item)
                if fixed is not item or ti is float:
                    if changed_list is None:
                        changed_list = list(v)
                    changed_list[i] = fixed
        return v if changed_list is None else changed_list
    return v


def _has_neg_zero(v: Any) -> bool:
    t = type(v)
    if t is float:
        return v == 0 and math.copysign(1.0, v) < 0
    if t is list:
        return any(_has_neg_zero(x) for x in v)
    if t is dict:
        return any(_has_neg_zero(x) for x in v.values())
    return False


def _clean_surrogates(s: str) -> str:
    return _SURROGATES.sub("\ufffd", s)


def dumps(
    v: Any,
    indent: int | str | None = None,
    sort_keys: bool = False,
    ascii: bool = False,
) -> str:
    """Serialize ``v`` as jq does: compact when ``indent`` is None, else pretty with ``indent``
    spaces (or a tab string)."""
    t = type(v)
    if t is str and not ascii:
        s = _json_compact.encode(v)
    else:
        fixed = fix_for_json(v)
        if _has_neg_zero(v):
            return _dump_slow(v, indent, sort_keys, ascii, 0)
        if indent is None and not sort_keys:
            s = (_json_compact_ascii if ascii else _json_compact).encode(fixed)
        else:
            s = json.dumps(
                fixed,
                ensure_ascii=ascii,
                indent=indent,
                separators=(",", ":") if indent is None else (",", ": "),
                sort_keys=sort_keys,
                check_circular=False,
            )
    if "\x7f" in s:
        s = s.replace("\x7f", "\\u007f")
    return s


def _dump_slow(v: Any, indent: int | str | None, sort_keys: bool, ascii: bool, level: int) -> str:
    """Recursive encoder used for the rare values ``json`` cannot print as jq (``-0``)."""
    t = type(v)
    if t is float or t is int:
        return format_number(v)
    if t is list or t is dict:
        if not v:
            return "[]" if t is list else "{}"
        if indent is None:
            nl, pad, pad_end, colon = "", "", "", ":"
        else:
            unit = indent if isinstance(indent, str) else " " * indent
            nl, pad, pad_end, colon = "\n", unit * (level + 1), unit * level, ": "
        if t is list:
            items = [pad + _dump_slow(x, indent, sort_keys, ascii, level + 1) for x in v]
            return "[" + nl + ("," + nl).join(items) + nl + pad_end + "]"
        keys = sorted(v) if sort_keys else list(v)
        items = [
            pad + dumps(k, None, False, ascii) + colon + _dump_slow(v[k], indent, sort_keys, ascii, level + 1)
            for k in keys
        ]
        return "{" + nl + ("," + nl).join(items) + nl + pad_end + "}"
    return dumps(v, None, False, ascii)


def encode_text(s: str) -> bytes:
    """UTF-8 bytes of output text; lone surrogates become U+FFFD as in jq."""
    try:
        return s.encode("utf-8")
    except UnicodeEncodeError:
        return _clean_surrogates(s).encode("utf-8")


def dump_trunc(v: Any) -> str:
    """The truncated dump jq puts in error messages (``"very-long-long-long-long...``)."""
    s = dumps(v)
    raw = s.encode("utf-8", "surrogatepass")
    if len(raw) <= 29:
        return s
    if type(v) is str:
        return raw[:25].decode("utf-8", "ignore") + '..."'
    return raw[:26].decode("utf-8", "ignore") + "..."


def describe(v: Any) -> str:
    """``type (value)`` as jq's error messages put it."""
    return f"{type_name(v)} ({dump_trunc(v)})"


# -- truthiness, ordering, equality ---------------------------------------------------------------


def truthy(v: Any) -> bool:
    """jq truth: everything but ``false`` and ``null``."""
    return not (v is None or v is False)


_RANK = {type(None): 0, str: 4, int: 3, float: 3, list: 5, dict: 6}


def rank(v: Any) -> int:
    """Position of the type of ``v`` in jq's order."""
    t = type(v)
    if t is bool:
        return 2 if v else 1
    return _RANK[t]


def compare(a: Any, b: Any) -> int:
    """jq's total order: -1, 0 or 1."""
    ta, tb = type(a), type(b)
    if ta is tb and ta is str:
        return -1 if a < b else (1 if a > b else 0)
    ra, rb = rank(a), rank(b)
    if ra != rb:
        return -1 if ra < rb else 1
    if ra == 3:
        if a != a:
            return -1
        if b != b:
            return 1
        if type(a) is not type(b):
            a, b = float(a), float(b)
        return -1 if a < b else (1 if a > b else 0)
    if ra == 5:
        for x, y in zip(a, b):
            c = compare(x, y)
            if c:
                return c
        return -1 if len(a) < len(b) else (1 if len(a) > len(b) else 0)
    if ra == 6:
        ka, kb = sorted(a), sorted(b)
        if ka != kb:
            return -1 if ka < kb else 1
        for k in ka:
            c = compare(a[k], b[k])
            if c:
                return c
        return 0
    return 0


def equal(a: Any, b: Any) -> bool:
    """jq's ``==``."""
    ta, tb = type(a), type(b)
    if ta is tb:
        if ta is str or ta is int or ta is float or ta is bool or a is None:
            return a == b
        if ta is list:
            return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
        if ta is dict:
            if len(a) != len(b):
                return False
            for k, x in a.items():
                if k not in b or not equal(x, b[k]):
                    return False
            return True
    if (ta is int and tb is float) or (ta is float and tb is int):
        return float(a) == float(b)
    return False


def sort_key(v: Any) -> Any:
    """A Python sort key that orders values as jq does."""
    t = type(v)
    if t is str:
        return (4, v)
    if t is int or t is float:
        if v != v:
            return (3, 0, 0)
        return (3, 1, float(v) if t is int and not -_SAFE_INT <= v <= _SAFE_INT else v)
    if v is None:
        return (0,)
    if t is bool:
        return (2,) if v else (1,)
    if t is list:
        return (5, tuple(sort_key(x) for x in v))
    keys = sorted(v)
    return (6, tuple(keys), tuple(sort_key(v[k]) for k in keys))


_UTF8_LEN = [1] * 0x80 + [0] * 0x40 + [2] * 0x20 + [3] * 0x10 + [4] * 0x08 + [0] * 0x08


def decode_utf8(data: bytes) -> str:
    """Decode UTF-8 as jq does: each invalid or truncated sequence becomes one U+FFFD."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    out: list[str] = []
    i, n = 0, len(data)
    while i < n:
        b = data[i]
        length = _UTF8_LEN[b]
        if length == 1:
            out.append(chr(b))
            i += 1
            continue
        if length == 0:
            out.append("\ufffd")
            i += 1
            continue
        if i + length > n:
            out.append("\ufffd")
            break
        chunk = data[i : i + length]
        bad = 0
        for j in range(1, length):
            if chunk[j] & 0xC0 != 0x80:
                bad = j
                break
        if bad:
            out.append("\ufffd")
            i += bad
            continue
        try:
            ch = chunk.decode("utf-8")
        except UnicodeDecodeError:
            ch = "\ufffd"
        out.append(ch)
        i += length
    return "".join(out)
