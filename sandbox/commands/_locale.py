"""The character type locale (``LC_CTYPE``) a command runs in, resolved from its environment
the way glibc's ``setlocale(LC_ALL, "")`` does.

``LC_ALL`` wins, then ``LC_CTYPE``, then ``LANG`` (empty values count as unset). A name whose
codeset is UTF-8 (``C.UTF-8``, ``C.utf8``, ``en_US.UTF-8``...) is a UTF-8 locale; ``C``,
``POSIX`` and anything else are single-byte: GNU tools then treat every byte as one character.
The sandbox's implicit locale is C.UTF-8 (what the script's environment stands for when it sets
none of the three variables); once one of them is present but all are empty, glibc falls back
to ``C``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Mapping
from typing import Any

from sandbox.regex import iter_matches

#: Where glibc looks, in order, for the LC_CTYPE category's locale.
_VARIABLES = ("LC_ALL", "LC_CTYPE", "LANG")


def ctype_locale(env: Mapping[str, str]) -> str:
    """The locale name the LC_CTYPE category of a program run with ``env`` gets."""
    for name in _VARIABLES:
        value = env.get(name)
        if value:
            return value
    return "C" if any(name in env for name in _VARIABLES) else "C.UTF-8"


def is_utf8_locale(name: str) -> bool:
    """Whether ``name`` (``lang_TERR.codeset@modifier``) names a UTF-8 locale."""
    _, dot, codeset = name.partition(".")
    if not dot:
        return False
    codeset = codeset.partition("@")[0]
    return "".join(c for c in codeset if c.isalnum()).lower() == "utf8"


def utf8_ctype(env: Mapping[str, str]) -> bool:
    """True if a program run with ``env`` reads multibyte UTF-8 characters; False if every byte
    is one character (the C/POSIX locale)."""
    return is_utf8_locale(ctype_locale(env))


# -- regular expressions in a single-byte locale ---------------------------------------------
#
# ``sandbox.regex`` matches UTF-8 characters. In the C locale glibc's regex (and gawk's, and
# PCRE2 without UTF) matches bytes: ``.`` is any byte, bytes above 0x7F are in no class and
# have no case. Both meet when every byte above 0x7F stands for a code point that has no
# property at all: ``widen`` maps byte B to U+40000+B (plane 4 is unassigned), so a pattern
# and a subject widened alike match as the C locale does, one "character" per byte.

_WIDE_BASE = 0x40000
_WIDEN = {b: _WIDE_BASE + b for b in range(0x80, 0x100)}
_WIDE_CHAR = re.compile(rb"\xf1\x80[\x82\x83][\x80-\xbf]")
#: The first byte of every stand-in's UTF-8 (and of no other character a widened text holds).
WIDE_LEAD = b"\xf1"


def stand_in(byte: int) -> int:
    """The code point standing for ``byte`` (above 0x7F) in widened text."""
    return _WIDE_BASE + byte


def widen(data: bytes) -> bytes:
    """``data`` with every byte above 0x7F replaced by its stand-in character (4 bytes)."""
    if data.isascii():
        return data
    return data.decode("latin-1").translate(_WIDEN).encode("utf-8")


def narrow(data: bytes) -> bytes:
    """The inverse of ``widen`` (other bytes are left alone)."""
    if WIDE_LEAD not in data:
        return data
    return _WIDE_CHAR.sub(lambda m: bytes(((m[0][2] & 3) << 6 | (m[0][3] & 0x3F),)), data)


def widen_text(text: str) -> str:
    """A pattern decoded with surrogateescape (raw bytes above 0x7F as U+DC80..U+DCFF) with
    those bytes as their stand-in characters."""
    return text.translate(_SURROGATE_TO_WIDE)


_SURROGATE_TO_WIDE = {0xDC00 + b: _WIDE_BASE + b for b in range(0x80, 0x100)}


def widen_ast(node):  # type: ignore[no-untyped-def]
    """A parsed regex (tuples of strings) with ``widen_text`` applied to every string."""
    if type(node) is str:
        return widen_text(node)
    if type(node) is tuple:
        return tuple(widen_ast(x) for x in node)
    if type(node) is list:
        return [widen_ast(x) for x in node]
    return node


def expand_byte_ranges(pattern: bytes) -> bytes:
    """A BRE/ERE with every bracket range that ends above 0x7F spelt out byte by byte (before
    ``widen``): the C locale collates bytes, while ``sandbox.regex`` refuses multibyte range
    ends as C.UTF-8 does (``[a-\\xff]`` becomes ``[a-\\x7f\\x80...\\xff]``)."""
    if pattern.isascii():
        return pattern
    out = bytearray()
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == 0x5C and i + 1 < n:  # an escaped character is never a bracket
            out += pattern[i:i + 2]
            i += 2
            continue
        if c != 0x5B:
            out.append(c)
            i += 1
            continue
        j = i + 1
        if j < n and pattern[j] == 0x5E:
            j += 1
        if j < n and pattern[j] == 0x5D:
            j += 1
        out += pattern[i:j]
        while j < n and pattern[j] != 0x5D:
            if pattern[j] == 0x5B and j + 1 < n and pattern[j + 1] in b":=.":
                end = pattern.find(bytes((pattern[j + 1], 0x5D)), j + 2)
                if end < 0:
                    break
                out += pattern[j:end + 2]
                j = end + 2
                continue
            lo = pattern[j]
            ranged = j + 2 < n and pattern[j + 1] == 0x2D and pattern[j + 2] not in b"]["
            if ranged and (lo >= 0x80 or pattern[j + 2] >= 0x80):
                hi = pattern[j + 2]
                if hi < lo:
                    out += b"b-a"  # still "Invalid range end"
                else:
                    if lo < 0x80:
                        out += bytes((lo, 0x2D, 0x7F))
                    out += bytes(range(max(lo, 0x80), hi + 1))
                j += 3
                continue
            out.append(lo)
            j += 1
        out += pattern[j:j + 1]
        i = j + 1
    return bytes(out)


class SingleByteRegex:
    """A ``sandbox.regex.Regex`` compiled from a widened pattern, searching bytes as the C
    locale does: subjects are widened on the way in and offsets narrowed on the way out."""

    def __init__(self, regex: Any):
        self.regex = regex
        self.groups: int = regex.groups
        self.warnings: list[str] = regex.warnings
        self._data: bytes | None = None
        self._wide = b""
        #: Offsets of the bytes above 0x7F in the last subject, and of their stand-ins in
        #: its widened form (both sorted): the maps between the two offsets.
        self._high: list[int] = []
        self._high_wide: list[int] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.regex, name)

    def with_budget(self, budget: Any) -> "SingleByteRegex":
        """The same regex bounded by another run's ``budget``."""
        return SingleByteRegex(self.regex.with_budget(budget))

    def _widened(self, data: bytes) -> bytes:
        if data is not self._data:
            self._data = data
            self._wide = widen(data)
            if self._wide is not data:
                self._high = [m.start() for m in _HIGH_BYTE.finditer(data)]
                self._high_wide = [p + 3 * i for i, p in enumerate(self._high)]
        return self._wide

    def _narrow_pos(self, pos: int) -> int:
        return pos - 3 * bisect_left(self._high_wide, pos)

    def _wide_pos(self, pos: int) -> int:
        return pos + 3 * bisect_left(self._high, pos)

    def _translate(self, data: bytes, m: Any) -> Any:
        from sandbox.regex import Match
        spans = []
        for g in range(self.groups + 1):
            s, e = m.span(g)
            if s >= 0:
                s, e = self._narrow_pos(s), self._narrow_pos(e)
            spans.append((s, e))
        return Match(data, spans)

    def search(self, data: bytes, pos: int = 0, endpos: int | None = None, *,
               not_bol: bool = False) -> Any:
        """``Regex.search`` over bytes in the C locale."""
        wide = self._widened(data)
        if wide is data:
            return self.regex.search(data, pos, endpos, not_bol=not_bol)
        m = self.regex.search(wide, self._wide_pos(max(pos, 0)),
                              None if endpos is None else self._wide_pos(endpos),
                              not_bol=not_bol)
        return None if m is None else self._translate(data, m)

    def match(self, data: bytes, pos: int = 0, endpos: int | None = None) -> Any:
        """``Regex.match`` over bytes in the C locale."""
        wide = self._widened(data)
        if wide is data:
            return self.regex.match(data, pos, endpos)
        m = self.regex.match(wide, self._wide_pos(max(pos, 0)),
                             None if endpos is None else self._wide_pos(endpos))
        return None if m is None else self._translate(data, m)

    def search_start(self, data: bytes, pos: int, endpos: int) -> int:
        """Start offset of the leftmost match in data[pos:endpos], or -1."""
        m = self.search(data, pos, endpos)
        return -1 if m is None else m.start()

    def finditer(self, data: bytes, pos: int = 0, endpos: int | None = None):  # type: ignore[no-untyped-def]
        """Successive non-overlapping matches (an empty match advances by one byte)."""
        return iter_matches(self.search, data, pos, endpos)

    def alternatives(self, limit: int = 4) -> None:
        """No split into branches (see ``Regex.alternatives``)."""
        return None


_HIGH_BYTE = re.compile(rb"[\x80-\xff]")
