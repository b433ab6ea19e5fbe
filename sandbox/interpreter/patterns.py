"""Shell patterns (globs) as regular expressions: for globbing, ``${v#p}`` and friends, and
``[ a == b ]``-style matching. A pattern is a list of (text, quoted) chunks: quoted text
matches itself, unquoted text may hold ``* ? [...]``."""

from __future__ import annotations

import re
from functools import lru_cache

from sandbox.interpreter import extmatch

Chunks = tuple[tuple[str, bool], ...]
#: Where an extglob group opens: ``?(`` ``*(`` ``+(`` ``@(`` ``!(``.
_EXTGLOB_OPEN = re.compile(r"[?*+@!]\(")

_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
    "space": r" \t\n\r\f\v", "blank": r" \t", "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
    "xdigit": "0-9A-Fa-f", "cntrl": r"\x00-\x1f\x7f", "print": r"\x20-\x7e", "graph": r"\x21-\x7e",
    "word": r"a-zA-Z0-9_",
}


def has_glob(chunks: Chunks) -> bool:
    """True if an unquoted chunk holds a glob character (or an extglob group ``@(...)``)."""
    for t, q in chunks:
        if not q and ("*" in t or "?" in t or "[" in t or ("(" in t and _EXTGLOB_OPEN.search(t))):
            return True
    return False


def leads_with_dot(text: str) -> bool:
    """True if a pattern (as ``joined`` gives it) can match a leading ``.`` with a literal
    ``.``: only then does it match a hidden name (bash's rule, also through extglob groups:
    ``?(a|.c).txt`` and ``*(x).*`` match ``.c.txt``, ``!(r)`` never does)."""
    if text.startswith((".", "\\.")):
        return True
    if text[:1] in ("?", "*", "+", "@") and text[1:2] == "(":
        end = _group_end(text, 1)
        if end > 0:
            rest = text[end + 1:]
            if any(leads_with_dot(_unquote_alt(a) + rest) for a in _alternatives(text[2:end])):
                return True
            return text[0] in "?*" and leads_with_dot(rest)
    return False


def _bracket(text: str, i: int) -> tuple[str, int] | None:
    """Translate ``[...]`` starting at ``text[i] == '['``; None if it is not a bracket."""
    j = i + 1
    negate = False
    if j < len(text) and text[j] in "!^":
        negate = True
        j += 1
    items: list[str] = []
    last: str | None = None  # the last single character, which a `-` may start a range from
    first = True
    while j < len(text):
        c = text[j]
        if c == "]" and not first:
            body = "".join(items)
            if not body:  # only reversed ranges: nothing matches (or, negated, anything)
                return ("." if negate else "(?!)"), j + 1
            return ("[^" if negate else "[") + body + "]", j + 1
        first = False
        if c == "[" and text.startswith("[:", j):
            got = _class_name(text, j + 2)
            if got is not None and got[0] in _CLASSES:
                items.append(_CLASSES[got[0]])
                last = None
                j = got[1]
                continue
        if c == "\\" and j + 1 < len(text):
            items.append(re.escape(text[j + 1]))
            last = text[j + 1]
            j += 2
            continue
        if c == "-" and last is not None and j + 1 < len(text) and text[j + 1] != "]":
            end, j = (text[j + 2], j + 3) if text[j + 1] == "\\" and j + 2 < len(text) \
                else (text[j + 1], j + 2)
            items.pop()
            if end >= last:  # a reversed range matches nothing, as in bash
                items.append(f"{re.escape(last)}-{re.escape(end)}")
            last = None
            continue
        items.append(re.escape(c) if c != "-" else "\\-")
        last = c
        j += 1
    return None


def _class_name(text: str, i: int) -> tuple[str, int] | None:
    """The name of a ``[:name:]`` class starting at ``text[i]`` (backslashes inside are
    dropped, as bash does) and the index after its ``:]``; None if it isn't closed."""
    name: list[str] = []
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            c = text[i + 1]
            i += 1
        if c == ":" and text[i + 1:i + 2] == "]":
            return "".join(name), i + 2
        if c == "]":
            return None
        name.append(c)
        i += 1
    return None


def _group_end(text: str, i: int) -> int:
    """The index of the ``)`` closing the extglob group whose ``(`` is at ``text[i]``, or -1."""
    depth = 0
    j = i
    quote = ""
    while j < len(text):
        c = text[j]
        if quote:
            if c == quote:
                quote = ""
        elif c == "\\":
            j += 1
        elif c in "'\"":
            quote = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j
        j += 1
    return -1


def _alternatives(body: str) -> list[str]:
    """Split an extglob group's body on its top-level ``|``."""
    out: list[str] = []
    depth = 0
    start = 0
    quote = ""
    j = 0
    while j < len(body):
        c = body[j]
        if quote:
            if c == quote:
                quote = ""
        elif c == "\\":
            j += 1
        elif c in "'\"":
            quote = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            out.append(body[start:j])
            start = j + 1
        j += 1
    out.append(body[start:])
    return out


def _unquote_alt(text: str) -> str:
    """An alternative's text with its quotes turned into backslash escapes."""
    out: list[str] = []
    j = 0
    while j < len(text):
        c = text[j]
        if c in "'\"":
            k = text.find(c, j + 1)
            if k < 0:
                k = len(text)
            out.extend("\\" + ch for ch in text[j + 1:k])
            j = k + 1
            continue
        out.append(c)
        j += 1
    return "".join(out)


def literal_groups(chunks: Chunks) -> Chunks:
    """``chunks`` with each extglob group's ``(`` quoted: what a pattern means while
    ``extglob`` is off (``@(a|b)`` is those six characters; ``*(x)`` is ``*`` then ``(x)``)."""
    if not has_extglob(chunks):
        return chunks
    out: list[tuple[str, bool]] = []
    for t, q in chunks:
        if q or "(" not in t:
            out.append((t, q))
            continue
        start = 0
        for m in _EXTGLOB_OPEN.finditer(t):
            out.append((t[start:m.start() + 1], False))
            out.append(("(", True))
            start = m.end()
        out.append((t[start:], False))
    return tuple(c for c in out if c[0])


def has_extglob(chunks: Chunks) -> bool:
    """True if an unquoted chunk holds an extglob group ``?(`` ``*(`` ``+(`` ``@(`` ``!(``."""
    return any(not q and "(" in t and _EXTGLOB_OPEN.search(t) for t, q in chunks)


def _translate(text: str, out: list[str]) -> None:
    """Append the regex of unquoted pattern text (globs and extglob groups) to ``out``."""
    i = 0
    while i < len(text):
        c = text[i]
        if c in "?*+@!" and text[i + 1:i + 2] == "(":
            end = _group_end(text, i + 1)
            if end > 0:
                alts = []
                for alt in _alternatives(text[i + 2:end]):
                    sub: list[str] = []
                    _translate(_unquote_alt(alt), sub)
                    alts.append("".join(sub))
                body = "(?:" + "|".join(alts) + ")"
                if c == "!":  # exact at the end of a pattern, as !(...) is mostly used
                    out.append(f"(?:(?!{body}$).*)")
                else:
                    out.append(body + {"?": "?", "*": "*", "+": "+", "@": ""}[c])
                i = end + 1
                continue
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


@lru_cache(maxsize=512)
def to_regex(chunks: Chunks) -> "re.Pattern[str]":
    """Compile a pattern to a regex that must match the whole string (``fullmatch``)."""
    out: list[str] = []
    _translate(joined(chunks), out)
    return re.compile("".join(out), re.DOTALL)


def joined(chunks: Chunks) -> str:
    """The pattern as one text, each quoted character escaped with a backslash (so a
    bracket expression may hold quoted characters, and a backslash that came out of an
    unquoted expansion escapes what follows it, as in bash 5.2)."""
    return "".join("".join("\\" + c for c in t) if q else t for t, q in chunks)


_ERE_SPECIAL = frozenset("\\.[]()*+?{}|^$")


def _ere_escape(text: str) -> str:
    return "".join("\\" + c if c in _ERE_SPECIAL else c for c in text)


def _ere_translate(text: str, out: list[str]) -> None:
    """Like ``_translate`` but to a POSIX ERE (for the linear-time engine); no ``!(``."""
    i = 0
    while i < len(text):
        c = text[i]
        if c in "?*+@" and text[i + 1:i + 2] == "(":
            end = _group_end(text, i + 1)
            if end > 0:
                alts = []
                for alt in _alternatives(text[i + 2:end]):
                    sub: list[str] = []
                    _ere_translate(_unquote_alt(alt), sub)
                    alts.append("".join(sub) or "()")
                out.append("(" + "|".join(alts) + ")" + {"?": "?", "*": "*", "+": "+",
                                                         "@": ""}[c])
                i = end + 1
                continue
        if c == "*":
            out.append(".*")
        elif c == "?":
            out.append(".")
        elif c == "[" and _bracket(text, i) is not None:
            end = _bracket(text, i)[1]  # type: ignore[index]
            body = text[i + 1:end - 1]
            if body[:1] == "!":
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "") + "]")
            i = end
            continue
        elif c == "\\" and i + 1 < len(text):
            out.append(_ere_escape(text[i + 1]))
            i += 2
            continue
        else:
            out.append(_ere_escape(c))
        i += 1


@lru_cache(maxsize=256)
def _ere(chunks: Chunks):  # type: ignore[no-untyped-def]
    """An extglob pattern as a compiled ERE of ``sandbox.regex`` (linear time: no
    catastrophic backtracking), or None when it can't be expressed (``!(...)``)."""
    if any(not q and "!(" in t for t, q in chunks):
        return None
    out: list[str] = ["^("]
    _ere_translate(joined(chunks), out)
    out.append(")$")
    from sandbox.regex import compile_regex
    try:
        rx = compile_regex("".join(out).encode("utf-8", "surrogateescape"), extended=True,
                           dot_newline=True)
    except Exception:
        return None
    return rx if rx.uses_re2 else None


def _needs_dp(chunks: Chunks) -> bool:
    """True for patterns a backtracking regex could take exponential time on: extglob
    groups, or more than two ``*`` (these run on ``extmatch``)."""
    return has_extglob(chunks) or sum(t.count("*") for t, q in chunks if not q) > 2


def _matcher(chunks: Chunks, text: str, check) -> "extmatch.Matcher":  # type: ignore[no-untyped-def]
    return extmatch.Matcher(extmatch.compile_pattern(joined(chunks)), text, check)


def _suffixes(chunks: Chunks, text: str, check) -> frozenset[int]:  # type: ignore[no-untyped-def]
    """The lengths of the suffixes of ``text`` that match (one pass over the reversal)."""
    return extmatch.Matcher(extmatch.compile_reversed(joined(chunks)), text[::-1],
                            check).ends(0)


def match(chunks: Chunks, text: str, check=None) -> bool:  # type: ignore[no-untyped-def]
    """True if ``text`` matches the whole pattern (extglob patterns and patterns with many
    ``*`` run on a linear-time engine, or on ``extmatch``: never exponential)."""
    if _needs_dp(chunks):
        if has_extglob(chunks):
            rx = _ere(chunks)
            if rx is not None:
                return rx.search(text.encode("utf-8", "surrogateescape")) is not None
        return _matcher(chunks, text, check).fullmatch(0)
    return to_regex(chunks).fullmatch(text) is not None


def _affix_dp(value: str, chunks: Chunks, op: str, check) -> str:  # type: ignore[no-untyped-def]
    m = _matcher(chunks, value, check)
    n = len(value)
    if op[0] == "#":
        ends = m.ends(0)
        if not ends:
            return value
        return value[(min(ends) if op == "#" else max(ends)):]
    lengths = _suffixes(chunks, value, check)
    if not lengths:
        return value
    return value[:n - (min(lengths) if op == "%" else max(lengths))]


def _substitute_dp(value: str, chunks: Chunks, repl_chunks: Chunks, op: str,
                   check) -> str:  # type: ignore[no-untyped-def]
    n = len(value)
    if op == "/%":
        lengths = _suffixes(chunks, value, check)
        if not lengths:
            return value
        k = n - max(lengths)
        return value[:k] + _replacement(repl_chunks, value[k:])
    m = _matcher(chunks, value, check)
    if op == "/#":
        ends = m.ends(0)
        return _replacement(repl_chunks, value[:max(ends)]) + value[max(ends):] if ends \
            else value
    out: list[str] = []
    pos = 0
    start = 0
    while start < n or start == n == 0:  # no empty match at the very end
        ends = m.ends(start)
        if not ends:
            start += 1
            continue
        end = max(ends)
        out.append(value[pos:start])
        out.append(_replacement(repl_chunks, value[start:end]))
        if end == start:
            if start < n:
                out.append(value[start])
            pos = start = start + 1
        else:
            pos = start = end
        if op == "/":
            break
    out.append(value[pos:])
    return "".join(out)


def remove_affix(value: str, chunks: Chunks, op: str, check) -> str:  # type: ignore[no-untyped-def]
    """``${v#p}`` (op ``#``), ``##``, ``%``, ``%%``; ``check`` is called in long loops."""
    if _needs_dp(chunks):
        return _affix_dp(value, chunks, op, check)
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
    """The replacement text: an unquoted ``&`` stands for the matched text (bash 5.2's
    patsub_replacement), ``\\&`` is a literal ``&`` and ``\\\\`` one backslash."""
    out: list[str] = []
    for t, q in repl:
        if q or ("&" not in t and "\\" not in t):
            out.append(t)
            continue
        i = 0
        while i < len(t):
            c = t[i]
            if c == "\\" and t[i + 1:i + 2] in ("&", "\\"):
                out.append(t[i + 1])
                i += 2
                continue
            out.append(matched if c == "&" else c)
            i += 1
    return "".join(out)


def substitute(value: str, chunks: Chunks, repl_chunks: Chunks, op: str, check) -> str:  # type: ignore[no-untyped-def]
    """``${v/p/r}`` (op ``/``), ``//`` (all), ``/#`` (anchored at start), ``/%`` (at end)."""
    if op in ("/", "//") and (not chunks or all(t == "" for t, _ in chunks)):
        return value  # an empty pattern matches nowhere; `/#` and `/%` match at an end
    if _needs_dp(chunks):
        return _substitute_dp(value, chunks, repl_chunks, op, check)
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
    while pos < n or pos == n == 0:  # bash tries no empty match at the very end
        check()
        m = search.search(value, pos)
        if m is None:
            break
        # Without extglob groups (those run on extmatch) the pattern is stars and
        # single-character items only: the greedy match at the leftmost start is the longest.
        start, end = m.start(), m.end()
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
