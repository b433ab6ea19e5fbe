"""Shell patterns (globs) as regular expressions: for globbing, ``${v#p}`` and friends, and
``[ a == b ]``-style matching. A pattern is a list of (text, quoted) chunks: quoted text
matches itself, unquoted text may hold ``* ? [...]``."""

from __future__ import annotations

import re
from functools import lru_cache

Chunks = tuple[tuple[str, bool], ...]

_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
    "space": r" \t\n\r\f\v", "blank": r" \t", "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
    "xdigit": "0-9A-Fa-f", "cntrl": r"\x00-\x1f\x7f", "print": r"\x20-\x7e", "graph": r"\x21-\x7e",
    "word": r"a-zA-Z0-9_",
}


def has_glob(chunks: Chunks) -> bool:
    """True if an unquoted chunk holds a glob character."""
    return any(not q and ("*" in t or "?" in t or "[" in t) for t, q in chunks)


def _bracket(text: str, i: int) -> tuple[str, int] | None:
    """Translate ``[...]`` starting at ``text[i] == '['``; None if it is not a bracket."""
    j = i + 1
    negate = False
    if j < len(text) and text[j] in "!^":
        negate = True
        j += 1
    items: list[str] = []
    first = True
    while j < len(text):
        c = text[j]
        if c == "]" and not first:
            body = "".join(items)
            return ("[^" if negate else "[") + body + "]", j + 1
        first = False
        if c == "[" and text.startswith("[:", j):
            k = text.find(":]", j + 2)
            if k > 0 and text[j + 2:k] in _CLASSES:
                items.append(_CLASSES[text[j + 2:k]])
                j = k + 2
                continue
        if c == "\\" and j + 1 < len(text):
            items.append(re.escape(text[j + 1]))
            j += 2
            continue
        if c == "-" and items and j + 1 < len(text) and text[j + 1] != "]":
            items.append("-")
            j += 1
            continue
        items.append(re.escape(c) if c not in "-" else "\\-")
        j += 1
    return None


@lru_cache(maxsize=512)
def to_regex(chunks: Chunks) -> "re.Pattern[str]":
    """Compile a pattern to a regex that must match the whole string (``fullmatch``)."""
    out: list[str] = []
    # Join unquoted chunks so a bracket may span nothing quoted; quoted text is escaped.
    for text, quoted in chunks:
        if quoted:
            out.append(re.escape(text))
            continue
        i = 0
        while i < len(text):
            c = text[i]
            if c == "*":
                while i < len(text) and text[i] == "*":
                    i += 1
                out.append(".*")
                continue
            if c == "?":
                out.append(".")
            elif c == "[":
                got = _bracket(text, i)
                if got is not None:
                    out.append(got[0])
                    i = got[1]
                    continue
                out.append(re.escape(c))
            elif c == "\\" and i + 1 < len(text):
                out.append(re.escape(text[i + 1]))
                i += 2
                continue
            else:
                out.append(re.escape(c))
            i += 1
    return re.compile("".join(out), re.DOTALL)


def match(chunks: Chunks, text: str) -> bool:
    """True if ``text`` matches the whole pattern."""
    return to_regex(chunks).fullmatch(text) is not None


def remove_affix(value: str, chunks: Chunks, op: str, check) -> str:  # type: ignore[no-untyped-def]
    """``${v#p}`` (op ``#``), ``##``, ``%``, ``%%``; ``check`` is called in long loops."""
    rx = to_regex(chunks)
    n = len(value)
    if op == "#":
        rng = range(0, n + 1)
    elif op == "##":
        rng = range(n, -1, -1)
    elif op == "%":
        rng = range(n, -1, -1)
    else:
        rng = range(0, n + 1)
    for count, k in enumerate(rng):
        if count & 1023 == 1023:
            check()
        if op[0] == "#":
            if rx.fullmatch(value, 0, k):
                return value[k:]
        elif rx.fullmatch(value, k, n):
            return value[:k]
    return value


def _replacement(repl: Chunks, matched: str) -> str:
    """The replacement text: an unquoted ``&`` stands for the matched text (bash 5.2)."""
    return "".join(t if q else t.replace("&", matched) for t, q in repl)


def substitute(value: str, chunks: Chunks, repl_chunks: Chunks, op: str, check) -> str:  # type: ignore[no-untyped-def]
    """``${v/p/r}`` (op ``/``), ``//`` (all), ``/#`` (anchored at start), ``/%`` (at end)."""
    if not chunks or all(t == "" for t, _ in chunks):
        return value
    rx = to_regex(chunks)
    n = len(value)
    if op == "/#":
        for k in range(n, -1, -1):
            if rx.fullmatch(value, 0, k):
                return _replacement(repl_chunks, value[:k]) + value[k:]
        return value
    if op == "/%":
        for k in range(0, n + 1):
            if rx.fullmatch(value, k, n):
                return value[:k] + _replacement(repl_chunks, value[k:])
        return value
    search = re.compile("(?:" + rx.pattern + ")", re.DOTALL)
    out: list[str] = []
    pos = 0
    while pos <= n:
        check()
        m = search.search(value, pos)
        if m is None:
            break
        start = m.start()
        end = None
        for k in range(n, start - 1, -1):
            if rx.fullmatch(value, start, k):
                end = k
                break
        if end is None:  # pragma: no cover - search found a match at start
            end = m.end()
        out.append(value[pos:start])
        out.append(_replacement(repl_chunks, value[start:end]))
        if end == start:
            if start < n:
                out.append(value[start])
            pos = start + 1
        else:
            pos = end
        if op == "/":
            break
    out.append(value[pos:])
    return "".join(out)
