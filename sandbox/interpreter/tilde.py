"""Tilde expansion as bash 5.2 does it: ``~`` ($HOME), ``~user`` (the sandbox's virtual user
and ``root`` only; there is no host user database), ``~+`` / ``~+0`` / ``~0`` ($PWD), ``~-``
($OLDPWD); at the start of a word, and in assignments (and words that look like one) also
after ``=`` and after each unquoted ``:``. The result is quoted (never split or globbed)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sandbox.commands._identity import USER
from sandbox.parse.ast import Lit, Part, Quoted, Tilde

if TYPE_CHECKING:
    from sandbox.interpreter.core import Shell

#: An argument that looks like an assignment (``name=``, ``name+=``, ``name[sub]=``).
_ASSIGN_LIKE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=")
#: Home directories of the virtual user database.
_HOMES = {"root": "/root"}


def home(sh: "Shell") -> str:
    """What a lone ``~`` gives: $HOME, or the virtual user's home when HOME is unset."""
    value = sh.get_var("HOME")
    return "/" if value is None else value


def prefix_value(sh: "Shell", prefix: str) -> str | None:
    """The expansion of the tilde-prefix ``~prefix`` (``prefix`` without the ``~``), or None
    when it stays as written (an unknown user, ``~-`` without OLDPWD, ``~1``...)."""
    if prefix == "":
        return home(sh)
    if prefix in ("+", "+0", "0"):
        return sh.get_var("PWD")
    if prefix in ("-", "-0"):
        return sh.get_var("OLDPWD")
    if prefix == USER:
        return sh.get_var("HOME") or "/"
    return _HOMES.get(prefix)


def assign_like(parts: list[Part]) -> bool:
    """True if a command argument starts like an assignment (``x=~`` expands its tildes)."""
    return bool(parts) and isinstance(parts[0], Lit) and bool(_ASSIGN_LIKE.match(parts[0].text))


def expand(sh: "Shell", parts: list[Part], assign: bool = False, eq: bool = False) -> list[Part]:
    """``parts`` with their tilde-prefixes replaced by quoted text. ``assign``: an
    assignment's value (``~`` also after each ``:``); ``eq``: an argument that looks like an
    assignment (``~`` right after its first ``=`` and after each ``:``). Without any ``~``
    the list itself is returned."""
    for p in parts:
        if isinstance(p, Tilde) or (isinstance(p, Lit) and "~" in p.text):
            break
    else:
        return parts
    out: list[Part] = []
    last = len(parts) - 1
    for idx, p in enumerate(parts):
        if isinstance(p, Tilde):
            out.append(Quoted(home(sh)))
            continue
        if not isinstance(p, Lit) or "~" not in p.text:
            out.append(p)
            continue
        text = p.text
        colon = assign or eq
        eq_at = -1
        if eq and idx == 0:
            m = _ASSIGN_LIKE.match(text)
            eq_at = m.end() if m else -1
        buf_start = 0
        i = 0
        n = len(text)
        while i < n:
            c = text[i]
            at_start = (i == 0 and idx == 0) or i == eq_at or (
                colon and (text[i - 1] == ":" if i else False))
            if c != "~" or not at_start:
                i += 1
                continue
            j = i + 1
            while j < n and text[j] not in "/:":
                j += 1
            if j == n and idx < last and not isinstance(parts[idx + 1], Tilde):
                break  # the prefix runs into a quoted or expanded part: no expansion
            value = prefix_value(sh, text[i + 1: j])
            if value is None:
                i = j
                continue
            if i > buf_start:
                out.append(Lit(text[buf_start: i]))
            out.append(Quoted(value))
            buf_start = i = j
        if buf_start < n:
            out.append(Lit(text[buf_start:]))
    return out
