"""Member names: GNU tar's quoting in listings and messages (``--quoting-style=escape``),
``safer_name_suffix`` (leading ``/`` and ``..`` removal), and the matching of ``--exclude``
patterns and member operands (gnulib ``exclude_fnmatch``, ``FNM_LEADING_DIR``)."""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Callable, Sequence

from sandbox.commands.find.glob import compile_glob

if TYPE_CHECKING:
    from sandbox.commands.tar.cli import Exclude

_ESCAPES = {7: "a", 8: "b", 12: "f", 10: "n", 13: "r", 9: "t", 11: "v", 0x5C: "\\"}


def _char_len(data: bytes, i: int) -> tuple[int, bool]:
    """Length of the UTF-8 character at ``i`` and whether it is printable."""
    lead = data[i]
    if lead < 0x80:
        return 1, 0x20 <= lead < 0x7F
    size = (2 if 0xC2 <= lead <= 0xDF else 3 if 0xE0 <= lead <= 0xEF
            else 4 if 0xF0 <= lead <= 0xF4 else 0)
    if size == 0 or i + size > len(data):
        return 1, False
    try:
        ch = data[i : i + size].decode("utf-8")
    except UnicodeDecodeError:
        return 1, False
    return size, unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Cn", "Co", "Zl", "Zp")


def quote(name: bytes | str, colon: bool = False) -> str:
    """``quotearg`` in escape style: C escapes and ``\\ooo`` for what is not printable;
    ``colon`` (``quotearg_colon``, in messages) also escapes ``:``."""
    data = name.encode("utf-8", "surrogateescape") if isinstance(name, str) else name
    out: list[str] = []
    i = 0
    while i < len(data):
        c = data[i]
        if c in _ESCAPES:
            out.append("\\" + _ESCAPES[c])
            i += 1
            continue
        if colon and c == 0x3A:
            out.append("\\:")
            i += 1
            continue
        size, printable = _char_len(data, i)
        if printable:
            out.append(data[i : i + size].decode("utf-8"))
        else:
            out.extend(f"\\{b:03o}" for b in data[i : i + size])
        i += size
    return "".join(out)


def safer_name(name: bytes, warned: set[bytes], warn: Callable[[str], None],
               link_target: bool = False, absolute: bool = False) -> bytes:
    """GNU ``safer_name_suffix``: drop leading components up to the last ``..`` and leading
    slashes, warning once per removed prefix; an empty result is ``.``. ``absolute``
    (``-P``) keeps the name as it is (an empty one still becomes ``.``)."""
    if absolute:
        if not name:
            what = "hard link target" if link_target else "member name"
            warn(f"Substituting `.' for empty {what}")
            return b"."
        return name
    prefix_len = 0
    p = 0
    n = len(name)
    while p < n:
        if name[p : p + 2] == b".." and (p + 2 == n or name[p + 2] == 0x2F):
            prefix_len = p + 2
        while p < n:
            c = name[p]
            p += 1
            if c == 0x2F:
                break
    p = prefix_len
    while p < n and name[p] == 0x2F:
        p += 1
    if p:
        prefix = name[:p]
        key = (b"L" if link_target else b"N") + prefix
        if key not in warned:
            warned.add(key)
            what = "hard link targets" if link_target else "member names"
            warn(f"Removing leading `{prefix.decode('utf-8', 'surrogateescape')}' from {what}")
    rest = name[p:]
    if not rest:
        if p == 0:
            what = "hard link target" if link_target else "member name"
            warn(f"Substituting `.' for empty {what}")
        return b"."
    return rest


def contains_dot_dot(name: bytes) -> bool:
    """True if a component of ``name`` is ``..`` (such members are never extracted)."""
    return b".." in name.split(b"/")


def has_wildcards(pattern: str) -> bool:
    """gnulib ``fnmatch_pattern_has_wildcards`` (backslash escapes the next character)."""
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c in "?*[]":
            return True
        i += 1
    return False


def leading_dir_match(pattern: str, name: str, wildcards: bool) -> bool:
    """``fnmatch(pattern, name, FNM_LEADING_DIR)``: the pattern matches ``name`` or one of its
    leading directories (``*`` matches ``/``); without wildcards, a literal comparison."""
    if wildcards:
        rx = compile_glob(pattern)
        if rx.match(name):
            return True
        return any(rx.match(name[:i]) for i, c in enumerate(name) if c == "/")
    if not pattern:
        return False
    return name == pattern or name.startswith(pattern.rstrip("/") + "/")


def name_match(pattern: str, name: str, wildcards: bool, leading_dir: bool) -> bool:
    """``fnmatch`` (or a literal comparison) of a whole name, with FNM_LEADING_DIR when
    ``leading_dir`` (GNU's recursion option in force)."""
    if leading_dir:
        return leading_dir_match(pattern, name, wildcards)
    if wildcards:
        return compile_glob(pattern).match(name) is not None
    return bool(pattern) and name == pattern


def excluded(patterns: Sequence[Exclude], name: str) -> bool:
    """True if an exclusion matches ``name`` or any suffix of it that starts after a ``/``
    (gnulib ``excluded_file_name``, unanchored as GNU's default)."""
    name = name.rstrip("/") or name
    for ex in patterns:
        if name_match(ex.pattern, name, ex.wildcards, ex.leading_dir):
            return True
        for i, c in enumerate(name):
            rest = name[i + 1 :]
            if (c == "/" and rest[:1] not in ("/", "")
                    and name_match(ex.pattern, rest, ex.wildcards, ex.leading_dir)):
                return True
    return False
