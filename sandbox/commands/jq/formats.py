"""jq's ``@format`` string formats: @text @json @html @uri @csv @tsv @sh @base64 @base64d
@base32 @base32d."""

from __future__ import annotations

import base64
import re
import binascii
from typing import Any, Callable

from sandbox.commands.jq.errors import JQError
from sandbox.commands.jq.values import decode_utf8, describe, dumps, format_number


def _tostring(v: Any) -> str:
    return v if type(v) is str else dumps(v)


def _html(v: Any) -> str:
    s = _tostring(v)
    return (
        s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&apos;").replace('"', "&quot;")
    )


_URI_SAFE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~")


def _uri(v: Any) -> str:
    s = _tostring(v)
    out = []
    for b in s.encode("utf-8", "surrogatepass"):
        out.append(chr(b) if b in _URI_SAFE else "%%%02X" % b)
    return "".join(out)


def _urid(v: Any) -> str:
    from urllib.parse import unquote_to_bytes

    s = _tostring(v)
    if re.search(r"%(?![0-9A-Fa-f]{2})", s):
        raise JQError(f"{describe(s)} is not a valid uri encoding")
    return unquote_to_bytes(s).decode("utf-8", "replace")


def _csv(v: Any) -> str:
    if type(v) is not list:
        raise JQError(f"{describe(v)} cannot be csv-formatted, only array")
    out = []
    for x in v:
        t = type(x)
        if t is int or t is float:
            out.append(format_number(x))
        elif t is str:
            out.append('"' + x.replace('"', '""') + '"')
        elif t is bool:
            out.append("true" if x else "false")
        elif x is None:
            out.append("")
        else:
            raise JQError(f"{describe(x)} is not valid in a csv row")
    return ",".join(out)


def _tsv(v: Any) -> str:
    if type(v) is not list:
        raise JQError(f"{describe(v)} cannot be tsv-formatted, only array")
    out = []
    for x in v:
        t = type(x)
        if t is int or t is float:
            out.append(format_number(x))
        elif t is str:
            out.append(x.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r"))
        elif t is bool:
            out.append("true" if x else "false")
        elif x is None:
            out.append("")
        else:
            # jq 1.8 src/builtin.c f_format: one message for both formats
            raise JQError(f"{describe(x)} is not valid in a csv row")
    return "\t".join(out)


def _sh_one(x: Any) -> str:
    t = type(x)
    if t is str:
        return "'" + x.replace("'", "'\\''") + "'"
    if t is list or t is dict:
        raise JQError(f"{describe(x)} can not be escaped for shell")
    return dumps(x)


def _sh(v: Any) -> str:
    if type(v) is list:
        return " ".join(_sh_one(x) for x in v)
    return _sh_one(v)


def _b64(v: Any) -> str:
    return base64.b64encode(_tostring(v).encode("utf-8", "surrogatepass")).decode("ascii")


_B64 = {c: i for i, c in enumerate(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}


def _b64d(v: Any) -> str:
    """jq 1.8 src/builtin.c ``f_format`` "base64d": the input is read up to its first ``=``;
    any byte outside the alphabet is "is not valid base64 data", one lone 6-bit group at the
    end "trailing base64 byte found"; 2 or 3 left-over groups give 1 or 2 bytes."""
    s = _tostring(v)
    data = s.encode("utf-8", "surrogatepass")
    end = data.find(b"=")
    if end == -1:
        end = len(data)
    out = bytearray()
    code = 0
    n = 0
    for c in data[:end]:
        d = _B64.get(c)
        if d is None:
            raise JQError(f"{describe(s)} is not valid base64 data")
        code = (code << 6) | d
        n += 1
        if n == 4:
            out += code.to_bytes(3, "big")
            code = n = 0
    if n == 3:
        out += (code >> 2).to_bytes(2, "big")
    elif n == 2:
        out.append(code >> 4)
    elif n == 1:
        raise JQError(f"{describe(s)} trailing base64 byte found")
    return decode_utf8(bytes(out))


def _b32(v: Any) -> str:
    return base64.b32encode(_tostring(v).encode("utf-8", "surrogatepass")).decode("ascii")


def _b32d(v: Any) -> str:
    s = _tostring(v)
    data = s.encode("utf-8", "surrogatepass").rstrip(b"=")
    pad = (-len(data)) % 8
    try:
        out = base64.b32decode(data + b"=" * pad)
    except (binascii.Error, ValueError):
        raise JQError(f"{describe(s)} is not valid base32 data")
    return out.decode("utf-8", "replace")


FORMATS: dict[str, Callable[[Any], str]] = {
    "text": _tostring,
    "json": lambda v: dumps(v),
    "html": _html,
    "uri": _uri,
    "urid": _urid,
    "csv": _csv,
    "tsv": _tsv,
    "sh": _sh,
    "base64": _b64,
    "base64d": _b64d,
    "base32": _b32,
    "base32d": _b32d,
}


def apply_format(name: str, v: Any) -> str:
    """Apply ``@name`` to ``v``."""
    fn = FORMATS.get(name)
    if fn is None:
        raise JQError(f"{name} is not a valid format")
    return fn(v)
