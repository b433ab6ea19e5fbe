"""``sort``: sort lines of text (GNU coreutils 9.1 in the C.UTF-8 locale).

Options: ``-b -d -f -g -h -i -M -n -r -V`` (global or per key), ``-k KEYDEF`` (all forms
``F[.C][OPTS][,F[.C][OPTS]]``), ``-t SEP``, ``-s``, ``-u``, ``-o FILE``, ``-z``, ``-c``/``-C``,
``-m`` (merge already sorted inputs), ``-R`` (a keyed hash of each key: random order, equal keys
adjacent, as GNU), ``--sort=WORD``;
``-S``, ``-T``, ``--parallel``, ``--compress-program``, ``--random-source`` are accepted and
ignored (tuning knobs); ``--files0-from=F`` reads the NUL-terminated operands from ``F``;
``--debug`` is refused. Without ``-s``/``-u``, lines whose keys
compare equal fall back to comparing whole lines (GNU's last resort). In C.UTF-8 GNU sort
collates with ``strcoll``, which is code point (= UTF-8 byte) order, so we compare bytes.
``-f``, ``-d`` and ``-i`` use the locale's single-byte classes, which are ASCII only.

Unlike GNU, which spills to temporary files, the input is held in memory: the sandbox has no
scratch directory. Lines are split block by block while reading; past ``RUN_BYTES`` the sorted
lines so far are packed into one bytes object (a run) and the runs are merged at the end, so
only one run at a time costs a Python object and a key per line. ``-n``, ``-h`` and ``-V``
keys are computed once per line (``version_key`` orders as gnulib's filevercmp).
"""

from __future__ import annotations

import errno
import functools
import hashlib
import heapq
import itertools
import operator
import os
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from sandbox.commands._quoting import quote, quoteaf, quotef
from sandbox.commands._records import iter_blocks
from sandbox.commands._textutil import CHUNK, ArgmatchError, argmatch, open_operand
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, UsageError, parse, parse_command_line
from sandbox.commands.seq import round_long_double
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    short="bcCdfghik:mMno:rRsS:t:T:uVy:z",
    long={
        "ignore-leading-blanks": (NO_ARG, "b"),
        "check": (NO_ARG, "c"),
        "dictionary-order": (NO_ARG, "d"),
        "ignore-case": (NO_ARG, "f"),
        "general-numeric-sort": (NO_ARG, "g"),
        "human-numeric-sort": (NO_ARG, "h"),
        "ignore-nonprinting": (NO_ARG, "i"),
        "key": (REQUIRED, "k"),
        "merge": (NO_ARG, "m"),
        "month-sort": (NO_ARG, "M"),
        "numeric-sort": (NO_ARG, "n"),
        "output": (REQUIRED, "o"),
        "random-sort": (NO_ARG, "R"),
        "reverse": (NO_ARG, "r"),
        "stable": (NO_ARG, "s"),
        "buffer-size": (REQUIRED, "S"),
        "field-separator": (REQUIRED, "t"),
        "temporary-directory": (REQUIRED, "T"),
        "unique": (NO_ARG, "u"),
        "version-sort": (NO_ARG, "V"),
        "zero-terminated": (NO_ARG, "z"),
        "sort": (REQUIRED, "sort"),
        "parallel": (REQUIRED, "parallel"),
        "random-source": (REQUIRED, "random-source"),
        "compress-program": (REQUIRED, "compress-program"),
        "debug": (NO_ARG, "debug"),
        "files0-from": (REQUIRED, "files0-from"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

VERSION = """sort (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Mike Haertel and Paul Eggert."""

SORT_FAILURE = 2
_SIZE_MAX = (1 << 64) - 1
_BLANKS = b" \t\n"
_MONTHS = {m: i + 1 for i, m in enumerate(
    [b"JAN", b"FEB", b"MAR", b"APR", b"MAY", b"JUN", b"JUL", b"AUG", b"SEP", b"OCT", b"NOV", b"DEC"])}
_UNIT_ORDER = {ord(c): i + 1 for i, c in enumerate("KMGTPEZY")} | {ord("k"): 1}
_NUM_RE = re.compile(rb"[ \t\n]*(-?)(\d*)(?:\.(\d*))?")
_HUMAN_RE = re.compile(rb"[ \t\n]*(-?)(\d*)(?:\.(\d*))?(.?)", re.S)
_GENERAL_RE = re.compile(
    rb"[ \t\n\v\f\r]*([+-]?)(?:(0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?\d+)?)"
    rb"|((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)|(inf(?:inity)?)|(nan(?:\([0-9A-Za-z_]*\))?))",
    re.I,
)
_NONDICT = bytes(c for c in range(256) if not (chr(c).isascii() and chr(c).isalnum()) and c not in _BLANKS)
_NONPRINT = bytes(c for c in range(256) if not 32 <= c < 127)
_FOLD = bytes.maketrans(b"abcdefghijklmnopqrstuvwxyz", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")


class SortError(Exception):
    """A fatal error; ``str()`` is the message, ``usage`` adds the Try line."""

    def __init__(self, message: str, usage: bool = False, status: int = SORT_FAILURE):
        super().__init__(message)
        self.usage = usage
        self.status = status


@dataclass
class Key:
    """One KEYDEF: 0-based start field/char, end field/char (echar 0 = end of field), options."""

    sword: int = 0
    schar: int = 0
    eword: int | None = None  # None: end of line
    echar: int = 0
    skip_start_blanks: bool = False
    skip_end_blanks: bool = False
    ignore: bytes | None = None
    ignore_kind: str = ""
    fold: bool = False
    numeric: bool = False
    general: bool = False
    human: bool = False
    month: bool = False
    version: bool = False
    random: bool = False
    reverse: bool = False

    def default_compare(self) -> bool:
        """GNU's default_key_compare: no ordering option (reverse not counted)."""
        return not (self.ignore is not None or self.fold or self.skip_start_blanks or self.skip_end_blanks
                    or self.numeric or self.general or self.human or self.month or self.version or self.random)

    def inherit(self, g: "Key") -> None:
        """Copy the global ordering options into this key."""
        for name in ("ignore", "ignore_kind", "fold", "skip_start_blanks", "skip_end_blanks", "numeric",
                     "general", "human", "month", "version", "random", "reverse"):
            setattr(self, name, getattr(g, name))

    def opts_text(self) -> str:
        """GNU's key_to_opts (for the incompatible options message)."""
        out = ""
        if self.skip_start_blanks or self.skip_end_blanks:
            out += "b"
        if self.ignore_kind == "d":
            out += "d"
        if self.fold:
            out += "f"
        if self.general:
            out += "g"
        if self.human:
            out += "h"
        if self.ignore_kind == "i":
            out += "i"
        if self.month:
            out += "M"
        if self.numeric:
            out += "n"
        if self.random:
            out += "R"
        if self.reverse:
            out += "r"
        if self.version:
            out += "V"
        return out



HELP = '''Usage: sort [OPTION]... [FILE]...
Write sorted concatenation of all FILE(s) to standard output.

  -b, --ignore-leading-blanks  ignore leading blanks
  -d, --dictionary-order      consider only blanks and alphanumeric characters
  -f, --ignore-case           fold lower case to upper case characters
  -g, --general-numeric-sort  compare according to general numerical value
  -i, --ignore-nonprinting    consider only printable characters
  -M, --month-sort            compare (unknown) < 'JAN' < ... < 'DEC'
  -h, --human-numeric-sort    compare human readable numbers (e.g., 2K 1G)
  -n, --numeric-sort          compare according to string numerical value
  -r, --reverse               reverse the result of comparisons
  -V, --version-sort          natural sort of (version) numbers within text
  -c, --check, -C             check for sorted input; do not sort
  -k, --key=KEYDEF            sort via a key; KEYDEF gives location and type
  -m, --merge                 merge already sorted files; do not sort
  -o, --output=FILE           write result to FILE instead of standard output
  -s, --stable                stabilize sort by disabling last-resort comparison
  -t, --field-separator=SEP   use SEP instead of non-blank to blank transition
  -u, --unique                output only the first of an equal run
  -z, --zero-terminated       line delimiter is NUL, not newline

KEYDEF is F[.C][OPTS][,F[.C][OPTS]] for start and stop position.
'''

def set_ordering(key: Key, text: str, start: bool) -> str:
    """Apply ordering letters at the front of ``text``; return the rest."""
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "b":
            if start:
                key.skip_start_blanks = True
            else:
                key.skip_end_blanks = True
        elif ch == "d":
            key.ignore, key.ignore_kind = _NONDICT, "d"
        elif ch == "i":
            if key.ignore is None:
                key.ignore, key.ignore_kind = _NONPRINT, "i"
        elif ch == "f":
            key.fold = True
        elif ch == "g":
            key.general = True
        elif ch == "h":
            key.human = True
        elif ch == "M":
            key.month = True
        elif ch == "n":
            key.numeric = True
        elif ch == "R":
            key.random = True
        elif ch == "r":
            key.reverse = True
        elif ch == "V":
            key.version = True
        else:
            break
        i += 1
    return text[i:]


def _field_count(text: str, what: str, spec: str) -> tuple[int, str]:
    match = re.match(r"\d+", text)
    if not match:
        raise SortError(f"{what}: invalid count at start of {quote(text)}")
    digits = match.group().lstrip("0") or "0"
    return (_SIZE_MAX if len(digits) > 20 else min(int(digits), _SIZE_MAX)), text[match.end():]


def parse_key(spec: str) -> Key:
    """Parse a ``-k`` KEYDEF the way GNU does (same messages)."""
    key = Key()

    def bad(msg: str) -> SortError:
        return SortError(f"{msg}: invalid field specification {quote(spec)}")

    value, rest = _field_count(spec, "invalid number at field start", spec)
    if value == 0:
        raise bad("field number is zero")
    key.sword = value - 1
    if rest.startswith("."):
        value, rest = _field_count(rest[1:], "invalid number after '.'", spec)
        if value == 0:
            raise bad("character offset is zero")
        key.schar = value - 1
    rest = set_ordering(key, rest, True)
    if not rest.startswith(","):
        key.eword = None
        key.echar = 0
    else:
        value, rest = _field_count(rest[1:], "invalid number after ','", spec)
        if value == 0:
            raise bad("field number is zero")
        key.eword = value - 1
        if rest.startswith("."):
            key.echar, rest = _field_count(rest[1:], "invalid number after '.'", spec)
        rest = set_ordering(key, rest, False)
    if rest:
        raise bad("stray character in field spec")
    return key


# -- key extraction --------------------------------------------------------------------------


def _skip_fields(line: bytes, count: int, tab: int | None, end_mode: bool, echar: int) -> int:
    pos = 0
    lim = len(line)
    remaining = count
    while pos < lim and remaining > 0:
        remaining -= 1
        if tab is not None:
            nxt = line.find(bytes([tab]), pos)
            pos = lim if nxt < 0 else nxt
            if pos < lim and (not end_mode or remaining or echar):
                pos += 1
        else:
            while pos < lim and line[pos] in _BLANKS:
                pos += 1
            while pos < lim and line[pos] not in _BLANKS:
                pos += 1
    return pos


def key_text(line: bytes, key: Key, tab: int | None) -> bytes:
    """The bytes of ``key`` in ``line`` (GNU's begfield/limfield)."""
    return KeyExtractor(key, tab)(line)


class KeyExtractor:
    """GNU's begfield/limfield for one key, with the field skipping done by compiled regular
    expressions (one C-level match per line instead of a Python loop over bytes)."""

    _MAX_REGEX_FIELDS = 1000

    def __init__(self, key: Key, tab: int | None):
        self.key = key
        self.tab = tab
        self.begin = self._skipper(key.sword, False)
        if key.eword is None:
            self.end = None
        else:
            eword = key.eword + (1 if key.echar == 0 else 0)
            self.end = self._skipper(eword, True)

    def _skipper(self, count: int, end_mode: bool) -> Callable[[bytes], int]:
        """A function giving the offset after skipping ``count`` fields (GNU's loops)."""
        key, tab = self.key, self.tab
        if count == 0:
            return lambda line: 0
        if count > self._MAX_REGEX_FIELDS:
            return lambda line: _skip_fields(line, count, tab, end_mode, key.echar)
        if tab is None:
            pattern = re.compile(rb"(?:[ \t\n]*[^ \t\n]*){%d}" % count)
            return lambda line: pattern.match(line).end()  # type: ignore[union-attr]
        t = re.escape(bytes([tab]))
        if end_mode and key.echar == 0:
            pattern = re.compile(rb"(?:[^%s]*%s){%d}[^%s]*" % (t, t, count - 1, t), re.S)
        else:
            pattern = re.compile(rb"(?:[^%s]*%s){%d}" % (t, t, count), re.S)

        def skip(line: bytes) -> int:
            match = pattern.match(line)
            return match.end() if match else len(line)

        return skip

    def __call__(self, line: bytes) -> bytes:
        key = self.key
        lim = len(line)
        beg = self.begin(line)
        if key.skip_start_blanks:
            while beg < lim and line[beg] in _BLANKS:
                beg += 1
        beg = min(lim, beg + key.schar)
        if self.end is None:
            end = lim
        else:
            end = self.end(line)
            if key.echar:
                if key.skip_end_blanks:
                    while end < lim and line[end] in _BLANKS:
                        end += 1
                end = min(lim, end + key.echar)
        return line[beg:end] if end > beg else b""


# -- per-key comparable values -----------------------------------------------------------------


_DIGIT_COMPLEMENT = bytes.maketrans(b"0123456789", b"9876543210")
_ZERO_KEY: tuple = (0,)


def _number_key(sign: bytes, whole: bytes, frac: bytes | None) -> tuple:
    """An exact, fast sort key for a decimal number written as sign, digits, fraction.

    Positive numbers order by (digit count, digits, fraction); negative ones by the same
    with the order reversed (digit complements, and a terminator above every digit so a
    shorter fraction sorts after its extensions). No Decimal is built.
    """
    whole = whole.lstrip(b"0")
    frac = (frac or b"").rstrip(b"0")
    if not whole and not frac:
        return _ZERO_KEY
    if not sign:
        return (1, len(whole), whole, frac)
    return (-1, -len(whole), whole.translate(_DIGIT_COMPLEMENT), frac.translate(_DIGIT_COMPLEMENT) + b"\xff")


#: Bytes a number (or the blanks before it) can start with: any other first byte means 0.
_NUMBER_START = frozenset(b" \t\n-.0123456789")


def numeric_value(text: bytes) -> tuple:
    """``-n``: the leading number (blanks, optional ``-``, digits, ``.`` fraction), else 0."""
    if not text or text[0] not in _NUMBER_START:
        return _ZERO_KEY
    match = _NUM_RE.match(text)
    assert match is not None
    return _number_key(*match.groups())


def human_value(text: bytes) -> tuple[int, tuple]:
    """``-h``: (signed unit order, number)."""
    if not text or text[0] not in _NUMBER_START:
        return 0, _ZERO_KEY
    match = _HUMAN_RE.match(text)
    assert match is not None
    sign, whole, frac, unit = match.groups()
    number = _number_key(sign, whole, frac)
    order = 0
    if unit and number is not _ZERO_KEY:  # a unit counts for a nonzero number only
        order = _UNIT_ORDER.get(unit[0], 0)
        if sign:
            order = -order
    return order, number


def general_value(text: bytes) -> tuple[int, Any]:
    """``-g``: conversion errors first, then NaNs, then numbers in order (-0 == +0)."""
    match = _GENERAL_RE.match(text)
    if not match:
        return (0, 0)
    sign, hexnum, decnum, inf, nan = match.groups()
    if nan:
        return (1, 0)
    negative = sign == b"-"
    if inf:
        return (2, float("-inf") if negative else float("inf"))
    from fractions import Fraction

    if hexnum:
        body = hexnum[2:].lower()
        mant, _, exp = body.partition(b"p")
        whole, _, frac = mant.partition(b".")
        value = Fraction(int((whole + frac).decode() or "0", 16), 16 ** len(frac)) * Fraction(2) ** int(exp or b"0")
    else:
        value = Fraction(decnum.decode())
    if value > Fraction(10) ** 4932:
        return (2, float("-inf") if negative else float("inf"))
    value = round_long_double(value)
    return (2, -value if negative else value)


def month_value(text: bytes) -> int:
    """``-M``: 1..12 for JAN..DEC after leading blanks (case-insensitive), else 0."""
    stripped = text.lstrip(_BLANKS)
    return _MONTHS.get(stripped[:3].upper(), 0)


def _order(s: bytes, pos: int) -> int:
    if pos == len(s):
        return -1
    c = s[pos]
    if 48 <= c <= 57:
        return 0
    if 65 <= c <= 90 or 97 <= c <= 122:
        return c
    if c == 126:
        return -2
    return c + 256


def _verrevcmp(s1: bytes, s2: bytes) -> int:
    p1 = p2 = 0
    n1, n2 = len(s1), len(s2)
    while p1 < n1 or p2 < n2:
        first_diff = 0
        while (p1 < n1 and not 48 <= s1[p1] <= 57) or (p2 < n2 and not 48 <= s2[p2] <= 57):
            c1 = _order(s1, p1)
            c2 = _order(s2, p2)
            if c1 != c2:
                return c1 - c2
            p1 += 1
            p2 += 1
        while p1 < n1 and s1[p1] == 48:
            p1 += 1
        while p2 < n2 and s2[p2] == 48:
            p2 += 1
        while p1 < n1 and p2 < n2 and 48 <= s1[p1] <= 57 and 48 <= s2[p2] <= 57:
            if not first_diff:
                first_diff = s1[p1] - s2[p2]
            p1 += 1
            p2 += 1
        if p1 < n1 and 48 <= s1[p1] <= 57:
            return 1
        if p2 < n2 and 48 <= s2[p2] <= 57:
            return -1
        if first_diff:
            return first_diff
    return 0


_SUFFIX_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789~")
_SUFFIX_FIRST = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz~")


def _prefix_len(s: bytes) -> int:
    """Length of ``s`` without its file suffix, the longest match of
    ``(\\.[A-Za-z~][A-Za-z0-9~]*)*$`` (which may be all of a hidden name, as GNU sort -V and
    ls -v have it: ``.gz`` sorts before ``.111``). Found right to left: each component is the
    maximal run of suffix characters before the current start, preceded by a dot."""
    p = len(s)
    while p > 0:
        r = p
        while r > 0 and s[r - 1] in _SUFFIX_CHARS:
            r -= 1
        if r == p or r == 0 or s[r - 1] != 46 or s[r] not in _SUFFIX_FIRST:
            return p
        p = r - 1
    return p


def filevercmp(a: bytes, b: bytes) -> int:
    """gnulib's ``filevercmp`` (``sort -V``, ``ls -v``)."""
    if not a:
        return -1 if b else 0
    if not b:
        return 1
    if a[:1] == b".":
        if b[:1] != b".":
            return -1
        if a == b".":
            return 0 if b == b"." else -1
        if b == b".":
            return 1
        if a == b"..":
            return 0 if b == b".." else -1
        if b == b"..":
            return 1
    elif b[:1] == b".":
        return 1
    pa, pb = _prefix_len(a), _prefix_len(b)
    result = _verrevcmp(a[:pa], b[:pb])
    if result or (pa == len(a) and pb == len(b)):
        return result
    return _verrevcmp(a, b)


_VersionKey = functools.cmp_to_key(filevercmp)

def _version_table() -> bytes:
    """Bytes that sort as ``_order`` does for non-digits: ``~`` (0), then the end of a
    non-digit part (1, not in the table), then letters, then every other byte."""
    ranks = [0] * 256
    others = [c for c in range(256) if not 48 <= c <= 57]
    letters = [c for c in others if 65 <= c <= 90 or 97 <= c <= 122]
    rest = [c for c in others if c not in letters and c != 126]
    for rank, c in enumerate(letters + rest, start=2):
        ranks[c] = rank
    return bytes(ranks)


_VERSION_TABLE = _version_table()
_DIGIT_RUNS = re.compile(rb"(\d+)")


def _verrev_key(s: bytes) -> bytes:
    """A key whose byte order is ``_verrevcmp``'s. For each non-digit part: its bytes ranked
    as ``_order`` ranks them, then 1 (where the comparison loop meets a digit or the end:
    both sort above ``~`` and below every other byte, and two parts that end together are not
    told apart); then its digit part: the length of the digits without leading zeros (eight
    bytes) and those digits. A final 1 (an empty part) stands for the end of the string.
    Two keys that agree up to a point are at the same place of that structure, so digits
    are only ever compared with digits."""
    parts = _DIGIT_RUNS.split(s)
    if len(parts) > 1 and not parts[-1]:
        parts.pop()  # the string ends with digits
    else:
        parts.append(b"")
    out = []
    table = _VERSION_TABLE
    for k in range(0, len(parts), 2):
        digits = parts[k + 1].lstrip(b"0")
        out.append(parts[k].translate(table))
        out.append(b"\x01")
        out.append(len(digits).to_bytes(8, "big"))
        out.append(digits)
    out.append(b"\x01")
    return b"".join(out)


def version_key(s: bytes) -> tuple:
    """A key whose tuple order is ``filevercmp``'s, computed once per line (``sort -V``)."""
    if not s:
        return (0,)
    if s[:1] == b".":
        if s == b".":
            return (1,)
        if s == b"..":
            return (2,)
        rank = 3
    else:
        rank = 4
    prefix = _prefix_len(s)
    if prefix == len(s):
        whole = _verrev_key(s)
        return (rank, whole, whole)
    return (rank, _verrev_key(s[:prefix]), _verrev_key(s))


class Reversed:
    """Wraps a comparable value so that it sorts in the opposite order."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value

    def __lt__(self, other: "Reversed") -> bool:
        return other.value < self.value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reversed) and self.value == other.value

    def __hash__(self) -> int:  # pragma: no cover - not hashed, defined for completeness
        return hash(self.value)


def _key_value(key: Key) -> Callable[[bytes], Any]:
    """A function mapping key text to a comparable value for ``key``."""
    ignore, fold = key.ignore, key.fold

    def prepared(text: bytes) -> bytes:
        if ignore is not None:
            text = text.translate(None, ignore)
        if fold:
            text = text.translate(_FOLD)
        return text

    plain = ignore is None and not fold
    if plain and (key.numeric or key.human or key.version):
        return numeric_value if key.numeric else human_value if key.human else version_key
    if key.numeric:
        return lambda t: numeric_value(prepared(t))
    if key.general:
        return lambda t: general_value(prepared(t))
    if key.human:
        return lambda t: human_value(prepared(t))
    if key.month:
        return lambda t: month_value(prepared(t))
    if key.version:
        return lambda t: version_key(prepared(t))
    if key.random:
        salt = os.urandom(16)
        return lambda t: hashlib.blake2b(prepared(t), key=salt, digest_size=16).digest()
    if ignore is None and not fold:
        return lambda t: t
    return prepared


def build_sort_key(keys: list[Key], tab: int | None, last_resort: bool,
                   reverse: bool) -> Callable[[bytes], Any]:
    """The sort key of a line: per-key values, then (unless -s/-u) the whole line."""
    parts = []
    for key in keys:
        value_of = _key_value(key)
        whole_line = key.sword == 0 and key.schar == 0 and key.eword is None and not key.skip_start_blanks
        parts.append((key, value_of, whole_line, KeyExtractor(key, tab)))

    if len(parts) == 1 and not parts[0][0].reverse and not (last_resort and reverse):
        # One key (the common -n, -h, -V, -k2,2n): a tuple, no per-line loop.
        _, value_of, whole_line, extract = parts[0]
        if whole_line:
            if last_resort:
                return lambda line: (value_of(line), line)
            return lambda line: (value_of(line),)
        if last_resort:
            return lambda line: (value_of(extract(line)), line)
        return lambda line: (value_of(extract(line)),)

    def sort_key(line: bytes) -> Any:
        values: list[Any] = []
        for key, value_of, whole_line, extract in parts:
            value = value_of(line if whole_line else extract(line))
            values.append(Reversed(value) if key.reverse else value)
        if last_resort:
            values.append(Reversed(line) if reverse else line)
        return values

    return sort_key


# -- the command --------------------------------------------------------------------------------


def writes(args: list[str]) -> list[str]:
    """The ``-o`` output file, if any."""
    try:
        opts, _ = parse(SPEC, args)
    except UsageError:
        return []
    return [value for key, value in opts if key == "o" and value]


def run(ctx: CommandContext) -> int:
    """Sort the lines of the inputs."""
    parsed = parse_command_line(ctx, SPEC, HELP, version=VERSION, early_help=True,
                                usage_status=SORT_FAILURE)
    if isinstance(parsed, int):
        return parsed
    try:
        return _run(ctx, *parsed)
    except SortError as err:
        if err.status == -1:  # the message is written: only GNU's usage() line remains
            ctx.stderr.write(b"Try 'sort --help' for more information.\n")
            return SORT_FAILURE
        if err.usage:
            return ctx.usage_error(str(err), err.status)
        ctx.error(str(err))
        return err.status


def _names_from(ctx: CommandContext, source: str, operands: list[str]) -> list[str]:
    """``--files0-from=F``: the NUL-terminated names in ``F`` (``-``: stdin), checked all
    before any is read, as GNU's main() does."""
    if operands:
        ctx.stderr.write(f"sort: extra operand {quoteaf(operands[0])}\n"
                         "file operands cannot be combined with --files0-from\n".encode("utf-8", "surrogateescape"))
        raise SortError("", usage=False, status=-1)  # (the Try line follows)
    try:
        if source == "-":
            data = ctx.stdin.read()
        else:
            if ctx.stat(source).is_dir:
                raise SortError(f"cannot read file names from {quoteaf(source)}")
            data = ctx.read_bytes(source)
    except FSError as e:
        raise SortError(f"open failed: {quotef(source)}: {e}") from None
    names = data.split(b"\0")
    if names and names[-1] == b"":
        names.pop()
    if not names:
        raise SortError(f"no input from {quoteaf(source)}")
    for i, raw in enumerate(names, 1):
        if raw == b"-":
            raise SortError("when reading file names from stdin, no file name of "
                            f"{quoteaf('-')} allowed")
        if not raw:
            raise SortError(f"{quotef(source)}:{i}: invalid zero-length file name")
    return [n.decode("utf-8", "surrogateescape") for n in names]


def _run(ctx: CommandContext, opts: list[tuple[str, str | None]], operands: list[str]) -> int:
    gkey = Key(eword=None)
    keys: list[Key] = []
    tab: int | None = None
    unique = stable = zero = merge = False
    check: str | None = None
    output: str | None = None
    files_from: str | None = None
    for name, value in opts:
        value = value or ""
        if name in "bdfghiMnRrV" and len(name) == 1:
            set_ordering(gkey, name, True)
            if name == "b":
                gkey.skip_end_blanks = True
        elif name == "sort":
            try:
                word = argmatch("--sort", value, ["general-numeric", "human-numeric", "month", "numeric",
                                                   "random", "version"])
            except ArgmatchError as err:
                raise SortError(str(err), usage=True, status=1) from None
            set_ordering(gkey, {"general-numeric": "g", "human-numeric": "h", "month": "M",
                                "numeric": "n", "random": "R", "version": "V"}[word], True)
        elif name == "k":
            keys.append(parse_key(value))
        elif name == "t":
            raw = value.encode("utf-8", "surrogateescape")
            if not raw:
                raise SortError("empty tab")
            if len(raw) > 1:
                if raw == b"\\0":
                    raw = b"\0"
                else:
                    raise SortError(f"multi-character tab {quote(value)}")
            if tab is not None and tab != raw[0]:
                raise SortError("incompatible tabs")
            tab = raw[0]
        elif name == "u":
            unique = True
        elif name == "s":
            stable = True
        elif name == "z":
            zero = True
        elif name == "m":
            merge = True
        elif name in ("c", "C"):
            if check is not None and check != name:
                raise SortError("options '-cC' are incompatible")
            check = name
        elif name == "files0-from":
            files_from = value or ""
        elif name == "debug":
            raise SortError("--debug is not supported in the sandbox")
        elif name == "o":
            if output is not None and output != value:
                raise SortError("multiple output files specified")
            output = value
    if check is not None and output is not None:
        raise SortError(f"options '-{check}o' are incompatible")
    for key in keys:
        if key.default_compare() and not key.reverse:
            key.inherit(gkey)
    if not keys and not gkey.default_compare():
        keys = [gkey]
    for key in keys:
        kinds = key.numeric + key.general + key.human + key.month + (key.version or key.random or key.ignore is not None)
        if kinds > 1:
            probe = Key(**{**key.__dict__})
            probe.skip_start_blanks = probe.skip_end_blanks = probe.reverse = False
            raise SortError(f"options '-{probe.opts_text()}' are incompatible")
    if files_from is not None:
        operands = _names_from(ctx, files_from, operands)
    if check is not None and len(operands) > 1:
        raise SortError(f"extra operand {quoteaf(operands[1])} not allowed with -{check}")
    eol = b"\0" if zero else b"\n"
    last_resort = not (stable or unique)
    sort_key = build_sort_key(keys, tab, last_resort or not keys, gkey.reverse)
    compare_key = build_sort_key(keys, tab, False, gkey.reverse) if keys else (lambda line: line)
    if check is not None:
        return _check(ctx, operands[0] if operands else "-", eol, sort_key, compare_key, unique,
                      quiet=check == "C", keys_given=bool(keys))
    field_fast = (len(keys) == 1 and tab is not None and _plain_field(keys[0])
                  and (keys[0].reverse == gkey.reverse or not last_resort))
    if merge:
        inputs = [_read_lines(ctx, operand, eol) for operand in operands or ["-"]]
        ctx.budget.check_time()
        lines: Iterable[bytes] = heapq.merge(*inputs, key=sort_key)
    else:

        def sort_run(run: list[bytes]) -> list[bytes]:
            ctx.budget.check_time()
            if not keys:
                run.sort(reverse=gkey.reverse)
                return run
            if field_fast:
                return _sort_by_field(run, keys[0], tab, last_resort)  # type: ignore[arg-type]
            run.sort(key=sort_key)
            return run

        runs: list[bytes] = []
        current: list[bytes] = []
        size = 0
        for operand in operands or ["-"]:
            for batch in _line_batches(ctx, operand, eol):
                current.extend(batch)
                size += sum(map(len, batch)) + _LINE_OVERHEAD * len(batch)
                if size > RUN_BYTES:
                    runs.append(_pack(sort_run(current), eol))
                    current = []
                    size = 0
        if not runs:
            lines = sort_run(current)
        else:
            if current:
                runs.append(_pack(sort_run(current), eol))
            del current
            lines = _merge_runs(runs, eol, keys, field_fast, tab, last_resort, gkey.reverse,
                                sort_key)
    if unique:
        lines = _unique(lines, compare_key)
    # In slices, so the output is never a second copy of the whole input in memory.
    pieces = _output_pieces(lines, eol)
    if output is not None:
        data = b"".join(pieces)
        try:
            ctx.write_bytes(output, data)
        except FSError as err:
            raise SortError(f"open failed: {quotef(output)}: {err}") from None
    else:
        for piece in pieces:
            ctx.stdout.write(piece)
    return 0


#: Above this many bytes of lines (plus ``_LINE_OVERHEAD`` a line for the Python objects) the
#: sorted lines are packed into one bytes object per run and the runs are merged at the end:
#: the sandbox has no scratch directory to spill runs to, so they stay in memory, but as
#: compact bytes instead of one Python object (and one key) per line.
RUN_BYTES = 128 << 20
_LINE_OVERHEAD = 48
#: Bytes of a packed run split into lines at a time while merging.
_RUN_SLICE = 1 << 16


def _pack(run: list[bytes], eol: bytes) -> bytes:
    """A sorted run as one bytes object (every line followed by ``eol``)."""
    run.append(b"")
    data = eol.join(run)
    run.clear()
    return data


def _iter_run(data: bytes, eol: bytes) -> Iterator[bytes]:
    """The lines of a packed run, split a slice at a time."""
    n = len(data)
    p = 0
    while p < n:
        cut = data.find(eol, min(p + _RUN_SLICE, n - 1))
        yield from data[p:cut].split(eol)
        p = cut + 1


def _merge_runs(runs: list[bytes], eol: bytes, keys: list[Key], field_fast: bool,
                tab: int | None, last_resort: bool, reverse: bool,
                sort_key: Callable[[bytes], Any]) -> Iterator[bytes]:
    """The lines of the sorted runs in the order one sort of all of them gives (ties keep
    the input order: heapq.merge is stable across its inputs)."""
    its = [_iter_run(data, eol) for data in runs]
    if not keys:
        return heapq.merge(*its, reverse=reverse)
    if field_fast:
        key = keys[0]
        sep = bytes([tab])  # type: ignore[list-item]
        n = key.sword + (1 if key.eword is not None else 0)
        index = key.sword

        def field(line: bytes) -> bytes:
            if n == 0:
                return line
            parts = line.split(sep, n)
            return parts[index] if len(parts) > index else b""

        if last_resort:
            return heapq.merge(*its, key=lambda line: (field(line), line), reverse=key.reverse)
        return heapq.merge(*its, key=field, reverse=key.reverse)
    return heapq.merge(*its, key=sort_key)


def _output_pieces(lines: Iterable[bytes], eol: bytes) -> Iterator[bytes]:
    """The output in pieces of 8192 lines."""
    if isinstance(lines, list):
        step = 8192
        for k in range(0, len(lines), step):
            yield eol.join(lines[k : k + step]) + eol
        return
    it = iter(lines)
    while True:
        chunk = list(itertools.islice(it, 8192))
        if not chunk:
            return
        chunk.append(b"")
        yield eol.join(chunk)


def _plain_field(key: Key) -> bool:
    """``-kN,N`` or ``-kN`` with a separator and no ordering option: the key is the bytes of
    field N (to the end of the line without an end field), compared as bytes."""
    return (key.default_compare() and key.schar == 0 and key.echar == 0
            and (key.eword is None or key.eword == key.sword))


def _sort_by_field(lines: list[bytes], key: Key, tab: int, last_resort: bool) -> list[bytes]:
    """Sort on one plain field with ``bytes.split`` (C) instead of the general extractor;
    the same order as ``build_sort_key``: the field, then (unless -s/-u) the whole line.
    ``lines`` may be emptied."""
    sep = bytes([tab])
    n = key.sword + (1 if key.eword is not None else 0)  # pieces to split off
    index = key.sword

    def fields_of(part: list[bytes]) -> list[bytes]:
        if n == 0:
            return part  # -k1 without an end: the whole line
        return [p[index] if len(p) > index else b""
                for p in map(bytes.split, part, itertools.repeat(sep), itertools.repeat(n))]

    step = 1 << 16
    if last_resort and not any(map(operator.contains, lines, itertools.repeat(b"\0"))):
        # Without NUL bytes, "field NUL line" orders as (field, line) (a field that is a
        # prefix of another meets NUL, below any byte of the other), and bytes sort fast.
        # Built and decoded a slice at a time, each slice's lines freed as their keys are
        # made: the lines are never held twice.
        keys: list[bytes] = []
        for k in range(0, len(lines), step):
            part = lines[k : k + step]
            keys.extend(map(b"\0".join, zip(fields_of(part), part)))
            lines[k : k + step] = itertools.repeat(None, len(part))  # type: ignore[list-item]
            del part
        lines.clear()
        keys.sort(reverse=key.reverse)
        for k in range(0, len(keys), step):
            keys[k : k + step] = [key_line.partition(b"\0")[2] for key_line in keys[k : k + step]]
        return keys
    fields = fields_of(lines)
    if last_resort:
        pairs = list(zip(fields, lines))
        pairs.sort(reverse=key.reverse)
        return [line for _, line in pairs]
    order = sorted(range(len(lines)), key=fields.__getitem__, reverse=key.reverse)
    return [lines[i] for i in order]


def _read_lines(ctx: CommandContext, operand: str, eol: bytes) -> list[bytes]:
    lines: list[bytes] = []
    for batch in _line_batches(ctx, operand, eol):
        lines.extend(batch)
    return lines


def _line_batches(ctx: CommandContext, operand: str, eol: bytes) -> Iterator[list[bytes]]:
    """The lines of one operand, a block at a time (split block by block: the input is
    never held twice, as one buffer and as lines)."""
    try:
        stream = open_operand(ctx, operand)
    except FSError as err:
        what = "read failed" if err.errno == errno.EISDIR else "cannot read"
        raise SortError(f"{what}: {quotef(operand)}: {err}") from None
    rest = b""
    with stream:
        try:
            for block in iter_blocks(stream, ctx.budget, CHUNK):
                parts = (rest + block if rest else block).split(eol)
                rest = parts.pop()
                yield parts
        except FSError as err:
            raise SortError(f"read failed: {quotef(operand)}: {err}") from None
    if rest:
        yield [rest]


def _unique(lines: Iterable[bytes], compare_key: Callable[[bytes], Any]) -> list[bytes]:
    out: list[bytes] = []
    previous: Any = None
    for line in lines:
        value = compare_key(line)
        if out and value == previous:
            continue
        out.append(line)
        previous = value
    return out


def _check(ctx: CommandContext, operand: str, eol: bytes, sort_key: Callable[[bytes], Any],
           compare_key: Callable[[bytes], Any], unique: bool, quiet: bool, keys_given: bool) -> int:
    lines = _read_lines(ctx, operand, eol)
    previous: Any = None
    for number, line in enumerate(lines, 1):
        value = sort_key(line)
        if number > 1:
            bad = value < previous or (unique and compare_key(line) == compare_key(lines[number - 2]))
            if bad:
                if not quiet:
                    shown = line.decode("utf-8", "surrogateescape")
                    ctx.stdout.flush()
                    ctx.stderr.write(
                        f"{ctx.prog}: {operand}:{number}: disorder: {shown}\n".encode("utf-8", "surrogateescape")
                    )
                return 1
        previous = value
    return 0
