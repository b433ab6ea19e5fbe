"""``expr``: evaluate an expression, as coreutils 9.1's expr does in a UTF-8 locale.

Operators, loosest first: ``|``; ``&``; ``< <= = == != >= >``; ``+ -``; ``* / %``; ``:``; then
the keywords ``match STRING REGEX``, ``substr STRING POS LENGTH``, ``index STRING CHARS``,
``length STRING``, ``+ TOKEN`` (quote a keyword) and ``( EXPR )``. A port of GNU's recursive
descent (``eval`` .. ``eval7``): the same short-circuits (the side not evaluated raises no
error), the same null values (empty string, ``0``, ``-0``, ``00``...), integers of any size
(exact decimal arithmetic; ``/`` and ``%`` truncate toward zero), string comparison by code
point (C.UTF-8's collation), ``length``/``index``/``substr`` counting characters.

``STRING : REGEX`` matches a POSIX basic regular expression (through ``sandbox.regex`` with
glibc's syntax; where that refuses a leading repetition, which expr's RE_SYNTAX_POSIX_BASIC
minus RE_CONTEXT_INVALID_DUP takes literally, with grep's dialect) anchored at the start; ``.`` matches a newline: the text of ``\\(...\\)`` if the pattern has one,
else the number of characters matched.

Exit status: 0 when the result is neither null nor 0, 1 when it is, 2 for an invalid
expression (``syntax error: ...``, ``non-integer argument``, ``division by zero``, a bad
regex). GNU's 3 (the matcher failed) does not occur: a match that runs out of time ends the
run with the time-limit message instead.
"""

from __future__ import annotations

import decimal

from sandbox.commands._quoting import quote
from sandbox.commands._locale import expand_byte_ranges, narrow, utf8_ctype, widen
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, UsageError, parse
from sandbox.regex import RegexError, compile_regex

EXPR_INVALID = 2
SPEC = OptionSpec("", {"help": (NO_ARG, "help"), "version": (NO_ARG, "version")}, permute=False)
_ARITH = decimal.Context(prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN,
                         traps=[decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow])
_ZERO = decimal.Decimal(0)
USAGE = """Usage: expr EXPRESSION
  or:  expr OPTION

      --help        display this help and exit
      --version     output version information and exit

Print the value of EXPRESSION to standard output.  A blank line below
separates increasing precedence groups.  EXPRESSION may be:

  ARG1 | ARG2       ARG1 if it is neither null nor 0, otherwise ARG2

  ARG1 & ARG2       ARG1 if neither argument is null or 0, otherwise 0

  ARG1 < ARG2       ARG1 is less than ARG2
  ARG1 <= ARG2      ARG1 is less than or equal to ARG2
  ARG1 = ARG2       ARG1 is equal to ARG2
  ARG1 != ARG2      ARG1 is unequal to ARG2
  ARG1 >= ARG2      ARG1 is greater than or equal to ARG2
  ARG1 > ARG2       ARG1 is greater than ARG2

  ARG1 + ARG2       arithmetic sum of ARG1 and ARG2
  ARG1 - ARG2       arithmetic difference of ARG1 and ARG2

  ARG1 * ARG2       arithmetic product of ARG1 and ARG2
  ARG1 / ARG2       arithmetic quotient of ARG1 divided by ARG2
  ARG1 % ARG2       arithmetic remainder of ARG1 divided by ARG2

  STRING : REGEXP   anchored pattern match of REGEXP in STRING

  match STRING REGEXP        same as STRING : REGEXP
  substr STRING POS LENGTH   substring of STRING, POS counted from 1
  index STRING CHARS         index in STRING where any CHARS is found, or 0
  length STRING              length of STRING
  + TOKEN                    interpret TOKEN as a string, even if it is a
                               keyword like 'match' or an operator like '/'

  ( EXPRESSION )             value of EXPRESSION

Beware that many operators need to be escaped or quoted for shells.
Comparisons are arithmetic if both ARGs are numbers, else lexicographical.
Pattern matches return the string matched between \\( and \\) or null; if
\\( and \\) are not used, they return the number of characters matched or 0.

Exit status is 0 if EXPRESSION is neither null nor 0, 1 if EXPRESSION is null
or 0, 2 if EXPRESSION is syntactically invalid, and 3 if an error occurred.
"""

#: A value: an integer (exact Decimal with exponent 0) or a string.
Value = "decimal.Decimal | str"


class ExprError(Exception):
    """Ends the evaluation: ``str(err)`` is the message, ``status`` the exit status."""

    def __init__(self, message: str, status: int = EXPR_INVALID):
        super().__init__(message)
        self.status = status


def looks_like_integer(text: str) -> bool:
    """GNU's test for an integer operand: an optional ``-`` then one or more ASCII digits."""
    body = text[1:] if text[:1] == "-" else text
    return body != "" and body.isascii() and body.isdigit()


def is_null(value: "decimal.Decimal | str") -> bool:
    """GNU ``null``: 0, or a string that is empty or ``-``? followed by only ``0``s."""
    if isinstance(value, decimal.Decimal):
        return value.is_zero()
    if value == "":
        return True
    body = value[1:] if value[:1] == "-" else value
    return body != "" and set(body) == {"0"}


def to_text(value: "decimal.Decimal | str") -> str:
    """A value as the string GNU prints."""
    if isinstance(value, str):
        return value
    return "0" if value.is_zero() else str(value)


def _integer(value: "decimal.Decimal | str") -> decimal.Decimal | None:
    if isinstance(value, decimal.Decimal):
        return value
    if looks_like_integer(value):
        return decimal.Decimal(value)
    return None


def _number(n: int) -> decimal.Decimal:
    return decimal.Decimal(n)


class _Parser:
    """GNU expr's evaluator over the argument list."""

    def __init__(self, ctx: CommandContext, args: list[str]):
        self.ctx = ctx
        self.args = args
        self.pos = 0
        #: Whether characters are UTF-8 (else the C locale: one a byte).
        self.utf8 = utf8_ctype(ctx.env)

    def more(self) -> bool:
        return self.pos < len(self.args)

    def next_is(self, token: str) -> bool:
        if self.pos < len(self.args) and self.args[self.pos] == token:
            self.pos += 1
            return True
        return False

    def require_more(self) -> None:
        if not self.more():
            raise ExprError(f"syntax error: missing argument after {quote(self.args[self.pos - 1])}")

    def eval(self, evaluate: bool) -> "decimal.Decimal | str":
        left = self.eval1(evaluate)
        while self.next_is("|"):
            right = self.eval1(evaluate and is_null(left))
            if is_null(left):
                left = _ZERO if is_null(right) else right
        return left

    def eval1(self, evaluate: bool) -> "decimal.Decimal | str":
        left = self.eval2(evaluate)
        while self.next_is("&"):
            right = self.eval2(evaluate and not is_null(left))
            if is_null(left) or is_null(right):
                left = _ZERO
        return left

    def eval2(self, evaluate: bool) -> "decimal.Decimal | str":
        left = self.eval3(evaluate)
        while True:
            for op in ("<", "<=", "=", "==", "!=", ">=", ">"):
                if self.next_is(op):
                    break
            else:
                return left
            right = self.eval3(evaluate)
            result = False
            if evaluate:
                a, b = to_text(left), to_text(right)
                if looks_like_integer(a) and looks_like_integer(b):
                    x, y = decimal.Decimal(a), decimal.Decimal(b)
                    cmp = (x > y) - (x < y)
                else:
                    ea, eb = a.encode("utf-8", "surrogateescape"), b.encode("utf-8", "surrogateescape")
                    cmp = (ea > eb) - (ea < eb)
                result = {"<": cmp < 0, "<=": cmp <= 0, "=": cmp == 0, "==": cmp == 0,
                          "!=": cmp != 0, ">=": cmp >= 0, ">": cmp > 0}[op]
            left = _number(int(result))

    def eval3(self, evaluate: bool) -> "decimal.Decimal | str":
        left = self.eval4(evaluate)
        while True:
            if self.next_is("+"):
                op = "+"
            elif self.next_is("-"):
                op = "-"
            else:
                return left
            right = self.eval4(evaluate)
            if evaluate:
                a, b = self._operands(left, right)
                left = _ARITH.add(a, b) if op == "+" else _ARITH.subtract(a, b)

    def eval4(self, evaluate: bool) -> "decimal.Decimal | str":
        left = self.eval5(evaluate)
        while True:
            for op in ("*", "/", "%"):
                if self.next_is(op):
                    break
            else:
                return left
            right = self.eval5(evaluate)
            if evaluate:
                a, b = self._operands(left, right)
                if op != "*" and b.is_zero():
                    raise ExprError("division by zero")
                if op == "*":
                    left = _ARITH.multiply(a, b)
                elif op == "/":
                    left = _ARITH.divide_int(a, b)
                else:
                    left = _ARITH.remainder(a, b)

    def _operands(self, left: "decimal.Decimal | str",
                  right: "decimal.Decimal | str") -> tuple[decimal.Decimal, decimal.Decimal]:
        a, b = _integer(left), _integer(right)
        if a is None or b is None:
            raise ExprError("non-integer argument")
        self.ctx.budget.check_time()
        return a, b

    def eval5(self, evaluate: bool) -> "decimal.Decimal | str":
        left = self.eval6(evaluate)
        while self.next_is(":"):
            right = self.eval6(evaluate)
            if evaluate:
                left = self.colon(left, right)
        return left

    def eval6(self, evaluate: bool) -> "decimal.Decimal | str":
        if self.next_is("+"):
            self.require_more()
            self.pos += 1
            return self.args[self.pos - 1]
        if self.next_is("length"):
            return _number(len(self.chars(to_text(self.eval6(evaluate)))))
        if self.next_is("match"):
            left = self.eval6(evaluate)
            right = self.eval6(evaluate)
            return self.colon(left, right) if evaluate else left
        if self.next_is("index"):
            text, chars = self.chars(to_text(self.eval6(evaluate))), self.chars(to_text(self.eval6(evaluate)))
            wanted = set(chars)
            return _number(next((i + 1 for i, c in enumerate(text) if c in wanted), 0))
        if self.next_is("substr"):
            text = self.chars(to_text(self.eval6(evaluate)))
            first, count = self.eval6(evaluate), self.eval6(evaluate)
            a, b = _integer(first), _integer(count)
            if a is None or b is None:
                return ""
            pos, length = _size(a), _size(b)
            if len(text) < pos or pos == 0 or length == 0:
                return ""
            return self.unchars(text[pos - 1: pos - 1 + min(length, len(text) - pos + 1)])
        return self.eval7(evaluate)

    def chars(self, text: str) -> str:
        """``text`` as a string of its characters: itself in a UTF-8 locale, one character a
        byte in the C locale (``LC_ALL=C expr length é`` is 2)."""
        return text if self.utf8 else text.encode("utf-8", "surrogateescape").decode("latin-1")

    def unchars(self, text: str) -> str:
        """The inverse of ``chars``."""
        return text if self.utf8 else text.encode("latin-1").decode("utf-8", "surrogateescape")

    def eval7(self, evaluate: bool) -> "decimal.Decimal | str":
        self.require_more()
        if self.next_is("("):
            value = self.eval(evaluate)
            if not self.more():
                raise ExprError(f"syntax error: expecting ')' after {quote(self.args[self.pos - 1])}")
            if not self.next_is(")"):
                raise ExprError(f"syntax error: expecting ')' instead of {quote(self.args[self.pos])}")
            return value
        if self.next_is(")"):
            raise ExprError("syntax error: unexpected ')'")
        self.pos += 1
        return self.args[self.pos - 1]

    def colon(self, subject: "decimal.Decimal | str", pattern: "decimal.Decimal | str") -> "decimal.Decimal | str":
        """GNU ``docolon``: anchored BRE match of ``pattern`` against ``subject``."""
        text = to_text(subject).encode("utf-8", "surrogateescape")
        raw = to_text(pattern).encode("utf-8", "surrogateescape")
        if not self.utf8:  # the C locale: one character a byte (_locale.widen)
            text, raw = widen(text), widen(expand_byte_ranges(raw))
        if _empty_interval(raw):
            raise ExprError("Invalid content of \\{\\}")
        try:
            try:
                rx = compile_regex(raw, glibc_syntax=True, dot_newline=True, budget=self.ctx.budget)
            except RegexError as err:
                if str(err) != "Invalid preceding regular expression":
                    raise
                # expr drops RE_CONTEXT_INVALID_DUP: a leading repetition is literal, as in
                # grep's dialect
                rx = compile_regex(raw, glibc_syntax=False, dot_newline=True, budget=self.ctx.budget)
        except RegexError as err:
            raise ExprError(str(err)) from None
        m = rx.match(text, 0)
        if m is None:
            return "" if rx.groups > 0 else _ZERO
        if rx.groups > 0:
            group = m.group(1)
            return "" if group is None else narrow(group).decode("utf-8", "surrogateescape")
        if not self.utf8:
            return _number(len(narrow(text[: m.end()])))
        return _number(len(text[: m.end()].decode("utf-8", "surrogateescape")))


def _empty_interval(pattern: bytes) -> bool:
    """True if the BRE holds ``\\{\\}`` after something it could repeat, outside brackets
    (glibc: invalid content; at the start, or after ``\\(`` or ``\\|``, it is literal)."""
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == 0x5C:
            starts = i == 0 or pattern[i - 2:i] in (b"\\(", b"\\|")
            if pattern[i + 1:i + 4] == b"{\\}" and not starts:
                return True
            i += 2
        elif c == 0x5B:
            j = i + 1
            if pattern[j:j + 1] == b"^":
                j += 1
            if pattern[j:j + 1] == b"]":
                j += 1
            close = pattern.find(b"]", j)
            i = n if close < 0 else close + 1
        else:
            i += 1
    return False


_SIZE_MAX = (1 << 64) - 1


def _size(n: decimal.Decimal) -> int:
    """GNU ``getsize``: a position or length as size_t (negative: 0, huge: SIZE_MAX)."""
    if n < 0:
        return 0
    if n.adjusted() > 20:
        return _SIZE_MAX
    return min(int(n), _SIZE_MAX)


def run(ctx: CommandContext) -> int:
    """Run ``expr``."""
    args = ctx.args
    if len(args) == 1:
        # gnulib's parse_long_options: --help/--version only as the sole argument.
        try:
            opts, _ = parse(SPEC, args)
        except UsageError:
            opts = []
        keys = {k for k, _ in opts}
        if "help" in keys:
            ctx.stdout.write(USAGE.encode())
            return 0
        if "version" in keys:
            ctx.stdout.write(b"expr (GNU coreutils) 9.1\n")
            return 0
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        return ctx.usage_error("missing operand", EXPR_INVALID)
    parser = _Parser(ctx, args)
    try:
        value = parser.eval(True)
        if parser.more():
            raise ExprError(f"syntax error: unexpected argument {quote(args[parser.pos])}")
    except ExprError as err:
        ctx.error(str(err))
        return err.status
    ctx.stdout.write((to_text(value) + "\n").encode("utf-8", "surrogateescape"))
    return 1 if is_null(value) else 0
