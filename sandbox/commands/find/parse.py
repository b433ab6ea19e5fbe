"""find's command line: start points, options and the expression, parsed as GNU find 4.9 does
(operator precedence ``!`` > ``-a`` > ``-o`` > ``,``, GNU's messages for every malformed
expression). The result is a tree of ``Node``s evaluated by ``sandbox.commands.find.walk``."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Callable

from sandbox.commands._quoting import quote
from sandbox.commands.find.glob import compile_glob

#: Raised with GNU's message (without ``find: ``); find exits 1.
class FindError(Exception):
    """A command-line error: ``find: <message>`` and exit status 1."""


@dataclass
class Node:
    """One node of the expression: an operator (``and or comma not``) or a primary."""

    kind: str
    name: str = ""
    args: list = field(default_factory=list)
    left: "Node | None" = None
    right: "Node | None" = None
    #: For primaries: the test or action, called with (walker, entry) -> bool.
    fn: Callable | None = None


@dataclass
class Options:
    """Global options and what the walker needs to know about the expression."""

    maxdepth: int | None = None
    mindepth: int = 0
    depth: bool = False
    daystart: bool = False
    regextype: str = "emacs"
    has_action: bool = False
    delete: bool = False
    prune: bool = False
    warn: bool = False
    #: The last of the leading ``-P``/``-H``/``-L``: which links count as what they name
    #: (resolved by name inside the jail; nothing is opened through a link).
    follow: str = "P"


REGEX_TYPES = ["findutils-default", "ed", "emacs", "gnu-awk", "grep", "posix-awk", "awk",
               "posix-basic", "posix-egrep", "egrep", "posix-extended", "posix-minimal-basic",
               "sed"]
_EXTENDED = {"gnu-awk", "posix-awk", "awk", "posix-egrep", "egrep", "posix-extended"}

#: Primaries and how many arguments they take.
TESTS_1 = {"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex",
           "-iregex", "-type", "-xtype", "-size", "-newer", "-anewer", "-cnewer", "-mtime",
           "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-perm", "-links", "-uid", "-gid",
           "-user", "-group", "-used", "-inum", "-samefile", "-lname", "-ilname"}
TESTS_0 = {"-empty", "-true", "-false", "-prune", "-quit", "-readable", "-writable",
           "-executable", "-nouser", "-nogroup"}
ACTIONS_0 = {"-print", "-print0", "-ls", "-delete"}
GLOBAL_0 = {"-depth", "-d", "-noleaf", "-xdev", "-mount", "-ignore_readdir_race",
            "-noignore_readdir_race"}
GLOBAL_1 = {"-maxdepth", "-mindepth"}
POSITIONAL_0 = {"-daystart", "-warn", "-nowarn"}
REFUSED = {"-L", "-H", "-follow", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls",
           "-fstype", "-context"}


def looks_like_expression(arg: str) -> bool:
    """GNU's rule for where the start points end."""
    return (arg.startswith("-") and len(arg) > 1) or arg in ("(", "!")


class Parser:
    """Recursive descent over the expression words."""

    def __init__(self, words: list[str], options: Options, make: Callable[[str, list], Callable]):
        self.words = words
        self.i = 0
        self.options = options
        self.make = make
        self.seen_non_option = ""
        #: Prints a ``find: warning: ...`` line (set by the command).
        self.warn: Callable[[str], None] | None = None
        #: Whether a path names an existing file (set by the command: the unquoted-pattern hint).
        self.exists: Callable[[str], bool] | None = None
        #: The last predicate or operator read (GNU names it in that hint).
        self.last_name = ""

    def peek(self) -> str | None:
        return self.words[self.i] if self.i < len(self.words) else None

    def parse(self) -> Node | None:
        """The whole expression (None when it is empty)."""
        if not self.words:
            return None
        node = self.comma()
        if self.peek() is not None:
            w = self.peek()
            if w == ")":
                raise FindError("you have too many ')'")
            raise self.misplaced_path(w or "")
        return node

    def comma(self) -> Node:
        left = self.alt()
        while self.peek() == ",":
            self.i += 1
            if self.peek() is None:
                raise FindError("expected an expression after ','")
            left = Node("comma", left=left, right=self.alt())
        return left

    def alt(self) -> Node:
        left = self.conj()
        while self.peek() in ("-o", "-or"):
            op = self.peek()
            self.i += 1
            if self.peek() is None:
                raise FindError(f"expected an expression after '{op}'")
            if self.peek() in ("-o", "-or", "-a", "-and", ",", ")"):
                raise FindError(f"invalid expression; you have used a binary operator "
                                f"'{self.peek()}' with nothing before it.")
            left = Node("or", left=left, right=self.conj())
        return left

    def conj(self) -> Node:
        left = self.unary()
        while True:
            w = self.peek()
            if w in ("-a", "-and"):
                self.i += 1
                if self.peek() is None:
                    raise FindError(f"expected an expression after '{w}'")
                if self.peek() in ("-o", "-or", "-a", "-and", ",", ")"):
                    raise FindError(f"invalid expression; you have used a binary operator "
                                    f"'{self.peek()}' with nothing before it.")
                left = Node("and", left=left, right=self.unary())
            elif w is None or w in ("-o", "-or", ",", ")"):
                return left
            else:
                left = Node("and", left=left, right=self.unary())

    def unary(self) -> Node:
        w = self.peek()
        if w in ("!", "-not"):
            self.last_name = w
            self.i += 1
            if self.peek() is None:
                raise FindError(f"expected an expression after '{w}'")
            return Node("not", left=self.unary())
        return self.primary()

    def primary(self) -> Node:
        w = self.peek()
        assert w is not None
        if w in ("-o", "-or", "-a", "-and", ","):
            raise FindError(f"invalid expression; you have used a binary operator '{w}' with "
                            "nothing before it.")
        if w == "(":
            self.i += 1
            if self.peek() == ")":
                raise FindError("invalid expression; empty parentheses are not allowed.")
            if self.peek() is None:
                raise FindError("invalid expression; I was expecting to find a ')' somewhere "
                                "but did not see one.")
            self.last_name = "("
            node = self.comma()
            if self.peek() != ")":
                raise FindError("invalid expression; I was expecting to find a ')' somewhere "
                                "but did not see one.")
            self.i += 1
            self.last_name = ")"
            return node
        if w == ")":
            raise FindError("you have too many ')'")
        self.i += 1
        return self.predicate(w)

    def arg(self, name: str) -> str:
        if self.i >= len(self.words):
            raise FindError(f"missing argument to `{name}'")
        a = self.words[self.i]
        self.i += 1
        return a

    def misplaced_path(self, word: str) -> FindError:
        """GNU's error for a path after the expression began; when it names an existing file
        (an unquoted glob's expansion, usually), the hint about the predicate before it."""
        message = f"paths must precede expression: `{word}'"
        exists = self.exists
        if self.last_name and exists is not None and exists(word):
            message += f"\nfind: possible unquoted pattern after predicate `{self.last_name}'?"
        return FindError(message)

    def predicate(self, name: str) -> Node:
        o = self.options
        if not name.startswith("-") or name == "-":
            raise self.misplaced_path(name)
        self.last_name = name
        if name in REFUSED:
            if name in ("-L", "-H", "-follow"):
                raise FindError(f"{name}: symbolic links are never followed in the sandbox")
            if name in ("-ok", "-okdir"):
                raise FindError(f"{name}: there is no terminal to ask in the sandbox; use "
                                f"{name.replace('ok', 'exec')}")
            raise FindError(f"{name}: not supported in the sandbox")
        if name in GLOBAL_0 or name in GLOBAL_1:
            if o.warn and self.seen_non_option and self.warn is not None:
                self.warn(f"warning: you have specified the global option {name} after the "
                          f"argument {self.seen_non_option}, but global options are not "
                          f"positional, i.e., {name} affects tests specified before it as well "
                          "as those specified after it.  Please specify global options before "
                          "other arguments.")
            if name in GLOBAL_1:
                value = self.arg(name)
                if not re.fullmatch(r"\+?\d+", value.strip() if value.strip() else "x"):
                    raise FindError(f"Expected a positive decimal integer argument to {name}, "
                                    f"but got {quote(value)}")
                if name == "-maxdepth":
                    o.maxdepth = int(value)
                else:
                    o.mindepth = int(value)
            elif name in ("-depth", "-d"):
                o.depth = True
            return Node("true", name)
        if name in POSITIONAL_0:
            if name == "-daystart":
                o.daystart = True
            elif name == "-warn":
                o.warn = True
            elif name == "-nowarn":
                o.warn = False
            return Node("true", name)
        if name == "-regextype":
            value = self.arg(name)
            if value not in REGEX_TYPES:
                raise FindError(f"Unknown regular expression type {quote(value)}; valid types "
                                "are " + ", ".join(quote(t) for t in REGEX_TYPES) + ".")
            o.regextype = value
            return Node("true", name)
        self.seen_non_option = self.seen_non_option or name
        if name in ("-exec", "-execdir"):
            start = self.i
            while self.i < len(self.words):
                w = self.words[self.i]
                if w == ";" or (w == "+" and self.i > start and "{}" in self.words[self.i - 1]):
                    break
                self.i += 1
            if self.i >= len(self.words) or self.i == start:
                raise FindError(f"missing argument to `{name}'")
            cmd = self.words[start:self.i]
            plus = self.words[self.i] == "+"
            self.i += 1
            if plus:
                if cmd[-1] != "{}":
                    raise FindError(f"In \u2018{name} ... {{}} +\u2019 the \u2018{{}}\u2019 must "
                                    f"appear by itself, but you specified {quote(cmd[-1])}")
                if sum("{}" in a for a in cmd) > 1:
                    raise FindError(f"Only one instance of {{}} is supported with {name} ... +")
            o.has_action = True
            return Node("pred", name, [cmd, plus], fn=self.make(name, [cmd, plus]))
        if name in ACTIONS_0:
            o.has_action = True
            if name == "-delete":
                o.delete = True
            return Node("pred", name, [], fn=self.make(name, []))
        if name == "-printf":
            o.has_action = True
            fmt = self.arg(name)
            return Node("pred", name, [fmt], fn=self.make(name, [fmt]))
        if name in TESTS_0:
            if name == "-prune":
                o.prune = True
            return Node("pred", name, [], fn=self.make(name, []))
        if name in TESTS_1:
            value = self.arg(name)
            return Node("pred", name, [value], fn=self.make(name, [value]))
        if name.startswith("-newer") and len(name) == 8:
            value = self.arg(name)
            return Node("pred", name, [value], fn=self.make(name, [value]))
        raise FindError(f"unknown predicate `{name}'")


def parse_number(value: str, name: str) -> tuple[str, float]:
    """``+N`` / ``-N`` / ``N`` -> (comparison, N); GNU's message when it is not a number."""
    cmp = "eq"
    text = value
    if text.startswith("+"):
        cmp, text = "gt", text[1:]
    elif text.startswith("-"):
        cmp, text = "lt", text[1:]
    if not re.fullmatch(r"\d+(\.\d*)?|\.\d+", text) or (name not in _FLOAT_OK and "." in text):
        raise FindError(f"invalid argument `{value}' to `{name}'")
    n = float(text)
    if not math.isfinite(n):
        raise FindError(f"invalid argument `{value}' to `{name}'")
    return cmp, n


_FLOAT_OK = {"-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin"}

_SIZE_UNITS = {"b": 512, "c": 1, "w": 2, "k": 1024, "M": 1 << 20, "G": 1 << 30, "": 512}


def parse_size(value: str) -> tuple[str, int, int]:
    """``-size`` argument -> (comparison, N, unit bytes)."""
    if value == "":
        raise FindError("invalid null argument to -size")
    cmp = "eq"
    text = value
    if text[0] in "+-":
        cmp, text = ("gt" if text[0] == "+" else "lt"), text[1:]
    unit = ""
    if text and text[-1] in _SIZE_UNITS and not text[-1].isdigit():
        unit, text = text[-1], text[:-1]
    if not text.isdigit() or not text.isascii():
        raise FindError(f"invalid -size type `{value[-1] if value else ''}'"
                        if text and not text[-1].isdigit() or not text else
                        f"invalid argument `{value}' to `-size'")
    return cmp, int(text), _SIZE_UNITS[unit]


def parse_types(value: str, name: str) -> set[str]:
    """``-type f,d`` -> {"f", "d"} with GNU's messages."""
    if value == "":
        raise FindError(f"Arguments to {name} should contain at least one letter")
    seen: set[str] = set()
    parts = value.split(",")
    for i, c in enumerate(parts):
        if len(c) != 1:
            if c == "":
                raise FindError(f"Last file type in list argument to {name} is missing, i.e., "
                                "list is ending on: ','" if i == len(parts) - 1 else
                                f"Unknown argument to {name}: {c}")
            if c[0] in "bcdpflsD":
                raise FindError(f"Must separate multiple arguments to {name} using: ','")
            raise FindError(f"Unknown argument to {name}: {c[0]}")
        if c not in "bcdpflsD":
            raise FindError(f"Unknown argument to {name}: {c}")
        if c in seen:
            raise FindError(f"Duplicate file type '{c}' in the argument list to {name}.")
        seen.add(c)
    return seen


def regex_flavour(regextype: str) -> str:
    """"emacs", "basic" or "extended": how ``sandbox.regex`` is asked to read a -regex."""
    if regextype in ("emacs", "findutils-default"):
        return "emacs"
    return "extended" if regextype in _EXTENDED else "basic"


def emacs_to_ere(pattern: str) -> str:
    """GNU's emacs regex syntax (find's default) rewritten as a POSIX ERE: ``\\( \\) \\|`` are
    the operators, ``( ) | { }`` plain characters, ``+ ?`` operators, no intervals."""
    out: list[str] = []
    i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            d = pattern[i + 1]
            if d in "()|":
                out.append(d)
            elif d in "{}":
                out.append("\\" + d)
            else:
                out.append("\\" + d)
            i += 2
            continue
        if c in "(){}|":
            out.append("\\" + c)
        elif c == "[":
            j = i + 1
            if j < n and pattern[j] == "^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                if pattern[j] == "[" and j + 1 < n and pattern[j + 1] in ":.=":
                    end = pattern.find(pattern[j + 1] + "]", j + 2)
                    j = end + 2 if end != -1 else j + 1
                    continue
                j += 1
            out.append(pattern[i:j + 1])
            i = j + 1
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def glob(pattern: str, icase: bool = False):  # type: ignore[no-untyped-def]
    """The compiled fnmatch pattern (re-exported for the walker)."""
    return compile_glob(pattern, icase)


_WHO = {"u": 0o4700, "g": 0o2070, "o": 0o1007, "a": 0o7777}


def parse_perm(value: str) -> tuple[str, int]:
    """``-perm`` argument -> ("exact" | "all" | "any", mode bits); octal or symbolic."""
    kind = "exact"
    text = value
    if text[:1] == "-":
        kind, text = "all", text[1:]
    elif text[:1] == "/":
        kind, text = "any", text[1:]
    if text and all(c in "01234567" for c in text):
        n = int(text, 8)
        if n <= 0o7777:
            return kind, n
    mode = 0
    for clause in text.split(","):
        m = re.fullmatch(r"([ugoa]*)([-+=])([rwxXst]*|[ugo])", clause)
        if not clause or m is None:
            raise FindError(f"invalid mode {quote(value)}")
        who = 0
        for c in m.group(1) or "a":
            who |= _WHO[c]
        perms = m.group(3)
        bits = 0
        if perms in ("u", "g", "o"):
            src = {"u": 6, "g": 3, "o": 0}[perms]
            trip = (mode >> src) & 7
            bits = trip << 6 | trip << 3 | trip
        else:
            for c in perms:
                bits |= {"r": 0o444, "w": 0o222, "x": 0o111, "X": 0o111, "s": 0o6000,
                         "t": 0o1000}[c]
        bits &= who
        op = m.group(2)
        if op == "+":
            mode |= bits
        elif op == "-":
            mode &= ~bits
        else:
            mode = (mode & ~who) | bits
    return kind, mode
