"""POSIX regular expressions as GNU grep / sed understand them, on bytes, never hanging.

    from sandbox.regex import compile_regex, RegexError
    rx = compile_regex(rb"\\(ab\\)*c", extended=False, icase=False)
    m = rx.search(b"xxababc")        # leftmost-longest
    m.span(), m.group(1)             # (2, 7), b"ab"

Design
------
* ``sandbox.regex.parser`` parses GNU BRE / ERE (with GNU's extensions and odd cases) into a
  small AST and raises ``RegexError`` with GNU's wording (``Unmatched ( or \\(`` ...).
* Patterns RE2 can express exactly (no back-references, no ``\\< \\> \\b \\B``, no invalid UTF-8
  byte in the pattern, counts <= 1000) are translated to RE2 (``sandbox.regex.re2_backend``)
  and run with ``longest_match``: linear time, so they can never hang.
* The rest run on ``sandbox.regex.backtrack``: an explicit-stack VM; without back-references it
  memoises (instruction, position) and is linear too; with back-references it is bounded by
  the run's ``Budget`` deadline and raises ``LimitExceeded`` ("regex took too long").

Semantics: input is bytes in UTF-8; ``.`` and bracket expressions match one valid UTF-8
character and never an invalid byte; literal characters (and invalid bytes written in the
pattern) match themselves. Overall matches are POSIX leftmost-longest. Sub-matches (groups)
come from RE2's longest-match mode or from the first longest path of the backtracker, which
agrees with POSIX on common patterns but not on every ambiguous one.

Character classes and case-insensitive matching use glibc's C.UTF-8 tables
(``sandbox.regex._glibc_tables``) and GNU dfa's case-counterpart rule.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict

import re2

from sandbox.limits import Budget, Limits
from sandbox.regex.backtrack import Program, run_search
from sandbox.regex.parser import ParsedRegex, RegexError, parse
from sandbox.regex.re2_backend import NotTranslatable, to_re2

__all__ = ["compile_regex", "compile_patterns", "Regex", "Match", "RegexError"]

_UNANCHORED = re2._Anchor.UNANCHORED  # type: ignore[attr-defined]
_ANCHOR_START = re2._Anchor.ANCHOR_START  # type: ignore[attr-defined]


class Match:
    """One match: byte offsets into the searched data, per group (``-1`` when unset)."""

    __slots__ = ("_data", "_spans")

    def __init__(self, data: bytes, spans: list[tuple[int, int]]):
        self._data = data
        self._spans = spans

    def start(self, g: int = 0) -> int:
        """Start offset of group ``g`` (-1 if it did not take part)."""
        return self._spans[g][0]

    def end(self, g: int = 0) -> int:
        """End offset of group ``g`` (-1 if it did not take part)."""
        return self._spans[g][1]

    def span(self, g: int = 0) -> tuple[int, int]:
        """(start, end) of group ``g``."""
        return self._spans[g]

    def group(self, g: int = 0) -> bytes | None:
        """The bytes group ``g`` matched, or None if it did not take part."""
        s, e = self._spans[g]
        if s < 0:
            return None
        return self._data[s:e]

    def __repr__(self) -> str:
        return f"<Match span={self._spans[0]} {self.group()!r}>"


class Regex:
    """A compiled GNU regular expression (see the module docstring for its semantics)."""

    def __init__(self, parsed: ParsedRegex, *, icase: bool, multiline: bool, dot_newline: bool,
                 budget: Budget | None, reg_newline: bool = False):
        self.parsed = parsed
        #: Number of capturing groups.
        self.groups: int = parsed.groups
        #: GNU grep's warnings about the pattern (``stray \\ before d``...), without a prefix.
        self.warnings: list[str] = list(parsed.warnings)
        self.icase = icase
        self.multiline = multiline
        self.dot_newline = dot_newline
        self.reg_newline = reg_newline
        self.budget = budget if budget is not None else Budget(Limits())
        self._re2: object | None = None
        self._prog: Program | None = None
        if not parsed.has_backrefs:
            try:
                text = to_re2(parsed.ast, icase, dot_newline, reg_newline)
                options = re2.Options()
                options.longest_match = True
                options.case_sensitive = True  # case variants are spelled out (GNU's)
                if multiline:
                    text = "(?m)" + text
                options.max_mem = 64 << 20
                options.log_errors = False
                compiled = re2.compile(text.encode(), options)
                self._re2 = compiled._regexp
            except NotTranslatable:
                pass
            except re2.error:
                pass
        if self._re2 is None:
            self._prog = Program(parsed.ast, parsed.groups, icase, dot_newline,
                                 memoize=not parsed.has_backrefs, reg_newline=reg_newline)

    def with_budget(self, budget: Budget | None) -> "Regex":
        """The same compiled regex bounded by another run's ``budget`` (compiled parts are
        shared; they hold no per-run state)."""
        other = copy.copy(self)
        other.budget = budget if budget is not None else Budget(Limits())
        other.warnings = list(self.warnings)
        return other

    @property
    def uses_re2(self) -> bool:
        """True when the linear-time RE2 engine runs this pattern."""
        return self._re2 is not None

    def search(self, data: bytes, pos: int = 0, endpos: int | None = None, *,
               not_bol: bool = False) -> Match | None:
        """Leftmost-longest match starting at or after ``pos`` and ending by ``endpos``.

        ``^`` matches at ``pos`` only if it is a line start in multiline mode (after a newline)
        or ``pos == 0`` and not ``not_bol``; ``$`` matches at ``endpos`` (default: the end of
        ``data``) and, in multiline mode, before a newline; ``\\``` matches only at offset 0 and
        ``\\'`` only at ``endpos``.
        """
        n = len(data)
        if endpos is None or endpos > n:
            endpos = n
        if pos < 0:
            pos = 0
        if pos > endpos:
            return None
        if self._re2 is not None:
            text = data
            shift = 0
            if endpos < n and not (self.multiline and data[endpos] == 10):
                # RE2 treats ``endpos`` as the middle of the text (no ``$`` there): cut the text
                # unless ``$`` already matches there because a newline follows (multiline).
                text = data[:endpos]
            if not_bol and pos == 0 and not self.multiline:
                # Make offset 0 unable to match ``^`` without changing any other position:
                # prefix a newline-free byte and search from 1 in one-line mode.
                text = b"\x00" + text
                shift = 1
            spans = self._re2.Match(_UNANCHORED, text, pos + shift,  # type: ignore
                                    endpos + shift if text is data else len(text))
            if spans[0][0] < 0:
                return None
            if shift:
                spans = [(s - 1, e - 1) if s >= 0 else (s, e) for s, e in spans]
            return Match(data, spans)
        assert self._prog is not None
        regs = run_search(self._prog, data, pos, endpos, not_bol, self.multiline, self.budget)
        if regs is None:
            return None
        return Match(data, self._spans(regs))

    def search_start(self, data: bytes, pos: int, endpos: int) -> int:
        """Start offset of the leftmost match in data[pos:endpos], or -1: ``search`` without
        building a ``Match`` (the hot path of grep's line finder)."""
        if self._re2 is not None and endpos <= len(data) and (
                endpos == len(data) or (self.multiline and data[endpos] == 10)):
            return self._re2.Match(_UNANCHORED, data, pos, endpos)[0][0]  # type: ignore
        m = self.search(data, pos, endpos)
        return -1 if m is None else m.start()

    def match(self, data: bytes, pos: int = 0, endpos: int | None = None) -> Match | None:
        """Longest match starting exactly at ``pos`` (same anchor rules as ``search``)."""
        n = len(data)
        if endpos is None or endpos > n:
            endpos = n
        if pos < 0 or pos > endpos:
            return None
        if self._re2 is not None:
            if endpos == n or (self.multiline and data[endpos] == 10):
                spans = self._re2.Match(_ANCHOR_START, data, pos, endpos)  # type: ignore
            else:
                spans = self._re2.Match(_ANCHOR_START, data[:endpos], pos, endpos)  # type: ignore
            if spans[0][0] < 0:
                return None
            return Match(data, spans)
        assert self._prog is not None
        regs = run_search(self._prog, data, pos, endpos, False, self.multiline, self.budget,
                          anchored=True)
        if regs is None:
            return None
        return Match(data, self._spans(regs))

    def _spans(self, regs: list[int]) -> list[tuple[int, int]]:
        return [(regs[2 * g], regs[2 * g + 1]) if regs[2 * g] >= 0 and regs[2 * g + 1] >= 0
                else (-1, -1) for g in range(self.groups + 1)]

    def alternatives(self, limit: int = 4) -> list["Regex"] | None:
        """The top-level branches of ``a|b|...`` compiled on their own (RE2 only), or None.

        The leftmost match start of the whole expression is the smallest leftmost start of its
        branches, and a single literal runs much faster in RE2 (prefix acceleration) than an
        alternation, so grep's line finder may search the branches separately.
        """
        ast = self.parsed.ast
        if ast[0] != "alt" or self.parsed.has_backrefs or not 2 <= len(ast[1]) <= limit:
            return None
        out = []
        for branch in ast[1]:
            sub = Regex(ParsedRegex(branch, self.groups, False, []), icase=self.icase,
                        multiline=self.multiline, dot_newline=self.dot_newline,
                        budget=self.budget, reg_newline=self.reg_newline)
            if not sub.uses_re2:
                return None
            out.append(sub)
        return out

    def finditer(self, data: bytes, pos: int = 0, endpos: int | None = None):
        """Successive non-overlapping matches, as ``grep -o`` walks them (an empty match
        advances by one character)."""
        return iter_matches(self.search, data, pos, endpos)


def iter_matches(search, data: bytes, pos: int = 0, endpos: int | None = None):  # type: ignore[no-untyped-def]
    """The successive non-overlapping matches ``search(data, pos, endpos)`` finds, an empty
    match moving on by one (byte or character: the next search starts there)."""
    if endpos is None:
        endpos = len(data)
    while pos <= endpos:
        m = search(data, pos, endpos)
        if m is None:
            return
        yield m
        s, e = m.span()
        pos = e if e > s else e + 1


def compile_regex(pattern: bytes, *, extended: bool = False, icase: bool = False,
                  multiline: bool = False, dot_newline: bool = False,
                  reg_newline: bool = False, glibc_syntax: bool = False,
                  budget: Budget | None = None) -> Regex:
    """Compile a GNU BRE (or ERE when ``extended``) given as bytes.

    ``icase`` matches case-insensitively (ASCII and non-ASCII letters); ``multiline`` lets
    ``^``/``$`` match around embedded newlines (sed's ``M``); ``dot_newline`` lets ``.`` and
    negated brackets match a newline (sed's pattern space, ``grep -z``); without it no bracket
    expression matches a newline, unless ``reg_newline`` (glibc's REG_NEWLINE, sed's ``M``):
    then only ``.`` and ``[^...]`` skip newlines while ``\\W``, ``\\s`` and brackets that
    contain a newline still match it. ``glibc_syntax`` applies glibc regcomp's stricter syntax
    (GNU sed's; see ``parser.parse``) instead of GNU grep's. ``budget`` bounds the
    backtracking engine's time. Raises ``RegexError`` whose text is GNU's message.
    """
    text = pattern.decode("utf-8", "surrogateescape")
    try:
        parsed = parse(text, extended, glibc_syntax)
        return Regex(parsed, icase=icase, multiline=multiline, dot_newline=dot_newline,
                     budget=budget, reg_newline=reg_newline)
    except RecursionError:
        raise RegexError("Regular expression too big") from None


def _renumber(node: tuple, offset: int) -> tuple:
    """Shift group and back-reference numbers of ``node`` by ``offset``."""
    kind = node[0]
    if kind == "group":
        return ("group", node[1] + offset, _renumber(node[2], offset))
    if kind == "backref":
        return ("backref", node[1] + offset)
    if kind in ("cat", "alt"):
        return (kind, [_renumber(sub, offset) for sub in node[1]])
    if kind == "repeat":
        return ("repeat", _renumber(node[1], offset), node[2], node[3])
    return node


def _buffer_anchors_to_line(node: tuple) -> tuple:
    kind = node[0]
    if node == ("assert", "bot"):
        return ("assert", "bol")
    if node == ("assert", "eot"):
        return ("assert", "eol")
    if kind == "group":
        return ("group", node[1], _buffer_anchors_to_line(node[2]))
    if kind in ("cat", "alt"):
        return (kind, [_buffer_anchors_to_line(sub) for sub in node[1]])
    if kind == "repeat":
        return ("repeat", _buffer_anchors_to_line(node[1]), node[2], node[3])
    return node


def compile_patterns(patterns: list[bytes], *, syntax: str = "G", icase: bool = False,
                     whole_line: bool = False, multiline: bool = False,
                     dot_newline: bool = False, budget: Budget | None = None) -> Regex:
    """Compile several grep patterns into one regex matching any of them.

    ``syntax`` is ``"G"`` (BRE), ``"E"`` (ERE) or ``"F"`` (fixed strings); ``whole_line``
    anchors the alternation at both ends (``grep -x``). As grep matches line by line,
    ``\\``` and ``\\'`` mean the start and end of the line (record). Each pattern keeps its own groups and
    back-references (renumbered behind the scenes). Raises ``RegexError`` if a pattern is
    invalid; its ``args`` hold the message of every invalid one. Warnings of every pattern are collected on the result.
    """
    key = (tuple(patterns), syntax, icase, whole_line, multiline, dot_newline)
    cacheable = sum(len(p) for p in patterns) <= _CACHE_PATTERN_BYTES
    if cacheable:
        with _CACHE_LOCK:
            hit = _CACHE.get(key)
            if hit is not None:
                _CACHE.move_to_end(key)
        if hit is not None:
            return hit.with_budget(budget)
    regex = _compile_patterns(patterns, syntax, icase, whole_line, multiline, dot_newline,
                              budget)
    if cacheable:
        with _CACHE_LOCK:
            _CACHE[key] = regex
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
    return regex


#: Compiled grep pattern sets, most recently used last (a tool call repeats the same grep).
_CACHE: "OrderedDict[tuple, Regex]" = OrderedDict()
_CACHE_LOCK = threading.Lock()
_CACHE_SIZE = 64
_CACHE_PATTERN_BYTES = 4096


def _compile_patterns(patterns: list[bytes], syntax: str, icase: bool, whole_line: bool,
                      multiline: bool, dot_newline: bool, budget: Budget | None) -> Regex:
    branches: list[tuple] = []
    errors: list[str] = []
    groups = 0
    has_backrefs = False
    warnings: list[str] = []
    for pattern in patterns:
        text = pattern.decode("utf-8", "surrogateescape")
        if syntax == "F":
            node: tuple = ("cat", [("char", c) for c in text]) if text else ("empty",)
            branches.append(node)
            continue
        try:
            parsed = parse(text, syntax == "E")
        except RegexError as err:
            errors.append(str(err))
            continue
        except RecursionError:
            errors.append("Regular expression too big")
            continue
        branches.append(_renumber(parsed.ast, groups) if groups else parsed.ast)
        groups += parsed.groups
        has_backrefs = has_backrefs or parsed.has_backrefs
        for w in parsed.warnings:
            if w not in warnings:
                warnings.append(w)
    if errors:
        # GNU reports every invalid pattern, one line each.
        raise RegexError(*errors)
    if not branches:
        branches = [("set", False, ())]  # no pattern at all (grep -f /dev/null): never matches
    ast: tuple = branches[0] if len(branches) == 1 else ("alt", branches)
    # grep matches each line on its own: \` and \' are the line's (record's) start and end.
    ast = _buffer_anchors_to_line(ast)
    if whole_line:
        ast = ("cat", [("assert", "bol"), ast, ("assert", "eol")])
    parsed_all = ParsedRegex(ast, groups, has_backrefs, warnings)
    try:
        return Regex(parsed_all, icase=icase, multiline=multiline, dot_newline=dot_newline,
                     budget=budget)
    except RecursionError:
        raise RegexError("Regular expression too big") from None
