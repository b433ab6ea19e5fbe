"""``grep -P``: PCRE2 patterns as GNU grep 3.8 runs them (PCRE2 10.42, UTF, no UCP), on the
``regex`` module.

A PCRE2 pattern is parsed here (PCRE2's error wording for the common mistakes) and written
out as an equivalent ``regex`` pattern over ``str``: each line is decoded with
``surrogateescape``, and no item of the translation ever matches a lone surrogate, so an
invalid byte is the barrier PCRE2_MATCH_INVALID_UTF makes of it (nothing matches it and no
lookbehind crosses it). GNU's own handling around PCRE2 is kept: ``-w`` wraps the pattern
text in ``(?<!\\w)(?:...)(?!\\w)``, ``-x`` in ``^(?:...)$`` (PCRE2_EXTRA_MATCH_LINE), the
pattern set must be one pattern, and bytes that cannot start a character are skipped before
a search, the subject then starting after them (``^`` fails there, ``\\A`` matches).

Semantics followed (GNU grep 3.8 with PCRE2 10.42 in C.UTF-8): ``\\d \\w \\s \\b`` and POSIX
classes are ASCII; case-insensitive matching is Unicode's simple folding; ``$`` is the end of
the line only (PCRE2_DOLLAR_ENDONLY); ``\\h \\v \\R`` are Unicode. The stand-alone ``\\W \\D
\\S`` never match a non-ASCII character (PCRE2 10.42's JIT with PCRE2_MATCH_INVALID_UTF does
so; inside brackets they do). Every search runs with a timeout bound to the run's deadline.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from time import monotonic as _monotonic

import regex as _regex

from sandbox.commands._locale import stand_in
from sandbox.errors import LimitExceeded
from sandbox.limits import Budget, Limits

__all__ = ["PerlError", "PerlRegex", "compile_perl"]


class PerlError(Exception):
    """A pattern PCRE2 would refuse: the message is PCRE2's (GNU prints it after ``grep: ``)."""


class PerlLimit(Exception):
    """A search the ``regex`` module gave up (out of memory): GNU's ``NAME: exceeded PCRE's
    backtracking limit``, status 2."""


MAXCP = 0x10FFFF
#: Lone surrogates: the invalid bytes of a line (U+DC80..U+DCFF) and the "not at the start of
#: a line" marker U+D800. No item of a translated pattern matches them.
_SURR = (0xD800, 0xDFFF)
_ALL = [(0, 0xD7FF), (0xE000, MAXCP)]
_NOSURR = r"\ud800-\udfff"
_MARK = "\ud800"

_DIGIT = [(0x30, 0x39)]
_WORD = [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]
_SPACE = [(0x09, 0x0D), (0x20, 0x20)]
_HSPACE = [(0x09, 0x09), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x180E, 0x180E),
           (0x2000, 0x200A), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000)]
_VSPACE = [(0x0A, 0x0D), (0x85, 0x85), (0x2028, 0x2029)]
_POSIX = {
    "alpha": [(0x41, 0x5A), (0x61, 0x7A)],
    "digit": _DIGIT,
    "alnum": [(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)],
    "upper": [(0x41, 0x5A)],
    "lower": [(0x61, 0x7A)],
    "space": _SPACE,
    "blank": [(0x09, 0x09), (0x20, 0x20)],
    "cntrl": [(0x00, 0x1F), (0x7F, 0x7F)],
    "graph": [(0x21, 0x7E)],
    "print": [(0x20, 0x7E)],
    "punct": [(0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)],
    "xdigit": [(0x30, 0x39), (0x41, 0x46), (0x61, 0x66)],
    "word": _WORD,
    "ascii": [(0x00, 0x7F)],
}


def _complement(ranges):
    """The code points (surrogates left out) outside ``ranges``."""
    out = []
    lo = 0
    for a, b in _normalize(ranges):
        if a > lo:
            out.append((lo, a - 1))
        lo = max(lo, b + 1)
    if lo <= MAXCP:
        out.append((lo, MAXCP))
    return _minus_surrogates(out)


def _normalize(ranges):
    out: list[list[int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def _minus_surrogates(ranges):
    out = []
    for a, b in ranges:
        if b < _SURR[0] or a > _SURR[1]:
            out.append((a, b))
            continue
        if a < _SURR[0]:
            out.append((a, _SURR[0] - 1))
        if b > _SURR[1]:
            out.append((_SURR[1] + 1, b))
    return out


def _ch(cp: int) -> str:
    """``cp`` written for the inside of a ``regex`` character class or as a literal."""
    if cp < 0x80 and (chr(cp).isalnum() or cp == 0x5F):
        return chr(cp)
    if cp <= 0xFFFF:
        return "\\u%04x" % cp
    return "\\U%08x" % cp


def _set_text(ranges) -> str:
    parts = []
    for a, b in _normalize(ranges):
        parts.append(_ch(a) if a == b else _ch(a) + "-" + _ch(b))
    return "".join(parts)


def _cls(ranges) -> str:
    text = _set_text(ranges)
    return "[" + text + "]" if text else "(?!)"


# Stand-alone escapes (outside brackets); \W \D \S as PCRE2 10.42's JIT runs them in GNU
# grep 3.8 (ASCII characters only).
_ESC_OUT = {
    "d": _cls(_DIGIT),
    "D": _cls(_complement(_DIGIT + [(0x80, MAXCP)])),
    "w": _cls(_WORD),
    "W": _cls(_complement(_WORD + [(0x80, MAXCP)])),
    "s": _cls(_SPACE),
    "S": _cls(_complement(_SPACE + [(0x80, MAXCP)])),
    "h": _cls(_HSPACE),
    "H": _cls(_complement(_HSPACE)),
    "v": _cls(_VSPACE),
    "V": _cls(_complement(_VSPACE)),
    "N": _cls(_complement([(0x0A, 0x0A)])),
}
#: The stand-alone ``\\D \\W \\S`` without UTF (the C locale): every other character.
_ESC_OUT_BYTES = {
    "D": _cls(_complement(_DIGIT)),
    "W": _cls(_complement(_WORD)),
    "S": _cls(_complement(_SPACE)),
}
_ESC_IN = {
    "d": _DIGIT, "D": _complement(_DIGIT), "w": _WORD, "W": _complement(_WORD),
    "s": _SPACE, "S": _complement(_SPACE), "h": _HSPACE, "H": _complement(_HSPACE),
    "v": _VSPACE, "V": _complement(_VSPACE),
}
_W = _cls(_WORD)
_WORD_B = f"(?:(?<={_W})(?!{_W})|(?<!{_W})(?={_W}))"
_WORD_NB = f"(?:(?<={_W})(?={_W})|(?<!{_W})(?!{_W}))"
_SIMPLE_ESC = {"a": 7, "e": 0x1B, "f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09}
_UNSUPPORTED_ESC = "PCRE2 does not support \\F, \\L, \\l, \\N{name}, \\U, or \\u"
_ALPHA_ASSERTIONS = {
    "pla": "(?=", "positive_lookahead": "(?=", "nla": "(?!", "negative_lookahead": "(?!",
    "plb": "(?<=", "positive_lookbehind": "(?<=", "nlb": "(?<!", "negative_lookbehind": "(?<!",
    "atomic": "(?>",
}
_VERBS = {"FAIL": "(?!)", "F": "(?!)", "PRUNE": "(*PRUNE)", "SKIP": "(*SKIP)"}
_NOT_FIXED = "lookbehind assertion is not fixed length"
#: What ``_Parser.peek`` returns past the end: equal to no character, in no string of them.
END = "\0\0"


class _Node:
    """A translated piece: its ``regex`` text, width bounds (max None: unbounded), whether a
    quantifier may follow it, and whether it is a plain literal character (for merging)."""

    __slots__ = ("text", "lo", "hi", "repeatable", "lit", "icase")

    def __init__(self, text, lo, hi, repeatable=True, lit=False, icase=False):
        self.text = text
        self.lo = lo
        self.hi = hi
        self.repeatable = repeatable
        self.lit = lit
        self.icase = icase


class _Parser:
    def __init__(self, pattern: str, icase: bool, widths: dict | None = None,
                 single_byte: bool = False):
        #: The C locale (PCRE2 without UTF; pattern and subject widened, see
        #: ``_locale.widen``): ``\\xHH`` above 0x7F is that byte's stand-in, and the
        #: stand-alone ``\\D \\W \\S`` match every byte outside their class.
        self.single_byte = single_byte
        #: Capture group number -> (min, max) width, from a first pass (back-references in
        #: a lookbehind need the width of a group that may come later).
        self.widths = widths
        self.found_widths: dict[int, tuple] = {}
        self.p = pattern
        self.i = 0
        self.n = len(pattern)
        self.flags = {"i": icase, "s": False, "m": False, "x": False, "xx": False,
                      "n": False, "U": False, "J": False}
        self.groups = 0
        self.names: dict[str, int] = {}
        self.max_ref = 0
        self.ref_names: list[str] = []
        #: Quantifiers whose count varies, and alternations (the backtracking cost's degree);
        #: ``risky`` when one of them is repeated, or back-references / recursion are used.
        self.nq = 0
        self.alts = 0
        self.risky = False
        #: Literal text every match holds (the longest run of plain characters of the
        #: top-level sequence when there is no top-level alternation), or "".
        self.required = ""
        #: Left recursion: (group, called group) for each call made before the group
        #: consumed anything; a cycle loops for ever (the regex module then eats memory).
        self.prefix: list[int] = []
        self.open_groups: list[tuple[object, int]] = [(0, 0)]
        self.call_edges: set[tuple[object, object]] = set()
        self.late: str | None = None
        self.look = 0  # lookaround depth
        self.behind = 0  # lookbehind depth
        self.depth = 0

    # -- helpers ------------------------------------------------------------------------

    def peek(self, k=0):
        """The character ``k`` ahead, or END (never in any set of characters tested)."""
        j = self.i + k
        return self.p[j] if j < self.n else END

    def read_name(self, terminator: str) -> str:
        """PCRE2's ``read_name``: a group name at ``self.i`` ended by ``terminator``,
        which is consumed."""
        p = self.p
        k = self.i
        if k < self.n and p[k].isdigit():
            self.error("subpattern name must start with a non-digit")
        while k < self.n and (p[k].isalnum() or p[k] == "_"):
            k += 1
        name = p[self.i:k]
        if k - self.i > 32:
            self.error("subpattern name is too long (maximum 32 code units)")
        if not name:
            self.error("subpattern name expected")
        if k >= self.n or p[k] != terminator:
            self.error("syntax error in subpattern name (missing terminator?)")
        self.i = k + 1
        return name

    def error(self, msg):
        raise PerlError(msg)

    def late_error(self, msg):
        """An error PCRE2 finds after the syntax pass (lookbehind lengths, \\K in a
        lookaround): reported only if the pattern's syntax is right."""
        if self.late is None:
            self.late = msg

    def skip_extended(self):
        """(?x): white space and # comments between items."""
        if not self.flags["x"]:
            return
        while self.i < self.n:
            c = self.p[self.i]
            if c in " \t\n\x0b\f\r":
                self.i += 1
            elif c == "#":
                j = self.p.find("\n", self.i)
                self.i = self.n if j < 0 else j + 1
            else:
                break

    # -- structure ----------------------------------------------------------------------

    def parse(self) -> str:
        node = self.alternation(top=True)
        if self.i < self.n:
            self.error("unmatched closing parenthesis")
        if self.late is not None:
            self.error(self.late)
        for name in self.ref_names:
            if name not in self.names:
                self.error("reference to non-existent subpattern")
        if self.max_ref > self.groups:
            self.error("reference to non-existent subpattern")
        self._check_left_recursion()
        return node.text

    def _check_left_recursion(self) -> None:
        graph: dict[object, set] = {}
        for a, b in self.call_edges:
            a = self.names.get(a, a) if isinstance(a, str) else a
            b = self.names.get(b, b) if isinstance(b, str) else b
            graph.setdefault(a, set()).add(b)
        state: dict[object, int] = {}

        def visit(node) -> bool:
            state[node] = 1
            for nxt in graph.get(node, ()):
                if state.get(nxt) == 1 or (state.get(nxt) is None and visit(nxt)):
                    return True
            state[node] = 2
            return False

        for node in list(graph):
            if state.get(node) is None and visit(node):
                self.error("recursive call could loop indefinitely")

    def alternation(self, branch_reset=False, top=False) -> _Node:
        saved = dict(self.flags)
        start_groups = self.groups
        most = start_groups
        branches = []
        while True:
            if branch_reset:
                self.groups = start_groups
            branches.append(self.sequence(top))
            most = max(most, self.groups)
            if self.peek() == "|":
                self.i += 1
                self.alts += 1
                top = False
                self.required = ""
                continue
            break
        if branch_reset:
            self.groups = most
        self.flags = saved
        if len(branches) == 1:
            return branches[0]
        lo = min(b.lo for b in branches)
        hi = None if any(b.hi is None for b in branches) else max(b.hi for b in branches)
        node = _Node("|".join(b.text for b in branches), lo, hi)
        return node

    def sequence(self, top=False) -> _Node:
        items: list[_Node] = []
        self.prefix.append(0)
        try:
            return self._sequence(items, top)
        finally:
            self.prefix.pop()

    def _sequence(self, items: list[_Node], top: bool) -> _Node:
        while True:
            self.skip_extended()
            if self.i >= self.n or self.p[self.i] in "|)":
                break
            cost = (self.nq, self.alts, self.risky)
            self.atom_cost = cost
            atom = self.atom()
            if atom is None:
                continue
            if isinstance(atom, list):
                items.extend(atom[:-1])
                atom = atom[-1]
            self.skip_extended()
            self.atom_cost = cost
            atom = self.quantifier(atom)
            items.append(atom)
            self.prefix[-1] += atom.lo
        if top:
            run: list[str] = []
            best = ""
            for it in items + [None]:
                if it is not None and it.lit and not it.icase:
                    run.append(it.text)
                    continue
                text = _unescape_run(run)
                if len(text.encode()) > len(best.encode()):
                    best = text
                run = []
            self.required = best
        # Merge runs of plain literals of the same case mode into one group.
        parts = []
        lo = 0
        hi: int | None = 0
        k = 0
        while k < len(items):
            it = items[k]
            if it.lit:
                j = k
                while j < len(items) and items[j].lit and items[j].icase == it.icase:
                    j += 1
                text = "".join(x.text for x in items[k:j])
                parts.append(f"(?i:{text})" if it.icase else text)
                lo += j - k
                if hi is not None:
                    hi += j - k
                k = j
                continue
            parts.append(it.text)
            lo += it.lo
            hi = None if hi is None or it.hi is None else hi + it.hi
            k += 1
        return _Node("".join(parts), lo, hi)

    def quantifier(self, atom: _Node) -> _Node:
        c = self.peek()
        lo = hi = None
        start = self.i
        if c == "*":
            lo, hi = 0, None
            self.i += 1
        elif c == "+":
            lo, hi = 1, None
            self.i += 1
        elif c == "?":
            lo, hi = 0, 1
            self.i += 1
        elif c == "{":
            q = self._brace_quantifier()
            if q is None:
                return atom
            lo, hi = q
        else:
            return atom
        if not atom.repeatable:
            self.i = start
            self.error("quantifier does not follow a repeatable item")
        if lo != hi:
            nq, alts, risky = self.atom_cost
            if self.nq > nq or self.alts > alts:
                self.risky = True
            self.nq += 1
        mode = ""
        if self.peek() == "+":
            mode = "+"
            self.i += 1
        elif self.peek() == "?":
            mode = "?"
            self.i += 1
        if self.flags["U"] and mode != "+":
            mode = "" if mode == "?" else "?"
        qtext = {(0, None): "*", (1, None): "+", (0, 1): "?"}.get((lo, hi))
        if qtext is None:
            qtext = "{%d}" % lo if lo == hi else "{%d,%s}" % (lo, "" if hi is None else hi)
        text = atom.text
        if atom.lit:
            text = f"(?i:{text})" if atom.icase else text
        if not _is_single(text):
            text = "(?:" + text + ")"
        wlo = atom.lo * lo
        whi = None if hi is None or atom.hi is None else atom.hi * hi
        node = _Node(text + qtext + mode, wlo, whi, repeatable=False)
        self.skip_extended()
        if self.peek() in ("*", "+", "?") or (self.peek() == "{" and self._looks_quantifier()):
            self.error("quantifier does not follow a repeatable item")
        return node

    def _looks_quantifier(self) -> bool:
        save = self.i
        try:
            return self._brace_quantifier() is not None
        except PerlError:
            return True
        finally:
            self.i = save

    def _brace_quantifier(self):
        j = self.i + 1
        p = self.p

        def num(j):
            k = j
            while k < self.n and p[k].isdigit() and p[k].isascii():
                k += 1
            return k

        k = num(j)
        if k == j:
            return None
        lo_s = p[j:k]
        if k < self.n and p[k] == "}":
            lo = hi = int(lo_s)
            end = k + 1
        elif k < self.n and p[k] == ",":
            k2 = num(k + 1)
            if k2 < self.n and p[k2] == "}":
                lo = int(lo_s)
                hi = int(p[k + 1:k2]) if k2 > k + 1 else None
                end = k2 + 1
            else:
                return None
        else:
            return None
        if lo > 65535 or (hi is not None and hi > 65535):
            self.i = end
            self.error("number too big in {} quantifier")
        if hi is not None and hi < lo:
            self.i = end
            self.error("numbers out of order in {} quantifier")
        self.i = end
        return lo, hi

    # -- atoms --------------------------------------------------------------------------

    def lit(self, cp: int) -> _Node:
        if 0xD800 <= cp <= 0xDFFF:
            self.error("disallowed Unicode code point (>= 0xd800 && <= 0xdfff)")
        icase = self.flags["i"] and chr(cp).lower() != chr(cp).upper()
        return _Node(_ch(cp), 1, 1, lit=True, icase=icase)

    def atom(self) -> _Node | None:
        p = self.p
        c = p[self.i]
        if c == "(":
            return self.group()
        if c == "[":
            return self.char_class()
        if c == "\\":
            return self.escape()
        if c in "*+?":
            self.error("quantifier does not follow a repeatable item")
        if c == "{" and self._looks_quantifier():
            self.error("quantifier does not follow a repeatable item")
        self.i += 1
        if c == ".":
            text = f"[^{_NOSURR}]" if self.flags["s"] else f"[^\\n{_NOSURR}]"
            return _Node(text, 1, 1)
        if c == "^":
            if self.flags["m"]:
                return _Node(f"(?:\\A|(?<=\\n)(?!\\Z))", 0, 0, repeatable=False)
            return _Node("\\A", 0, 0, repeatable=False)
        if c == "$":
            if self.flags["m"]:
                return _Node("(?=\\n|\\Z)", 0, 0, repeatable=False)
            return _Node("\\Z", 0, 0, repeatable=False)
        return self.lit(ord(c))

    def escape(self) -> _Node | None:
        p = self.p
        self.i += 1
        if self.i >= self.n:
            self.error("\\ at end of pattern")
        c = p[self.i]
        self.i += 1
        if c in _ESC_OUT_BYTES and self.single_byte:
            return _Node(_ESC_OUT_BYTES[c], 1, 1)
        if c in _ESC_OUT:
            if c == "N" and self.peek() == "{" and not self._looks_quantifier():
                return self._named_char()
            return _Node(_ESC_OUT[c], 1, 1)
        if c == "b":
            return _Node(_WORD_B, 0, 0, repeatable=False)
        if c == "B":
            return _Node(_WORD_NB, 0, 0, repeatable=False)
        if c == "A":
            return _Node(f"(?:\\A|(?<=\\A{_MARK}))", 0, 0, repeatable=False)
        if c == "z":
            return _Node("\\Z", 0, 0, repeatable=False)
        if c == "Z":
            return _Node("(?=\\n?\\Z)", 0, 0, repeatable=False)
        if c == "G":
            return _Node("\\G", 0, 0, repeatable=False)
        if c == "K":
            if self.look:
                self.late_error("\\K is not allowed in lookarounds (but see "
                                "PCRE2_EXTRA_ALLOW_LOOKAROUND_BSK)")
            return _Node("\\K", 0, 0, repeatable=False)
        if c == "R":
            return _Node("(?>\\r\\n|[\\n\\x0b\\x0c\\r\\x85\\u2028\\u2029])", 1, 2)
        if c == "X":
            self.nq += 1
            return _Node(f"(?:(?![{_NOSURR}])\\X)", 1, None)
        if c == "C":
            if self.behind:
                self.late_error("\\C is not allowed in a lookbehind assertion in UTF-8 mode")
            return _Node(f"[^{_NOSURR}]", 1, 1)
        if c in "pP":
            return _Node(_cls(self._property(c == "P", inside=False)), 1, 1)
        if c == "Q":
            end = p.find("\\E", self.i)
            text = p[self.i:] if end < 0 else p[self.i:end]
            self.i = self.n if end < 0 else end + 2
            if not text:
                return None
            return [self.lit(ord(ch)) for ch in text]
        if c == "E":
            return None
        if c in "gk" or c.isdigit():
            return self._reference(c)
        cp = self._char_escape(c, inside=False)
        return self.lit(cp)

    def _named_char(self) -> _Node:
        if self.p.startswith("{U+", self.i):
            self.i += 3
            return self.lit(self._braced_number("0123456789abcdefABCDEF", 16, "non-hex "
                                                "character in \\x{} (closing brace missing?)"))
        end = self.p.find("}", self.i)
        body = self.p[self.i + 1:end] if end > 0 else ""
        if end > 0 and body.startswith("U+"):
            try:
                cp = int(body[2:], 16)
            except ValueError:
                cp = -1
            if cp >= 0:
                self.i = end + 1
                if cp > MAXCP:
                    self.error("character code point value in \\x{} or \\o{} is too large")
                return self.lit(cp)
        self.error(_UNSUPPORTED_ESC)
        raise AssertionError

    def _braced_number(self, digits: str, base: int, non_digit: str) -> int:
        """The digits of ``\\x{...}`` / ``\\o{...}`` / ``\\N{U+...}`` up to the ``}``."""
        p = self.p
        k = self.i
        while k < self.n and p[k] in digits:
            k += 1
        if k == self.i and (k >= self.n or p[k] == "}"):
            self.error("digits missing in \\x{} or \\o{} or \\N{U+}")
        if k >= self.n or p[k] != "}":
            self.error(non_digit)
        cp = int(p[self.i:k], base)
        self.i = k + 1
        if cp > MAXCP:
            self.error("character code point value in \\x{} or \\o{} is too large")
        return cp

    def _char_escape(self, c: str, inside: bool) -> int:
        """The code point of a character escape whose letter ``c`` was just read (a byte's
        stand-in in the C locale)."""
        cp = self._escape_value(c, inside)
        if self.single_byte and 0x80 <= cp <= 0xFF:
            return stand_in(cp)
        return cp

    def _escape_value(self, c: str, inside: bool) -> int:
        """The number a character escape whose letter ``c`` was just read stands for."""
        p = self.p
        if c in _SIMPLE_ESC:
            return _SIMPLE_ESC[c]
        if c == "b" and inside:
            return 8
        if c == "x":
            if self.peek() == "{":
                self.i += 1
                return self._braced_number("0123456789abcdefABCDEF", 16, "non-hex character in "
                                           "\\x{} (closing brace missing?)")
            k = self.i
            while k < self.n and k < self.i + 2 and p[k] in "0123456789abcdefABCDEF":
                k += 1
            cp = int(p[self.i:k], 16) if k > self.i else 0
            self.i = k
            return cp
        if c == "o":
            if self.peek() != "{":
                self.error("missing opening brace after \\o")
            self.i += 1
            return self._braced_number("01234567", 8, "non-octal character in \\o{} (closing "
                                       "brace missing?)")
        if c == "0" or (inside and c in "1234567"):
            k = self.i
            while k < self.n and k < self.i + 2 and p[k] in "01234567":
                k += 1
            cp = int(c + p[self.i:k], 8)
            self.i = k
            return cp
        if inside and c in "89":
            self.error("unrecognized character follows \\")
        if c == "c":
            if self.i >= self.n:
                self.error("\\c at end of pattern")
            x = p[self.i]
            self.i += 1
            if not (0x20 <= ord(x) < 0x7F):
                self.error("\\c must be followed by a printable ASCII character")
            return ord(x.upper()) ^ 0x40
        if c in "LlUu":
            self.error(_UNSUPPORTED_ESC)
        if c == "N" and inside:
            self.error("escape sequence is invalid in character class")
        if c == "\\g":
            return ord("g")
        if c.isascii() and c.isalnum():
            self.error("unrecognized character follows \\")
        return ord(c)

    def _property(self, negated: bool, inside: bool) -> str:
        p = self.p
        if self.i >= self.n:
            self.error("malformed \\P or \\p sequence")
        if p[self.i] == "{":
            end = p.find("}", self.i)
            if end < 0:
                self.error("malformed \\P or \\p sequence")
            name = p[self.i + 1:end]
            self.i = end + 1
        else:
            name = p[self.i]
            if not (name.isascii() and name.isalpha()):
                self.error("malformed \\P or \\p sequence")
            self.i += 1
        if name.startswith("^"):
            negated = not negated
            name = name[1:]
        ranges = _property_ranges(name)
        if ranges is None:
            self.error("unknown property after \\P or \\p")
        return _complement(ranges) if negated else ranges

    def _reference(self, c: str) -> _Node | None:
        p = self.p
        if c.isdigit():
            if c == "0":
                return self.lit(self._char_escape("0", inside=False))
            k = self.i
            while k < self.n and p[k].isdigit() and p[k].isascii():
                k += 1
            num = int(c + p[self.i:k])
            if num < 10 or c in "89" or num <= self.groups:
                self.i = k
                return self._backref(num)
            # Octal (up to three digits) when not a back-reference.
            k = self.i - 1
            j = k
            while j < self.n and j < k + 3 and p[j] in "01234567":
                j += 1
            if j == k:
                self.error("reference to non-existent subpattern")
            self.i = j
            return self.lit(int(p[k:j], 8))
        if c == "g":
            if self.peek() in ("<", "'", "{"):
                opener = self.peek()
                close = {"<": ">", "'": "'", "{": "}"}[opener]
                self.i += 1
                k = self.i
                if k < self.n and (p[k] in "+-" or (p[k].isdigit() and p[k].isascii())):
                    k += 1 if p[k] in "+-" else 0
                    j = k
                    while j < self.n and p[j].isdigit() and p[j].isascii():
                        j += 1
                    if j == k or j >= self.n or p[j] != close:
                        self.error("\\g is not followed by a braced, angle-bracketed, or "
                                   "quoted name/number or by a plain number")
                    ref = p[self.i:j]
                    self.i = j + 1
                else:
                    ref = self.read_name(close)
                if opener == "{":
                    return self._ref_of(ref)
                return self._call(ref)
            k = self.i
            if k < self.n and p[k] in "+-":
                k += 1
            while k < self.n and p[k].isdigit() and p[k].isascii():
                k += 1
            ref = p[self.i:k]
            if not ref or ref in ("+", "-"):
                self.error("\\g is not followed by a braced, angle-bracketed, or quoted "
                           "name/number or by a plain number")
            self.i = k
            return self._ref_of(ref)
        # \k<name> \k'name' \k{name}
        opener = self.peek()
        close = {"<": ">", "'": "'", "{": "}"}.get(opener)
        if close is None:
            self.error("\\k is not followed by a braced, angle-bracketed, or quoted name")
        self.i += 1
        return self._named_backref(self.read_name(close))

    def _ref_of(self, ref: str) -> _Node:
        if ref and (ref[0].isdigit() or ref[0] in "+-"):
            try:
                num = int(ref)
            except ValueError:
                self.error("reference to non-existent subpattern")
            if ref[0] == "-":
                num = self.groups + 1 + num
                if num <= 0:
                    self.error("reference to non-existent subpattern")
            elif ref[0] == "+":
                num = self.groups + num
            if num == 0:
                self.error("reference to non-existent subpattern")
            return self._backref(num)
        return self._named_backref(ref)

    def _check_name(self, name: str) -> None:
        if not name:
            self.error("subpattern name expected")
        if name[0].isdigit():
            self.error("subpattern name must start with a non-digit")
        if not all(ch.isalnum() or ch == "_" for ch in name):
            self.error("syntax error in subpattern name (missing terminator?)")
        if len(name) > 32:
            self.error("subpattern name is too long (maximum 32 code units)")

    def _ref_width(self, num: int | None) -> tuple:
        if self.widths is None:
            return (0, 0)  # first pass: the widths are not known yet
        if isinstance(num, str):
            num = self.names.get(num, num)
        w = self.found_widths.get(num) or self.widths.get(num, (0, None))
        if self.behind and w[0] != w[1]:
            self.late_error(_NOT_FIXED)
        return w

    def _backref(self, num: int) -> _Node:
        self.max_ref = max(self.max_ref, num)
        lo, hi = self._ref_width(num)
        self.risky = True
        if self.flags["i"]:
            text = "(?i:\\g<%d>)" % num
        else:
            text = "(?:\\g<%d>)" % num
        return _Node(text, lo, hi)

    def _named_backref(self, name: str) -> _Node:
        self._check_name(name)
        self.ref_names.append(name)
        lo, hi = self._ref_width(name)
        self.risky = True
        text = f"(?i:(?P={name}))" if self.flags["i"] else f"(?P={name})"
        return _Node(text, lo, hi)

    def _call(self, ref: str) -> _Node:
        self.risky = True
        node = self._call_node(ref)
        target: object = node.text[2:-1]  # "(?R)" "(?3)" "(?&name)"
        target = 0 if target == "R" else target[1:] if target.startswith("&") else int(target)
        for group, level in self.open_groups:
            if sum(self.prefix[level:]) == 0:
                self.call_edges.add((group, target))
        return node

    def _call_node(self, ref: str) -> _Node:
        if ref in ("0", "R"):
            if self.behind:
                self.late_error(_NOT_FIXED)
            return _Node("(?R)", 0, None)
        if ref and (ref[0].isdigit() or ref[0] in "+-"):
            try:
                num = int(ref)
            except ValueError:
                self.error("reference to non-existent subpattern")
            if ref[0] == "-":
                num = self.groups + 1 + num
            elif ref[0] == "+":
                num = self.groups + num
            if num <= 0:
                self.error("reference to non-existent subpattern")
            self.max_ref = max(self.max_ref, num)
            lo, hi = self._ref_width(num)
            return _Node("(?%d)" % num, lo, hi)
        self._check_name(ref)
        self.ref_names.append(ref)
        lo, hi = self._ref_width(ref)
        return _Node(f"(?&{ref})", lo, hi)

    # -- groups -------------------------------------------------------------------------

    def group(self) -> _Node | None:
        p = self.p
        start = self.i
        self.i += 1
        if self.peek() == "*" and self.peek(1) not in (END, ")"):
            return self._verb(start)
        if self.peek() != "?":
            if self.flags["n"]:
                return self._finish_group("(?:", None)
            self.groups += 1
            return self._finish_group("(", self.groups)
        self.i += 1
        c = self.peek()
        if c == "#":
            end = p.find(")", self.i)
            if end < 0:
                self.error("missing ) after (?# comment")
            self.i = end + 1
            return None
        if c == ":":
            self.i += 1
            return self._finish_group("(?:", None)
        if c == "|":
            self.i += 1
            return self._finish_group("(?|", None, branch_reset=True)
        if c == ">":
            self.i += 1
            return self._finish_group("(?>", None)
        if c in "=!":
            self.i += 1
            return self._look("(?" + c, behind=False)
        if c == "<" and self.peek(1) in "=!":
            self.i += 2
            return self._look("(?<" + p[self.i - 1], behind=True)
        if c == "<" or c == "'" or (c == "P" and self.peek(1) == "<"):
            if c == "P":
                self.i += 1
            close = ">" if self.peek() == "<" else "'"
            self.i += 1
            name = self.read_name(close)
            if name in self.names and not self.flags["J"]:
                self.error("two named subpatterns have the same name (PCRE2_DUPNAMES not set)")
            self.groups += 1
            self.names[name] = self.groups
            return self._finish_group(f"(?P<{name}>", self.groups)
        if c == "P":
            kind = self.peek(1)
            if kind == END:
                self.error("missing closing parenthesis")
            if kind not in ("=", ">"):
                self.error("unrecognized character after (?P")
            self.i += 2
            name = self.read_name(")")
            if kind == "=":
                return self._named_backref(name)
            return self._call(name)
        if c == "&":
            self.i += 1
            return self._call(self.read_name(")"))
        if c == "R" or c.isdigit() or (c in "+-" and self.peek(1).isdigit()):
            end = p.find(")", self.i)
            if end < 0:
                if c == "R":
                    self.error("(?R (recursive pattern call) must be followed by a closing "
                               "parenthesis")
                self.error("missing closing parenthesis")
            ref = p[self.i:end]
            self.i = end + 1
            if c == "R" and ref != "R":
                self.error("(?R (recursive pattern call) must be followed by a closing "
                           "parenthesis")
            return self._call(ref)
        if c == "(":
            return self._conditional()
        if c == "C":
            # A callout: without a callout function (grep sets none) it does nothing.
            k = self.i + 1
            if k < self.n and p[k] in "`'\"^%#$\x7b":
                close = "}" if p[k] == "{" else p[k]
                end = p.find(close, k + 1)
                if end < 0:
                    self.error("missing terminating delimiter for callout with string argument")
                k = end + 1
            else:
                while k < self.n and p[k].isdigit() and p[k].isascii():
                    k += 1
            if k >= self.n:
                self.error("missing closing parenthesis")
            if p[k] != ")":
                self.error("closing parenthesis for (?C expected")
            self.i = k + 1
            return None
        return self._flags()

    def _finish_group(self, opener: str, number, branch_reset=False) -> _Node:
        self.depth += 1
        if self.depth > 250:
            self.error("parentheses are too deeply nested")
        if number is not None:
            self.open_groups.append((number, len(self.prefix)))
        body = self.alternation(branch_reset=branch_reset)
        if number is not None:
            self.open_groups.pop()
        self.depth -= 1
        if self.peek() != ")":
            self.error("missing closing parenthesis")
        self.i += 1
        node = _Node(opener + body.text + ")", body.lo, body.hi)
        if number is not None:
            self.found_widths[number] = (body.lo, body.hi)
        self._check_behind_branches(body)
        return node

    def _check_behind_branches(self, body: _Node) -> None:
        """Inside a lookbehind, a group's branches must all have one same length."""
        if self.behind and body.hi != body.lo:
            self.late_error(_NOT_FIXED)

    def _look(self, opener: str, behind: bool) -> _Node:
        self.look += 1
        if behind:
            self.behind += 1
        self.depth += 1
        if behind:
            # Parse the branches one by one, each of fixed length.
            body = self._behind_body()
        else:
            outer = self.behind
            self.behind = 0
            body = self.alternation()
            self.behind = outer
        self.depth -= 1
        if self.peek() != ")":
            self.error("missing closing parenthesis")
        self.i += 1
        self.look -= 1
        if behind:
            self.behind -= 1
        return _Node(opener + body.text + ")", 0, 0, repeatable=True)

    def _behind_body(self) -> _Node:
        saved = dict(self.flags)
        branches = []
        while True:
            b = self.sequence()
            if b.hi != b.lo:
                self.late_error(_NOT_FIXED)
            if b.lo > 65535:
                self.late_error("lookbehind is too complicated")
            branches.append(b)
            if self.peek() == "|":
                self.i += 1
                continue
            break
        self.flags = saved
        return _Node("|".join(b.text for b in branches), 0, 0)

    def _conditional(self) -> _Node:
        p = self.p
        self.risky = True
        # self.i at the "(" of the condition
        self.i += 1
        c = self.peek()
        if c == "?" and self.peek(1) in "=!" or (c == "?" and self.peek(1) == "<"
                                                 and self.peek(2) in "=!"):
            self.i += 1
            if self.peek() == "<":
                opener = "(?<" + self.peek(1)
                self.i += 2
                cond = self._look(opener, behind=True)
            else:
                opener = "(?" + self.peek()
                self.i += 1
                cond = self._look(opener, behind=False)
            cond_text = cond.text
        else:
            end = p.find(")", self.i)
            if end < 0:
                self.error("missing closing parenthesis" if self.i >= self.n
                           else "missing closing parenthesis for condition")
            ref = p[self.i:end]
            self.i = end + 1
            if ref.startswith("<") and ref.endswith(">") or (
                    ref.startswith("'") and ref.endswith("'") and len(ref) > 1):
                ref = ref[1:-1]
            if ref == "DEFINE":
                cond_text = "(DEFINE)"
            elif ref.isdigit() or (ref[:1] in "+-" and ref[1:].isdigit()):
                num = int(ref)
                if ref[0] in "+-":
                    num = self.groups + (num + 1 if num < 0 else num)
                if num <= 0:
                    self.error("reference to non-existent subpattern")
                self.max_ref = max(self.max_ref, num)
                cond_text = "(%d)" % num
            elif ref.startswith("R"):
                self.error("recursion conditions (?(R...) are not supported in this sandbox")
            else:
                self._check_name(ref)
                self.ref_names.append(ref)
                cond_text = f"({ref})"
        saved = dict(self.flags)
        branches = []
        while True:
            branches.append(self.sequence())
            if self.peek() == "|":
                self.i += 1
                continue
            break
        self.flags = saved
        if len(branches) > 2:
            self.error("conditional subpattern contains more than two branches")
        if self.peek() != ")":
            self.error("missing closing parenthesis")
        self.i += 1
        lo = min(b.lo for b in branches) if len(branches) == 2 else 0
        his = [b.hi for b in branches] + ([] if len(branches) == 2 else [0])
        hi = None if any(h is None for h in his) else max(his)
        if self.behind and lo != hi:
            self.late_error(_NOT_FIXED)
        return _Node("(?" + cond_text + "|".join(b.text for b in branches) + ")", lo, hi)

    def _flags(self) -> _Node | None:
        p = self.p
        on = True
        changes: dict[str, bool] = {}
        if self.peek() == "^":
            self.i += 1
            for k in ("i", "m", "n", "s", "x", "xx", "U", "J"):
                changes[k] = False
        while self.i < self.n:
            c = p[self.i]
            self.i += 1
            if c == "-" and on:
                on = False
                continue
            if c == "x" and self.peek() == "x":
                self.i += 1
                changes["x"] = on
                changes["xx"] = on
                continue
            if c in "imnsxUJ":
                changes[c] = on
                continue
            if c == ")":
                self.flags.update(changes)
                return None
            if c == ":":
                saved = dict(self.flags)
                self.flags.update(changes)
                node = self._finish_group("(?:", None)
                self.flags = saved
                return node
            self.i -= 1
            self.error("unrecognized character after (? or (?-")
        self.error("missing closing parenthesis")
        raise AssertionError

    def _verb(self, start: int) -> _Node | None:
        p = self.p
        k = self.i + 1
        while k < self.n and (p[k].isalpha() and p[k].isascii() or p[k] == "_"):
            k += 1
        word = p[self.i + 1:k]
        if word[:1].islower():
            if k < self.n and p[k] == ":" and word in _ALPHA_ASSERTIONS:
                self.i = k + 1
                opener = _ALPHA_ASSERTIONS[word]
                if opener == "(?>":
                    return self._finish_group(opener, None)
                return self._look(opener, behind=opener.startswith("(?<"))
            self.error("(*alpha_assertion) not recognized")
        end = p.find(")", self.i)
        if end < 0:
            self.error("(*VERB) not recognized or malformed")
        name = p[self.i + 1:end]
        self.i = end + 1
        if name in _VERBS:
            return _Node(_VERBS[name], 0, 0, repeatable=False)
        if name in ("ACCEPT", "COMMIT", "THEN") or name.startswith(("MARK:", ":", "PRUNE:",
                                                                    "SKIP:", "THEN:")):
            self.error(f"(*{name}) is not supported in this sandbox")
        self.error("(*VERB) not recognized or malformed")
        raise AssertionError

    # -- character classes --------------------------------------------------------------

    def char_class(self) -> _Node:
        p = self.p
        kind = self.peek(1)
        if kind in (":", ".", "="):
            # "[:alpha:]" outside brackets (PCRE2's check_posix_syntax).
            k = self.i + 2
            while k < self.n and p[k] not in "\\[]":
                if p[k] == kind and k + 1 < self.n and p[k + 1] == "]":
                    self.error("POSIX named classes are supported only within a class"
                               if kind == ":" else "POSIX collating elements are not supported")
                k += 1
        self.i += 1
        negated = False
        if self.peek() == "^":
            negated = True
            self.i += 1
        icase = self.flags["i"]
        lits: list[tuple[int, int]] = []  # subject to case folding
        fixed: list[tuple[int, int]] = []  # ASCII classes: no case folding
        first = True
        while True:
            if self.i >= self.n:
                self.error("missing terminating ] for character class")
            c = p[self.i]
            if c == "]" and not first:
                self.i += 1
                break
            was_first = first
            first = False
            if self.flags["xx"] and c in " \t":
                self.i += 1
                continue
            if c == "[" and self.peek(1) in ":.=":
                kind = self.peek(1)
                end = p.find(kind + "]", self.i + 2)
                if end >= 0:
                    name = p[self.i + 2:end]
                    if kind != ":":
                        self.error("POSIX collating elements are not supported")
                    neg = name.startswith("^")
                    if neg:
                        name = name[1:]
                    if name not in _POSIX:
                        self.error("unknown POSIX class name")
                    self.i = end + 2
                    ranges = _POSIX[name]
                    if icase and name in ("upper", "lower"):
                        ranges = _POSIX["alpha"]
                    if neg:
                        ranges = _complement(ranges)
                    fixed.extend(ranges)
                    if self.peek() == "-" and self.peek(1) not in ("]", END):
                        self.error("invalid range in character class")
                    continue
            if c == "\\" and self.peek(1) == "Q":
                end = p.find("\\E", self.i + 2)
                text = p[self.i + 2:] if end < 0 else p[self.i + 2:end]
                self.i = self.n if end < 0 else end + 2
                for ch in text:
                    lits.append((ord(ch), ord(ch)))
                if not text:
                    first = was_first
                continue
            if c == "\\" and self.peek(1) == "E":
                self.i += 2
                first = was_first
                continue
            cp = None
            if c == "\\":
                self.i += 1
                if self.i >= self.n:
                    self.error("\\ at end of pattern")
                e = p[self.i]
                self.i += 1
                if e in _ESC_IN:
                    if self.peek() == "-" and self.peek(1) not in ("]", END):
                        self.error("invalid range in character class")
                    fixed.extend(_ESC_IN[e])
                    continue
                if e in "pP":
                    fixed.extend(self._property(e == "P", inside=True))
                    if self.peek() == "-" and self.peek(1) not in ("]", END):
                        self.error("invalid range in character class")
                    continue
                if e == "N":
                    self.error("\\N is not supported in a class")
                if e in "BRX":
                    self.error("escape sequence is invalid in character class")
                if e in "kKAzZG":
                    self.error("escape sequence is invalid in character class")
                if e == "g":
                    e = "\\g"  # a plain "g" in brackets
                cp = self._char_escape(e, inside=True)
            else:
                self.i += 1
                cp = ord(c)
            # A range?
            if self.peek() == "-" and self.peek(1) not in ("]", END):
                save = self.i
                self.i += 1
                d = self.peek()
                if d == "[" and self.peek(1) == ":" and p.find(":]", self.i) >= 0:
                    self.error("invalid range in character class")
                if d == "\\":
                    self.i += 1
                    e = self.peek()
                    self.i += 1
                    if e in _ESC_IN or e in "pP":
                        self.error("invalid range in character class")
                    if e == "Q" or e == "E":
                        self.i = save
                        lits.append((cp, cp))
                        continue
                    hi = self._char_escape(e, inside=True)
                else:
                    self.i += 1
                    hi = ord(d)
                if hi < cp:
                    self.error("range out of order in character class")
                lits.append((cp, hi))
                continue
            lits.append((cp, cp))
        return _Node(_class_text(negated, icase, lits, fixed), 1, 1)


_PROPS: dict[str, list | None] = {}
_PROPS_LOCK = threading.Lock()
_EVERY: list[tuple[int, str]] = []


def _property_ranges(name: str):
    """The code point ranges of ``\\p{name}`` (Unicode tables of the ``regex`` module), or
    None for an unknown name. Written out as ranges: the ``regex`` module lets a case-
    insensitive part anywhere in a pattern change what \\p{Lu} matches, PCRE2 does not."""
    key = name.replace(" ", "").replace("_", "").replace("-", "").lower()
    with _PROPS_LOCK:
        if key in _PROPS:
            return _PROPS[key]
    combos = {"any": None, "l&": ["Lu", "Ll", "Lt"], "lc": ["Lu", "Ll", "Lt"],
              "xan": ["L", "N"], "xwd": ["L", "N"], "xsp": ["Z"], "xps": ["Z"]}
    if key in combos:
        if combos[key] is None:
            out = list(_ALL)
        else:
            out = []
            for part in combos[key]:
                out.extend(_property_ranges(part) or [])
            if key == "xwd":
                out.append((0x5F, 0x5F))
            if key in ("xsp", "xps"):
                out.extend(_SPACE)
            out = _normalize(out)
    else:
        try:
            rx = _regex.compile("\\p{%s}+" % name)
        except _regex.error:
            out = None
        else:
            with _PROPS_LOCK:
                if not _EVERY:
                    _EVERY.extend([(0, "".join(map(chr, range(0, 0xD800)))),
                                   (0xE000, "".join(map(chr, range(0xE000, MAXCP + 1))))])
            out = []
            for base, text in _EVERY:
                for m in rx.finditer(text):
                    out.append((base + m.start(), base + m.end() - 1))
    with _PROPS_LOCK:
        _PROPS[key] = out
    return out


def _class_text(negated, icase, lits, fixed) -> str:
    """A bracket expression: ``lits`` (ranges subject to case folding) and ``fixed`` (ASCII
    classes, properties: never folded, as in PCRE2), never matching a lone surrogate."""
    for a, b in lits:
        if a <= 0xDFFF and b >= 0xD800:
            raise PerlError("disallowed Unicode code point (>= 0xd800 && <= 0xdfff)")
    if not icase or not lits:
        body = _set_text(lits + fixed)
        if negated:
            return f"[^{body}{_NOSURR}]"
        return f"[{body}]" if body else "(?!)"
    parts = [f"(?i:[{_set_text(lits)}])"]
    if fixed:
        parts.append(f"[{_set_text(fixed)}]")
    union = "|".join(parts)
    if negated:
        return f"(?:(?!{union})[^{_NOSURR}])"
    return union if len(parts) == 1 else f"(?:{union})"


def _unescape_run(parts: list[str]) -> str:
    """The characters of literal texts written by ``_ch``."""
    out = []
    for t in parts:
        out.append(chr(int(t[2:], 16)) if t.startswith("\\") else t)
    return "".join(out)


def _is_single(text: str) -> bool:
    """Whether ``text`` is one atom a quantifier can follow directly."""
    if len(text) == 1 and text not in "\\()[]|":
        return True
    if text.startswith("\\u") and len(text) == 6 or text.startswith("\\U") and len(text) == 10:
        return True
    if text.startswith("[") and text.endswith("]") and text.count("[") == 1 and (
            text.count("]") == 1):
        return True
    return False


def translate(pattern: bytes, icase: bool, words: bool, lines: bool) -> str:
    """The ``regex`` pattern for the PCRE2 ``pattern`` (GNU's -w / -x wrapping included)."""
    return _translate(pattern, icase, words, lines)[0]


def _translate(pattern: bytes, icase: bool, words: bool, lines: bool,
               single_byte: bool = False):
    """``translate`` and the parser that wrote it (its cost figures and literal);
    ``single_byte``: the C locale (``_Parser``)."""
    raw = pattern
    if lines:
        pass
    elif words:
        pattern = b"(?<!\\w)(?:" + pattern + b")(?!\\w)"
    try:
        text = pattern.decode("utf-8")
    except UnicodeDecodeError as err:
        raise PerlError(_utf8_error(pattern, err.start)) from None
    try:
        first = _Parser(text, icase, None, single_byte)
        first.parse()
        widths: dict = dict(first.found_widths)
        for name, num in first.names.items():
            widths[name] = first.found_widths.get(num, (0, None))
        parser = _Parser(text, icase, widths, single_byte)
        out = parser.parse()
    except RecursionError:
        raise PerlError("parentheses are too deeply nested") from None
    if words and not lines:
        # The wrapped pattern has no top-level literal; the pattern's own is required too.
        try:
            plain = _Parser(raw.decode("utf-8"), icase, widths, single_byte)
            plain.parse()
            parser.required = plain.required
        except (PerlError, RecursionError):
            parser.required = ""
    if lines:
        out = "\\A(?:" + out + ")\\Z"
    return out, parser


def _utf8_error(data: bytes, at: int) -> str:
    b = data[at]
    if b >= 0xFE:
        return "UTF-8 error: illegal byte (0xfe or 0xff)"
    if 0x80 <= b <= 0xBF:
        return "UTF-8 error: isolated byte with 0x80 bit set"
    need = 1 if b < 0xE0 else 2 if b < 0xF0 else 3 if b < 0xF8 else 4 if b < 0xFC else 5
    if b >= 0xF8:
        return f"UTF-8 error: {need + 1}-byte character is not allowed (RFC 3629)"
    have = 0
    while have < need and at + 1 + have < len(data) and 0x80 <= data[at + 1 + have] <= 0xBF:
        have += 1
    if at + 1 + have >= len(data) and have < need:
        missing = need - have
        return f"UTF-8 error: {missing} byte{'s' if missing > 1 else ''} missing at end"
    if have < need:
        return f"UTF-8 error: byte {have + 2} top bits not 0x80"
    if b in (0xC0, 0xC1):
        return "UTF-8 error: overlong 2-byte sequence"
    if b == 0xE0:
        return "UTF-8 error: overlong 3-byte sequence"
    if b == 0xF0:
        return "UTF-8 error: overlong 4-byte sequence"
    if b == 0xED:
        return "UTF-8 error: code points 0xd800-0xdfff are not defined"
    return "UTF-8 error: code points greater than 0x10ffff are not defined"


#: Bytes GNU skips before a search (``sbclen == -1`` in glibc's C.UTF-8: continuation bytes,
#: 0xC0, 0xC1, 0xFE, 0xFF; 0xF5..0xFD are incomplete leads there). The subject then starts
#: after them.
_SKIP = bytes(1 if (0x80 <= b <= 0xC1 or b >= 0xFE) else 0 for b in range(256))


def _too_long() -> LimitExceeded:
    return LimitExceeded(
        "seconds",
        "regex took too long: the pattern backtracks too much on this input; simplify it",
    )


class _PerlMatch:
    __slots__ = ("_span",)

    def __init__(self, span):
        self._span = span

    def span(self, g: int = 0):
        return self._span

    def start(self, g: int = 0):
        return self._span[0]

    def end(self, g: int = 0):
        return self._span[1]


class PerlRegex:
    """A compiled ``grep -P`` pattern; searches one line (``search_line``) at a time."""

    perl = True
    uses_re2 = False
    groups = 0

    def __init__(self, compiled, budget: Budget | None, info: tuple = (b"", True, 0)):
        self._rx = compiled
        self._info = info
        #: Bytes every matching line holds (the line finder skips the lines without them).
        self.required: bytes = info[0]
        #: Subjects up to this length are searched without a timeout: the pattern repeats
        #: no quantified or alternated part and has no back-reference, so its backtracking
        #: is polynomial of a known degree (the regex module's timeout costs ~3 us a call).
        self._untimed = -1 if info[1] else int(2e6 ** (1.0 / (info[2] + 1)))
        self.budget = budget if budget is not None else Budget(Limits())
        self.warnings: list[str] = []
        self.icase = False
        # One decoded subject kept: (buf, start, end) -> str, and a byte/char position pair.
        self._key: tuple | None = None
        self._buf: bytes | None = None
        self._text = ""
        self._ascii = True
        self._at = (0, 0)  # (byte offset, char index) in the subject last converted
        self._memo: tuple | None = None

    def with_budget(self, budget: Budget | None) -> "PerlRegex":
        return PerlRegex(self._rx, budget, self._info)

    def alternatives(self, limit: int = 4):
        return None

    def _subject(self, buf: bytes, start: int, end: int) -> str:
        if self._buf is buf and self._key == (start, end):
            return self._text
        part = buf[start:end]
        self._ascii = part.isascii()
        self._text = part.decode("ascii") if self._ascii else part.decode(
            "utf-8", "surrogateescape")
        self._buf = buf
        self._key = (start, end)
        self._at = (start, 0)
        return self._text

    def _char_index(self, buf: bytes, start: int, pos: int) -> int:
        if self._ascii:
            return pos - start
        b, c = self._at
        if pos < b:
            b, c = start, 0
        c += len(buf[b:pos].decode("utf-8", "surrogateescape"))
        self._at = (pos, c)
        return c

    def _byte_offset(self, text: str, start: int, ci: int) -> int:
        if self._ascii:
            return start + ci
        b, c = self._at
        if ci < c:
            b, c = start, 0
        b += len(text[c:ci].encode("utf-8", "surrogateescape"))
        self._at = (b, ci)
        return b

    def _run(self, text: str, pos: int):
        if len(text) <= self._untimed:
            try:
                return self._rx.search(text, pos)
            except MemoryError:
                raise PerlLimit("exceeded PCRE's backtracking limit") from None
        budget = self.budget
        remaining = budget.deadline - _monotonic()
        if remaining <= 0:
            budget.check_time()
            raise _too_long()
        try:
            return self._rx.search(text, pos, timeout=remaining, concurrent=len(text) > 4096)
        except TimeoutError:
            pass
        except MemoryError:
            raise PerlLimit("exceeded PCRE's backtracking limit") from None
        budget.check_time()  # the run's time-limit message
        raise _too_long()

    def search_line(self, buf: bytes, pos: int, ls: int, le: int):
        """GNU's ``Pexecute`` on the line buf[ls:le] from ``pos``: the byte span of the
        match, or None. The last answer is kept: -o and --color search a line from its
        start again right after the line finder did."""
        memo = self._memo
        if memo is not None and memo[0] is buf and memo[1] == (pos, ls, le):
            return memo[2]
        span = self._search_line(buf, pos, ls, le)
        self._memo = (buf, (pos, ls, le), span)
        return span

    def _search_line(self, buf: bytes, pos: int, ls: int, le: int):
        subject = ls
        p = pos
        skip = _SKIP
        while p < le and skip[buf[p]]:
            p += 1
            subject = p
        text = self._subject(buf, subject, le)
        if subject != ls:
            m = self._run(_MARK + text, 1)
            if m is None:
                return None
            s, e = m.span()
            return (self._byte_offset(text, subject, s - 1),
                    self._byte_offset(text, subject, e - 1))
        ci = self._char_index(buf, subject, p) if p > subject else 0
        m = self._run(text, ci)
        if m is None:
            return None
        s, e = m.span()
        bs = self._byte_offset(text, subject, s)
        return bs, (self._byte_offset(text, subject, e) if e != s else bs)

    # The generic interface (used for -z, where the line is passed on its own).
    def search(self, data: bytes, pos: int = 0, endpos: int | None = None):
        if endpos is None:
            endpos = len(data)
        span = self.search_line(data, pos, 0, endpos)
        return None if span is None else _PerlMatch(span)

    def search_start(self, data: bytes, pos: int, endpos: int) -> int:
        m = self.search(data, pos, endpos)
        return -1 if m is None else m.start()

    def match(self, data: bytes, pos: int = 0, endpos: int | None = None):
        m = self.search(data, pos, endpos)
        return m if m is not None and m.start() == pos else None


_CACHE: "OrderedDict[tuple, object]" = OrderedDict()
_CACHE_LOCK = threading.Lock()


def compile_perl(patterns: list[bytes], *, icase: bool, words: bool, lines: bool,
                 budget: Budget | None, single_byte: bool = False) -> PerlRegex:
    """Compile grep's -P pattern list (GNU: a single pattern once duplicates are removed);
    ``single_byte``: widened patterns of the C locale. Raises ``PerlError`` with GNU's
    message."""
    unique = list(dict.fromkeys(patterns))
    if len(unique) > 1:
        raise PerlError("the -P option only supports a single pattern")
    pattern = unique[0] if unique else b""
    key = (pattern, icase, words, lines, single_byte)
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
    if hit is None:
        text, parser = _translate(pattern, icase, words, lines, single_byte)
        info = (parser.required.encode("utf-8"), parser.risky, parser.nq + parser.alts)
        try:
            hit = (_regex.compile(text, _regex.V0), info)
        except _regex.error as err:
            raise PerlError(_regex_message(err)) from None
        except RecursionError:
            raise PerlError("parentheses are too deeply nested") from None
        with _CACHE_LOCK:
            _CACHE[key] = hit
            while len(_CACHE) > 32:
                _CACHE.popitem(last=False)
    return PerlRegex(hit[0], budget, hit[1])


def _regex_message(err: Exception) -> str:
    msg = str(err)
    if "unknown group" in msg or "invalid group reference" in msg:
        return "reference to non-existent subpattern"
    return msg.split(" at position")[0]
