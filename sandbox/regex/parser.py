"""Parse GNU basic / extended regular expressions into a small AST.

The grammar follows GNU grep 3.8 / GNU sed 4.9 in a UTF-8 locale (glibc ``regcomp`` with GNU's
syntax bits plus grep's ``dfa.c`` checks):

* BRE: ``\\( \\) \\{m,n\\} \\| \\+ \\?`` are operators, ``( ) { } | + ?`` are literal; ``*`` is
  literal at the start of the expression, after ``\\(``, ``\\|`` or an anchoring ``^``; ``^`` is an
  anchor only at the start (of the pattern, a group or an alternative), ``$`` only at the end.
* ERE: ``( ) {m,n} | + ? *`` are operators; a ``{`` that does not start a valid interval is
  literal; an unmatched ``)`` is literal; a repetition operator with nothing before it applies to
  the empty string (GNU warns ``* at start of expression``); ``^``/``$`` are anchors anywhere.
* Both: ``\\1``..``\\9``, ``\\< \\> \\b \\B \\w \\W \\s \\S \\` \\'``, bracket expressions with
  ``[:class:]``, ``[=c=]``, ``[.c.]`` (single characters only), ``]`` first is literal.

Pattern text is a ``str`` decoded from UTF-8 with ``surrogateescape``: an invalid byte ``0xNN``
is the character ``U+DCNN`` and matches only that byte.

The AST is made of tuples (cheap to build and walk)::

    ("char", c)                 one literal character
    ("any",)                    .
    ("set", negated, items)     bracket expression; items: ("range", lo, hi) | ("class", name)
                                | ("equiv", c); ``\\w \\W \\s \\S`` add a 4th field "escape"
    ("cat", [nodes])  ("alt", [nodes])  ("group", index, node)
    ("repeat", node, min, max)  max is None for unbounded
    ("backref", n)
    ("assert", kind)            kind in: bol eol bot eot wordb nwordb wbeg wend
    ("empty",)
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Deepest group nesting we accept (deeper is "Regular expression too big"): keeps every
#: recursive walk of the AST far from Python's recursion limit.
MAX_DEPTH = 120

#: GNU's RE_DUP_MAX: the largest count an interval may give.
DUP_MAX = 32767

CLASS_NAMES = frozenset(
    ["alpha", "upper", "lower", "digit", "xdigit", "space", "print", "punct", "graph", "cntrl",
     "blank", "alnum"]
)

Node = tuple


class RegexError(Exception):
    """An invalid pattern; ``str(err)`` is GNU's message (without any program prefix)."""


@dataclass
class ParsedRegex:
    """The result of parsing: the AST, the number of groups and GNU's warnings."""

    ast: Node
    groups: int
    has_backrefs: bool
    warnings: list[str] = field(default_factory=list)


#: Node for ``\w`` and ``\W`` / ``\s`` and ``\S`` as bracket expressions. The fourth field
#: marks a class escape: glibc's REG_NEWLINE keeps a newline out of ``[^...]`` but not out of
#: ``\W`` (sed's ``M`` flag), so the backends must tell them apart.
WORD_SET: Node = ("set", False, (("class", "alnum"), ("range", "_", "_")), "escape")
NONWORD_SET: Node = ("set", True, (("class", "alnum"), ("range", "_", "_")), "escape")
SPACE_SET: Node = ("set", False, (("class", "space"),), "escape")
NONSPACE_SET: Node = ("set", True, (("class", "space"),), "escape")

_BADRPT = "Invalid preceding regular expression"

#: The word anchors ``\\< \\> \\b \\B``: GNU grep's BRE never repeats them either.
_WORD_ASSERTS = frozenset(["wbeg", "wend", "wordb", "nwordb"])

_ESCAPE_ASSERTS = {"<": "wbeg", ">": "wend", "b": "wordb", "B": "nwordb", "`": "bot", "'": "eot"}
_ESCAPE_SETS = {"w": WORD_SET, "W": NONWORD_SET, "s": SPACE_SET, "S": NONSPACE_SET}


class _Parser:
    def __init__(self, pattern: str, extended: bool, glibc: bool = False):
        self.p = pattern
        #: glibc regcomp's stricter syntax (GNU sed) instead of GNU grep's dfa.c leniency.
        self.glibc = glibc
        self.n = len(pattern)
        self.i = 0
        self.ere = extended
        self.groups = 0
        self.open_groups: list[int] = []
        self.closed: set[int] = set()
        self.has_backrefs = False
        self.warnings: list[str] = []
        self.depth = 0

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    # -- structure ------------------------------------------------------------------------

    def parse(self) -> Node:
        node = self.parse_alt()
        if self.i < self.n:
            # Only an unmatched close-group can stop the top level.
            raise RegexError("Unmatched ) or \\)")
        return node

    def at_alt_sep(self) -> bool:
        if self.ere:
            return self.i < self.n and self.p[self.i] == "|"
        return self.p.startswith("\\|", self.i)

    def at_close(self) -> bool:
        if self.ere:
            return self.i < self.n and self.p[self.i] == ")" and bool(self.open_groups)
        return self.p.startswith("\\)", self.i)

    def parse_alt(self) -> Node:
        # As glibc: a back-reference may not name a group closed in an earlier alternative.
        initial = set(self.closed)
        branches = [self.parse_branch()]
        while self.at_alt_sep():
            self.i += 1 if self.ere else 2
            accumulated = self.closed
            self.closed = set(initial)
            branches.append(self.parse_branch())
            self.closed |= accumulated
        return branches[0] if len(branches) == 1 else ("alt", branches)

    def parse_branch(self) -> Node:
        items: list[Node] = []
        start = self.i
        while self.i < self.n and not self.at_alt_sep() and not self.at_close():
            if not self.ere and self.p.startswith("\\)", self.i):
                break
            atom_start = self.i
            # dfa.c's "laststart": nothing but anchors so far in this branch.
            self.laststart = all(item[0] == "assert" for item in items)
            atom = self.parse_atom(at_start=(self.i == start), prev=items[-1] if items else None)
            if atom is None:
                continue
            items.append(self.parse_postfix(atom, atom_start, at_start=atom_start == start))
        if not items:
            return ("empty",)
        return items[0] if len(items) == 1 else ("cat", items)

    def parse_atom(self, at_start: bool, prev: Node | None) -> Node | None:
        p, i = self.p, self.i
        c = p[i]
        if self.ere:
            if c == "(":
                return self.parse_group(i + 1)
            if c in "*+?" or c == "{" and self.glibc:
                if self.glibc and at_start:
                    raise RegexError(_BADRPT)
                if at_start or prev == ("assert", "bol"):
                    self.warn(f"{c} at start of expression")
                    self.i = i  # the operator applies to an empty expression
                    return ("empty",)
            if c == "{" and self.interval_follows(i + 1):
                if at_start or prev == ("assert", "bol"):
                    self.warn("{...} at start of expression")
                    return ("empty",)
            if c == "^":
                self.i = i + 1
                return ("assert", "bol")
            if c == "$":
                self.i = i + 1
                return ("assert", "eol")
        else:
            if c == "*" and (at_start or prev == ("assert", "bol") and self.prev_is_leading_bol
                             or prev is not None and prev[0] == "assert"):
                self.i = i + 1
                return ("char", "*")
            if c == "^":
                self.i = i + 1
                if at_start:
                    self.prev_is_leading_bol = True
                    return ("assert", "bol")
                return ("char", "^")
            if c == "$":
                self.i = i + 1
                if self.i == self.n or p.startswith("\\)", self.i) or p.startswith("\\|", self.i):
                    return ("assert", "eol")
                return ("char", "$")
        self.prev_is_leading_bol = False
        if c == ".":
            self.i = i + 1
            return ("any",)
        if c == "[":
            return self.parse_bracket(i + 1)
        if c == "\\":
            return self.parse_escape(at_start, prev)
        self.i = i + 1
        return ("char", c)

    prev_is_leading_bol = False
    laststart = True

    def parse_group(self, j: int) -> Node:
        self.groups += 1
        index = self.groups
        self.open_groups.append(index)
        self.i = j
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise RegexError("Regular expression too big")
        inner = self.parse_alt()
        if self.ere:
            if self.i >= self.n or self.p[self.i] != ")":
                raise RegexError("Unmatched ( or \\(")
            self.i += 1
        else:
            if not self.p.startswith("\\)", self.i):
                raise RegexError("Unmatched ( or \\(")
            self.i += 2
        self.depth -= 1
        self.open_groups.pop()
        self.closed.add(index)
        return ("group", index, inner)

    def parse_escape(self, at_start: bool, prev: Node | None) -> Node | None:
        p, i = self.p, self.i
        if i + 1 >= self.n:
            raise RegexError("Trailing backslash")
        c = p[i + 1]
        self.i = i + 2
        if not self.ere:
            if c == "(":
                return self.parse_group(i + 2)
            if c == ")":
                raise RegexError("Unmatched ) or \\)")
            if c in "+?":
                if at_start:
                    return ("char", c)
                # A postfix operator directly after something: handled by parse_postfix;
                # reaching here means it follows an anchor-only context: literal.
                return ("char", c)
            if c == "{":
                if (not self.glibc and prev is not None and prev[0] == "assert"
                        and not self.laststart):
                    # grep: literal where glibc's sed syntax rejects it, if an interval follows
                    k = i + 2
                    while k < self.n and (p[k].isdigit() or p[k] == ","):
                        k += 1
                    if not p.startswith("\\}", k) or p[i + 2 : k].count(",") > 1:
                        raise RegexError("invalid content of \\{\\}")  # dfa.c's wording
                    return ("char", "{")
                if (at_start or self.laststart) and not self.glibc:
                    return ("char", "{")
                raise RegexError("Invalid preceding regular expression")
            if c == "}":
                return ("char", "}")
            if c == "|":
                return ("char", "|")  # unreachable: handled by the branch loop
        if "1" <= c <= "9":
            n = ord(c) - 48
            if n > self.groups or n not in self.closed:
                raise RegexError("Invalid back reference")
            self.has_backrefs = True
            return ("backref", n)
        if c in _ESCAPE_ASSERTS:
            return ("assert", _ESCAPE_ASSERTS[c])
        if c in _ESCAPE_SETS:
            return _ESCAPE_SETS[c]
        if c in "^$.*[]\\":
            return ("char", c)
        if self.ere and c in "(){}|+?":
            return ("char", c)
        if c == "\n":
            return ("char", c)
        return ("char", c)

    # -- postfix operators --------------------------------------------------------------

    def interval_follows(self, j: int) -> bool:
        """True if an ERE ``{`` at j-1 starts a syntactically valid interval."""
        p, n = self.p, self.n
        k = j
        while k < n and p[k].isdigit():
            k += 1
        if k < n and p[k] == ",":
            k += 1
            while k < n and p[k].isdigit():
                k += 1
        return k < n and p[k] == "}" and k > j or (k < n and p[k] == "}" and p[j:k] == "")

    def parse_interval(self, j: int) -> tuple[int, int | None, int]:
        """Read ``m,n`` from j; return (min, max, index after the closing brace)."""
        p, n = self.p, self.n
        k = j
        while k < n and p[k].isdigit():
            k += 1
        lo_text = p[j:k]
        hi_text: str | None = lo_text
        if k < n and p[k] == ",":
            k += 1
            h = k
            while k < n and p[k].isdigit():
                k += 1
            hi_text = p[h:k] if k > h else None
        if self.ere:
            if k >= n or p[k] != "}":
                if self.glibc and "}" not in p[k:]:
                    raise RegexError("Unmatched \\{")
                raise RegexError("Invalid content of \\{\\}")
            end = k + 1
        else:
            if k >= n:
                raise RegexError("Unmatched \\{")
            if not p.startswith("\\}", k):
                if p[k] == "\\" and k + 1 >= n:
                    raise RegexError("Trailing backslash")
                if "\\}" not in p[k:]:
                    raise RegexError("Unmatched \\{")
                raise RegexError("Invalid content of \\{\\}")
            end = k + 2
        lo = int(lo_text) if lo_text else 0
        hi = int(hi_text) if hi_text else None
        if lo > DUP_MAX or (hi is not None and hi > DUP_MAX):
            raise RegexError("Regular expression too big")
        if hi is not None and hi < lo:
            raise RegexError("Invalid content of \\{\\}")
        return lo, hi, end

    def parse_postfix(self, atom: Node, atom_start: int, at_start: bool = False) -> Node:
        p = self.p
        if not self.glibc and atom[0] == "assert" and atom[1] in _WORD_ASSERTS and self.ere:
            # GNU grep runs patterns with word anchors on glibc's regex (RE_CONTEXT_INDEP_OPS):
            # repetition operators right after the anchor are skipped (``{`` alone: what follows
            # it is literal); dfa.c still warns when the anchor starts the expression.
            skipped = False
            while self.i < self.n and (p[self.i] in "*+?" or p[self.i] == "{"
                                       and self.interval_follows(self.i + 1)):
                c = p[self.i]
                if at_start:
                    self.warn(f"{c} at start of expression" if c != "{"
                              else "{...} at start of expression")
                self.i += 1
                skipped = True
            if skipped and self.i < self.n and p[self.i] == ")" and self.open_groups:
                raise RegexError("Unmatched ( or \\(")  # glibc's parse, as grep reports it
            return atom
        if (not self.glibc and not self.ere and at_start and atom[0] == "assert"
                and atom[1] in ("bot", "eot")):
            return atom  # grep BRE: a repetition operator after a leading \` or \' is literal
        if atom[0] == "assert" and (self.glibc or not self.ere and atom[1] in _WORD_ASSERTS):
            # glibc: nothing repeats an anchor. ERE: an error; BRE: the operator is literal
            # (``*``, ``\+``, ``\?``; ``\{`` is an error for sed, literal for grep), decided
            # by the next atom. GNU grep's BRE does this after word anchors only.
            if self.ere and self.i < self.n and p[self.i] in "*+?{":
                raise RegexError(_BADRPT)
            return atom
        if atom == ("assert", "bol") and not self.ere:
            return atom  # BRE: a '*' after a leading '^' is literal (parse_atom)
        if atom[0] == "assert" and at_start:
            # dfa.c: an anchor leaves the expression "at its start", so it warns.
            if self.i < self.n and p[self.i] in "*+?":
                self.warn(f"{p[self.i]} at start of expression")
            elif self.i < self.n and p[self.i] == "{" and self.interval_follows(self.i + 1):
                self.warn("{...} at start of expression")
        repeated = False
        while self.i < self.n:
            c = p[self.i]
            if (self.glibc and repeated and not self.ere
                    and (c == "*" or p.startswith("\\{", self.i))):
                raise RegexError(_BADRPT)  # glibc BRE: no '*' or '\{' right after a repetition
            repeated = True
            if c == "*":
                self.i += 1
                if not (atom[0] == "repeat" and atom[2] == 0 and atom[3] is None):
                    atom = _repeat(atom, 0, None)  # a** is a*
                continue
            if self.ere:
                if c == "+":
                    self.i += 1
                    atom = _repeat(atom, 1, None)
                    continue
                if c == "?":
                    self.i += 1
                    atom = _repeat(atom, 0, 1)
                    continue
                if c == "{" and (self.glibc or self.interval_follows(self.i + 1)):
                    lo, hi, end = self.parse_interval(self.i + 1)
                    self.i = end
                    atom = _repeat(atom, lo, hi)
                    continue
                break
            if c == "\\" and self.i + 1 < self.n:
                d = p[self.i + 1]
                if d == "+":
                    self.i += 2
                    atom = _repeat(atom, 1, None)
                    continue
                if d == "?":
                    self.i += 2
                    atom = _repeat(atom, 0, 1)
                    continue
                if d == "{":
                    lo, hi, end = self.parse_interval(self.i + 2)
                    self.i = end
                    atom = _repeat(atom, lo, hi)
                    continue
            break
        return atom

    # -- bracket expressions ------------------------------------------------------------

    def parse_bracket(self, j: int) -> Node:
        p, n = self.p, self.n
        unmatched = "Unmatched [, [^, [:, [., or [="
        negated = False
        if j < n and p[j] == "^":
            negated = True
            j += 1
        if j >= n:
            raise RegexError("Invalid regular expression")
        content_start = j
        items: list[Node] = []
        fancy = False
        first = True
        while True:
            if j >= n:
                raise RegexError(unmatched)
            c = p[j]
            if c == "]" and not first:
                j += 1
                break
            first = False
            lo: str | None
            if c == "[" and j + 1 < n and p[j + 1] in ":=.":
                kind = p[j + 1]
                close = p.find(kind + "]", j + 2)
                if close < 0:
                    raise RegexError(unmatched)
                name = p[j + 2 : close]
                j = close + 2
                fancy = True
                if kind == ":":
                    if name not in CLASS_NAMES:
                        raise RegexError("Invalid character class name")
                    items.append(("class", name))
                    if j < n and p[j] == "-" and j + 1 < n and p[j + 1] != "]":
                        raise RegexError("Invalid range end")
                    continue
                if len(name) != 1 or ord(name) >= 0x80:
                    raise RegexError("Invalid collation character")
                if kind == "=":
                    items.append(("equiv", name))
                    continue
                lo = name
            else:
                lo = c
                j += 1
            # A range?
            if j + 1 < n and p[j] == "-" and p[j + 1] != "]":
                fancy = True
                j += 1
                c2 = p[j]
                if c2 == "[" and j + 1 < n and p[j + 1] in ":=.":
                    kind = p[j + 1]
                    close = p.find(kind + "]", j + 2)
                    if close < 0:
                        raise RegexError(unmatched)
                    name = p[j + 2 : close]
                    j = close + 2
                    if kind != "." or len(name) != 1:
                        if kind == ".":
                            raise RegexError("Invalid collation character")
                        raise RegexError("Invalid range end")
                    hi = name
                else:
                    hi = c2
                    j += 1
                if ord(lo) >= 0x80 or ord(hi) >= 0x80:
                    # glibc in C.UTF-8 cannot collate multibyte range ends
                    raise RegexError("Invalid collation character")
                if ord(hi) < ord(lo):
                    raise RegexError("Invalid range end")
                items.append(("range", lo, hi))
            else:
                items.append(("range", lo, lo))
        content = p[content_start : j - 1]
        if (not fancy and len(content) >= 2 and content[0] == ":" and content[-1] == ":"
                and content.strip(":")):
            raise RegexError("character class syntax is [[:space:]], not [:space:]")
        self.i = j
        return ("set", negated, tuple(items))


def _repeat(atom: Node, lo: int, hi: int | None) -> Node:
    depth = 0
    inner = atom
    while inner[0] == "repeat":
        depth += 1
        inner = inner[1]
    if depth >= MAX_DEPTH:
        raise RegexError("Regular expression too big")
    return ("repeat", atom, lo, hi)


def parse(pattern: str, extended: bool, glibc: bool = False) -> ParsedRegex:
    """Parse ``pattern`` (BRE, or ERE when ``extended``); raise ``RegexError`` if invalid.

    ``glibc`` applies glibc regcomp's syntax (GNU sed) where it is stricter than GNU grep:
    a repetition operator at the start of an ERE or after an anchor (``^ $ \\< \\> \\b \\B
    \\` \\'``) is "Invalid preceding regular expression" (in a BRE such ``*``, ``\\+``,
    ``\\?`` are literal), a BRE ``\\{`` at the start is that error too, and an ERE ``{``
    that does not open a valid interval is an error rather than a literal.
    """
    parser = _Parser(pattern, extended, glibc)
    ast = parser.parse()
    return ParsedRegex(ast, parser.groups, parser.has_backrefs, parser.warnings)
