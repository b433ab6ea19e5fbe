"""Lexer and recursive-descent parser for the awk language as gawk 5 accepts it.

The lexer runs on demand: the parser asks for the next token, and where an operand is expected
and the token is ``/`` or ``/=`` it re-reads the text from there as a regexp literal (the only
way to tell division from a regexp). Newlines are tokens; the parser skips them where the
grammar allows (after ``{ && || , do else`` and the ``)`` of ``if for while``); backslash-newline
and comments are skipped by the lexer.

The AST is made of tuples (see the node list in ``compiler``). Syntax errors raise
``AwkSyntaxError`` with gawk's wording and the offset for the caret line.
"""

from __future__ import annotations

KEYWORDS = frozenset(
    "BEGIN END BEGINFILE ENDFILE function func if else while for do break continue next "
    "nextfile exit return delete in getline print printf switch case default".split()
)
BUILTINS = frozenset(
    "length substr index split sub gsub gensub match sprintf sin cos atan2 exp log sqrt int "
    "rand srand tolower toupper system close fflush systime strftime mktime asort asorti and "
    "or xor compl lshift rshift strtonum isarray typeof patsplit".split()
)
def _case_constant(node) -> bool:
    """A value a ``case`` may have: a number (signed), a string or a regexp constant."""
    if node[0] == "group":
        node = node[1]
    if node[0] in ("num", "str", "regex"):
        return True
    return node[0] == "unary" and node[1] in ("-", "+") and node[2][0] == "num"


def _case_key(node) -> bytes | None:
    """A case value's text, as gawk compares them for duplicates (None for a regexp)."""
    if node[0] == "group":
        node = node[1]
    if node[0] == "str":
        return node[1]
    if node[0] == "regex":
        return None
    v = node[1] if node[0] == "num" else node[2][1] * (-1 if node[1] == "-" else 1)
    return b"%d" % v if float(v).is_integer() else (b"%.6g" % v)


_ASSIGN_OPS = frozenset(["=", "+=", "-=", "*=", "/=", "%=", "^=", "**="])
_THREE = ("**=",)
_TWO = ("+=", "-=", "*=", "/=", "%=", "^=", "**", "++", "--", "&&", "||", "==", "!=", "<=",
        ">=", "!~", ">>", "|&")
_ONE = set("{}()[];,+-*/%^!><|?:~$=")


class AwkSyntaxError(Exception):
    """A syntax error: ``message`` and the source offset of the caret (None: no source line)."""

    def __init__(self, message: str, pos: int | None, kind: str = "syntax"):
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.kind = kind
        #: The error is at the newline gawk adds after the source (it names the next line).
        self.implicit_newline = False


#: Tokens after which gawk's grammar can't take a newline (an operand must follow).
_NEWLINE_BAD = frozenset("$ = += -= *= /= %= ^= **= + - * / % ^ ** < <= > >= == != ~ !~ ! ? : "
                         "in | |& >> getline".split())


class Tok:
    __slots__ = ("kind", "value", "pos", "end")

    def __init__(self, kind: str, value, pos: int, end: int):
        self.kind = kind
        self.value = value
        self.pos = pos
        self.end = end

    def __repr__(self) -> str:
        return f"Tok({self.kind!r}, {self.value!r}, {self.pos})"


_STR_ESC = {"n": 10, "t": 9, "r": 13, "f": 12, "v": 11, "b": 8, "a": 7, "\\": 92, '"': 34}


def unescape_string(text: bytes, warn=None) -> bytes:
    """Process awk string escape sequences (``-v`` assignments and string literals)."""
    if b"\\" not in text:
        return text
    out = bytearray()
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c != 92:
            out.append(c)
            i += 1
            continue
        i += 1
        if i >= n:
            out.append(92)
            break
        d = chr(text[i])
        if d in _STR_ESC:
            out.append(_STR_ESC[d])
            i += 1
        elif "0" <= d <= "7":
            v = 0
            k = 0
            while k < 3 and i < n and 48 <= text[i] <= 55:
                v = v * 8 + text[i] - 48
                i += 1
                k += 1
            out.append(v & 0xFF)
        elif d == "x":
            i += 1
            v = 0
            k = 0
            while k < 2 and i < n and chr(text[i]) in "0123456789abcdefABCDEF":
                v = v * 16 + int(chr(text[i]), 16)
                i += 1
                k += 1
            if k == 0:
                if warn:
                    warn("no hex digits in `\\x' escape sequence")
                out += b"\\x"
            else:
                out.append(v)
        elif d == "\n":
            i += 1
        else:
            if warn:
                warn(f"escape sequence `\\{d}' treated as plain `{d}'")
            out.append(text[i])
            i += 1
    return bytes(out)


class Lexer:
    def __init__(self, src: str):
        self.src = src
        self.n = len(src)
        self.i = 0
        self.warnings: list[str] = []

    def _skip(self) -> None:
        s, n = self.src, self.n
        i = self.i
        while i < n:
            c = s[i]
            if c == " " or c == "\t" or c == "\r" and i + 1 < n and s[i + 1] == "\n":
                i += 1
            elif c == "\\" and i + 1 < n and s[i + 1] == "\n":
                i += 2
            elif c == "\\" and i + 2 < n and s[i + 1] == "\r" and s[i + 2] == "\n":
                i += 3
            elif c == "#":
                while i < n and s[i] != "\n":
                    i += 1
            else:
                break
        self.i = i

    def next(self) -> Tok:
        self._skip()
        s, n, i = self.src, self.n, self.i
        if i >= n:
            return Tok("EOF", None, n, n)
        c = s[i]
        if c == "\n":
            self.i = i + 1
            return Tok("NEWLINE", None, i, i + 1)
        if c.isdigit() or (c == "." and i + 1 < n and s[i + 1].isdigit()):
            return self._number(i)
        if c.isalpha() or c == "_":
            j = i + 1
            while j < n and (s[j].isalnum() or s[j] == "_") and s[j].isascii():
                j += 1
            word = s[i:j]
            self.i = j
            if word in KEYWORDS:
                if word == "func":
                    word = "function"
                return Tok(word, word, i, j)
            if word in BUILTINS:
                return Tok("BUILTIN", word, i, j)
            if j < n and s[j] == "(":
                return Tok("FUNC_NAME", word, i, j)
            return Tok("NAME", word, i, j)
        if c == '"':
            return self._string(i)
        for op in _THREE:
            if s.startswith(op, i):
                self.i = i + 3
                return Tok(op, op, i, i + 3)
        two = s[i:i + 2]
        if two in _TWO:
            self.i = i + 2
            return Tok(two, two, i, i + 2)
        if c in _ONE:
            self.i = i + 1
            return Tok(c, c, i, i + 1)
        self.i = i + 1
        raise AwkSyntaxError("invalid char '%s' in expression" % c, i)

    def _number(self, i: int) -> Tok:
        s, n = self.src, self.n
        j = i
        if s[i] == "0" and i + 1 < n and s[i + 1] in "xX" and i + 2 < n and \
                s[i + 2] in "0123456789abcdefABCDEF":
            j = i + 2
            while j < n and s[j] in "0123456789abcdefABCDEF":
                j += 1
            self.i = j
            return Tok("NUMBER", float(int(s[i + 2:j], 16)), i, j)
        while j < n and s[j].isdigit() and s[j].isascii():
            j += 1
        is_int = True
        if j < n and s[j] == ".":
            is_int = False
            j += 1
            while j < n and s[j].isdigit() and s[j].isascii():
                j += 1
        if j < n and s[j] in "eE":
            k = j + 1
            if k < n and s[k] in "+-":
                k += 1
            if k < n and s[k].isdigit():
                is_int = False
                j = k
                while j < n and s[j].isdigit() and s[j].isascii():
                    j += 1
        text = s[i:j]
        self.i = j
        if is_int and len(text) > 1 and text[0] == "0" and all(ch in "01234567" for ch in text):
            return Tok("NUMBER", float(int(text, 8)), i, j)
        return Tok("NUMBER", float(text), i, j)

    def _string(self, i: int) -> Tok:
        s, n = self.src, self.n
        j = i + 1
        raw = []
        while True:
            if j >= n or s[j] == "\n":
                raise AwkSyntaxError("unterminated string", i)
            c = s[j]
            if c == '"':
                break
            if c == "\\" and j + 1 < n:
                if s[j + 1] == "\n":
                    j += 2
                    continue
                if s[j + 1] == "\r" and j + 2 < n and s[j + 2] == "\n":
                    j += 3
                    continue
                raw.append(s[j:j + 2])
                j += 2
                continue
            raw.append(c)
            j += 1
        self.i = j + 1
        data = "".join(raw).encode("utf-8", "surrogateescape")
        return Tok("STRING", unescape_string(data, self.warnings.append), i, j + 1)

    def regex(self, tok: Tok) -> Tok:
        """Re-read from the ``/`` of ``tok`` as a regexp literal."""
        s, n = self.src, self.n
        i = tok.pos
        j = i + 1
        out = []
        in_bracket = False
        while True:
            if j >= n or s[j] == "\n":
                raise AwkSyntaxError("unterminated regexp", i + 1)
            c = s[j]
            if c == "\\" and j + 1 < n:
                if s[j + 1] == "/":
                    out.append("/")
                elif s[j + 1] == "\n":
                    pass
                else:
                    out.append(s[j:j + 2])
                j += 2
                continue
            if in_bracket:
                if c == "]" and not (s[j - 1] == "[" or s[j - 2:j] == "[^"):
                    in_bracket = False
                elif c == "[" and j + 1 < n and s[j + 1] in ":.=":
                    close = s.find(s[j + 1] + "]", j + 2)
                    if close > 0 and "\n" not in s[j:close]:
                        out.append(s[j:close + 2])
                        j = close + 2
                        continue
            elif c == "[":
                in_bracket = True
            elif c == "/":
                break
            out.append(c)
            j += 1
        self.i = j + 1
        return Tok("ERE", "".join(out).encode("utf-8", "surrogateescape"), i, j + 1)


# -- the parser ------------------------------------------------------------------------------


class Parser:
    def __init__(self, src: str):
        self.src = src
        self.lex = Lexer(src)
        self.tok = self.lex.next()
        self.peeked: Tok | None = None
        self.in_print = 0       # >0: a top-level '>' is a redirection
        self.no_in = 0          # >0: 'in' is not an operator (for (x in a) head)
        self.loop_depth = 0
        self.switch_depth = 0
        self.in_function = False
        self.errors: list[tuple[str, int | None]] = []
        self.functions: dict[str, tuple] = {}
        self.items: list[tuple] = []
        #: ``(`` and ``[`` read and not yet closed (a newline can't stand inside them).
        self.open_brackets = 0
        #: The line of the last BEGINFILE (where gawk is when the next file fails to open).
        self.beginfile_line = 0
        self.begin: list = []
        self.end: list = []
        self.beginfile: list = []
        self.endfile: list = []
        self.in_begin_end = None

    # -- token helpers ---------------------------------------------------------------------

    def advance(self) -> Tok:
        t = self.tok
        self.prev_kind = t.kind
        if t.kind in ("(", "["):
            self.open_brackets += 1
        elif t.kind in (")", "]"):
            self.open_brackets -= 1
        if self.peeked is not None:
            self.tok = self.peeked
            self.peeked = None
        else:
            self.tok = self.lex.next()
        return t

    def peek(self) -> Tok:
        if self.peeked is None:
            self.peeked = self.lex.next()
        return self.peeked

    def error(self, tok: Tok | None = None):
        t = tok or self.tok
        if t.kind == "EOF" or t.kind == "NEWLINE" and t.end >= self.lex.n:
            err = AwkSyntaxError("unexpected newline or end of string", self.lex.n)
            # gawk ends the source with a newline: where one can't stand (after `$`, `=`,
            # `(`...) the error is at it, on the next line; after `{`, `,`, `&&`... at the end
            err.implicit_newline = (self.open_brackets > 0
                                    or getattr(self, "prev_kind", "") in _NEWLINE_BAD)
            raise err
        if t.kind == "NEWLINE":
            raise AwkSyntaxError("unexpected newline or end of string", t.pos)
        raise AwkSyntaxError("syntax error", max(t.pos, t.end - 1))

    def expect(self, kind: str) -> Tok:
        if self.tok.kind != kind:
            self.error()
        return self.advance()

    def opt_nls(self) -> None:
        while self.tok.kind == "NEWLINE":
            self.advance()

    def line_of(self, pos: int) -> int:
        return self.src.count("\n", 0, pos) + 1

    # -- program ---------------------------------------------------------------------------

    def parse_program(self):
        while True:
            while self.tok.kind in ("NEWLINE", ";"):
                self.advance()
            if self.tok.kind == "EOF":
                break
            self.item()
        return self

    def item(self) -> None:
        t = self.tok
        if t.kind == "function":
            self.function()
            return
        if t.kind in ("BEGIN", "END", "BEGINFILE", "ENDFILE"):
            self.advance()
            if self.tok.kind != "{":
                raise AwkSyntaxError(f"{t.kind} blocks must have an action part", t.pos,
                                     "plain")
            self.in_begin_end = t.kind
            body = self.block()
            self.in_begin_end = None
            {"BEGIN": self.begin, "END": self.end, "BEGINFILE": self.beginfile,
             "ENDFILE": self.endfile}[t.kind].append(body)
            if t.kind == "BEGINFILE":
                self.beginfile_line = self.line_of(t.pos)
            self.item_end()
            return
        if t.kind == "{":
            body = self.block()
            self.items.append((None, None, body, self.line_of(t.pos)))
            self.item_end()
            return
        pat = self.expr()
        pat2 = None
        if self.tok.kind == ",":
            self.advance()
            self.opt_nls()
            pat2 = self.expr()
        body = None
        if self.tok.kind == "{":
            body = self.block()
        self.items.append((pat, pat2, body, self.line_of(t.pos)))
        self.item_end()

    def item_end(self) -> None:
        if self.tok.kind in ("NEWLINE", ";", "EOF"):
            return
        if self.tok.kind in ("{",):
            return
        # gawk accepts items on one line without separators after a '}'
        return

    def function(self) -> None:
        start = self.advance()
        t = self.tok
        if t.kind not in ("NAME", "FUNC_NAME"):
            self.error()
        name = t.value
        self.advance()
        if name in self.functions:
            raise AwkSyntaxError(f"function `{name}' previously defined", None, "error")
        self.expect("(")
        params: list[str] = []
        self.opt_nls()
        if self.tok.kind != ")":
            while True:
                self.opt_nls()
                if self.tok.kind != "NAME":
                    self.error()
                pname = self.tok.value
                if pname == name:
                    raise AwkSyntaxError(
                        f"function `{name}': cannot use function name as parameter name",
                        None, "error")
                if pname in params:
                    raise AwkSyntaxError(
                        f"function `{name}': parameter #{len(params) + 1}, `{pname}', "
                        f"duplicates parameter #{params.index(pname) + 1}", None, "error")
                params.append(pname)
                self.advance()
                self.opt_nls()
                if self.tok.kind == ",":
                    self.advance()
                    continue
                break
        self.expect(")")
        self.opt_nls()
        self.in_function = True
        self.functions[name] = (name, params, None, self.line_of(start.pos))
        body = self.block()
        self.in_function = False
        self.functions[name] = (name, params, body, self.line_of(start.pos))

    # -- statements ------------------------------------------------------------------------

    def block(self):
        self.expect("{")
        stmts = []
        while True:
            while self.tok.kind in ("NEWLINE", ";"):
                self.advance()
            if self.tok.kind == "}":
                self.advance()
                break
            if self.tok.kind == "EOF":
                self.error()
            stmts.append(self.statement())
        return ("block", 0, stmts)

    def simple_end(self) -> None:
        k = self.tok.kind
        if k in (";", "NEWLINE"):
            self.advance()
            return
        if k in ("}", "EOF"):
            return
        self.error()

    def body_statement(self):
        """The statement after ``if (...)``, ``while (...)``, ``for (...)``, ``else``, ``do``."""
        self.opt_nls()
        if self.tok.kind == ";":
            self.advance()
            return ("block", 0, [])
        return self.statement()

    def statement(self):
        t = self.tok
        k = t.kind
        line = self.line_of(t.pos)
        if k == "{":
            return self.block()
        if k == "if":
            self.advance()
            self.expect("(")
            cond = self.expr()
            self.expect(")")
            then = self.body_statement()
            # newlines may precede 'else' (a simple statement's ';' is already consumed;
            # a ';' after a compound statement is an empty statement, as in gawk)
            save = (self.tok, self.peeked, self.lex.i)
            while self.tok.kind == "NEWLINE":
                self.advance()
            if self.tok.kind == "else":
                self.advance()
                other = self.body_statement()
                return ("if", line, cond, then, other)
            self.tok, self.peeked, self.lex.i = save
            return ("if", line, cond, then, None)
        if k == "while":
            self.advance()
            self.expect("(")
            cond = self.expr()
            self.expect(")")
            if self.tok.kind == ";":
                self.advance()
                return ("while", line, cond, ("block", 0, []))
            self.loop_depth += 1
            body = self.body_statement()
            self.loop_depth -= 1
            return ("while", line, cond, body)
        if k == "do":
            self.advance()
            self.loop_depth += 1
            body = self.body_statement()
            self.loop_depth -= 1
            while self.tok.kind in ("NEWLINE", ";"):
                self.advance()
            self.expect("while")
            self.expect("(")
            cond = self.expr()
            self.expect(")")
            if self.tok.kind not in (";", "NEWLINE", "}", "EOF", "else"):
                self.error()
            return ("do", line, body, cond)
        if k == "for":
            return self.for_statement(line)
        if k == "switch":
            return self.switch_statement(line)
        if k == ";":
            self.advance()
            return ("block", 0, [])
        s = self.simple_statement(line)
        self.simple_end()
        return s

    def switch_statement(self, line: int):
        """gawk's ``switch (e) { case v: ... default: ... }``: constant case values (a
        number, a string or a /regexp/), fall-through, ``break`` leaves the switch."""
        self.advance()
        self.expect("(")
        subject = self.expr()
        self.expect(")")
        self.opt_nls()
        self.expect("{")
        cases: list = []
        keys: set = set()
        self.switch_depth += 1
        while True:
            while self.tok.kind in ("NEWLINE", ";"):
                self.advance()
            t = self.tok
            if t.kind == "}":
                self.advance()
                break
            if t.kind == "default":
                if any(c[0] == "default" for c in cases):
                    raise AwkSyntaxError("duplicate `default' detected in switch body", t.pos,
                                         "error")
                self.advance()
                value = None
            elif t.kind == "case":
                self.advance()
                first = self.tok
                value = self.expr()
                if not _case_constant(value):
                    self.error(first)
                key = _case_key(value)
                if key is not None:
                    if key in keys:
                        shown = key.decode("utf-8", "surrogateescape")
                        raise AwkSyntaxError(f"duplicate case values in switch body: {shown}",
                                             t.pos, "error")
                    keys.add(key)
            else:
                self.error()
            self.expect(":")
            body = []
            while True:
                while self.tok.kind in ("NEWLINE", ";"):
                    self.advance()
                if self.tok.kind in ("case", "default", "}"):
                    break
                if self.tok.kind == "EOF":
                    self.error()
                body.append(self.statement())
            cases.append(("default" if value is None else "case", value, body))
        self.switch_depth -= 1
        return ("switch", line, subject, cases)

    def for_statement(self, line: int):
        self.advance()
        self.expect("(")
        # for (NAME in ARRAY)
        if self.tok.kind == "NAME" and self.peek().kind == "in":
            save = (self.tok, self.peeked, self.lex.i)
            var = self.advance().value
            self.advance()
            if self.tok.kind == "NAME":
                arr = self.tok.value
                self.advance()
                if self.tok.kind == ")":
                    self.advance()
                    self.loop_depth += 1
                    body = self.body_statement()
                    self.loop_depth -= 1
                    return ("forin", line, ("var", var), arr, body)
            self.tok, self.peeked, self.lex.i = save
        if self.tok.kind == "(" :
            # for ((k) in a) is not awk; fall through to the general form
            pass
        init = None
        if self.tok.kind != ";":
            init = self.simple_statement(line)
        self.expect(";")
        self.opt_nls()
        cond = None
        if self.tok.kind != ";":
            cond = self.expr()
        self.expect(";")
        self.opt_nls()
        incr = None
        if self.tok.kind != ")":
            incr = self.simple_statement(line)
        self.expect(")")
        if self.tok.kind == ";":
            self.advance()
            return ("for", line, init, cond, incr, ("block", 0, []))
        self.loop_depth += 1
        body = self.body_statement()
        self.loop_depth -= 1
        return ("for", line, init, cond, incr, body)

    def simple_statement(self, line: int):
        t = self.tok
        k = t.kind
        if k in ("print", "printf"):
            return self.print_statement(line)
        if k == "next" or k == "nextfile":
            self.advance()
            if self.in_begin_end in ("BEGIN", "END"):
                raise AwkSyntaxError(f"`{k}' used in {self.in_begin_end} action", t.pos, "error")
            if k == "nextfile" and self.in_begin_end in ("BEGINFILE", "ENDFILE"):
                pass
            return (k, line)
        if k == "exit":
            self.advance()
            e = None
            if self.tok.kind not in (";", "NEWLINE", "}", "EOF"):
                e = self.expr()
            return ("exit", line, e)
        if k == "return":
            self.advance()
            if not self.in_function:
                raise AwkSyntaxError("`return' used outside function context", t.pos)
            e = None
            if self.tok.kind not in (";", "NEWLINE", "}", "EOF"):
                e = self.expr()
            return ("return", line, e)
        if k in ("break", "continue"):
            self.advance()
            if self.loop_depth == 0 and not (k == "break" and self.switch_depth):
                where = " or switch" if k == "break" else ""
                raise AwkSyntaxError(f"`{k}' is not allowed outside a loop{where}", t.pos,
                                     "loop")
            return (k, line)
        if k == "delete":
            self.advance()
            paren = False
            if self.tok.kind == "(":
                paren = True
                self.advance()
            if self.tok.kind != "NAME":
                self.error()
            name = self.advance().value
            subs = None
            if self.tok.kind == "[":
                self.advance()
                subs = self.expr_list_until("]")
                self.expect("]")
            if paren:
                self.expect(")")
            return ("delete", line, name, subs)
        if k == "getline" or True:
            e = self.expr()
            return ("expr", line, e)

    def expr_list_until(self, closer: str):
        saved, self.in_print = self.in_print, 0
        try:
            items = [self.expr()]
            while self.tok.kind == ",":
                self.advance()
                self.opt_nls()
                items.append(self.expr())
        finally:
            self.in_print = saved
        return items

    def print_statement(self, line: int):
        kind = self.advance().kind
        args: list = []
        self.in_print += 1
        try:
            if self.tok.kind not in (";", "NEWLINE", "}", ">", ">>", "|", "EOF", "|&"):
                args = self.print_args()
        finally:
            self.in_print -= 1
        redir = None
        target = None
        if self.tok.kind in (">", ">>", "|", "|&"):
            redir = self.advance().kind
            if redir == "|&":
                raise AwkSyntaxError("two-way pipes (|&) are not supported in the sandbox",
                                     None, "refused")
            self.in_print += 1
            try:
                target = self.concat_expr(no_gt=True)
            finally:
                self.in_print -= 1
        if kind == "printf" and not args:
            raise AwkSyntaxError("printf: no arguments", self.tok.pos, "fatal")
        return (kind, line, args, redir, target)

    def print_args(self):
        # print (a, b) > "f" : a parenthesised list
        if self.tok.kind == "(":
            save = (self.tok, self.peeked, self.lex.i)
            try:
                self.advance()
                self.in_print_paren()
                items = [self.expr()]
                while self.tok.kind == ",":
                    self.advance()
                    self.opt_nls()
                    items.append(self.expr())
                self.out_print_paren()
                if self.tok.kind == ")":
                    self.advance()
                    if self.tok.kind in (";", "NEWLINE", "}", ">", ">>", "|", "EOF", "|&"):
                        return items
            except AwkSyntaxError:
                pass
            self.tok, self.peeked, self.lex.i = save
            self.paren_depth_fix()
        items = [self.expr()]
        while self.tok.kind == ",":
            self.advance()
            self.opt_nls()
            items.append(self.expr())
        return items

    _saved_print = None

    def in_print_paren(self):
        self._saved_print = self.in_print
        self.in_print = 0

    def out_print_paren(self):
        self.in_print = self._saved_print

    def paren_depth_fix(self):
        if self._saved_print is not None:
            self.in_print = self._saved_print
            self._saved_print = None

    # -- expressions -----------------------------------------------------------------------

    def expr(self):
        left = self.ternary()
        k = self.tok.kind
        if k in _ASSIGN_OPS or k == "/=":
            if not _is_lvalue(left):
                if k == "/=":
                    return left
                self.error()
            self.advance()
            self.opt_nls()
            right = self.expr()
            return ("assign", k, left, right)
        return left

    def ternary(self):
        cond = self.or_expr()
        if self.tok.kind == "?":
            self.advance()
            self.opt_nls()
            a = self.expr()
            self.opt_nls()
            self.expect(":")
            self.opt_nls()
            b = self.expr()
            return ("cond", cond, a, b)
        return cond

    def or_expr(self):
        left = self.and_expr()
        while self.tok.kind == "||":
            self.advance()
            self.opt_nls()
            right = self.and_expr()
            left = ("or", left, right)
        return left

    def and_expr(self):
        left = self.in_expr()
        while self.tok.kind == "&&":
            self.advance()
            self.opt_nls()
            right = self.in_expr()
            left = ("and", left, right)
        return left

    def in_expr(self):
        left = self.match_expr()
        while self.tok.kind == "in" and not self.no_in:
            self.advance()
            if self.tok.kind != "NAME":
                self.error()
            name = self.advance().value
            left = ("in", [left], name)
        return left

    def match_expr(self):
        left = self.cmp_expr()
        while self.tok.kind in ("~", "!~"):
            neg = self.advance().kind == "!~"
            right = self.cmp_expr()
            left = ("match", neg, left, right)
        return left

    def cmp_expr(self):
        left = self.concat_expr()
        k = self.tok.kind
        if k in ("<", "<=", "==", "!=", ">=") or (k == ">" and not self.in_print):
            self.advance()
            right = self.concat_expr()
            left = ("cmp", k, left, right)
            k2 = self.tok.kind
            if k2 in ("<", "<=", "==", "!=", ">=") or (k2 == ">" and not self.in_print):
                self.error()
        return left

    _CONCAT_START = frozenset(["NUMBER", "STRING", "NAME", "FUNC_NAME", "BUILTIN", "$", "!",
                               "(", "++", "--", "-", "+"])

    def concat_expr(self, no_gt: bool = False):
        left = self.additive()
        items = None
        while True:
            k = self.tok.kind
            if k == "|" and self.peek().kind == "getline":
                self.advance()
                self.advance()
                var = self.opt_getline_lvalue()
                node = ("getline", "cmd", var, items_node(items, left))
                items = None
                left = node
                continue
            if k in self._CONCAT_START and k not in ("-", "+"):
                if k == "in":
                    break
                right = self.additive()
                if items is None:
                    items = [left]
                items.append(right)
                continue
            break
        return items_node(items, left)

    def additive(self):
        left = self.mul()
        while self.tok.kind in ("+", "-"):
            op = self.advance().kind
            right = self.mul()
            left = ("binop", op, left, right)
        return left

    def mul(self):
        left = self.unary()
        while self.tok.kind in ("*", "/", "%"):
            op = self.advance().kind
            right = self.unary()
            left = ("binop", op, left, right)
        return left

    def unary(self):
        k = self.tok.kind
        if k in ("!", "-", "+"):
            self.advance()
            operand = self.unary()
            return ("unary", k, operand)
        return self.power()

    def power(self):
        base = self.postfix()
        if self.tok.kind in ("^", "**"):
            self.advance()
            exp = self.unary_exp()
            return ("binop", "^", base, exp)
        return base

    def unary_exp(self):
        k = self.tok.kind
        if k in ("-", "+", "!"):
            self.advance()
            return ("unary", k, self.unary_exp())
        return self.power()

    def postfix(self):
        node = self.primary()
        if self.tok.kind in ("++", "--") and _is_lvalue(node):
            op = self.advance().kind
            return ("incdec", op, False, node)
        return node

    def opt_getline_lvalue(self):
        k = self.tok.kind
        if k == "NAME":
            name = self.advance().value
            if self.tok.kind == "[":
                self.advance()
                subs = self.expr_list_until("]")
                self.expect("]")
                return ("index", name, subs)
            return ("var", name)
        if k == "$":
            self.advance()
            return ("field", self.field_operand())
        return None

    def field_operand(self):
        k = self.tok.kind
        if k in ("++", "--"):
            op = self.advance().kind
            target = self.primary()
            if not _is_lvalue(target):
                self.error()
            return ("incdec", op, True, target)
        if k in ("-", "+", "!"):
            self.advance()
            return ("unary", k, self.field_operand())
        return self.primary()

    def primary(self):
        t = self.tok
        k = t.kind
        if k == "NUMBER":
            self.advance()
            return ("num", t.value)
        if k == "STRING":
            self.advance()
            return ("str", t.value)
        if k in ("/", "/="):
            if self.peeked is not None:
                # re-lexing needs the lexer positioned right after the slash token
                self.peeked = None
            self.lex.i = t.pos
            rt = self.lex.regex(t)
            self.tok = self.lex.next()
            return ("regex", rt.value)
        if k == "$":
            self.advance()
            return ("field", self.field_operand())
        if k in ("++", "--"):
            self.advance()
            target = self.primary()
            if not _is_lvalue(target):
                self.error()
            return ("incdec", k, True, target)
        if k in ("-", "+", "!"):
            self.advance()
            return ("unary", k, self.unary())
        if k == "(":
            self.advance()
            saved_print, self.in_print = self.in_print, 0
            saved_in, self.no_in = self.no_in, 0
            try:
                self.opt_nls()
                first = self.expr()
                if self.tok.kind == ",":
                    items = [first]
                    while self.tok.kind == ",":
                        self.advance()
                        self.opt_nls()
                        items.append(self.expr())
                    self.opt_nls()
                    self.expect(")")
                    if self.tok.kind != "in":
                        self.error()
                    self.advance()
                    if self.tok.kind != "NAME":
                        self.error()
                    name = self.advance().value
                    return ("in", items, name)
                self.opt_nls()
                self.expect(")")
            finally:
                self.in_print = saved_print
                self.no_in = saved_in
            return ("group", first)
        if k == "NAME":
            self.advance()
            if self.tok.kind == "[":
                self.advance()
                subs = self.expr_list_until("]")
                self.expect("]")
                return ("index", t.value, subs)
            return ("var", t.value)
        if k == "FUNC_NAME":
            self.advance()
            self.expect("(")
            args = []
            self.opt_nls()
            if self.tok.kind != ")":
                args = self.expr_list_until(")")
                self.opt_nls()
            self.expect(")")
            return ("call", t.value, args, self.line_of(t.pos))
        if k == "BUILTIN":
            return self.builtin_call()
        if k == "getline":
            self.advance()
            var = self.opt_getline_lvalue()
            if self.tok.kind == "<":
                self.advance()
                src = self.getline_source()
                return ("getline", "file", var, src)
            return ("getline", "plain", var, None)
        self.error()

    def getline_source(self):
        # gawk: the operand of '<' is a primary (with '$' and grouping), not a concatenation
        k = self.tok.kind
        if k in ("-", "+", "!"):
            self.advance()
            return ("unary", k, self.getline_source())
        node = self.primary()
        if self.tok.kind in ("++", "--") and _is_lvalue(node):
            op = self.advance().kind
            node = ("incdec", op, False, node)
        return node

    def builtin_call(self):
        t = self.advance()
        name = t.value
        line = self.line_of(t.pos)
        if self.tok.kind != "(":
            if name == "length":
                return ("builtin", "length", [], line)
            self.error()
        self.advance()
        args = []
        saved_print, self.in_print = self.in_print, 0
        try:
            self.opt_nls()
            if self.tok.kind != ")":
                args = self.expr_list_until(")")
                self.opt_nls()
            close = self.tok.pos
            self.expect(")")
        finally:
            self.in_print = saved_print
        lo, hi = _ARITY.get(name, (0, 1 << 30))
        if not lo <= len(args) <= hi:  # gawk's grammar, at the closing parenthesis
            raise AwkSyntaxError(f"{len(args)} is invalid as number of arguments for {name}", close)
        return ("builtin", name, args, line)


#: How many arguments gawk's grammar lets each builtin take (tokentab's argument counts; the
#: rest, and/or/xor and sprintf, check at run time).
_ARITY = {
    "length": (0, 1), "substr": (2, 3), "index": (2, 2), "split": (2, 4), "sub": (2, 3),
    "gsub": (2, 3), "gensub": (3, 4), "match": (2, 3), "sin": (1, 1), "cos": (1, 1),
    "exp": (1, 1), "log": (1, 1), "sqrt": (1, 1), "int": (1, 1), "atan2": (2, 2),
    "rand": (0, 0), "srand": (0, 1), "tolower": (1, 1), "toupper": (1, 1), "system": (1, 1),
    "close": (1, 2), "fflush": (0, 1), "systime": (0, 0), "strftime": (0, 3), "mktime": (1, 2),
    "asort": (1, 3), "asorti": (1, 3), "compl": (1, 1), "lshift": (2, 2), "rshift": (2, 2),
    "strtonum": (1, 1), "isarray": (1, 1), "typeof": (1, 2), "patsplit": (2, 4),
}


def items_node(items, left):
    if items is None:
        return left
    return ("concat", items)


def _is_lvalue(node) -> bool:
    return node[0] in ("var", "index", "field")


def parse(src: str) -> Parser:
    """Parse a whole program; raise ``AwkSyntaxError``."""
    p = Parser(src)
    try:
        return p.parse_program()
    except RecursionError:
        raise AwkSyntaxError("program nested too deeply", None, "error") from None
