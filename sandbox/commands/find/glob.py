"""GNU ``fnmatch`` (no flags, or ``FNM_CASEFOLD``) as a Python regular expression: ``*`` and
``?`` match any character, ``/`` and a leading ``.`` included, as find's ``-name``/``-path``."""

from __future__ import annotations

import re
from functools import lru_cache

_CLASSES = {
    "alpha": r"^\W\d_", "digit": r"0-9", "alnum": r"^\W_", "upper": r"A-Z", "lower": r"a-z",
    "space": r" \t\n\r\f\v", "blank": r" \t", "xdigit": r"0-9A-Fa-f", "cntrl": r"\x00-\x1f\x7f",
    "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"), "print": r"\x20-\x7e\u00a0-\U0010ffff",
    "graph": r"\x21-\x7e\u00a1-\U0010ffff",
}


def _bracket(p: str, i: int) -> tuple[str, int] | None:
    """Translate the bracket expression at ``p[i] == '['``; None when it is not closed."""
    j = i + 1
    neg = j < len(p) and p[j] in "!^"
    if neg:
        j += 1
    parts: list[str] = []
    first = True
    while j < len(p):
        c = p[j]
        if c == "]" and not first:
            body = "".join(parts)
            return ("[^" if neg else "[") + body + "]", j + 1
        first = False
        if c == "[" and p[j + 1:j + 2] == ":":
            end = p.find(":]", j + 2)
            if end != -1 and p[j + 2:end] in _CLASSES:
                name = p[j + 2:end]
                cls = _CLASSES[name]
                if cls.startswith("^"):  # \w-based classes: letters (and digits)
                    parts.append({"alpha": "a-zA-Z\u00c0-\U0010ffff", "alnum": "a-zA-Z0-9\u00c0-\U0010ffff"}[name])
                else:
                    parts.append(cls)
                j = end + 2
                continue
        if c == "\\" and j + 1 < len(p):
            j += 1
            c = p[j]
        if p[j + 1:j + 2] == "-" and j + 2 < len(p) and p[j + 2] != "]":
            hi = p[j + 2]
            if hi == "\\" and j + 3 < len(p):
                hi = p[j + 3]
                j += 1
            parts.append(re.escape(c) + "-" + re.escape(hi))
            j += 3
            continue
        parts.append(re.escape(c))
        j += 1
    return None


@lru_cache(maxsize=256)
def compile_glob(pattern: str, icase: bool = False) -> "re.Pattern[str]":
    """The pattern as a compiled regex that must match the whole string."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "*":
            out.append(".*")
        elif c == "?":
            out.append(".")
        elif c == "[":
            got = _bracket(pattern, i)
            if got is None:
                out.append(re.escape(c))
            else:
                out.append(got[0])
                i = got[1]
                continue
        elif c == "\\" and i + 1 < len(pattern):
            i += 1
            out.append(re.escape(pattern[i]))
        else:
            out.append(re.escape(c))
        i += 1
    flags = re.DOTALL | (re.IGNORECASE if icase else 0)
    try:
        return re.compile("(?:" + "".join(out) + r")\Z", flags)
    except re.error:
        return re.compile(re.escape(pattern) + r"\Z", flags)
