"""Regular expressions for jq's ``test``/``match``/``capture``/``scan``/``split``/``sub``.

jq uses Oniguruma with Perl syntax. We translate the pattern to Python's ``re`` dialect
(``(?<name>...)`` to ``(?P<name>...)``, ``\\h``, ``\\z``...). Patterns that can backtrack
catastrophically (a quantified group that itself contains a quantifier or an alternation,
such as ``(a+)+`` or ``(a|aa)*``) are run by RE2 (``google-re2``), which matches in linear time,
whenever RE2 accepts the pattern; otherwise Python ``re`` runs them and only the wall-clock
budget between matches protects the run (a single pathological ``re`` search cannot be
interrupted from Python). Offsets are in codepoints, as in jq.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from sandbox.commands.jq.errors import JQError
from sandbox.commands.jq.values import describe

try:  # optional linear-time engine for risky patterns
    import re2 as _re2
except Exception:  # pragma: no cover - dependency missing
    _re2 = None

_VALID_FLAGS = set("gimnpsxl")
_NESTED_QUANT = re.compile(r"\((?:[^()\\]|\\.)*(?:[*+?}]|\|)(?:[^()\\]|\\.)*\)\s*(?:[*+]|\{\d*,\d*\})")


def _translate(pattern: str) -> str:
    out: list[str] = []
    i = 0
    n = len(pattern)
    in_class = False
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            e = pattern[i + 1]
            if e == "h":
                out.append("[0-9a-fA-F]" if not in_class else "0-9a-fA-F")
            elif e == "H" and not in_class:
                out.append("[^0-9a-fA-F]")
            elif e == "z" and not in_class:
                out.append(r"\Z")
            elif e == "Z" and not in_class:
                out.append(r"(?=\n?\Z)")
            else:
                out.append(c + e)
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
            elif c == "[" and pattern.startswith("[:", i):
                end = pattern.find(":]", i)
                if end != -1:
                    out.append(_POSIX.get(pattern[i + 2 : end], pattern[i : end + 2]))
                    i = end + 2
                    continue
            out.append(c)
            i += 1
            continue
        if c == "[":
            in_class = True
            out.append(c)
            i += 1
            if i < n and pattern[i] == "^":
                out.append("^")
                i += 1
            if i < n and pattern[i] == "]":
                out.append("\\]")
                i += 1
            continue
        if c == "(" and pattern.startswith("(?<", i) and i + 3 < n and pattern[i + 3] not in "=!":
            out.append("(?P<")
            i += 3
            continue
        out.append(c)
        i += 1
    return "".join(out)


_POSIX = {
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "alnum": "a-zA-Z0-9",
    "upper": "A-Z",
    "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v",
    "xdigit": "0-9a-fA-F",
    "punct": "!-/:-@\\[-`{-~",
    "word": "\\w",
}


@lru_cache(maxsize=256)
def compile_regex(pattern: str, flags: str) -> tuple[Any, bool, bool]:
    """Compile ``pattern`` with jq ``flags``; return (compiled, global, ignore_empty)."""
    for f in flags:
        if f not in _VALID_FLAGS:
            raise JQError(f"{flags} is not a valid modifier string")
    reflags = 0
    if "i" in flags:
        reflags |= re.IGNORECASE
    if "x" in flags:
        reflags |= re.VERBOSE
    if "p" in flags:  # Oniguruma's MULTILINE (dot matches newline); "s" (SINGLELINE) is
        reflags |= re.DOTALL  # already the Perl syntax's default: $ only at the very end
    translated = _translate(pattern)
    compiled: Any = None
    if _re2 is not None and _NESTED_QUANT.search(pattern):
        try:
            opts = _re2.Options()
            opts.case_sensitive = not (reflags & re.IGNORECASE)
            opts.dot_nl = bool(reflags & re.DOTALL)
            opts.log_errors = False
            pat = translated
            if reflags & re.VERBOSE:
                pat = "(?x)" + pat
            compiled = _re2.compile(pat, opts)
        except Exception:
            compiled = None
    if compiled is None:
        try:
            compiled = re.compile(translated, reflags)
        except re.error as e:
            raise JQError(f"{pattern} (at offset {getattr(e, 'pos', 0) or 0}) is not a valid regex: {e.msg}")
        except (OverflowError, RecursionError):
            raise JQError(f"{pattern} (at offset 0) is not a valid regex: too complex")
    return compiled, "g" in flags, "n" in flags


def _names(compiled: Any) -> dict[int, str]:
    try:
        return {idx: name for name, idx in compiled.groupindex.items()}
    except AttributeError:
        return {}


def _match_obj(m: Any, names: dict[int, str], ngroups: int) -> dict:
    start, end = m.span()
    caps = []
    for g in range(1, ngroups + 1):
        s, e = m.span(g)
        if s == -1:
            caps.append({"offset": -1, "string": None, "length": 0, "name": names.get(g)})
        else:
            caps.append({"offset": s, "length": e - s, "string": m.group(g), "name": names.get(g)})
    return {"offset": start, "length": end - start, "string": m.group(0), "captures": caps}


def _check_args(v: Any, regex: Any, flags: Any) -> str:
    if type(v) is not str:
        raise JQError(f"{describe(v)} cannot be matched, as it is not a string")
    if type(regex) is not str:
        raise JQError(f"{describe(regex)} cannot be matched, as it is not a string")
    if flags is not None and type(flags) is not str:
        raise JQError(f"{describe(flags)} is not a string")
    return flags or ""


def iter_matches(v: Any, regex: Any, flags: Any, force_global: bool = False):
    """Python match objects of ``regex`` in ``v`` as jq enumerates them."""
    from sandbox.commands.jq.interp import rt

    fl = _check_args(v, regex, flags)
    compiled, glob, skip_empty = compile_regex(regex, fl)
    glob = glob or force_global
    r = rt()
    if not glob:
        pos = 0
        while pos <= len(v):
            m = compiled.search(v, pos)
            if m is None:
                return
            if skip_empty and m.end() == m.start():
                pos = m.start() + 1
                continue
            yield m
            return
        return
    # jq 1.8's f_match loop: search again from where the match ended, or one past an empty
    # match (so no non-empty match is tried where an empty one was found), up to the end
    pos, end = 0, len(v)
    while pos <= end:
        m = compiled.search(v, pos)
        if m is None:
            return
        r.tick()
        if m.end() == m.start():
            pos = m.start() + 1
            if skip_empty:
                continue
        else:
            pos = m.end()
        yield m


def match_list(v: Any, regex: Any, flags: Any, test_only: bool = False) -> Any:
    """``_match_impl``: a list of match objects, or a boolean for ``test``."""
    if test_only:
        fl = _check_args(v, regex, flags)
        compiled, _glob, skip_empty = compile_regex(regex, fl)
        if not skip_empty:
            return compiled.search(v) is not None
        for _ in iter_matches(v, regex, flags):
            return True
        return False
    out = []
    compiled = compile_regex(regex, _check_args(v, regex, flags))[0]
    names = _names(compiled)
    ngroups = compiled.groups
    for m in iter_matches(v, regex, flags):
        out.append(_match_obj(m, names, ngroups))
    return out


def captures_of(m: Any, compiled: Any) -> dict:
    """The named-capture object that ``sub``'s replacement sees."""
    out = {}
    for name, idx in compiled.groupindex.items():
        out[name] = m.group(idx)
    return out
