"""Bash 5.2 integer arithmetic (``$(( ))``, ``(( ))``, ``for (( ; ; ))``).

A port of the structure of bash's ``expr.c``: the expression is tokenised lazily and evaluated
while it is parsed (a ``noeval`` counter suppresses side effects in the branch that ``&&``,
``||`` and ``?:`` don't take), so evaluation order, side effects and error messages (with
bash's ``error token``) are the same as bash's. Values are 64-bit signed integers that wrap
around. A variable whose value is itself an expression is evaluated recursively, up to bash's
limit of 1024 levels; parentheses nest at most ``MAX_DEPTH`` levels. Exponentiation is by
repeated squaring, so ``2**1000000000`` is instant. Errors raise ``ArithError`` whose ``str()``
is bash's message without the ``bash: line N:`` prefix.
"""

from __future__ import annotations

import re
from typing import Callable, Protocol

#: Deepest recursion of expressions (variables whose value is an expression), as bash.
MAX_DEPTH = 1024

_MASK = (1 << 64) - 1
_SIGN = 1 << 63
INT_MIN = -(1 << 63)

_WS = " \t\n"
_VAR_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_VAR_CHARS = _VAR_START | frozenset("0123456789")
#: Two-character operators read as one token (``<<``, ``>>``, ``++``, ``--`` and the
#: assignment operators need more context and are read apart).
_TWO_CHAR_OPS = frozenset({"==", "!=", ">=", "<=", "&&", "||", "**"})
_DIGITS = frozenset("0123456789")
_NUM_CHARS = _VAR_CHARS | frozenset("#@")
#: Single-character operator tokens (bash's ``_is_arithop``).
_ARITHOPS = frozenset("=><+-*/%!()&|^~?:,")
#: Multi-character operator tokens (bash's ``_is_multiop``).
_MULTIOPS = frozenset({"==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "OP=", "**", "PREINC",
                       "PREDEC", "POSTINC", "POSTDEC", "COND"})
#: Binary operators by precedence (higher binds tighter); ``**`` is handled separately.
_BINARY_PREC = {"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7,
                "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10}
NUM, STR, EOF = "NUM", "STR", ""


#: An assignment or an increment in an array subscript (``a[i++]``, ``a[n=1]``).
_SIDE_EFFECT_RE = re.compile(r"\+\+|--|(?<![=!<>])=(?!=)")


def wrap(value: int) -> int:
    """``value`` as a 64-bit two's complement signed integer."""
    value &= _MASK
    return value - (1 << 64) if value & _SIGN else value


class ArithError(Exception):
    """An arithmetic error; ``str()`` is bash's message (``EXPR: MSG (error token is "T")``)."""

    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.status = status


class ArithUnbound(ArithError):
    """A variable used with ``set -u`` in effect is unset (``NAME: unbound variable``)."""


class Variables(Protocol):
    """What the evaluator needs from the shell."""

    def get_var(self, name: str) -> str | None: ...  # noqa: D102

    def set_var(self, name: str, value: str) -> None: ...  # noqa: D102


def _power(base: int, exponent: int) -> int:
    """``base ** exponent`` with 64-bit wraparound, by repeated squaring (bash's ipow)."""
    result = 1
    base &= _MASK
    while exponent:
        if exponent & 1:
            result = (result * base) & _MASK
        exponent >>= 1
        base = (base * base) & _MASK
    return wrap(result)


def _c_div(a: int, b: int) -> int:
    """C division: truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _c_mod(a: int, b: int) -> int:
    """C remainder: the sign follows the dividend."""
    return a - _c_div(a, b) * b


def _binary(op: str, a: int, b: int) -> int:
    """Apply a (non-short-circuit) binary operator, with 64-bit wraparound."""
    if op == "+":
        return wrap(a + b)
    if op == "-":
        return wrap(a - b)
    if op == "*":
        return wrap(a * b)
    if op == "/":
        return wrap(_c_div(a, b))
    if op == "%":
        return _c_mod(a, b)
    if op == "<<":
        return wrap(a << (b & 63))
    if op == ">>":
        return a >> (b & 63)
    if op == "&":
        return a & b
    if op == "|":
        return a | b
    if op == "^":
        return a ^ b
    if op == "==":
        return int(a == b)
    if op == "!=":
        return int(a != b)
    if op == "<":
        return int(a < b)
    if op == ">":
        return int(a > b)
    if op == "<=":
        return int(a <= b)
    if op == ">=":
        return int(a >= b)
    raise AssertionError(op)  # pragma: no cover


def _subscript_failed(exc: ArithError) -> Exception:
    """An error evaluating an array subscript inside arithmetic: fatal in bash (a ``bash -c``
    script ends, status 1), unlike an error in the expression itself."""
    if isinstance(exc, ArithUnbound):
        return exc
    from sandbox.interpreter.expand import ExpansionError
    return ExpansionError(str(exc), fatal=True, status=1)


def subscript_quotes_removed(parts: list) -> list | None:
    """bash's ``expand_arith_string``: when the expression has an expansion (``$x``,
    ``$(...)``, even a ``~``), its single quotes inside ``[...]`` are removed with the rest of the quoting
    (``a['1'] + $n`` is ``a[1] + N``); without one the text is left alone. Returns the new
    parts of the expression's word, or None when nothing changes."""
    from sandbox.parse.ast import DQ, Quoted

    def expands(ps: list) -> bool:  # bash's EXP_CHAR: `$`, a backquote or `~` (not expanded)
        return any((not isinstance(p, Quoted) and (not isinstance(p, DQ) or expands(p.parts)))
                   or (isinstance(p, Quoted) and "~" in p.text) for p in ps)

    if not expands(parts) or not any(isinstance(p, Quoted) and "'" in p.text for p in parts):
        return None
    out: list = []
    depth = 0
    for p in parts:
        if not isinstance(p, Quoted):
            out.append(p)
            continue
        text: list[str] = []
        i, n = 0, len(p.text)
        while i < n:
            c = p.text[i]
            if c == "[":
                depth += 1
            elif c == "]" and depth:
                depth -= 1
            elif c == "'" and depth:
                j = p.text.find("'", i + 1)
                if j > 0:
                    text.append(p.text[i + 1:j])
                    i = j + 1
                    continue
            text.append(c)
            i += 1
        out.append(Quoted("".join(text)))
    return out


def remove_quotes(text: str) -> str:
    """Shell quote removal: ``'...'`` literal, ``"..."`` with its backslash escapes, ``\\x``."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "'":
            j = text.find("'", i + 1)
            j = n if j < 0 else j
            out.append(text[i + 1:j])
            i = j + 1
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                if text[i] == "\\" and i + 1 < n and text[i + 1] in '$`"\\\n':
                    i += 1
                out.append(text[i])
                i += 1
            i += 1
        elif c == "\\" and i + 1 < n:
            out.append(text[i + 1])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


class _Evaluator:
    """The state of one evaluation (bash's globals in expr.c), with a context stack."""

    def __init__(self, variables: Variables, nounset: bool, check_time: Callable[[], None]):
        self.vars = variables
        self.nounset = nounset
        self.check_time = check_time
        self.expression = ""
        self.tp = 0
        self.lasttp = 0
        self.curtok = EOF
        self.lasttok = EOF
        self.tokstr: str | None = None
        self.tokval = 0
        self.assigntok = ""
        self.noeval = 0
        self.depth = 0
        self.parens = 0

    # -- errors -------------------------------------------------------------------------------

    def error(self, message: str, end: int | None = None) -> ArithError:
        """bash's evalerror: the expression (leading blanks removed), message, token. ``end``
        cuts both where bash had cut the string (after a numeric constant being read)."""
        text = self.expression if end is None else self.expression[:end]
        token = text[self.lasttp:] if self.lasttp < len(text) else ""
        expr = text.lstrip(" \t")
        return ArithError(f'{expr}: {message} (error token is "{token}")')

    # -- contexts -----------------------------------------------------------------------------

    def _save(self) -> tuple:
        return (self.expression, self.tp, self.lasttp, self.curtok, self.lasttok, self.tokstr,
                self.tokval, self.assigntok)

    def _restore(self, saved: tuple) -> None:
        (self.expression, self.tp, self.lasttp, self.curtok, self.lasttok, self.tokstr,
         self.tokval, self.assigntok) = saved

    def subexpr(self, expr: str) -> int:
        """Evaluate one (sub)expression string (bash's subexpr)."""
        if not expr.strip(_WS):
            return 0
        if self.depth >= MAX_DEPTH:
            raise self.error("expression recursion level exceeded")
        saved = self._save()
        self.depth += 1
        self.expression, self.tp = expr, 0
        self.curtok = self.lasttok = EOF
        self.tokstr, self.tokval = None, 0
        self.readtok()
        value = self.expcomma()
        if self.curtok != EOF:
            raise self.error("syntax error in expression")
        self.depth -= 1
        self._restore(saved)
        return value

    # -- tokens -------------------------------------------------------------------------------

    def readtok(self) -> None:
        """Read the next token into curtok (evaluating a variable name as it is read)."""
        s = self.expression
        n = len(s)
        cp = self.tp
        while cp < n and s[cp] in _WS:
            cp += 1
        if cp >= n:
            self.lasttok = self.curtok
            self.curtok = EOF
            self.tp = cp
            return
        c = s[cp]
        self.lasttp = self.tp = cp
        cp += 1
        if c in _VAR_START:
            while cp < n and s[cp] in _VAR_CHARS:
                cp += 1
            name = s[self.tp:cp]
            if cp < n and s[cp] == "[":  # an array element: a[expr]
                depth = 0
                j = cp
                while j < n:
                    if s[j] == "[":
                        depth += 1
                    elif s[j] == "]":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                if j >= n:
                    raise self.error("bad array subscript")
                name = s[self.tp:j + 1]
                cp = j + 1
            self.tokstr = name
            # peek at the next token (without evaluating anything) to see if it is `=`
            saved = self._save()
            saved_noeval = self.noeval
            self.tokstr = None
            self.noeval = 1
            self.tp = cp
            self.lasttok, self.curtok = self.curtok, STR
            self.readtok()
            peektok = self.curtok
            self._restore(saved)
            self.noeval = saved_noeval
            if self.lasttok in ("PREINC", "PREDEC") or peektok != "=":
                name = self.tokstr = self.element_once(name)
                self.tokval = self.streval(name)
            else:
                self.tokval = 0
            self.lasttok = self.curtok
            self.curtok = STR
            self.tp = cp
            return
        if c in _DIGITS:
            while cp < n and s[cp] in _NUM_CHARS:
                cp += 1
            self.tokval = self.strlong(s[self.tp:cp], cp)
            self.lasttok = self.curtok
            self.curtok = NUM
            self.tp = cp
            return
        c1 = s[cp] if cp < n else ""
        cp += 1
        tok = c
        if c + c1 in _TWO_CHAR_OPS:
            tok = c + c1
        elif c in "<>" and c1 == c:
            if cp < n and s[cp] == "=":
                self.assigntok = c + c
                tok = "OP="
                cp += 1
            else:
                tok = c + c
        elif c in "+-" and c1 == c and self.curtok == STR:
            tok = "POSTDEC" if c == "-" else "POSTINC"
        elif c in "+-" and c1 == c and self.curtok == NUM and self.lasttok in ("PREINC", "PREDEC"):
            raise self.error(f"{c}{c}: assignment requires lvalue")
        elif c in "+-" and c1 == c:
            xp = cp
            while xp < n and s[xp] in _WS:
                xp += 1
            if xp < n and s[xp] in _VAR_START:
                tok = "PREDEC" if c == "-" else "PREINC"
            else:
                cp -= 1
        elif c1 == "=" and c in "*/%+-&^|":
            self.assigntok = c
            tok = "OP="
        elif c not in _ARITHOPS:
            cp -= 1
            if self.curtok == EOF or self.curtok in _ARITHOPS or self.curtok in _MULTIOPS:
                raise self.error("syntax error: operand expected")
            raise self.error("syntax error: invalid arithmetic operator")
        else:
            cp -= 1
        self.lasttok = self.curtok
        self.curtok = tok
        self.tp = cp

    def strlong(self, text: str, end: int) -> int:
        """The value of a numeric constant: decimal, 0octal, 0xhex or base#digits (``end``:
        where the constant ends in the expression, for error messages)."""
        base = 10
        foundbase = False
        i = 0
        n = len(text)
        if text[0] == "0":
            i = 1
            if n == 1:
                return 0
            if text[1] in "xX":
                base = 16
                i = 2
            else:
                base = 8
            foundbase = True
        value = 0
        while i < n:
            c = text[i]
            i += 1
            if c == "#":
                if foundbase:
                    raise self.error("invalid number", end)
                if value < 2 or value > 64:
                    raise self.error("invalid arithmetic base", end)
                base = value
                value = 0
                foundbase = True
                if i >= n or text[i] not in _NUM_CHARS or text[i] == "#":
                    raise self.error("invalid integer constant", end)
                continue
            if c.isdigit():
                digit = ord(c) - 48
            elif "a" <= c <= "z":
                digit = ord(c) - ord("a") + 10
            elif "A" <= c <= "Z":
                digit = ord(c) - ord("A") + (10 if base <= 36 else 36)
            elif c == "@":
                digit = 62
            else:  # "_"
                digit = 63
            if digit >= base:
                raise self.error("value too great for base", end)
            value = wrap(value * base + digit)
        return value

    def key_name(self, name: str) -> str:
        """``A['k']`` of an associative array names key ``k``: bash removes the quotes of an
        associative subscript in arithmetic (nothing is expanded)."""
        if name.endswith("]") and ("'" in name or '"' in name or "\\" in name):
            base, _, sub = name[:-1].partition("[")
            if base in getattr(self.vars, "assoc", ()):
                return f"{base}[{remove_quotes(sub)}]"
        return name

    def element_once(self, name: str) -> str:
        """``a[i++]`` read for ``a[i++] += 5`` or ``a[i++]++``: bash evaluates the subscript
        once and assigns to the element it read, so a subscript with a side effect becomes
        the index it evaluates to (``a[0]``) before the element is read."""
        if self.noeval or not name.endswith("]") or not _SIDE_EFFECT_RE.search(name):
            return name
        base, _, sub = name[:-1].partition("[")
        if base in getattr(self.vars, "assoc", ()):
            return name
        try:
            return f"{base}[{self.subexpr(sub)}]"
        except ArithError as exc:
            raise _subscript_failed(exc) from None

    def streval(self, name: str) -> int:
        """A variable's value as a number (its text evaluated as an expression)."""
        if self.noeval:
            return 0
        name = self.key_name(name)
        try:
            value = self.vars.get_var(name)
        except ArithError as exc:
            raise _subscript_failed(exc) from None
        if value is None and self.nounset:
            base, bracket, _ = name.partition("[")
            if not bracket:  # a nameref is named by the variable it points to
                target = getattr(self.vars, "nameref_target", None)
                shown = target(name) if target is not None else name
                raise ArithUnbound(f"{shown}: unbound variable", status=127)
            # bash's expr_streval: ``a[i]`` is an error only when the array itself is unset
            # (named without its subscript); an unset element of a set array is 0
            visible = getattr(self.vars, "var_visible", None)
            if visible is None or not visible(base):
                raise ArithUnbound(f"{base}: unbound variable", status=127)
        if not value:
            return 0
        self.check_time()
        return self.subexpr(value)

    def bind(self, name: str | None, value: int) -> None:
        """Assign a variable (unless evaluation is suppressed)."""
        if self.noeval == 0 and name:
            try:
                self.vars.set_var(self.key_name(name), str(value))
            except ArithError as exc:
                raise _subscript_failed(exc) from None

    # -- grammar ------------------------------------------------------------------------------

    def expcomma(self) -> int:
        """``expr , expr``."""
        value = self.expassign()
        while self.curtok == ",":
            self.readtok()
            value = self.expassign()
        return value

    def expassign(self) -> int:
        """``name = expr`` and ``name OP= expr`` (right-associative)."""
        value = self.expcond()
        if self.curtok in ("=", "OP="):
            special = self.curtok == "OP="
            if self.lasttok != STR:
                raise self.error("attempted assignment to non-variable")
            op = self.assigntok if special else ""
            lvalue = value
            if self.tokstr is None:  # pragma: no cover - bash's defensive check
                raise self.error("syntax error in variable assignment")
            lhs = self.tokstr
            self.readtok()
            self._enter()
            value = self.expassign()
            self.parens -= 1
            if special:
                if op in ("/", "%") and value == 0:
                    if self.noeval == 0:
                        raise self.error("division by 0")
                    value = 1
                if op in ("/", "%") and lvalue == INT_MIN and value == -1:
                    lvalue = INT_MIN if op == "/" else 0
                else:
                    lvalue = _binary(op, lvalue, value)
                value = lvalue
            self.bind(lhs, value)
            self.tokstr = None
        return value

    def expcond(self) -> int:
        """``cond ? expr : cond``."""
        cval = self.binary(1)
        if self.curtok != "?":
            return cval
        if cval == 0:  # before the next token is read: it may be a variable not to evaluate
            self.noeval += 1
        self.readtok()
        if self.curtok in (EOF, ":"):
            raise self.error("expression expected")
        self._enter()
        val1 = self.expcomma()
        if cval == 0:
            self.noeval -= 1
        if self.curtok != ":":
            raise self.error("`:' expected for conditional expression")
        if cval:
            self.noeval += 1
        self.readtok()
        if self.curtok == EOF:
            raise self.error("expression expected")
        self._enter()
        val2 = self.expcond()
        self.parens -= 2
        if cval:
            self.noeval -= 1
        self.lasttok = "COND"
        return val1 if cval else val2

    def binary(self, min_prec: int) -> int:
        """Left-associative binary operators of precedence ``min_prec`` and above."""
        value = self.exppower()
        while True:
            op = self.curtok
            prec = _BINARY_PREC.get(op) if op not in (NUM, STR) else None
            if prec is None or prec < min_prec:
                return value
            if op in ("||", "&&"):
                skip = (value != 0) if op == "||" else (value == 0)
                if skip:
                    self.noeval += 1
                self.readtok()
                right = self.binary(prec + 1)
                if skip:
                    self.noeval -= 1
                value = int(bool(value) or bool(right)) if op == "||" else int(bool(value) and bool(right))
                self.lasttok = op
                continue
            after_op = self.tp
            self.readtok()
            right = self.binary(prec + 1)
            if op in ("/", "%"):
                if right == 0:
                    if self.noeval == 0:
                        while after_op < len(self.expression) and self.expression[after_op] in " \t":
                            after_op += 1
                        self.lasttp = after_op
                        raise self.error("division by 0")
                    right = 1
                elif op == "%" and value == INT_MIN and right == -1:
                    value = 0
                    continue
                elif op == "/" and value == INT_MIN and right == -1:
                    right = 1
            value = _binary(op, value, right)
            self.lasttok = NUM

    def exppower(self) -> int:
        """``a ** b`` (right-associative)."""
        value = self.exp1()
        while self.curtok == "**":
            self.readtok()
            self._enter()
            exponent = self.exppower()
            self.parens -= 1
            self.lasttok = NUM
            if exponent == 0:
                return 1
            if exponent < 0:
                raise self.error("exponent less than 0")
            value = _power(value, exponent)
        return value

    def exp1(self) -> int:
        """Unary ``! ~ - +``."""
        tok = self.curtok
        if tok in ("!", "~", "-", "+"):
            self.readtok()
            self._enter()
            value = self.exp1()
            self.parens -= 1
            self.lasttok = NUM
            if tok == "!":
                return int(value == 0)
            if tok == "~":
                return ~value
            if tok == "-":
                return wrap(-value)
            return value
        return self.exp0()

    def _enter(self) -> None:
        self.parens += 1
        if self.parens > MAX_DEPTH:
            raise self.error("expression recursion level exceeded")

    def exp0(self) -> int:
        """Operands: numbers, variables (with ++/--), parenthesised expressions."""
        tok = self.curtok
        if tok in ("PREINC", "PREDEC"):
            self.lasttok = tok
            self.readtok()
            if self.curtok != STR:  # pragma: no cover - readtok catches this
                raise self.error("identifier expected after pre-increment or pre-decrement")
            value = wrap(self.tokval + (1 if tok == "PREINC" else -1))
            self.bind(self.tokstr, value)
            self.curtok = NUM
            self.readtok()
            return value
        if tok == "(":
            self.readtok()
            self._enter()
            value = self.expcomma()
            self.parens -= 1
            if self.curtok != ")":
                raise self.error("missing `)'")
            self.readtok()
            return value
        if tok in (NUM, STR):
            value = self.tokval
            if tok == STR:
                saved = self._save()
                saved_noeval = self.noeval
                self.tokstr = None
                self.noeval = 1
                self.readtok()
                stok = self.curtok
                if stok in ("POSTINC", "POSTDEC"):
                    self.tokstr = saved[5]
                    self.noeval = saved_noeval
                    self.lasttok = STR
                    self.bind(self.tokstr, wrap(value + (1 if stok == "POSTINC" else -1)))
                    self.curtok = NUM
                else:
                    self._restore(saved)
                    self.noeval = saved_noeval
            self.readtok()
            return value
        raise self.error("syntax error: operand expected")


def evaluate(expr: str, variables: Variables, nounset: bool = False,
             check_time: Callable[[], None] = lambda: None) -> int:
    """Evaluate an (already expanded) arithmetic expression as bash does.

    Raises ``ArithError`` (bash's message) on any error, including nesting deeper than the
    evaluator allows; never ``RecursionError``.
    """
    ev = _Evaluator(variables, nounset, check_time)
    try:
        return ev.subexpr(expr)
    except RecursionError:  # Python's stack ends before bash's limit: same error, same form
        raise ev.error("expression recursion level exceeded") from None
