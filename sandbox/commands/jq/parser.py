"""Parser for the jq language: tokens to an AST of tuples.

AST nodes are tuples whose first item names the node kind (``("pipe", a, b)``,
``("index", target, key)``...); ``compiler.py`` documents each kind it accepts. Operator
precedence follows jq's grammar (``|`` < ``,`` < ``//`` < assignment < ``or`` < ``and`` <
comparison < ``+ -`` < ``* / %`` < postfix). ``import``/``include``/``module`` are refused.
"""

from __future__ import annotations

from typing import Any

from sandbox.commands.jq.errors import JQSyntaxError
from sandbox.commands.jq.lexer import Lexer, Token

Node = tuple

_ASSIGN_OPS = {"=", "|=", "+=", "-=", "*=", "/=", "%=", "//="}
_CMP_OPS = {"==", "!=", "<", "<=", ">", ">="}

MODULES_REFUSED = (
    "modules are not available in this sandbox (import, include, module, modulemeta and -L "
    "are refused); define the functions you need inline with def"
)


#: What bison expects after an expression (``Exp``) that a closing token must end: the tokens
#: of its state once the default reductions are done (jq 1.8's grammar).
_AFTER_EXP = "'|' or ','"
_ARGS_END = "';' or ')'"


def _describe_token(tok: Token) -> str:
    if tok.kind == "EOF":
        return tok.value or "end of file"
    if tok.kind == "OP":
        return f"'{tok.value}'" if len(tok.value) == 1 else tok.value
    if tok.kind == "IDENT":
        return "IDENT"
    if tok.kind == "FIELD":
        return "FIELD"
    if tok.kind == "NUM":
        return "LITERAL"
    if tok.kind == "STR":
        return "QQSTRING_START"
    if tok.kind == "VAR":  # jq 1.8's lexer reads "$name" as one BINDING token
        return "$__loc__" if tok.value == "__loc__" else "BINDING"
    if tok.kind == "FORMAT":
        return "FORMAT"
    return tok.value


class Parser:
    """Recursive-descent parser over a token list."""

    def __init__(self, tokens: list[Token], text: str = ""):
        self.toks = tokens
        self.i = 0
        self.text = text

    # -- helpers ---------------------------------------------------------------------------

    @property
    def tok(self) -> Token:
        """The current token."""
        return self.toks[self.i]

    def peek(self, k: int = 1) -> Token:
        """The token ``k`` ahead."""
        j = min(self.i + k, len(self.toks) - 1)
        return self.toks[j]

    def at(self, kind: str, value: Any = None) -> bool:
        """True if the current token has this kind (and value)."""
        t = self.toks[self.i]
        return t.kind == kind and (value is None or t.value == value)

    def at_op(self, value: str) -> bool:
        """True if the current token is the punctuation ``value``."""
        t = self.toks[self.i]
        return t.kind == "OP" and t.value == value

    def at_kw(self, value: str) -> bool:
        """True if the current token is the keyword ``value``."""
        t = self.toks[self.i]
        return t.kind == "KEYWORD" and t.value == value

    def advance(self) -> Token:
        """Consume and return the current token."""
        t = self.toks[self.i]
        if self.i < len(self.toks) - 1:
            self.i += 1
        return t

    def fail(self, expecting: str | None = None) -> JQSyntaxError:
        """A bison-style syntax error at the current token."""
        msg = f"syntax error, unexpected {_describe_token(self.tok)}"
        if expecting:
            msg += f", expecting {expecting}"
        return JQSyntaxError(msg)

    def expect_op(self, value: str, expecting: str | None = None) -> Token:
        """Consume the punctuation ``value`` or fail; ``expecting`` is what bison lists
        then when it is more than ``value`` (see ``_AFTER_EXP``)."""
        if not self.at_op(value):
            raise self.fail(expecting or (f"'{value}'" if len(value) == 1 else value))
        return self.advance()

    def expect_kw(self, value: str) -> Token:
        """Consume the keyword ``value`` or fail."""
        if not self.at_kw(value):
            raise self.fail(value)
        return self.advance()

    # -- grammar ---------------------------------------------------------------------------

    def parse_program(self) -> Node:
        """Parse a whole program (optional function definitions then an expression)."""
        if self.at_kw("module") or self.at_kw("import") or self.at_kw("include"):
            raise JQSyntaxError(MODULES_REFUSED)
        defs: list[Node] = []
        while self.at_kw("def"):
            defs.append(self.parse_def())
        if self.at("EOF"):
            body: Node = ("identity",)
        else:
            body = self.parse_pipe()
        if not self.at("EOF"):
            raise self.fail("end of file")
        for d in reversed(defs):
            body = ("funcdef", d[1], d[2], d[3], body)
        return body

    def parse_def(self) -> Node:
        """``def name(params): body;``"""
        self.expect_kw("def")
        t = self.advance()
        if t.kind not in ("IDENT", "KEYWORD"):
            raise JQSyntaxError(f"syntax error, unexpected {_describe_token(t)}, expecting IDENT or __loc__")
        name = t.value
        params: list[str] = []
        if self.at_op("("):
            self.advance()
            while True:
                p = self.advance()
                if p.kind == "VAR":
                    params.append("$" + p.value)
                elif p.kind in ("IDENT", "KEYWORD"):
                    params.append(p.value)
                else:
                    raise JQSyntaxError(f"syntax error, unexpected {_describe_token(p)}")
                if self.at_op(";"):
                    self.advance()
                    continue
                self.expect_op(")", _ARGS_END)
                break
        self.expect_op(":")
        body = self.parse_pipe()
        self.expect_op(";")
        return ("def", name, params, body)

    def parse_pipe(self) -> Node:
        """Lowest precedence: ``a | b`` (right associative), with ``def`` and ``label``."""
        if self.at_kw("def"):
            d = self.parse_def()
            rest = self.parse_pipe()
            return ("funcdef", d[1], d[2], d[3], rest)
        lhs = self.parse_comma()
        if self.at_op("|"):
            self.advance()
            rhs = self.parse_pipe()
            return ("pipe", lhs, rhs)
        return lhs

    def parse_comma(self) -> Node:
        """``a, b`` (left associative); ``E as $x | body`` binds tighter than the comma."""
        lhs = self.parse_alt_as()
        while self.at_op(","):
            self.advance()
            rhs = self.parse_alt_as()
            lhs = ("comma", lhs, rhs)
        return lhs

    def parse_alt_as(self) -> Node:
        """An alternative expression, possibly the source of ``as PATTERNS | body``."""
        lhs = self.parse_alt()
        if self.at_kw("as"):
            self.advance()
            patterns = self.parse_patterns()
            self.expect_op("|")
            body = self.parse_pipe()
            return ("as", lhs, patterns, body)
        return lhs

    def parse_alt(self) -> Node:
        """``a // b`` (right associative)."""
        lhs = self.parse_assign()
        if self.at_op("//"):
            self.advance()
            rhs = self.parse_alt()
            return ("alt", lhs, rhs)
        return lhs

    def parse_assign(self) -> Node:
        """Assignment operators (non associative)."""
        lhs = self.parse_or()
        t = self.tok
        if t.kind == "OP" and t.value in _ASSIGN_OPS:
            self.advance()
            rhs = self.parse_alt()
            if self.tok.kind == "OP" and self.tok.value in _ASSIGN_OPS:
                raise self.fail()
            return ("assign", t.value, lhs, rhs)
        return lhs

    def parse_or(self) -> Node:
        """``a or b``."""
        lhs = self.parse_and()
        while self.at_kw("or"):
            self.advance()
            lhs = ("or", lhs, self.parse_and())
        return lhs

    def parse_and(self) -> Node:
        """``a and b``."""
        lhs = self.parse_cmp()
        while self.at_kw("and"):
            self.advance()
            lhs = ("and", lhs, self.parse_cmp())
        return lhs

    def parse_cmp(self) -> Node:
        """Comparisons (non associative)."""
        lhs = self.parse_additive()
        t = self.tok
        if t.kind == "OP" and t.value in _CMP_OPS:
            self.advance()
            rhs = self.parse_additive()
            if self.tok.kind == "OP" and self.tok.value in _CMP_OPS:
                raise self.fail()
            return ("binop", t.value, lhs, rhs)
        return lhs

    def parse_additive(self) -> Node:
        """``+`` and ``-`` (left associative)."""
        lhs = self.parse_multiplicative()
        while self.tok.kind == "OP" and self.tok.value in ("+", "-"):
            op = self.advance().value
            lhs = ("binop", op, lhs, self.parse_multiplicative())
        return lhs

    def parse_multiplicative(self) -> Node:
        """``*``, ``/`` and ``%`` (left associative)."""
        lhs = self.parse_unary()
        while self.tok.kind == "OP" and self.tok.value in ("*", "/", "%"):
            op = self.advance().value
            lhs = ("binop", op, lhs, self.parse_unary())
        return lhs

    def parse_unary(self) -> Node:
        """Unary minus, then a postfix term."""
        if self.at_op("-"):
            self.advance()
            return ("neg", self.parse_multiplicative())
        return self.parse_postfix()

    def parse_postfix(self, allow_as: bool = True) -> Node:
        """A term with its suffixes (``.a``, ``[i]``, ``[a:b]``, ``[]``, ``?``, ``as``)."""
        term = self.parse_primary()
        while True:
            t = self.tok
            if t.kind == "FIELD":
                self.advance()
                term = ("index", term, ("literal", t.value))
                continue
            if t.kind == "OP":
                if t.value == "." and self.peek().kind == "STR":
                    self.advance()
                    key = self.parse_string(self.advance(), None)
                    term = ("index", term, key)
                    continue
                if t.value == "." and self.peek().kind == "OP" and self.peek().value == "[":
                    self.advance()
                    continue
                if t.value == "[":
                    term = self.parse_bracket(term)
                    continue
                if t.value == "?":
                    self.advance()
                    if term[0] in ("index", "slice", "iterate") and term[-1] != "opt":
                        # `.a.b?` suppresses only the last step's error, as jq's INDEX_OPT
                        term = term + ("opt",)
                    else:
                        term = ("try", term, None)
                    continue
            return term

    def parse_bracket(self, term: Node) -> Node:
        """``term[...]``: iteration, index or slice."""
        self.expect_op("[")
        if self.at_op("]"):
            self.advance()
            return ("iterate", term)
        if self.at_op(":"):
            self.advance()
            hi = self.parse_pipe()
            self.expect_op("]", _AFTER_EXP + " or ']'")
            return ("slice", term, None, hi)
        idx = self.parse_pipe()
        if self.at_op(":"):
            self.advance()
            if self.at_op("]"):
                self.advance()
                return ("slice", term, idx, None)
            hi = self.parse_pipe()
            self.expect_op("]", _AFTER_EXP + " or ']'")
            return ("slice", term, idx, hi)
        self.expect_op("]", _AFTER_EXP + " or ':' or ']'")
        return ("index", term, idx)

    def parse_string(self, tok: Token, fmt: str | None) -> Node:
        """A string literal token to a literal or an interpolation node."""
        parts = tok.value
        if len(parts) == 1 and isinstance(parts[0], str):
            return ("literal", parts[0])
        out: list[Any] = []
        for p in parts:
            if isinstance(p, str):
                out.append(p)
            else:
                sub = Parser(p, self.text)
                if sub.at("EOF"):
                    raise JQSyntaxError("syntax error, unexpected QQSTRING_INTERP_END")
                e = sub.parse_pipe()
                if not sub.at("EOF"):
                    raise sub.fail("QQSTRING_INTERP_END or " + _AFTER_EXP)
                out.append(e)
        return ("interp", out, fmt)

    def parse_primary(self) -> Node:
        """A primary term."""
        t = self.tok
        k = t.kind
        if k == "NUM":
            self.advance()
            return ("literal", t.value)
        if k == "STR":
            self.advance()
            return self.parse_string(t, None)
        if k == "FORMAT":
            self.advance()
            if self.at("STR"):
                return self.parse_string(self.advance(), t.value)
            return ("format", t.value)
        if k == "FIELD":
            self.advance()
            return ("index", ("identity",), ("literal", t.value))
        if k == "VAR":
            self.advance()
            if t.value == "__loc__":
                return ("loc", t.line)
            return ("var", t.value)
        if k == "OP":
            v = t.value
            if v == ".":
                self.advance()
                if self.at("STR"):
                    return ("index", ("identity",), self.parse_string(self.advance(), None))
                return ("identity",)
            if v == "..":
                self.advance()
                return ("recurse_default",)
            if v == "(":
                self.advance()
                e = self.parse_pipe()
                self.expect_op(")", _AFTER_EXP + " or ')'")
                return ("paren", e)
            if v == "[":
                self.advance()
                if self.at_op("]"):
                    self.advance()
                    return ("array", None)
                e = self.parse_pipe()
                self.expect_op("]", _AFTER_EXP + " or ']'")
                return ("array", e)
            if v == "{":
                return self.parse_object()
            if v == "-":
                self.advance()
                return ("neg", self.parse_postfix())
            raise self.fail()
        if k == "KEYWORD":
            v = t.value
            if v == "if":
                return self.parse_if()
            if v == "try":
                self.advance()
                body = self.parse_try_body()
                handler = None
                if self.at_kw("catch"):
                    self.advance()
                    handler = self.parse_try_body()
                return ("try", body, handler)
            if v == "reduce":
                self.advance()
                src = self.parse_alt()
                self.expect_kw("as")
                pats = self.parse_patterns()
                self.expect_op("(")
                init = self.parse_pipe()
                self.expect_op(";", _AFTER_EXP + " or ';'")
                update = self.parse_pipe()
                self.expect_op(")", _AFTER_EXP + " or ')'")
                return ("reduce", src, pats, init, update)
            if v == "foreach":
                self.advance()
                src = self.parse_alt()
                self.expect_kw("as")
                pats = self.parse_patterns()
                self.expect_op("(")
                init = self.parse_pipe()
                self.expect_op(";", _AFTER_EXP + " or ';'")
                update = self.parse_pipe()
                extract = None
                if self.at_op(";"):
                    self.advance()
                    extract = self.parse_pipe()
                self.expect_op(")", _AFTER_EXP + (" or ')'" if extract else " or ';' or ')'"))
                return ("foreach", src, pats, init, update, extract)
            if v == "label":
                self.advance()
                if not self.at("VAR"):
                    raise self.fail("'$'")
                name = self.advance().value
                self.expect_op("|")
                body = self.parse_pipe()
                return ("label", name, body)
            if v == "def":
                d = self.parse_def()
                rest = self.parse_pipe()
                return ("funcdef", d[1], d[2], d[3], rest)
            if v in ("import", "include", "module"):
                raise JQSyntaxError(MODULES_REFUSED)
            raise self.fail()
        if k == "IDENT":
            self.advance()
            name = t.value
            if name in ("null", "true", "false") and not self.at_op("("):
                return ("literal", {"null": None, "true": True, "false": False}[name])
            if name == "break":
                if not self.at("VAR"):
                    raise self.fail("'$'")
                return ("break", self.advance().value)
            if "::" in name:
                raise JQSyntaxError(MODULES_REFUSED)
            args: list[Node] = []
            if self.at_op("("):
                self.advance()
                while True:
                    args.append(self.parse_pipe())
                    if self.at_op(";"):
                        self.advance()
                        continue
                    self.expect_op(")", _ARGS_END)
                    break
            return ("call", name, args, t.line)
        raise self.fail()

    def parse_try_body(self) -> Node:
        """The operand of ``try`` or ``catch``: a postfix term (binds tighter than operators)."""
        if self.at_op("-"):
            self.advance()
            return ("neg", self.parse_postfix(allow_as=False))
        return self.parse_postfix(allow_as=False)

    def parse_if(self) -> Node:
        """``if c then a (elif c then a)* (else b)? end``"""
        self.expect_kw("if")
        cond = self.parse_pipe()
        self.expect_kw("then")
        then = self.parse_pipe()
        if self.at_kw("elif"):
            # rewrite elif as a nested if
            self.toks[self.i] = Token("KEYWORD", "if", self.tok.pos, self.tok.line)
            other = self.parse_if_tail()
            return ("if", cond, then, other)
        if self.at_kw("else"):
            self.advance()
            other = self.parse_pipe()
            self.expect_kw("end")
            return ("if", cond, then, other)
        self.expect_kw("end")
        return ("if", cond, then, None)

    def parse_if_tail(self) -> Node:
        """An ``elif`` chain parsed as a nested ``if`` that shares the outer ``end``."""
        self.expect_kw("if")
        cond = self.parse_pipe()
        self.expect_kw("then")
        then = self.parse_pipe()
        if self.at_kw("elif"):
            self.toks[self.i] = Token("KEYWORD", "if", self.tok.pos, self.tok.line)
            return ("if", cond, then, self.parse_if_tail())
        if self.at_kw("else"):
            self.advance()
            other = self.parse_pipe()
            self.expect_kw("end")
            return ("if", cond, then, other)
        self.expect_kw("end")
        return ("if", cond, then, None)

    def parse_object(self) -> Node:
        """Object construction ``{k: v, $x, "s", (e): v, ...}``."""
        self.expect_op("{")
        entries: list[tuple[Node, Node]] = []
        if self.at_op("}"):
            self.advance()
            return ("object", entries)
        while True:
            t = self.tok
            if t.kind == "VAR":
                self.advance()
                if t.value == "__loc__":
                    key: Node = ("literal", "__loc__")
                    val: Node = ("loc", t.line)
                    entries.append((key, val))
                elif self.at_op(":"):
                    self.advance()
                    entries.append((("var", t.value), self.parse_objval()))
                else:
                    entries.append((("literal", t.value), ("var", t.value)))
            elif t.kind in ("IDENT", "KEYWORD"):
                self.advance()
                key = ("literal", t.value)
                if self.at_op(":"):
                    self.advance()
                    entries.append((key, self.parse_objval()))
                else:
                    entries.append((key, ("index", ("identity",), key)))
            elif t.kind == "STR" or t.kind == "FORMAT":
                self.advance()
                if t.kind == "FORMAT":
                    if not self.at("STR"):
                        raise self.fail()
                    key = self.parse_string(self.advance(), t.value)
                else:
                    key = self.parse_string(t, None)
                if self.at_op(":"):
                    self.advance()
                    entries.append((key, self.parse_objval()))
                else:
                    entries.append((key, ("index", ("identity",), key)))
            elif t.kind == "NUM":
                self.advance()
                if self.at_op(":"):
                    raise JQSyntaxError(f"Cannot use number ({t.value}) as object key")
                raise JQSyntaxError("May need parentheses around object key expression")
            elif t.kind == "OP" and t.value == "(":
                self.advance()
                key = self.parse_pipe()
                self.expect_op(")", _AFTER_EXP + " or ')'")
                if key[0] == "literal" and not isinstance(key[1], str):
                    from sandbox.commands.jq.values import describe

                    raise JQSyntaxError(f"Cannot use {describe(key[1])} as object key")
                self.expect_op(":")
                entries.append((key, self.parse_objval()))
            else:
                if t.kind == "OP" and t.value in ("[", "{", "-", "."):
                    raise JQSyntaxError("May need parentheses around object key expression")
                raise self.fail()  # many tokens may start an entry: bison names none
            if self.at_op(","):
                self.advance()
                continue
            if self.at_op("}"):
                self.advance()
                return ("object", entries)
            if self.tok.kind == "OP" and self.tok.value not in ("}", ","):
                raise JQSyntaxError("May need parentheses around object key expression")
            raise self.fail("'}'")

    def parse_objval(self) -> Node:
        """An object value: any expression but a top-level comma (``{a: .b | .c, d: 1 + 2}``)."""
        lhs = self.parse_alt_as()
        if self.at_op("|"):
            self.advance()
            return ("pipe", lhs, self.parse_objval())
        return lhs

    def parse_patterns(self) -> list[Node]:
        """``pattern (?// pattern)*``"""
        pats = [self.parse_pattern()]
        while self.at_op("?//"):
            self.advance()
            pats.append(self.parse_pattern())
        return pats

    def parse_pattern(self) -> Node:
        """A destructuring pattern."""
        t = self.tok
        if t.kind == "VAR":
            self.advance()
            return ("pvar", t.value)
        if self.at_op("["):
            self.advance()
            items: list[Node] = []
            if self.at_op("]"):
                raise self.fail()
            while True:
                items.append(self.parse_pattern())
                if self.at_op(","):
                    self.advance()
                    continue
                self.expect_op("]", "',' or ']'")
                break
            return ("parray", items)
        if self.at_op("{"):
            self.advance()
            entries: list[tuple[Node, Node | None, str | None]] = []
            while True:
                t = self.tok
                if t.kind == "VAR":
                    self.advance()
                    sub = None
                    if self.at_op(":"):
                        self.advance()
                        sub = self.parse_pattern()
                    entries.append((("literal", t.value), sub, t.value))
                elif t.kind in ("IDENT", "KEYWORD"):
                    self.advance()
                    self.expect_op(":")
                    entries.append((("literal", t.value), self.parse_pattern(), None))
                elif t.kind == "STR":
                    self.advance()
                    key = self.parse_string(t, None)
                    self.expect_op(":")
                    entries.append((key, self.parse_pattern(), None))
                elif self.at_op("("):
                    self.advance()
                    key = self.parse_pipe()
                    self.expect_op(")", _AFTER_EXP + " or ')'")
                    if key[0] == "literal" and not isinstance(key[1], str):
                        from sandbox.commands.jq.values import describe

                        raise JQSyntaxError(f"Cannot use {describe(key[1])} as object key")
                    self.expect_op(":")
                    entries.append((key, self.parse_pattern(), None))
                else:
                    raise self.fail()
                if self.at_op(","):
                    self.advance()
                    continue
                self.expect_op("}")
                break
            return ("pobj", entries)
        raise self.fail()


def parse(text: str) -> Node:
    """Parse a jq program into an AST; raises ``JQSyntaxError``."""
    tokens = Lexer(text).tokens()
    return Parser(tokens, text).parse_program()
