"""gawk's regular expression dialect, compiled through ``sandbox.regex``.

gawk regexps are POSIX EREs plus GNU operators: ``\\y`` (word boundary), ``\\B``, ``\\<``,
``\\>``, ``\\s \\S \\w \\W``, ``\\``` and ``\\'`` (buffer start and end); intervals ``{n,m}`` are on;
``\\n \\t \\/ \\" \\ddd \\xHH`` and friends are escape sequences (also inside brackets, where a
backslash escapes the next character); ``.`` and ``[^...]`` match a newline; ``^`` and ``$`` match
only at the start and end of the string. A ``{`` that does not open a valid interval is literal.

The parser below produces the AST of ``sandbox.regex.parser`` directly, so patterns RE2 can run
go to RE2 (linear time) and the rest to the memoising backtracker (linear without
back-references, which awk has not); every match checks the run's deadline.
"""

from __future__ import annotations

from sandbox.commands._locale import SingleByteRegex, widen_ast
from sandbox.regex import Regex, RegexError
from sandbox.regex.parser import (
    CLASS_NAMES, NONSPACE_SET, NONWORD_SET, SPACE_SET, WORD_SET, ParsedRegex,
)

_ESC = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "b": "\b", "a": "\a",
        "/": "/", '"': '"'}
_ASSERTS = {"y": "wordb", "B": "nwordb", "<": "wbeg", ">": "wend", "`": "bot", "'": "eot"}
_SETS = {"w": WORD_SET, "W": NONWORD_SET, "s": SPACE_SET, "S": NONSPACE_SET}
_MAX_DEPTH = 100
_DUP_MAX = 32767


class _P:
    def __init__(self, text: str):
        self.p = text
        self.n = len(text)
        self.i = 0
        self.groups = 0
        self.depth = 0
        self.warnings: list[str] = []

    def parse(self):
        node = self.alt()
        if self.i < self.n:
            raise RegexError("Unmatched ) or \\)")
        return node

    def alt(self):
        branches = [self.branch()]
        while self.i < self.n and self.p[self.i] == "|":
            self.i += 1
            branches.append(self.branch())
        return branches[0] if len(branches) == 1 else ("alt", branches)

    def branch(self):
        items = []
        p = self.p
        while self.i < self.n:
            c = p[self.i]
            if c == "|" or (c == ")" and self.depth > 0):
                break
            atom = self.atom(not items)
            items.append(self.postfix(atom))
        if not items:
            return ("empty",)
        return items[0] if len(items) == 1 else ("cat", items)

    def interval_at(self, j: int):
        """(lo, hi, end) if a valid interval starts after the ``{`` at j-1, else None."""
        p, n = self.p, self.n
        k = j
        while k < n and p[k].isdigit():
            k += 1
        lo_text = p[j:k]
        hi_text = lo_text
        if k < n and p[k] == ",":
            k += 1
            h = k
            while k < n and p[k].isdigit():
                k += 1
            hi_text = p[h:k] if k > h else None
        if k >= n or p[k] != "}":
            return None
        if not lo_text and hi_text is lo_text:
            return None  # "{}"
        lo = int(lo_text) if lo_text else 0
        hi = int(hi_text) if hi_text else None
        if lo > _DUP_MAX or (hi is not None and hi > _DUP_MAX):
            raise RegexError("Regular expression too big")
        if hi is not None and hi < lo:
            raise RegexError("Invalid content of \\{\\}")
        return lo, hi, k + 1

    def atom(self, first: bool):
        p = self.p
        c = p[self.i]
        self.i += 1
        if c == "(":
            self.groups += 1
            index = self.groups
            self.depth += 1
            if self.depth > _MAX_DEPTH:
                raise RegexError("Regular expression too big")
            inner = self.alt()
            if self.i >= self.n or p[self.i] != ")":
                raise RegexError("Unmatched ( or \\(")
            self.i += 1
            self.depth -= 1
            return ("group", index, inner)
        if c == ")":
            return ("char", ")")
        if c == ".":
            return ("any",)
        if c == "^":
            return ("assert", "bol")
        if c == "$":
            return ("assert", "eol")
        if c == "[":
            return self.bracket()
        if c == "\\":
            return self.escape()
        if c in "*+?" and first:
            return ("char", c)
        if c == "{" and first:
            return ("char", c)
        return ("char", c)

    def escape(self):
        p = self.p
        if self.i >= self.n:
            return ("char", "\\")  # a trailing backslash is literal in gawk
        c = p[self.i]
        self.i += 1
        if c in _ASSERTS:
            return ("assert", _ASSERTS[c])
        if c in _SETS:
            return _SETS[c]
        ch = self.char_escape(c)
        return ("char", ch)

    def char_escape(self, c: str) -> str:
        """The character of an escape ``\\c`` (after the backslash) outside the operators."""
        p = self.p
        if c in _ESC:
            return _ESC[c]
        if "0" <= c <= "7":
            v = ord(c) - 48
            k = 1
            while k < 3 and self.i < self.n and "0" <= p[self.i] <= "7":
                v = v * 8 + ord(p[self.i]) - 48
                self.i += 1
                k += 1
            return _byte_char(v & 0xFF)
        if c == "x":
            v = 0
            k = 0
            while k < 2 and self.i < self.n and p[self.i] in "0123456789abcdefABCDEF":
                v = v * 16 + int(p[self.i], 16)
                self.i += 1
                k += 1
            if k == 0:
                return "x"
            return _byte_char(v)
        return c

    def postfix(self, atom):
        p = self.p
        while self.i < self.n:
            c = p[self.i]
            if c == "*":
                self.i += 1
                atom = ("repeat", atom, 0, None)
            elif c == "+":
                self.i += 1
                atom = ("repeat", atom, 1, None)
            elif c == "?":
                self.i += 1
                atom = ("repeat", atom, 0, 1)
            elif c == "{":
                iv = self.interval_at(self.i + 1)
                if iv is None:
                    break
                lo, hi, end = iv
                self.i = end
                atom = ("repeat", atom, lo, hi)
            else:
                break
            if atom[0] == "repeat" and _repeat_depth(atom) > _MAX_DEPTH:
                raise RegexError("Regular expression too big")
        return atom

    def bracket(self):
        p, n = self.p, self.n
        unmatched = "Unmatched [, [^, [:, [., or [="
        negated = False
        j = self.i
        if j < n and p[j] == "^":
            negated = True
            j += 1
        items = []
        first = True
        while True:
            if j >= n:
                raise RegexError(unmatched)
            c = p[j]
            if c == "]" and not first:
                j += 1
                break
            first = False
            if c == "[" and j + 1 < n and p[j + 1] in ":=.":
                kind = p[j + 1]
                close = p.find(kind + "]", j + 2)
                if close < 0:
                    raise RegexError(unmatched)
                name = p[j + 2:close]
                j = close + 2
                if kind == ":":
                    if name not in CLASS_NAMES:
                        raise RegexError("Invalid character class name")
                    items.append(("class", name))
                    continue
                if len(name) != 1:
                    raise RegexError("Invalid collation character")
                if kind == "=":
                    items.append(("equiv", name))
                    continue
                lo = name
            elif c == "\\" and j + 1 < n:
                self.i = j + 2
                lo = self.char_escape(p[j + 1])
                j = self.i
            else:
                lo = c
                j += 1
            if j + 1 < n and p[j] == "-" and p[j + 1] != "]":
                j += 1
                c2 = p[j]
                if c2 == "\\" and j + 1 < n:
                    self.i = j + 2
                    hi = self.char_escape(p[j + 1])
                    j = self.i
                elif c2 == "[" and j + 1 < n and p[j + 1] in ".=":
                    kind = p[j + 1]
                    close = p.find(kind + "]", j + 2)
                    if close < 0:
                        raise RegexError(unmatched)
                    hi = p[j + 2:close]
                    j = close + 2
                    if len(hi) != 1:
                        raise RegexError("Invalid collation character")
                else:
                    hi = c2
                    j += 1
                if ord(hi) < ord(lo):
                    raise RegexError("Invalid range end")
                items.append(("range", lo, hi))
            else:
                items.append(("range", lo, lo))
        self.i = j
        return ("set", negated, tuple(items))


def _byte_char(v: int) -> str:
    """The character standing for byte ``v`` in surrogateescape-decoded text."""
    return chr(v) if v < 0x80 else chr(0xDC00 + v)


def _repeat_depth(node) -> int:
    d = 0
    while node[0] == "repeat":
        d += 1
        node = node[1]
    return d


def parse_gawk(text: str) -> ParsedRegex:
    """Parse gawk regexp text (surrogateescape-decoded); raise ``RegexError``."""
    parser = _P(text)
    try:
        ast = parser.parse()
    except RecursionError:
        raise RegexError("Regular expression too big") from None
    return ParsedRegex(ast, parser.groups, False, [])


def compile_gawk(pattern: bytes, icase: bool, budget,
                 single_byte: bool = False) -> Regex | SingleByteRegex:
    """Compile a gawk regexp given as bytes (escape sequences not yet processed);
    ``single_byte`` for the C locale (or ``-b``), where every byte is a character."""
    if not single_byte:
        parsed = parse_gawk(pattern.decode("utf-8", "surrogateescape"))
    else:
        parsed = parse_gawk(pattern.decode("ascii", "surrogateescape"))
        parsed = ParsedRegex(widen_ast(parsed.ast), parsed.groups, parsed.has_backrefs,
                             parsed.warnings)
    try:
        regex = Regex(parsed, icase=icase, multiline=False, dot_newline=True, budget=budget)
    except RecursionError:
        raise RegexError("Regular expression too big") from None
    return SingleByteRegex(regex) if single_byte else regex
