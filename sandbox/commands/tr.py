"""``tr``: translate, delete or squeeze bytes (GNU coreutils 9.1; GNU tr works on bytes).

``tr [-c|-C] [-d] [-s] [-t] SET1 [SET2]``. Sets take escapes (``\\n \\t \\\\ \\NNN`` ...),
ranges ``a-z``, classes ``[:alpha:]`` ..., ``[=c=]``, repeats ``[c*n]`` / ``[c*]`` and GNU's
rules and messages for all of them (misaligned case classes, SET2 padding with its last
character, ``-t``, complements). Input is streamed and translated with ``bytes.translate``;
squeezing uses one regular expression per chunk.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import BinaryIO, Callable

from sandbox.commands._quoting import quote
from sandbox.commands._records import iter_blocks
from sandbox.commands._textutil import CHUNK
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_command_line
from sandbox.errors import LimitExceeded
from sandbox.fs.base import FSError

#: What ``--version`` prints (GNU's text).
VERSION = """tr (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Jim Meyering."""

SPEC = OptionSpec(
    short="cCdst",
    long={
        "version": (NO_ARG, "version"),
        "complement": (NO_ARG, "c"),
        "delete": (NO_ARG, "d"),
        "squeeze-repeats": (NO_ARG, "s"),
        "truncate-set1": (NO_ARG, "t"),
    },
    permute=False,
)

_PUNCT = bytes(c for c in range(33, 127) if not chr(c).isalnum())
CLASSES: dict[str, bytes] = {
    "alnum": b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "alpha": b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "blank": b"\t ",
    "cntrl": bytes(range(0, 32)) + b"\x7f",
    "digit": b"0123456789",
    "graph": bytes(range(33, 127)),
    "lower": b"abcdefghijklmnopqrstuvwxyz",
    "print": bytes(range(32, 127)),
    "punct": _PUNCT,
    "space": b"\t\n\x0b\x0c\r ",
    "upper": b"ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "xdigit": b"0123456789ABCDEFabcdef",
}
_ESCAPES = {"\\": 92, "a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11}
_REPEAT_MAX = (1 << 64) - 2


class TrError(Exception):
    """A fatal error; ``str()`` is GNU's message (no ``Try`` line follows)."""


@dataclass
class Element:
    """One construct of a set: kind is char, range, class, equiv or repeat."""

    kind: str
    chars: bytes = b""
    name: str = ""
    count: int | None = None  # repeat count; None for an indefinite ``[c*]``

    @property
    def length(self) -> int:
        """How many bytes ``expand`` gives, without building them."""
        return len(self.chars) * (self.count or 0) if self.kind == "repeat" else len(self.chars)

    def expand(self) -> bytes:
        """The bytes this element stands for, in order."""
        if self.kind == "repeat":
            return self.chars * (self.count or 0)
        return self.chars


@dataclass
class CharSet:
    """A parsed SET operand."""

    elements: list[Element] = field(default_factory=list)

    def expand(self) -> bytes:
        """Every byte of the set in order (indefinite repeats as filled in)."""
        return b"".join(e.expand() for e in self.elements)

    @property
    def length(self) -> int:
        """GNU's spec length."""
        return sum(e.length for e in self.elements)

    def has(self, kind: str) -> bool:
        """True if any element is of ``kind``."""
        return any(e.kind == kind for e in self.elements)



HELP = '''Usage: tr [OPTION]... SET1 [SET2]
Translate, squeeze, and/or delete characters from standard input,
writing to standard output.

  -c, -C, --complement    use the complement of SET1
  -d, --delete            delete characters in SET1, do not translate
  -s, --squeeze-repeats   replace each sequence of a repeated character
                          that is listed in the last specified SET
  -t, --truncate-set1     first truncate SET1 to length of SET2

SETs take \\NNN \\\\ \\a \\b \\f \\n \\r \\t \\v, CHAR1-CHAR2, [CHAR*], [CHAR*REPEAT],
[:alnum:] [:alpha:] [:blank:] [:cntrl:] [:digit:] [:graph:] [:lower:] [:print:]
[:punct:] [:space:] [:upper:] [:xdigit:] and [=CHAR=].
'''

def _printable_char(byte: int) -> str:
    """GNU's make_printable_char."""
    if 32 <= byte < 127 and byte != 92:
        return chr(byte)
    names = {7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v", 92: "\\\\"}
    return names.get(byte, f"\\{byte:03o}")


def _printable(data: bytes) -> str:
    return "".join(_printable_char(b) for b in data)


def unquote(ctx: CommandContext, text: bytes) -> tuple[bytes, list[bool]]:
    """Interpret backslash escapes; return the bytes and which of them were escaped."""
    out = bytearray()
    escaped: list[bool] = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c != 92:
            out.append(c)
            escaped.append(False)
            i += 1
            continue
        if i + 1 >= n:
            ctx.error("warning: an unescaped backslash at end of string is not portable")
            out.append(92)
            escaped.append(True)
            i += 1
            continue
        nxt = chr(text[i + 1])
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif "0" <= nxt <= "7":
            value = text[i + 1] - 48
            j = i + 2
            digits = 1
            while digits < 3 and j < n and 48 <= text[j] <= 55:
                candidate = value * 8 + text[j] - 48
                if candidate >= 256:
                    ctx.error(
                        f"warning: the ambiguous octal escape \\{chr(text[i + 1])}{chr(text[i + 2])}"
                        f"{chr(text[i + 3])} is being\n\tinterpreted as the 2-byte sequence "
                        f"\\0{chr(text[i + 1])}{chr(text[i + 2])}, {chr(text[i + 3])}"
                    )
                    break
                value = candidate
                j += 1
                digits += 1
            out.append(value)
            i = j
        else:
            out.append(text[i + 1])
            i += 2
        escaped.append(True)
    return bytes(out), escaped


def parse_set(ctx: CommandContext, operand: str) -> CharSet:
    """Parse one SET operand into elements (GNU's build_spec_list)."""
    raw, escaped = unquote(ctx, operand.encode("utf-8", "surrogateescape"))
    n = len(raw)

    def match(pos: int, byte: str) -> bool:
        return pos < n and not escaped[pos] and raw[pos] == ord(byte)

    result = CharSet()
    i = 0
    while i + 2 < n:
        if match(i, "["):
            if match(i + 1, ":") or match(i + 1, "="):
                delim = chr(raw[i + 1])
                close = _find_closing(raw, escaped, i + 2, delim)
                if close is not None:
                    content = raw[i + 2 : close]
                    if not content:
                        if delim == ":":
                            raise TrError("missing character class name '[::]'")
                        raise TrError("missing equivalence class character '[==]'")
                    if delim == ":":
                        name = content.decode("latin-1")
                        if name in CLASSES:
                            result.elements.append(Element("class", CLASSES[name], name=name))
                            i = close + 2
                            continue
                        if not _star_digits_close(raw, escaped, i + 2):
                            raise TrError(f"invalid character class {quote(_printable(content))}")
                    else:
                        if len(content) == 1:
                            result.elements.append(Element("equiv", content))
                            i = close + 2
                            continue
                        if not _star_digits_close(raw, escaped, i + 2):
                            raise TrError(
                                f"{_printable(content)}: equivalence class operand must be a single character"
                            )
            repeat = _find_repeat(raw, escaped, i + 1)
            if repeat is not None:
                char, count, close = repeat
                result.elements.append(Element("repeat", bytes([char]), count=count))
                i = close + 1
                continue
        if match(i + 1, "-"):
            lo, hi = raw[i], raw[i + 2]
            if lo > hi:
                raise TrError(
                    f"range-endpoints of '{_printable_char(lo)}-{_printable_char(hi)}' are in reverse "
                    "collating sequence order"
                )
            result.elements.append(Element("range", bytes(range(lo, hi + 1))))
            i += 3
            continue
        result.elements.append(Element("char", raw[i : i + 1]))
        i += 1
    while i < n:
        result.elements.append(Element("char", raw[i : i + 1]))
        i += 1
    return result


def _find_closing(raw: bytes, escaped: list[bool], start: int, delim: str) -> int | None:
    for j in range(start, len(raw) - 1):
        if raw[j] == ord(delim) and not escaped[j] and raw[j + 1] == 93 and not escaped[j + 1]:
            return j
    return None


def _star_digits_close(raw: bytes, escaped: list[bool], start: int) -> bool:
    """True if ``raw[start:]`` looks like ``*DIGITS]`` (GNU's star_digits_closebracket)."""
    if start >= len(raw) or raw[start] != 42 or escaped[start]:
        return False
    j = start + 1
    while j < len(raw) and 48 <= raw[j] <= 57 and not escaped[j]:
        j += 1
    return j < len(raw) and raw[j] == 93 and not escaped[j]


def _find_repeat(raw: bytes, escaped: list[bool], start: int) -> tuple[int, int | None, int] | None:
    """Match ``c*N]`` at ``start``: (char, count or None for indefinite, index of ``]``)."""
    if start + 1 >= len(raw) or raw[start + 1] != 42 or escaped[start + 1]:
        return None
    for j in range(start + 2, len(raw)):
        if escaped[j]:
            return None
        if raw[j] == 93:
            digits = raw[start + 2 : j]
            if not digits:
                return raw[start], None, j
            text = digits.decode("latin-1")
            base = 8 if text.startswith("0") else 10
            try:
                count = int(text, base) if text.isdigit() else -1
            except ValueError:
                count = -1
            if count < 0 or count > _REPEAT_MAX:
                raise TrError(f"invalid repeat count {quote(_printable(digits))} in [c*n] construct")
            return raw[start], (count or None), j
    return None


#: Longest SET we expand (GNU handles longer ones lazily; ours would need the memory).
MAX_SET_LENGTH = 1 << 24


def check_length(length: int) -> None:
    """Refuse a SET whose expansion would exceed ``MAX_SET_LENGTH`` bytes."""
    if length > MAX_SET_LENGTH:
        raise LimitExceeded(
            "string_length", f"tr: a SET expanding to more than {MAX_SET_LENGTH} bytes is not supported"
        )


def _validate(s1: CharSet, s2: CharSet | None, translating: bool, complement: bool,
              truncate: bool) -> int:
    """GNU's validate(): raise TrError on a refused combination; fill ``[c*]`` and pad SET2.

    Returns the effective length of SET1.
    """
    if any(e.kind == "repeat" and e.count is None for e in s1.elements):
        raise TrError("the [c*] repeat construct may not appear in string1")
    check_length(s1.length)
    s1_set = set(s1.expand())
    s1_len = 256 - len(s1_set) if complement else s1.length
    if s2 is None:
        return s1_len
    indefinite = [e for e in s2.elements if e.kind == "repeat" and e.count is None]
    if len(indefinite) > 1:
        raise TrError("only one [c*] repeat construct may appear in string2")
    if len(indefinite) == 1 and s1_len >= s2.length:
        indefinite[0].count = s1_len - s2.length
    check_length(s2.length)
    if not translating:
        if indefinite:
            raise TrError("the [c*] construct may appear in string2 only when translating")
        return s1_len
    if s2.has("equiv"):
        raise TrError("[=c=] expressions may not appear in string2 when translating")
    if any(e.kind == "class" and e.name not in ("upper", "lower") for e in s2.elements):
        raise TrError(
            "when translating, the only character classes that may appear in\n"
            "string2 are 'upper' and 'lower'"
        )
    if not complement:
        _check_case_classes(s1, s2)
    if s1_len > s2.length and not truncate:
        if s2.length == 0:
            raise TrError("when not truncating set1, string2 must be non-empty")
        last = s2.elements[-1]
        if last.kind == "class":
            raise TrError(
                "when translating with string1 longer than string2,\n"
                "the latter string must not end with a character class"
            )
        pad = last.expand()[-1:] or last.chars
        s2.elements.append(Element("repeat", pad, count=s1_len - s2.length))
    if complement and s1.has("class"):
        chars = set(s2.expand())
        if not (s2.length == s1_len and len(chars) <= 1):
            raise TrError(
                "when translating with complemented character classes,\n"
                "string2 must map all characters in the domain to one"
            )
    return s1_len


def _positions(charset: CharSet) -> list[tuple[bool, str | None]]:
    """For each expanded byte: (starts an element, 'upper'/'lower' when from such a class)."""
    out: list[tuple[bool, str | None]] = []
    for e in charset.elements:
        case = e.name if e.kind == "class" and e.name in ("upper", "lower") else None
        for k in range(len(e.expand())):
            out.append((k == 0, case))
    return out


def _check_case_classes(s1: CharSet, s2: CharSet) -> None:
    if not s2.has("class"):
        return
    p1 = _positions(s1)
    p2 = _positions(s2)
    for index, (start2, case2) in enumerate(p2):
        if index >= len(p1):
            if start2 and case2:
                raise TrError("misaligned [:upper:] and/or [:lower:] construct")
            return
        start1, case1 = p1[index]
        if start2 and case2 and not (start1 and case1):
            raise TrError("misaligned [:upper:] and/or [:lower:] construct")


def run(ctx: CommandContext) -> int:
    """Translate, delete and/or squeeze stdin to stdout."""
    parsed = parse_command_line(ctx, SPEC, HELP, version=VERSION, early_help=True)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    keys = {key for key, _ in opts}
    complement = "c" in keys or "C" in keys
    delete = "d" in keys
    squeeze = "s" in keys
    truncate = "t" in keys
    min_ops = 1 + (delete == squeeze)
    max_ops = 1 + (delete <= squeeze)
    if len(operands) < min_ops:
        if not operands:
            return ctx.usage_error("missing operand")
        ctx.error(f"missing operand after {quote(ctx.argv[-1])}")
        ctx.stderr.write(
            b"Two strings must be given when both deleting and squeezing repeats.\n" if squeeze
            else b"Two strings must be given when translating.\n"
        )
        return _try(ctx)
    if len(operands) > max_ops:
        ctx.error(f"extra operand {quote(operands[max_ops])}")
        if len(operands) == 2:
            ctx.stderr.write(b"Only one string may be given when deleting without squeezing repeats.\n")
        return _try(ctx)
    translating = len(operands) == 2 and not delete
    try:
        s1 = parse_set(ctx, operands[0])
        s2 = parse_set(ctx, operands[1]) if len(operands) == 2 else None
        _validate(s1, s2, translating, complement, truncate)
    except TrError as err:
        ctx.error(str(err))
        return 1
    table, deletions, squeeze_set = _plan(s1, s2, complement, delete, squeeze, translating)
    try:
        _filter(ctx, table, deletions, squeeze_set)
    except FSError as err:  # ``tr < dir``: GNU's safe_read failure
        ctx.error(f"read error: {err}")
        return 1
    return 0


def _try(ctx: CommandContext) -> int:
    ctx.stderr.write(f"Try '{ctx.prog} --help' for more information.\n".encode())
    return 1


def _plan(s1: CharSet, s2: CharSet | None, complement: bool, delete: bool, squeeze: bool,
          translating: bool) -> tuple[bytes | None, bytes, bytes]:
    """The translate table (or None), the bytes to delete and the bytes to squeeze."""
    members = set(s1.expand())
    if complement:
        members = set(range(256)) - members
    selected = bytes(sorted(members))
    table: bytes | None = None
    deletions = b""
    squeeze_set = b""
    if delete:
        deletions = selected
        if squeeze and s2 is not None:
            squeeze_set = bytes(sorted(set(s2.expand())))
    elif translating and s2 is not None:
        mapping = list(range(256))
        targets = s2.expand()
        if complement:
            for index, byte in enumerate(sorted(members)):
                if index >= len(targets):
                    break
                mapping[byte] = targets[index]
        else:
            for source, target in zip(s1.expand(), targets):
                mapping[source] = target
        table = bytes(mapping)
        if squeeze:
            squeeze_set = bytes(sorted(set(targets)))
    elif squeeze:
        squeeze_set = selected
    return table, deletions, squeeze_set


def _squeezer(squeeze_set: bytes) -> Callable[[bytes, int], bytes]:
    """A function collapsing runs of each byte of ``squeeze_set`` to one byte.

    It takes the chunk and the last byte already written (-1 if none), so runs that cross
    chunk edges collapse too.
    """
    if len(squeeze_set) <= 8:
        passes = [(re.compile(re.escape(bytes([b])) + b"{2,}"), bytes([b])) for b in squeeze_set]
        members = set(squeeze_set)

        def by_byte(data: bytes, last: int) -> bytes:
            for pattern, single in passes:
                if single + single in data:
                    data = pattern.sub(single.replace(b"\\", b"\\\\"), data)
            if last in members and data[:1] == bytes([last]):
                data = data.lstrip(data[:1])
            return data

        return by_byte
    # Many bytes to squeeze: mark with big-integer XOR the bytes equal to their predecessor,
    # OR in the bytes outside the set, and keep the bytes whose mark is non-zero.
    outside = bytes(0 if b in set(squeeze_set) else 1 for b in range(256))

    def by_mask(data: bytes, last: int) -> bytes:
        previous = bytes([last if last >= 0 else (data[0] ^ 1)]) + data[:-1]
        same = int.from_bytes(data, "big") ^ int.from_bytes(previous, "big")
        keep = (same | int.from_bytes(data.translate(outside), "big")).to_bytes(len(data), "big")
        if 0 not in keep:
            return data
        return bytes(itertools.compress(data, keep))

    return by_mask


def _filter(ctx: CommandContext, table: bytes | None, deletions: bytes, squeeze_set: bytes) -> None:
    """Stream stdin through translate/delete and squeeze to stdout."""
    squeeze = _squeezer(squeeze_set) if squeeze_set else None
    last = -1
    stream: BinaryIO = ctx.stdin
    for chunk in iter_blocks(stream, ctx.budget, CHUNK):
        data = chunk.translate(table, deletions) if (table is not None or deletions) else chunk
        if squeeze is not None and data:
            data = squeeze(data, last)
            if data:
                last = data[-1]
        if data:
            ctx.stdout.write(data)
