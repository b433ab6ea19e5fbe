"""A pattern matcher without backtracking, for the patterns a regex engine could take
exponential time on: extglob groups (``+(a|aa)``, nested ``*(...)``, ``!(...)``) and globs with
many ``*``. It computes, for a start position, the set of every end position where the
pattern matches (memoized per sub-pattern and position), so its time is polynomial in the
string's length; ``check`` (the run's time budget) is called as it works.

A pattern is given as one text where a backslash escapes the next character (see
``patterns.joined``)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable

from sandbox.errors import LimitExceeded

#: The longest string this matcher takes (its memory grows with the square of the length).
MAX_TEXT = 20000

Node = tuple  # ("lit", c) ("any",) ("star",) ("set", regex) ("group", kind, (seq, ...))
Seq = tuple  # a tuple of nodes


def _parse(text: str) -> Seq:
    from sandbox.interpreter import patterns
    nodes: list[Node] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "?*+@!" and text[i + 1:i + 2] == "(":
            end = patterns._group_end(text, i + 1)
            if end > 0:
                alts = tuple(_parse(patterns._unquote_alt(a))
                             for a in patterns._alternatives(text[i + 2:end]))
                nodes.append(("group", c, alts))
                i = end + 1
                continue
        if c == "*":
            while i < n and text[i] == "*":
                i += 1
            nodes.append(("star",))
            continue
        if c == "?":
            nodes.append(("any",))
        elif c == "[":
            got = patterns._bracket(text, i)
            if got is not None:
                nodes.append(("set", re.compile(got[0], re.DOTALL)))
                i = got[1]
                continue
            nodes.append(("lit", c))
        elif c == "\\" and i + 1 < n:
            nodes.append(("lit", text[i + 1]))
            i += 2
            continue
        else:
            nodes.append(("lit", c))
        i += 1
    return tuple(nodes)


@lru_cache(maxsize=256)
def compile_pattern(text: str) -> Seq:
    """The parsed form of a pattern text (cached)."""
    return _parse(text)


def reverse(seq: Seq) -> Seq:
    """The pattern that matches the reversed strings (every construct is symmetric)."""
    out = []
    for node in reversed(seq):
        if node[0] == "group":
            node = ("group", node[1], tuple(reverse(a) for a in node[2]))
        out.append(node)
    return tuple(out)


@lru_cache(maxsize=128)
def compile_reversed(text: str) -> Seq:
    """The reversed form of a pattern text (cached): for suffix matches."""
    return reverse(compile_pattern(text))


class Matcher:
    """Matches one compiled pattern against one string, from any start position."""

    def __init__(self, pattern: Seq, s: str, check: Callable[[], None] | None = None):
        if len(s) > MAX_TEXT:
            raise LimitExceeded("pattern", f"pattern too complex to match against a string of "
                                f"{len(s)} characters (limit {MAX_TEXT}); use grep or sed")
        self.pattern = pattern
        self.s = s
        self.n = len(s)
        self.check = check
        self.steps = 0
        self.memo: dict[tuple[int, int], frozenset[int]] = {}

    def ends(self, start: int) -> frozenset[int]:
        """Every ``j`` such that ``s[start:j]`` matches the whole pattern."""
        return self._seq(self.pattern, start)

    def fullmatch(self, start: int = 0) -> bool:
        """True if ``s[start:]`` matches the pattern."""
        return self.n in self.ends(start)

    def _tick(self, amount: int = 1) -> None:
        self.steps += amount
        if self.steps > 4096:
            self.steps = 0
            if self.check is not None:
                self.check()

    def _seq(self, seq: Seq, start: int) -> frozenset[int]:
        key = (id(seq), start)
        got = self.memo.get(key)
        if got is not None:
            return got
        cur: set[int] = {start}
        s, n = self.s, self.n
        for node in seq:
            if not cur:
                break
            self._tick(len(cur))
            kind = node[0]
            if kind == "star":
                cur = set(range(min(cur), n + 1))
            elif kind == "lit":
                c = node[1]
                cur = {p + 1 for p in cur if p < n and s[p] == c}
            elif kind == "any":
                cur = {p + 1 for p in cur if p < n}
            elif kind == "set":
                rx = node[1]
                cur = {p + 1 for p in cur if p < n and rx.fullmatch(s[p])}
            else:
                nxt: set[int] = set()
                for p in cur:
                    nxt |= self._group(node, p)
                cur = nxt
        out = frozenset(cur)
        self.memo[key] = out
        return out

    def _alts(self, alts: tuple, p: int) -> set[int]:
        out: set[int] = set()
        for a in alts:
            out |= self._seq(a, p)
        return out

    def _group(self, node: Node, p: int) -> frozenset[int]:
        key = (id(node), p)
        got = self.memo.get(key)
        if got is not None:
            return got
        kind, alts = node[1], node[2]
        if kind == "@":
            res = self._alts(alts, p)
        elif kind == "?":
            res = self._alts(alts, p) | {p}
        elif kind == "!":
            bad = self._alts(alts, p)
            res = {j for j in range(p, self.n + 1) if j not in bad}
        else:  # "*" or "+": one or more rounds (none too for "*")
            res = {p} if kind == "*" else set()
            todo = [p]
            seen = {p}
            while todo:
                self._tick()
                q = todo.pop()
                for e in self._alts(alts, q):
                    res.add(e)
                    if e not in seen:
                        seen.add(e)
                        todo.append(e)
        out = frozenset(res)
        self.memo[key] = out
        return out
