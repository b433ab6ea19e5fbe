"""bc's scanner (scan.l) and parser (bc.y) of GNU bc 1.07.1, generating GNU's own code text.

The parser is recursive descent with the grammar's precedences (``||`` < ``&&`` < ``!`` <
relations < assignment (right) < ``+ -`` < ``* / %`` < ``^`` (right) < unary ``-`` < ``++ --``),
and the same actions: each rule emits the code string bc.y emits (``K..:``, ``l5:``, ``Z3:``...),
so the byte addresses of runtime errors are GNU's. Tokens are read lazily, as yacc reads them, so
a top-level line runs before the next line is scanned, and ``quit`` ends bc while parsing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from sandbox.commands.bc.machine import Refused

#: Deepest nesting of statements and expressions parsed (parentheses, unary operators, braces).
MAX_NESTING = 200

EX_ASSGN, EX_REG, EX_COMP, EX_PAREN, EX_VOID, EX_EMPTY = 0, 1, 2, 4, 8, 16

KEYWORDS = frozenset(
    "define break quit length return for if while sqrt scale ibase obase auto else read random "
    "halt last void history warranty continue print limits".split())


@dataclass
class Token:
    """One scanner token: ``kind`` (NUMBER NAME STRING NL EOF, a keyword, or the operator text)."""

    kind: str
    text: str = ""


class BcSyntaxError(Exception):
    """A parse error: the parser reports ``syntax error`` and recovers."""


class Quit(Exception):
    """``quit`` was parsed: bc ends now."""


class Abort(Exception):
    """yacc gave up (end of input while recovering from an error): bc ends."""


#: Tokens that can start an expression.
EXPRESSION_START = frozenset(
    "NUMBER NAME ( - ! ++ -- ibase obase scale last history length sqrt read random".split())

#: Tokens that can start a statement (where yacc's ``error statement`` recovery resumes).
STATEMENT_START = frozenset(
    "NUMBER NAME STRING ( - ! ++ -- { if while for print return break continue quit halt ibase "
    "obase scale last read length sqrt random limits warranty history".split())


class Scanner:
    """Lazy tokens of one source; ``line_no`` counts newlines as flex's actions do."""

    def __init__(self, text: str, report: Callable[[str], None], std_only: bool,
                 check_time: Callable[[], None]):
        self.s = text
        self.i = 0
        self.line_no = 1
        self.report = report
        self.std_only = std_only
        self.check_time = check_time
        #: ``-i`` on standard input: readline writes each line it reads (not empty ones).
        self.echo: Callable[[str], None] | None = None
        self.echoed = 0

    def _reach(self, j: int) -> None:
        """Echo every line up to the one holding index ``j`` (readline reads whole lines)."""
        s = self.s
        while self.echo is not None and self.echoed <= j and self.echoed < len(s):
            end = s.find("\n", self.echoed)
            end = len(s) if end < 0 else end
            if end > self.echoed:
                self.echo(s[self.echoed:end] + "\n")
            self.echoed = end + 1

    def tokens(self) -> Iterator[Token]:
        """Yield the tokens of this source (the driver chains the sources, as yywrap)."""
        s, n = self.s, len(self.s)
        while True:
            if self.i >= n:
                return
            if self.echo is not None:
                self._reach(self.i)
            c = s[self.i]
            if c in " \t":
                self.i += 1
                continue
            if c == "\n":
                self.i += 1
                self.line_no += 1
                yield Token("NL")
                continue
            if c == "\\" and s.startswith("\n", self.i + 1):
                self.i += 2
                self.line_no += 1
                continue
            if c == "#":
                if self.std_only:
                    self.i += 1
                    self.report("illegal character: #")
                    continue
                j = s.find("\n", self.i)
                self.i = n if j < 0 else j
                continue
            if c == "/" and s.startswith("*", self.i + 1):
                j = s.find("*/", self.i + 2)
                if self.echo is not None:
                    self._reach(n if j < 0 else j)
                body = s[self.i + 2: n if j < 0 else j]
                self.line_no += body.count("\n")
                if j < 0:
                    self.i = n
                    self.report_raw("EOF encountered in a comment.\n")
                else:
                    self.i = j + 2
                continue
            if "a" <= c <= "z":
                j = self.i + 1
                while j < n and (s[j].islower() and s[j].isascii() or s[j].isdigit() and s[j].isascii() or s[j] == "_"):
                    j += 1
                word = s[self.i:j]
                self.i = j
                if word in KEYWORDS:
                    yield Token(word, word)
                else:
                    yield Token("NAME", word)
                continue
            if c.isascii() and (c.isdigit() or "A" <= c <= "Z") or (c == "." and self._dot_number()):
                yield Token("NUMBER", self._number())
                continue
            if c == ".":
                self.i += 1
                yield Token("last", ".")
                continue
            if c == '"':
                j = s.find('"', self.i + 1)
                if j < 0:
                    # flex: no closing quote, so '"' is an illegal character
                    self.i += 1
                    self.report('illegal character: "')
                    continue
                text = s[self.i:j + 1]
                if self.echo is not None:
                    self._reach(j)
                self.line_no += text.count("\n")
                self.i = j + 1
                yield Token("STRING", text)
                continue
            two = s[self.i:self.i + 2]
            if two in ("&&", "||", "==", "<=", ">=", "!=", "++", "--", "+=", "-=", "*=", "/=", "%=", "^="):
                self.i += 2
                yield Token(two, two)
                continue
            if c in "+-;(){}[],^*/%&!=<>":
                self.i += 1
                yield Token(c, c)
                continue
            self.i += 1
            o = ord(c)
            if o < 32:
                self.report(f"illegal character: ^{chr(o + 64)}")
            elif o > 126:
                self.report(f"illegal character: \\{o:03o}")
            else:
                self.report(f"illegal character: {c}")

    def report_raw(self, text: str) -> None:
        """Hook replaced by the driver (messages without a line prefix)."""

    def _dot_number(self) -> bool:
        j = self.i + 1
        while self.s.startswith("\\\n", j):
            j += 2
        return j < len(self.s) and self._is_digit(self.s[j])

    @staticmethod
    def _is_digit(c: str) -> bool:
        return c.isascii() and (c.isdigit() or "A" <= c <= "Z")

    def _number(self) -> str:
        s, n = self.s, len(self.s)
        j = self.i
        out = []
        seen_dot = False
        while j < n:
            c = s[j]
            if self._is_digit(c):
                out.append(c)
                j += 1
            elif c == "\\" and s.startswith("\n", j + 1):
                self.line_no += 1
                j += 2
            elif c == "." and not seen_dot:
                seen_dot = True
                out.append(c)
                j += 1
            else:
                break
        self.i = j
        text = "".join(out)
        if text.endswith("."):
            text = text[:-1]
        stripped = text.lstrip("0")
        if stripped == "" or stripped[0] == ".":
            stripped = ("0" + stripped) if stripped == "" else stripped
        if stripped == "":
            stripped = "0"
        return stripped


class Names:
    """util.c's ``lookup`` tables: variables from 5, arrays and functions from 1."""

    def __init__(self) -> None:
        self.vars: dict[str, int] = {}
        self.arrays: dict[str, int] = {}
        self.funcs: dict[str, int] = {}
        self.v_names: list[str] = ["ibase", "obase", "scale", "history", "last"]
        self.a_names: list[str] = ["(null)"]
        self.f_names: list[str] = ["(main)"]

    def var(self, name: str) -> int:
        """The number of a simple variable."""
        if name not in self.vars:
            self.vars[name] = len(self.v_names)
            self.v_names.append(name)
        return self.vars[name]

    def array(self, name: str) -> int:
        """The (positive) number of an array."""
        if name not in self.arrays:
            self.arrays[name] = len(self.a_names)
            self.a_names.append(name)
        return self.arrays[name]

    def func(self, name: str) -> int:
        """The number of a function."""
        if name not in self.funcs:
            self.funcs[name] = len(self.f_names)
            self.f_names.append(name)
        return self.funcs[name]


_BINARY = {"||": 1, "&&": 2, "==": 4, "<=": 4, ">=": 4, "!=": 4, "<": 4, ">": 4,
           "+": 6, "-": 6, "*": 7, "/": 7, "%": 7, "^": 8}
_REL_CODE = {"==": "=", "!=": "#", "<": "<", "<=": "{", ">": ">", ">=": "}"}
_ASSIGN = {"=": "=", "+=": "+", "-=": "-", "*=": "*", "/=": "/", "%=": "%", "^=": "^"}


class Parser:
    """bc.y over a token stream. ``run_item(code)`` is called for each complete input item."""

    def __init__(self, names: Names, yyerror: Callable[[str], None], ct_warn: Callable[[str], None],
                 run_item: Callable[[list[str], bool], None], special: Callable[[str], None],
                 check_time: Callable[[], None]):
        self.names = names
        self.yyerror = yyerror
        self.ct_warn = ct_warn
        self.run_item = run_item
        self.special = special
        self.void_funcs: set[int] = set()
        self.check_time = check_time
        self.tokens: Iterator[Token] = iter(())
        self.buf: list[Token] = []
        self.code: list[str] = []
        self.had_error = False
        self.break_label = 0
        self.continue_label = 0
        self.next_label = 1
        self.if_label = 0
        self.cur_func = -1
        self.cur_void = False
        self.errstatus = 0
        self.nesting = 0
        self.resume_after_semicolon = False
        #: -s and -w (load.c's checks of constants need them).
        self.std_only = False
        self.warn = False

    # -- tokens ----------------------------------------------------------------------------

    def peek(self, k: int = 0) -> Token:
        """The ``k``-th lookahead token (scanned now if not yet)."""
        while len(self.buf) <= k:
            self.buf.append(next(self.tokens))
        return self.buf[k]

    def take(self) -> Token:
        """Consume (shift) and return the lookahead token."""
        tok = self.peek()
        del self.buf[0]
        if self.errstatus:
            self.errstatus -= 1
        return tok

    def discard(self) -> None:
        """Drop the lookahead token during error recovery."""
        self.peek()
        del self.buf[0]

    def syntax_error(self) -> None:
        """yacc's yyerrlab: report (unless just recovering), drop a failed lookahead."""
        if self.errstatus == 0:
            self.yyerror("syntax error")
            self.had_error = True
        elif self.errstatus == 3:
            if self.peek().kind == "EOF":
                raise Abort()
            self.discard()
        self.errstatus = 3

    def expect(self, kind: str) -> Token:
        """Consume a token of ``kind`` or fail with a syntax error."""
        if self.peek().kind != kind:
            raise BcSyntaxError()
        return self.take()

    def gen(self, text: str) -> None:
        """bc.y's ``generate``."""
        self.code.append(text)

    def error(self, message: str) -> None:
        """A semantic ``yyerror``: reported, the item is not run."""
        self.yyerror(message)
        self.had_error = True

    # -- input items -----------------------------------------------------------------------

    def parse_source(self, tokens: Iterator[Token]) -> None:
        """Parse and run the whole input (all sources chained, EOF tokens at the end)."""
        self.tokens = tokens
        self.buf = []
        while True:
            self.check_time()
            tok = self.peek()
            if tok.kind == "EOF":
                return
            try:
                if tok.kind == "define":
                    self.function()
                    self._finish_item()
                else:
                    self.semicolon_list()
                    if self.peek().kind == "NL":
                        self.take()
                        self._finish_item()
                    else:
                        raise BcSyntaxError()
            except BcSyntaxError as e:
                self.syntax_error()
                # input_item: error ENDOFLINE | statement_or_error: error statement
                newline_ends = not getattr(e, "after_semicolon", False)
                while True:
                    tok = self.peek()
                    if tok.kind == "EOF":
                        return
                    if tok.kind == "NL" and newline_ends:
                        self.take()
                        self.errstatus = 0
                        self._reset()
                        break
                    if tok.kind in STATEMENT_START:
                        # the statement is parsed in the state that shifted 'error'
                        self.resume_after_semicolon = not newline_ends
                        break
                    self.discard()

    def _finish_item(self) -> None:
        code, ok = self.code, not self.had_error
        self._reset()
        if code:
            self.run_item(code, ok)

    def _reset(self) -> None:
        self.code = []
        self.had_error = False
        self.break_label = 0
        self.continue_label = 0
        self.next_label = 1
        self.if_label = 0
        self.cur_func = -1
        self.cur_void = False

    # -- statements ------------------------------------------------------------------------

    def semicolon_list(self) -> None:
        """``semicolon_list``: statements separated by ``;`` up to the end of the line.

        A syntax error inside a statement that follows a ``;`` is marked ``after_semicolon``:
        yacc recovers in the state after that ``;``, where a newline cannot follow ``error``.
        """
        after_semicolon = self.resume_after_semicolon
        self.resume_after_semicolon = False
        while True:
            kind = self.peek().kind
            if kind in ("NL", "EOF"):
                return
            if kind == ";":
                self.take()
                after_semicolon = True
                continue
            try:
                self.statement()
            except BcSyntaxError as e:
                e.after_semicolon = after_semicolon  # type: ignore[attr-defined]
                raise
            kind = self.peek().kind
            if kind == ";":
                self.take()
                after_semicolon = True
            elif kind not in ("NL", "EOF"):
                raise BcSyntaxError()

    def statement_list(self) -> None:
        """``statement_list`` inside braces, up to the closing brace (not consumed)."""
        while True:
            self.check_time()
            try:
                kind = self.peek().kind
                if kind == "}":
                    return
                if kind in ("NL", ";"):
                    self.take()
                    continue
                if kind == "EOF":
                    raise BcSyntaxError()
                self.statement()
                kind = self.peek().kind
                if kind not in ("NL", ";", "}"):
                    raise BcSyntaxError()
            except BcSyntaxError:
                self.syntax_error()
                while self.peek().kind not in STATEMENT_START:
                    if self.peek().kind == "EOF":
                        raise Abort()
                    self.discard()

    def opt_newline(self) -> None:
        """``opt_newline``."""
        if self.peek().kind == "NL":
            self.take()
            self.ct_warn("newline not allowed")

    def nest(self) -> None:
        """Count one level of nesting; refuse past ``MAX_NESTING``."""
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise Refused(f"bc: program nested more than {MAX_NESTING} levels deep (refused)")

    def statement(self) -> None:
        """One ``statement``."""
        self.nest()
        try:
            self._statement()
        finally:
            self.nesting -= 1

    def _statement(self) -> None:
        tok = self.peek()
        kind = tok.kind
        if kind == "warranty":
            self.take()
            self.special("warranty")
        elif kind == "limits":
            self.take()
            self.special("limits")
        elif kind == "STRING":
            self.take()
            self.gen("w")
            self.gen(tok.text)
        elif kind == "break":
            self.take()
            if self.break_label == 0:
                self.error("Break outside a for/while")
            else:
                self.gen(f"J{self.break_label}:")
        elif kind == "continue":
            self.take()
            self.ct_warn("Continue statement")
            if self.continue_label == 0:
                self.error("Continue outside a for")
            else:
                self.gen(f"J{self.continue_label}:")
        elif kind == "quit":
            self.take()
            raise Quit()
        elif kind == "halt":
            self.take()
            self.gen("h")
        elif kind == "return":
            self.take()
            self.return_statement()
        elif kind == "for":
            self.for_statement()
        elif kind == "if":
            self.if_statement()
        elif kind == "while":
            self.while_statement()
        elif kind == "{":
            self.take()
            self.statement_list()
            self.expect("}")
        elif kind == "print":
            self.take()
            self.ct_warn("print statement")
            while True:
                if self.peek().kind == "STRING":
                    self.gen("O")
                    self.gen(self.take().text)
                else:
                    flags = self.expression()
                    if flags & EX_VOID:
                        self.error("void expression in print")
                    self.gen("P")
                if self.peek().kind != ",":
                    break
                self.take()
        else:
            flags = self.expression()
            if flags & EX_COMP:
                self.ct_warn("comparison in expression")
            self.gen("W" if flags & EX_REG else "p")

    def return_statement(self) -> None:
        """``Return return_expression``."""
        if self.peek().kind not in EXPRESSION_START:
            self.gen("0")
            if self.cur_func == -1:
                self.error("Return outside of a function.")
        else:
            flags = self.expression()
            if flags & EX_COMP:
                self.ct_warn("comparison in return expression")
            if not flags & EX_PAREN:
                self.ct_warn("return expression requires parenthesis")
            if flags & EX_VOID:
                self.error("return requires non-void expression")
            if self.cur_func == -1:
                self.error("Return outside of a function.")
            elif self.cur_void:
                self.error("Return expression in a void function.")
        self.gen("R")

    def opt_expression(self, end: str) -> int:
        """An optional ``for`` expression ending at ``end``."""
        if self.peek().kind not in EXPRESSION_START:
            self.ct_warn("Missing expression in for statement")
            return EX_EMPTY
        return self.expression()

    def for_statement(self) -> None:
        """``for (a; b; c) statement``."""
        self.take()
        saved_break = self.break_label
        self.break_label = self.next_label
        self.next_label += 1
        self.expect("(")
        f1 = self.opt_expression(";")
        self.expect(";")
        if f1 & EX_COMP:
            self.ct_warn("Comparison in first for expression")
        if f1 & EX_VOID:
            self.error("first expression is void")
        if not f1 & EX_EMPTY:
            self.gen("p")
        top = self.next_label
        self.next_label += 1
        self.gen(f"N{top}:")
        f2 = self.opt_expression(";")
        self.expect(";")
        if f2 & EX_VOID:
            self.error("second expression is void")
        if f2 & EX_EMPTY:
            self.gen("1")
        body = self.next_label
        self.next_label += 1
        self.gen(f"B{body}:J{self.break_label}:")
        saved_continue = self.continue_label
        self.continue_label = self.next_label
        self.next_label += 1
        self.gen(f"N{self.continue_label}:")
        f3 = self.opt_expression(")")
        self.expect(")")
        if f3 & EX_COMP:
            self.ct_warn("Comparison in third for expression")
        if f3 & EX_VOID:
            self.error("third expression is void")
        self.gen(f"J{top}:N{body}:" if f3 & EX_EMPTY else f"pJ{top}:N{body}:")
        self.opt_newline()
        self.statement()
        self.gen(f"J{self.continue_label}:N{self.break_label}:")
        self.break_label = saved_break
        self.continue_label = saved_continue

    def if_statement(self) -> None:
        """``if (e) statement [else statement]``."""
        self.take()
        self.expect("(")
        flags = self.expression()
        self.expect(")")
        if flags & EX_VOID:
            self.error("void expression")
        saved = self.if_label
        self.if_label = self.next_label
        self.next_label += 1
        self.gen(f"Z{self.if_label}:")
        self.opt_newline()
        self.statement()
        if self.peek().kind == "else":
            self.take()
            self.ct_warn("else clause in if statement")
            label = self.next_label
            self.next_label += 1
            self.gen(f"J{label}:N{self.if_label}:")
            self.if_label = label
            self.opt_newline()
            self.statement()
        self.gen(f"N{self.if_label}:")
        self.if_label = saved

    def while_statement(self) -> None:
        """``while (e) statement``."""
        self.take()
        saved_continue = self.continue_label
        self.continue_label = self.next_label
        self.next_label += 1
        self.gen(f"N{self.continue_label}:")
        self.expect("(")
        flags = self.expression()
        if flags & EX_VOID:
            self.error("void expression")
        saved_break = self.break_label
        self.break_label = self.next_label
        self.next_label += 1
        self.gen(f"Z{self.break_label}:")
        self.expect(")")
        self.opt_newline()
        self.statement()
        self.gen(f"J{self.continue_label}:N{self.break_label}:")
        self.break_label = saved_break
        self.continue_label = saved_continue

    def define_list(self, end: tuple[str, ...]) -> list[tuple[int, bool]]:
        """Parameter or auto names: ``(number, by_reference)``, arrays negative."""
        out: list[tuple[int, bool]] = []
        while True:
            ref = False
            if self.peek().kind in ("*", "&"):
                self.take()
                ref = True
            name = self.expect("NAME").text
            if self.peek().kind == "[":
                self.take()
                self.expect("]")
                out.append((-self.names.array(name), ref))
                if ref:
                    self.ct_warn("Call by variable arrays")
            elif ref:
                raise BcSyntaxError()
            else:
                out.append((self.names.var(name), False))
            if self.peek().kind != ",":
                return out
            self.take()

    def function(self) -> None:
        """``define [void] NAME (params) { [auto list] statements }``."""
        self.take()
        void = False
        if self.peek().kind == "void":
            self.take()
            void = True
            self.ct_warn("void functions")
        name = self.expect("NAME").text
        self.expect("(")
        params = self.define_list((")",)) if self.peek().kind != ")" else []
        self.expect(")")
        self.opt_newline()
        self.expect("{")
        if self.peek().kind != "NL":
            self.ct_warn("End of line required")
        else:
            self.take()
            while self.peek().kind == "NL":
                self.take()
                self.ct_warn("Too many end of lines")
        autos: list[tuple[int, bool]] = []
        if self.peek().kind == "auto":
            self.take()
            autos = self.define_list(("NL", ";"))
            if self.peek().kind not in ("NL", ";"):
                raise BcSyntaxError()
            self.take()
        seen = set()
        for number, ref in params:
            if ref:
                self.ct_warn("Variable array parameter")
            if number in seen:
                self.error("duplicate parameter names")
            seen.add(number)
        for number, ref in autos:
            if ref:
                self.error("* not allowed here")
            if number in seen:
                self.error("variable in both parameter and auto lists")
            seen.add(number)
        fn = self.names.func(name)
        p = ",".join(("*" if ref else "") + str(n) for n, ref in params)
        a = ",".join(str(n) for n, _ in autos)
        self.gen(f"F{fn},{p}.{a}[")
        self.cur_func = fn
        self.cur_void = void
        if void:
            self.void_funcs.add(fn)
        else:
            self.void_funcs.discard(fn)
        saved_label = self.next_label
        self.next_label = 1
        self.statement_list()
        self.expect("}")
        self.gen("0R]")
        self.next_label = saved_label
        self.cur_func = -1
        self.cur_void = False

    # -- expressions -----------------------------------------------------------------------

    def expression(self, min_prec: int = 0) -> int:
        """An expression whose operators bind at least ``min_prec``; returns bc.y's flags."""
        flags = self.unary()
        while True:
            kind = self.peek().kind
            prec = _BINARY.get(kind)
            if prec is None or prec < min_prec:
                return flags
            self.take()
            if kind == "&&":
                self.ct_warn("&& operator")
                label = self.next_label
                self.next_label += 1
                self.gen(f"DZ{label}:p")
                right = self.expression(prec + 1)
                if (flags | right) & EX_VOID:
                    self.error("void expression with &&")
                self.gen(f"DZ{label}:p1N{label}:")
                flags = (flags | right) & ~EX_PAREN
            elif kind == "||":
                self.ct_warn("|| operator")
                label = self.next_label
                self.next_label += 1
                self.gen(f"B{label}:")
                right = self.expression(prec + 1)
                if (flags | right) & EX_VOID:
                    self.error("void expression with ||")
                tmp = self.next_label
                self.next_label += 1
                self.gen(f"B{label}:0J{tmp}:N{label}:1N{tmp}:")
                flags = (flags | right) & ~EX_PAREN
            elif prec == 4:
                right = self.expression(5)
                if (flags | right) & EX_VOID:
                    self.error("void expression with comparison")
                self.gen(_REL_CODE[kind])
                flags = EX_REG | EX_COMP
            else:
                right = self.expression(prec if kind == "^" else prec + 1)
                if (flags | right) & EX_VOID:
                    self.error(f"void expression with {kind}")
                self.gen(kind)
                flags = (flags | right) & ~EX_PAREN

    def unary(self) -> int:
        """Prefix operators and primaries (assignments start here: yacc shifts ``=``)."""
        self.nest()
        try:
            return self._unary()
        finally:
            self.nesting -= 1

    def _unary(self) -> int:
        tok = self.peek()
        kind = tok.kind
        if kind == "!":
            self.take()
            flags = self.expression(4)
            if flags & EX_VOID:
                self.error("void expression with !")
            self.ct_warn("! operator")
            self.gen("!")
            return flags & ~EX_PAREN
        if kind == "-":
            self.take()
            flags = self.expression(9)
            if flags & EX_VOID:
                self.error("void expression with unary -")
            self.gen("n")
            return flags & ~EX_PAREN
        if kind in ("++", "--"):
            self.take()
            var = self.named_expression()
            op = kind[0]
            if var < 0:
                self.gen(f"{'DA' if op == '+' else 'DM'}{-var}:L{-var}:")
            else:
                self.gen(f"{'i' if op == '+' else 'd'}{var}:l{var}:")
            return EX_REG
        if kind == "NUMBER":
            self.take()
            if (self.std_only or self.warn) and any("F" < ch <= "Z" for ch in tok.text):
                # load.c, as the constant is loaded
                if self.std_only:
                    self.error("Error in numeric constant")
                else:
                    self.ct_warn("Non-standard base in numeric constant")
            if tok.text == "0":
                self.gen("0")
            elif tok.text == "1":
                self.gen("1")
            else:
                self.gen("K" + tok.text + ":")
            return EX_REG
        if kind == "(":
            self.take()
            flags = self.expression()
            self.expect(")")
            if flags & EX_VOID:
                self.error("void expression in parenthesis")
            return flags | EX_REG | EX_PAREN
        if kind in ("length", "sqrt") or kind == "scale" and self.peek(1).kind == "(":
            self.take()
            self.expect("(")
            flags = self.expression()
            self.expect(")")
            if flags & EX_VOID:
                self.error(f"void expression in {kind}()")
            self.gen({"length": "cL", "sqrt": "cR", "scale": "cS"}[kind])
            return EX_REG
        if kind in ("read", "random"):
            self.take()
            self.expect("(")
            self.expect(")")
            self.ct_warn(f"{kind} function")
            self.gen("cI" if kind == "read" else "cX")
            return EX_REG
        if kind == "NAME" and self.peek(1).kind == "(":
            return self.call()
        if kind in ("NAME", "ibase", "obase", "scale", "history", "last"):
            var = self.named_expression()
            nxt = self.peek().kind
            if nxt in _ASSIGN:
                self.take()
                op = _ASSIGN[nxt]
                if op != "=":
                    self.gen(f"DL{-var}:" if var < 0 else f"l{var}:")
                right = self.expression(5)
                if right & EX_VOID:
                    self.error("Assignment of a void expression")
                if op != "=":
                    self.gen(op)
                self.gen(f"S{-var}:" if var < 0 else f"s{var}:")
                return EX_ASSGN
            if nxt in ("++", "--"):
                self.take()
                if var < 0:
                    self.gen(f"DL{-var}:x")
                    self.gen(f"{'A' if nxt == '++' else 'M'}{-var}:")
                else:
                    self.gen(f"l{var}:")
                    self.gen(f"{'i' if nxt == '++' else 'd'}{var}:")
                return EX_REG
            self.gen(f"L{-var}:" if var < 0 else f"l{var}:")
            return EX_REG
        raise BcSyntaxError()

    def named_expression(self) -> int:
        """A variable (>= 0, special ones 0..4) or an array element (< 0, index code emitted)."""
        tok = self.take()
        kind = tok.kind
        if kind == "ibase":
            return 0
        if kind == "obase":
            return 1
        if kind == "scale":
            return 2
        if kind == "history":
            self.ct_warn("History variable")
            return 3
        if kind == "last":
            self.ct_warn("Last variable")
            return 4
        if kind != "NAME":
            raise BcSyntaxError()
        if self.peek().kind == "[":
            self.take()
            flags = self.expression()
            self.expect("]")
            if flags & EX_VOID:
                self.error("void expression as subscript")
            if flags & EX_COMP:
                self.ct_warn("comparison in subscript")
            return -self.names.array(tok.text)
        if len(tok.text) > 1:
            self.ct_warn(f"multiple letter name - {tok.text}")
        return self.names.var(tok.text)

    def call(self) -> int:
        """``NAME ( args )``: arguments are expressions or ``NAME[]``."""
        name = self.take().text
        self.expect("(")
        kinds: list[str] = []
        if self.peek().kind != ")":
            while True:
                if self.peek().kind == "NAME" and self.peek(1).kind == "[" and self.peek(2).kind == "]":
                    arr = self.take().text
                    self.take()
                    self.take()
                    self.gen(f"K{self.names.array(arr)}:")
                    kinds.append("1")
                else:
                    flags = self.expression()
                    if flags & EX_COMP:
                        self.ct_warn("comparison in argument")
                    if flags & EX_VOID:
                        self.error("void argument")
                    kinds.append("0")
                if self.peek().kind != ",":
                    break
                self.take()
        self.expect(")")
        fn = self.names.func(name)
        if kinds:
            self.gen(f"C{fn},{''.join(reversed(kinds))}:")
        else:
            self.gen(f"C{fn}:")
        return EX_VOID if fn in self.void_funcs else EX_REG
