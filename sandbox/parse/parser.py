"""A hand-written recursive-descent parser for the bash subset the sandbox runs.

It reads the script once, left to right, and builds ``sandbox.parse.ast`` nodes directly
(words are split into typed parts while they are scanned, command substitutions are parsed
recursively, here-documents are collected at the next newline as bash does). Syntax outside
the subset raises ``UnsupportedSyntax`` with one line naming it and an alternative; malformed
scripts raise ``UnsupportedSyntax`` with bash's ``syntax error near unexpected token`` wording.
"""

from __future__ import annotations

import re
import threading
from typing import Callable

from sandbox.errors import UnsupportedSyntax
from sandbox.parse.ast import (
    DQ, AndOr, ArithCmd, ArithFor, ArithSub, Assign, BraceGroup, Case, CaseArm, CmdSub, Command,
    DeclAssign, ProcSub,
    CondAndOr, CondBinary, CondExpr, CondNot, CondUnary, CondWord, DBracket, For, FunctionDef, If,
    Lit, Param, Part, Pipeline, Quoted, Redirect, Script, SimpleCommand, Subshell, SyntaxFailure,
    Tilde, While, Word,
)

_META = frozenset(" \t\n;&|<>()")
_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGN_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\+?)=")
#: ``a[0]=(...)``: an element assignment (bash's error when it runs), not a function.
_ELEMENT_ASSIGN_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\[.*\]\+?=\Z", re.S)
_PLAIN_RE = re.compile(r"[^ \t\n;&|<>()\"'`$\\]+")
#: ``{name}`` right before a redirection operator: a named descriptor (``exec {fd}>f``).
_VARFD_RE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}(?=[<>])")
_REDIR_OPS = ("&>>", "<<<", "<<-", "&>", "<<", "<>", "<&", ">>", ">|", ">&", "<", ">")
_CONTROL_OPS = ("&&", "||", ";;&", ";;", ";&", "|&", "|", ";", "&", "(", ")")
_CASE_TERMS = frozenset({";;", ";&", ";;&"})
#: Builtins whose assignment arguments are parsed as assignments (``local a=(1 2)``).
_DECL_WORDS = frozenset({"declare", "typeset", "local", "export", "readonly"})
#: Unary operators of ``[[ ]]``; binary ones that are words (``<`` and ``>`` are operators).
_COND_UNARY = frozenset("-e -f -d -s -r -w -x -z -n -L -h -b -c -p -S -t -g -u -k -O -G -N -a "
                        "-v -o -R".split())
_COND_BINARY = frozenset("= == != =~ -eq -ne -lt -le -gt -ge -nt -ot -ef".split())
_RESERVED_STOP = frozenset({"then", "elif", "else", "fi", "do", "done", "}", "esac"})
_SPECIAL_PARAMS = frozenset("@*#?$!-0123456789")
#: Deepest nesting of lists (subshells, groups, loops, substitutions) the parser accepts.
MAX_NESTING = 200

#: Unsupported constructs and the one-line message (what is unsupported + what to use).
UNSUPPORTED = {
    "arith": "arithmetic expansion $(( )) is not supported by this front end; use `seq`, "
    "`wc -l` or literal numbers instead",
    "case": "`case` is not supported; use if/elif with `[ \"$x\" = value ]` instead",
    "dbracket": "`[[ ]]` is not supported; use `[ ]` (test) instead",
    "select": "`select` is not supported; use a `for` loop instead",
    "coproc": "`coproc` is not supported; use a pipeline instead",
    "procsub": "process substitution <( ) / >( ) is not supported; use a pipeline or a "
    "temporary file instead",
    "array": "arrays are not supported; use a space-separated string and `for x in $list` "
    "instead",
}


#: A ``for`` variable that is not a name (``for - in ...``): an error when the loop runs.
_FOR_WORD_RE = re.compile(r"[^\s;&|<>()'\"`$\\]+")


def unsupported(key: str) -> UnsupportedSyntax:
    """The ``UnsupportedSyntax`` error for one of the ``UNSUPPORTED`` constructs."""
    return UnsupportedSyntax(UNSUPPORTED[key])



def _flush_quoted(buf: list[str], parts: list[Part]) -> None:
    """Move the literal characters gathered in ``buf`` into ``parts`` as one ``Quoted``."""
    if buf:
        parts.append(Quoted("".join(buf)))
        buf.clear()

#: The time check of the run being parsed, per thread (``watch_time``); None: unbounded.
_time_check = threading.local()


def watch_time(check: Callable[[], None] | None) -> None:
    """Make this thread's parses call ``check`` (a budget's ``check_time``) as they go, so a
    parse, like the run, ends at the run's deadline; None stops it."""
    _time_check.fn = check


def _check_time() -> None:
    fn = getattr(_time_check, "fn", None)
    if fn is not None:
        fn()


class _Pending:
    __slots__ = ("redirect", "delim", "strip")

    def __init__(self, redirect: Redirect, delim: str, strip: bool):
        self.redirect = redirect
        self.delim = delim
        self.strip = strip


class Parser:
    """Parse one script; use ``parse_script`` (module level) rather than this class."""

    def __init__(self, src: str, offset: int = 0):
        self.s = src
        self.i = 0
        self.n = len(src)
        self.offset = offset
        self.pending: list[_Pending] = []
        self.depth = 0
        #: Where the extglob groups of words outside ``[[ ]]`` open (offsets of their ``(``):
        #: without ``shopt -s extglob`` bash's parser rejects those lines (``Script.extglob``).
        self.extglob_groups: list[int] = []
        #: (offset, message) of here-documents the end of the script closes (bash warns).
        self.heredoc_warnings: list[tuple[int, str]] = []
        #: The top-level and-or lists of the complete lines read so far (bash -c runs them
        #: before it reports a syntax error on a later line): (items, how many, end offset).
        self.complete: tuple[list[AndOr], int, int] | None = None
        self.in_cond = 0

    # -- errors ---------------------------------------------------------------------------

    def syntax_error(self, token: str | None = None) -> UnsupportedSyntax:

        """bash's ``syntax error near unexpected token`` for ``token`` (default: the next one)."""
        if token is None:
            token = self._token_text()
        if token in ("", "newline"):
            return UnsupportedSyntax("syntax error: unexpected end of file")
        return UnsupportedSyntax(f"syntax error near unexpected token `{token}'")

    def _token_text(self) -> str:
        self.skip_ws()
        if self.i >= self.n:
            return ""
        if self.s[self.i] == "\n":
            return "newline"
        for op in _CONTROL_OPS + _REDIR_OPS:
            if self.s.startswith(op, self.i):
                return op
        m = _PLAIN_RE.match(self.s, self.i)
        return m.group(0) if m else self.s[self.i]

    # -- low-level scanning ---------------------------------------------------------------

    def skip_ws(self) -> None:
        """Skip blanks, line continuations and comments (not newlines)."""
        s, n = self.s, self.n
        while self.i < n:
            c = s[self.i]
            if c == " " or c == "\t":
                self.i += 1
            elif c == "\\" and self.i + 1 < n and s[self.i + 1] == "\n":
                self.i += 2
            elif c == "#":
                j = s.find("\n", self.i)
                self.i = n if j < 0 else j
            else:
                break

    def skip_newlines(self) -> None:
        """Skip blanks, comments and newlines (reading pending here-documents)."""
        while True:
            self.skip_ws()
            if self.i < self.n and self.s[self.i] == "\n":
                self.i += 1
                self.read_heredocs()
            else:
                return

    def peek_op(self) -> str | None:
        """The control or redirection operator at the cursor (after blanks), or None."""
        self.skip_ws()
        if self.i >= self.n:
            return "EOF"
        c = self.s[self.i]
        if c == "\n":
            return "NL"
        if c not in _META:
            if c.isdigit():
                j = self.i
                while j < self.n and self.s[j].isdigit():
                    j += 1
                if j < self.n and self.s[j] in "<>" and j - self.i <= 9:
                    return "FDREDIR"  # (a longer number is a word, as in bash)
            elif c == "{" and _VARFD_RE.match(self.s, self.i):
                return "FDREDIR"  # {name}>file
            return None
        if c in "<>" and self.s.startswith("(", self.i + 1):
            return None  # <(cmd) / >(cmd): a process substitution, a word
        for op in _REDIR_OPS:
            if self.s.startswith(op, self.i):
                return op
        for op in _CONTROL_OPS:
            if self.s.startswith(op, self.i):
                return op
        return None  # pragma: no cover

    def peek_word(self) -> str | None:
        """The next token if it is a plain unquoted word (for reserved words), else None."""
        self.skip_ws()
        m = _PLAIN_RE.match(self.s, self.i)
        if not m:
            return None
        end = m.end()
        if end < self.n and self.s[end] not in _META:
            return None
        return m.group(0)

    def expect_word(self, word: str) -> None:

        """Consume the reserved word ``word`` or raise a syntax error."""
        if self.peek_word() != word:
            raise self.syntax_error()
        self.i += len(word)

    # -- here-documents -------------------------------------------------------------------

    def read_heredocs(self) -> None:
        """Read the bodies of pending here-documents, starting at the cursor (after a newline)."""
        pending, self.pending = self.pending, []
        for p in pending:
            lines: list[str] = []
            start = self.i
            while True:
                if self.i >= self.n:
                    at = p.redirect.pos - self.offset
                    # bash's prefix is the line it read the end of the text on
                    eof_line = self.s.count("\n", 0, self.n) + (not self.s.endswith("\n"))
                    self.heredoc_warnings.append((p.redirect.pos, (
                        f"line {eof_line}: warning: here-document at line "
                        f"{self.s.count(chr(10), 0, at) + 1} delimited by end-of-file "
                        f"(wanted `{p.delim}')")))
                    break
                j = self.s.find("\n", self.i)
                line = self.s[self.i: self.n if j < 0 else j]
                self.i = self.n if j < 0 else j + 1
                if p.strip:
                    line = line.lstrip("\t")
                if line == p.delim:
                    break
                lines.append(line + "\n")
            body = "".join(lines)
            if p.redirect.heredoc_quoted:
                p.redirect.heredoc = Word([Quoted(body)], start + self.offset, body)
            else:
                p.redirect.heredoc = _parse_heredoc_body(body, start + self.offset)

    # -- grammar --------------------------------------------------------------------------

    def parse_list(self, stops: frozenset[str] = frozenset(), close_paren: bool = False,
                   case_arm: bool = False) -> Script:
        """Parse and-or lists until EOF, a reserved word in ``stops``, (``close_paren``) ')'
        or (``case_arm``) a case terminator ``;;`` ``;&`` ``;;&``."""
        items: list[AndOr] = []
        start = self.i
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise UnsupportedSyntax(f"script is nested too deeply (more than {MAX_NESTING} "
                                    "levels); flatten it")
        while True:
            self.skip_newlines()
            if self.i >= self.n:
                break
            if self.s[self.i] == ")":
                if close_paren:
                    break
                raise self.syntax_error(")")
            word = self.peek_word()
            if word is not None and word in stops:
                break
            if word is not None and word in _RESERVED_STOP:
                raise self.syntax_error(word)
            if case_arm and self.s.startswith(";", self.i) and self.peek_op() in _CASE_TERMS:
                break
            andor = self.parse_andor()
            items.append(andor)
            op = self.peek_op()
            if op == ";":
                self.i += 1
            elif op == "&":
                self.i += 1
                andor.background = True
            elif op == "NL":
                self.i += 1
                self.read_heredocs()
                if self.depth == 1:  # a complete top-level line
                    self.complete = (items, len(items), self.i)
            elif op == "EOF":
                break
            elif op == ")" and close_paren:
                break
            elif op in _CASE_TERMS:
                if case_arm:
                    break
                raise self.syntax_error(op)
            elif op is None and self.peek_word() in stops:
                break
            else:
                raise self.syntax_error()
        if self.i >= self.n and self.pending:
            self.read_heredocs()
        self.depth -= 1
        return Script(items, start + self.offset)

    def parse_andor(self) -> AndOr:

        """``pipeline (&& | ||) pipeline ...``."""
        pos = self.i
        first = self.parse_pipeline()
        node = AndOr(first, [], False, pos + self.offset)
        while True:
            op = self.peek_op()
            if op not in ("&&", "||"):
                return node
            self.i += 2
            self.skip_newlines()
            node.rest.append((op, self.parse_pipeline()))

    def parse_pipeline(self) -> Pipeline:

        """``[!] command | command ...`` (``|&`` also pipes stderr)."""
        pos = self.i
        negate = False
        timed: str | None = None
        while True:  # `!` and the reserved word `time [-p]`, in any order
            word = self.peek_word()
            if word == "!":
                self.i += 1
                negate = not negate
            elif word == "time" and timed is None:
                self.i += 4
                timed = ""
                if self.peek_word() == "-p":
                    self.i += 2
                    timed = "p"
                op = self.peek_op()
                if op is not None and op not in ("FDREDIR", "(") and op not in _REDIR_OPS:
                    return Pipeline([], negate, [], pos + self.offset, timed)  # `time` alone
            else:
                break
        cmds = [self.parse_command()]
        err_pipes: list[bool] = []
        while True:
            op = self.peek_op()
            if op not in ("|", "|&"):
                break
            self.i += len(op)
            err_pipes.append(op == "|&")
            self.skip_newlines()
            cmds.append(self.parse_command())
        return Pipeline(cmds, negate, err_pipes, pos + self.offset, timed)

    def parse_command(self) -> Command:

        """One command: simple, compound, or a function definition."""
        _check_time()
        self.skip_ws()
        pos = self.i + self.offset
        if self.i >= self.n:
            raise self.syntax_error("")
        if self.s.startswith("((", self.i):
            start = self.i
            self.i += 2
            expr = self.parse_arith_expr()
            if expr is not None:
                self.i += 2
                return ArithCmd(expr, self.parse_redirects(), pos)
            self.i = start  # `( (cmd) )`: nested subshells, not arithmetic
        op = self.peek_op()
        if op == "(":
            self.i += 1
            body = self.parse_list(close_paren=True)
            if self.peek_op() != ")":
                raise self.syntax_error()
            self.i += 1
            if not body.items:
                raise self.syntax_error(")")
            return Subshell(body, self.parse_redirects(), pos)
        if op is not None and op not in ("FDREDIR",) and op not in _REDIR_OPS:
            raise self.syntax_error(op if op not in ("NL", "EOF") else "newline")
        word = self.peek_word()
        if word is not None:
            if word == "{":
                self.i += 1
                body = self.parse_list(frozenset({"}"}))
                self.expect_word("}")
                if not body.items:
                    raise self.syntax_error("}")
                return BraceGroup(body, self.parse_redirects(), pos)
            if word == "if":
                return self.parse_if(pos)
            if word in ("while", "until"):
                self.i += len(word)
                cond = self.parse_list(frozenset({"do"}))
                self.expect_word("do")
                body = self.parse_list(frozenset({"done"}))
                self.expect_word("done")
                if not cond.items or not body.items:
                    raise self.syntax_error("done")
                return While(cond, body, word == "until", self.parse_redirects(), pos)
            if word == "for":
                return self.parse_for(pos)
            if word == "function":
                self.i += len(word)
                self.skip_ws()
                m = _NAME_RE.match(self.s, self.i)
                if not m:
                    raise self.syntax_error()
                self.i = m.end()
                self.skip_ws()
                if self.s.startswith("(", self.i):
                    self.i += 1
                    self.skip_ws()
                    if not self.s.startswith(")", self.i):
                        raise self.syntax_error()
                    self.i += 1
                return self.parse_function_body(m.group(0), pos)
            if word == "case":
                return self.parse_case(pos)
            if word == "[[":
                return self.parse_dbracket(pos)
            if word == "select":
                raise unsupported("select")
            if word == "coproc":
                raise unsupported("coproc")
            if word in _RESERVED_STOP:
                raise self.syntax_error(word)
            # name ( ) compound  -> function definition (bash accepts any plain word)
            if not _ASSIGN_RE.match(word) and not _ELEMENT_ASSIGN_RE.match(word):
                save = self.i
                self.i += len(word)
                self.skip_ws()
                if self.s.startswith("(", self.i):
                    self.i += 1
                    self.skip_ws()
                    if self.s.startswith(")", self.i):
                        self.i += 1
                        return self.parse_function_body(word, pos)
                    raise self.syntax_error()
                self.i = save
        return self.parse_simple(pos)

    def parse_case(self, pos: int) -> Case:
        """``case word in [(]pat [| pat]...) list ;; ... esac`` (cursor at ``case``)."""
        self.i += 4
        self.skip_ws()
        if self.peek_op() is not None:
            raise self.syntax_error()
        subject = self.parse_word()
        self.skip_newlines()
        self.expect_word("in")
        arms: list[CaseArm] = []
        while True:
            self.skip_newlines()
            if self.peek_word() == "esac":
                self.i += 4
                break
            if self.i >= self.n:
                raise self.syntax_error("")
            if self.peek_op() == "(":
                self.i += 1
            patterns: list[Word] = []
            while True:
                self.skip_ws()
                if self.peek_op() is not None:
                    raise self.syntax_error()
                patterns.append(self.parse_word())
                op = self.peek_op()
                if op == "|":
                    self.i += 1
                    continue
                if op == ")":
                    self.i += 1
                    break
                raise self.syntax_error()
            body = self.parse_list(frozenset({"esac"}), case_arm=True)
            op = self.peek_op()
            term = ";;"
            if op in _CASE_TERMS:
                self.i += len(op)  # type: ignore[arg-type]
                term = op  # type: ignore[assignment]
            elif self.peek_word() != "esac":
                raise self.syntax_error()
            arms.append(CaseArm(patterns, body, term))
        return Case(subject, arms, self.parse_redirects(), pos)

    # -- [[ ]] ----------------------------------------------------------------------------

    def parse_dbracket(self, pos: int) -> DBracket:
        """``[[ expr ]]`` (cursor at ``[[``): words are not split or globbed; ``<`` ``>``
        compare strings; ``( ) ! && ||`` group and combine."""
        self.i += 2
        if self._cond_peek() == "]]":
            raise self.syntax_error("]]")
        expr = self._cond_or()
        tok = self._cond_peek()
        if tok != "]]":
            if tok == ")":
                raise UnsupportedSyntax("syntax error in conditional expression: unexpected "
                                        "token `)'")
            if tok:  # `[[ $x == y ]`, `[[ a = b c ]]`
                raise UnsupportedSyntax("syntax error in conditional expression")
            raise self.syntax_error()
        self.i += 2
        return DBracket(expr, self.parse_redirects(), pos)

    def _cond_peek(self) -> str:
        """The next token inside ``[[ ]]`` (newlines are blanks there); "" at the end."""
        self.skip_newlines()
        if self.i >= self.n:
            return ""
        for op in ("&&", "||", "(", ")", "<", ">"):
            if self.s.startswith(op, self.i) and not (op in "<>" and self.s.startswith("(", self.i + 1)):
                return op  # (`<(cmd)` and `>(cmd)` are words: process substitutions)
        w = self.peek_word()
        return w if w is not None else "WORD"

    def _cond_or(self) -> CondExpr:
        left = self._cond_and()
        while self._cond_peek() == "||":
            self.i += 2
            left = CondAndOr("||", left, self._cond_and())
        return left

    def _cond_and(self) -> CondExpr:
        left = self._cond_not()
        while self._cond_peek() == "&&":
            self.i += 2
            left = CondAndOr("&&", left, self._cond_not())
        return left

    def _cond_not(self) -> CondExpr:
        if self._cond_peek() == "!":
            self.i += 1
            return CondNot(self._cond_not())
        return self._cond_primary()

    def _cond_operand(self, regex: bool = False) -> Word:
        tok = self._cond_peek()
        if tok in ("", "&&", "||", ")", "<", ">", "]]") or (tok == "(" and not regex):
            raise self.syntax_error(tok or "")
        self.in_cond += 1  # inside [[ ]] bash always reads extglob patterns
        try:
            return self.parse_word(regex=regex)
        finally:
            self.in_cond -= 1

    def _cond_primary(self) -> CondExpr:
        tok = self._cond_peek()
        if tok == "(":
            self.i += 1
            expr = self._cond_or()
            if self._cond_peek() != ")":
                raise self.syntax_error()
            self.i += 1
            expr.paren += 1
            return expr
        if tok in _COND_UNARY:
            save = self.i
            self.i += len(tok)
            nxt = self._cond_peek()
            if nxt not in ("", "]]", "&&", "||", ")"):
                return CondUnary(tok, self._cond_operand())
            if nxt:  # `[[ -f ]]`: bash wants the operand
                raise UnsupportedSyntax(f"unexpected argument `{nxt}' to conditional unary "
                                        "operator")
            self.i = save
        left = self._cond_operand()
        op = self._cond_peek()
        if op in ("<", ">") or op in _COND_BINARY:
            self.i += len(op)
            nxt = self._cond_peek()
            if nxt in ("]]", "&&", "||", ")"):  # `[[ $n -eq ]]`
                raise UnsupportedSyntax(f"unexpected argument `{nxt}' to conditional binary "
                                        "operator")
            return CondBinary(op, left, self._cond_operand(regex=op == "=~"))
        if op not in ("", "]]", "&&", "||", ")", "("):  # `[[ a b ]]`
            raise UnsupportedSyntax("conditional binary operator expected")
        return CondWord(left)

    def parse_function_body(self, name: str, pos: int) -> FunctionDef:

        """The compound command after ``name()``."""
        self.skip_newlines()
        at = self.i
        body = self.parse_command()
        if isinstance(body, (SimpleCommand, FunctionDef)):
            self.i = at  # `f() echo hi`: bash names the body's first word
            raise self.syntax_error()
        return FunctionDef(name, body, pos)

    def parse_if(self, pos: int) -> If:

        """``if ... then ... [elif ... then ...] [else ...] fi``."""
        self.i += 2
        clauses = []
        else_body = None
        while True:
            cond = self.parse_list(frozenset({"then"}))
            if not cond.items:  # `if then`: bash names the `then`
                raise self.syntax_error()
            self.expect_word("then")
            body = self.parse_list(frozenset({"elif", "else", "fi"}))
            if not body.items:
                raise self.syntax_error()
            clauses.append((cond, body))
            w = self.peek_word()
            self.i += len(w or "")
            if w == "elif":
                continue
            if w == "else":
                else_body = self.parse_list(frozenset({"fi"}))
                if not else_body.items:
                    raise self.syntax_error()
                self.expect_word("fi")
            elif w != "fi":
                raise self.syntax_error()
            break
        return If(clauses, else_body, self.parse_redirects(), pos)

    def parse_for(self, pos: int) -> For:

        """``for name [in words] ; do list done``."""
        self.i += 3
        self.skip_ws()
        m = _NAME_RE.match(self.s, self.i)
        if not m or (m.end() < self.n and self.s[m.end()] not in _META):
            if self.s.startswith("((", self.i):
                return self.parse_arith_for(pos)
            m = _FOR_WORD_RE.match(self.s, self.i)  # `for - in`: bash says so when it runs
            if not m:
                raise self.syntax_error()
        var = m.group(0)
        self.i = m.end()
        words: list[Word] | None = None
        op = self.peek_op()
        if op == ";":
            self.i += 1
        else:
            self.skip_newlines()
            if self.peek_word() == "in":
                self.i += 2
                words = []
                while True:
                    op = self.peek_op()
                    if op is None:
                        words.append(self.parse_word())
                    elif op in (";", "NL"):
                        self.i += 1
                        if op == "NL":
                            self.read_heredocs()
                        break
                    else:
                        raise self.syntax_error()
        self.skip_newlines()
        closer = "}" if self.peek_word() == "{" else "done"  # bash's `for x in a; { ...; }`
        self.expect_word("{" if closer == "}" else "do")
        body = self.parse_list(frozenset({closer}))
        self.expect_word(closer)
        if not body.items:
            raise self.syntax_error(closer)
        return For(var, words, body, self.parse_redirects(), pos)

    def parse_arith_for(self, pos: int) -> ArithFor:
        """``for (( init; cond; step )) ; do list done`` (cursor at the ``((``)."""
        opener = self.i
        self.i += 2
        sections: list[Word] = []
        for k in range(3):
            expr = self.parse_arith_expr(for_section=k < 2)
            if expr is None or (k < 2 and not self.s.startswith(";", self.i)):
                exc = UnsupportedSyntax("syntax error: arithmetic expression required")
                close = self.s.find("))", opener + 2)
                if close >= 0:  # bash quotes the (( )) on a second line
                    exc.echo_line = f"syntax error: `{self.s[opener:close + 2]}'"
                raise exc
            sections.append(expr)
            self.i += 1
        self.i += 1  # the second `)` of `))`
        self.skip_ws()
        if self.peek_op() == ";":
            self.i += 1
        self.skip_newlines()
        closer = "}" if self.peek_word() == "{" else "done"
        self.expect_word("{" if closer == "}" else "do")
        body = self.parse_list(frozenset({closer}))
        self.expect_word(closer)
        if not body.items:
            raise self.syntax_error(closer)
        return ArithFor(sections[0], sections[1], sections[2], body, self.parse_redirects(), pos)

    def parse_arith_expr(self, for_section: bool = False, bracket: bool = False) -> Word | None:
        """The text of an arithmetic expression, cursor after the opening ``((`` (or a
        ``for (( ))`` section's start, or ``bracket``: after ``$[``); it stops before the
        closing ``))`` (or before the ``;`` ending a for section, or the ``]`` matching
        ``$[``). The text expands like a double-quoted string. Returns None when an
        unbalanced ``)`` shows the ``((`` opened two subshells instead."""
        s, n = self.s, self.n
        start = self.i
        parts: list[Part] = []
        buf: list[str] = []
        depth = 0
        while True:
            if self.i >= n:
                exc = UnsupportedSyntax(
                    f"unexpected EOF while looking for matching `{']' if bracket else ')'}'")
                exc.pos = start  # type: ignore[attr-defined]  # bash names the `((` line
                raise exc
            c = s[self.i]
            if bracket and c in "[]":
                if c == "]" and depth == 0:
                    break
                depth += 1 if c == "[" else -1
                buf.append(c)
                self.i += 1
            elif bracket and c in "()":
                buf.append(c)
                self.i += 1
            elif c == "(":
                depth += 1
                buf.append(c)
                self.i += 1
            elif c == ")":
                if depth:
                    depth -= 1
                    buf.append(c)
                    self.i += 1
                elif s.startswith("))", self.i):
                    break
                else:
                    return None
            elif c == ";" and for_section and depth == 0:
                break
            elif c == '"':
                _flush_quoted(buf, parts)
                parts.append(self.parse_dq())
            else:
                self._dq_piece(buf, parts)
        _flush_quoted(buf, parts)
        return Word(parts, start + self.offset, s[start: self.i])

    def parse_redirects(self) -> list[Redirect]:

        """Redirections after a compound command."""
        out = []
        while True:
            op = self.peek_op()
            if op == "FDREDIR" or (op in _REDIR_OPS):
                out.append(self.parse_redirect())
            else:
                return out

    def parse_redirect(self) -> Redirect:

        """One redirection (``[n]op target``); here-documents are queued."""
        pos = self.i + self.offset
        fd: int | None = None
        varname: str | None = None
        m = _VARFD_RE.match(self.s, self.i)
        if m:
            varname = m.group(1)
            self.i = m.end()
        elif self.s[self.i].isdigit():
            j = self.i
            while self.s[j].isdigit():
                j += 1
            fd = int(self.s[self.i:j])
            self.i = j
        op = next(o for o in _REDIR_OPS if self.s.startswith(o, self.i))
        self.i += len(op)
        if op in ("<", ">") and self.s.startswith("(", self.i):
            raise unsupported("procsub")
        self.skip_ws()
        op_next = self.peek_op()
        if op_next is not None and not self.s.startswith(("<(", ">("), self.i):
            if op_next in ("EOF", "NL"):  # `echo >`: bash reads the newline that ends -c
                raise UnsupportedSyntax("syntax error near unexpected token `newline'")
            raise self.syntax_error()
        target = self.parse_word()
        red = Redirect(op, fd, target, pos, varname=varname)
        if op in ("<<", "<<-"):
            red.heredoc_quoted = target.is_quoted()
            self.pending.append(_Pending(red, _heredoc_delim(target), op == "<<-"))
        return red

    def parse_simple(self, pos: int) -> SimpleCommand:

        """Assignments, words and redirections of a simple command."""
        assigns: list[Assign] = []
        words: list[Word] = []
        redirects: list[Redirect] = []
        decl = False  # the command is declare/local/...: its arguments may be assignments
        while True:
            op = self.peek_op()
            if op in ("<", ">") and self.s.startswith(("<(", ">("), self.i):
                op = None  # a process substitution: a word
            if op == "FDREDIR" or op in _REDIR_OPS:
                redirects.append(self.parse_redirect())
                continue
            if op is not None:
                if op == "(" and words:
                    raise self.syntax_error("(")
                break
            if not words:
                a = self.parse_assignment()
                if a is not None:
                    assigns.append(a)
                    continue
                # `FOO=bar [[ x ]]`: not the keyword here, a command named `[[` (bash: not found)
            elif decl:
                start = self.i
                a = self.parse_assignment()
                if a is not None:
                    words.append(Word([DeclAssign(a)], a.pos, self.s[start:self.i]))
                    continue
            words.append(self.parse_word())
            if len(words) == 1:
                decl = words[0].text in _DECL_WORDS
        if not assigns and not words and not redirects:
            raise self.syntax_error()
        return SimpleCommand(assigns, words, redirects, pos)

    def parse_assignment(self) -> Assign | None:
        """``name=value``, ``name+=value``, ``name[sub]=value`` or ``name=(elements)`` at the
        cursor, or None (cursor unchanged) when the next word is not an assignment."""
        s = self.s
        apos = self.i + self.offset
        m = _NAME_RE.match(s, self.i)
        if not m:
            return None
        j = m.end()
        index = None
        if j < self.n and s[j] == "[":
            end = _subscript_end(s, j)
            if end < 0:
                return None
            k = end + 1
            if not (s.startswith("=", k) or s.startswith("+=", k)):
                return None
            save = self.i
            self.i = j + 1
            index = self._subscript_word(end)
            self.i = save
            j = k
        append = s.startswith("+=", j)
        if not (append or s.startswith("=", j)):
            return None
        self.i = j + (2 if append else 1)
        if s.startswith("(", self.i):  # `a[0]=(...)` too: bash's error when it runs
            self.i += 1
            return Assign(m.group(0), Word([], apos), append, apos, index, self._array_elements())
        value = self.parse_word(assignment=True)
        return Assign(m.group(0), value, append, apos, index)

    def _array_elements(self) -> list[tuple[Word | None, Word]]:
        """The elements of ``(...)`` after ``name=`` (cursor after the ``(``)."""
        out: list[tuple[Word | None, Word]] = []
        start = self.i - 1
        while True:
            self.skip_newlines()
            if self.i >= self.n:
                exc = UnsupportedSyntax("unexpected EOF while looking for matching `)'")
                exc.pos = start  # type: ignore[attr-defined]  # bash names the `(` line
                exc.status_rule = "1"  # type: ignore[attr-defined]  # and leaves with 1
                raise exc
            c = self.s[self.i]
            if c == ")":
                self.i += 1
                return out
            if c in _META:
                exc = self.syntax_error()
                exc.discard_line = True  # type: ignore[attr-defined]  # bash reads on (below)
                raise exc
            key = None
            if c == "[":
                end = _subscript_end(self.s, self.i)
                if end > 0 and self.s.startswith("=", end + 1):
                    self.i += 1
                    key = self._subscript_word(end)
                    self.i = end + 2
                    out.append((key, self.parse_word(assignment=True)))
                    continue
            out.append((None, self.parse_word()))

    def _subscript_word(self, end: int) -> Word:
        """The subscript text from the cursor to ``end`` (its ``]``) as a word that expands
        like a double-quoted string (quotes inside are removed); cursor ends at ``end``."""
        s = self.s
        start = self.i
        parts: list[Part] = []
        buf: list[str] = []
        while self.i < end:
            c = s[self.i]
            if c == "$" and s.startswith("'", self.i + 1):  # `m[$'a\tb']`: decoded
                _flush_quoted(buf, parts)
                parts.append(Quoted(self.parse_ansi_c()))
            elif c == "'":
                j = s.find("'", self.i + 1)
                if j < 0 or j > end:
                    raise UnsupportedSyntax("unexpected EOF while looking for matching `''")
                _flush_quoted(buf, parts)
                parts.append(Quoted(s[self.i + 1: j]))
                self.i = j + 1
            elif c == '"':
                _flush_quoted(buf, parts)
                parts.append(self.parse_dq())
            elif c == "\\" and self.i + 1 < end:
                buf.append(s[self.i + 1])
                self.i += 2
            else:
                self._dq_piece(buf, parts)
        _flush_quoted(buf, parts)
        self.i = end
        return Word(parts, start + self.offset, s[start:end])

    # -- words ----------------------------------------------------------------------------

    def parse_word(self, assignment: bool = False, regex: bool = False) -> Word:
        """Scan one word at the cursor into typed parts (stops at an unquoted metacharacter).

        An extglob group ``@(a|b)`` (``?*+@!`` before ``(``) stays in the word as literal text;
        ``regex`` (the right side of ``[[ =~ ]]``) also keeps ``( ) | < >`` and stops only at
        a blank outside parentheses."""
        _check_time()
        s, n = self.s, self.n
        start = self.i
        parts: list[Part] = []
        buf: list[str] = []
        depth = 0

        def flush() -> None:
            if buf:
                parts.append(Lit("".join(buf)))
                buf.clear()

        while self.i < n:
            c = s[self.i]
            if c in _META:
                if c == "<" and s.startswith("<(", self.i):
                    flush()
                    ppos = self.i + self.offset
                    self.i += 2
                    body = self.parse_list(close_paren=True)
                    if self.i >= n or s[self.i] != ")":
                        raise UnsupportedSyntax("unexpected EOF while looking for matching `)'")
                    self.i += 1
                    parts.append(ProcSub(body, ppos))
                    continue
                if c == ">" and s.startswith(">(", self.i):
                    flush()
                    ppos = self.i + self.offset
                    self.i += 2
                    body = self.parse_list(close_paren=True)
                    if self.i >= n or s[self.i] != ")":
                        raise UnsupportedSyntax("unexpected EOF while looking for matching `)'")
                    self.i += 1
                    parts.append(ProcSub(body, ppos, out=True))
                    continue
                if c == "(" and buf and buf[-1][-1:] in ("?", "*", "+", "@", "!"):
                    if not self.in_cond:
                        self.extglob_groups.append(self.i + self.offset)
                    self._extglob_group(buf)
                    continue
                if not regex or c in " \t\n" and depth == 0:
                    break
                if c == "(":
                    depth += 1
                elif c == ")":
                    if depth == 0:
                        break
                    depth -= 1
                elif c in "&;" and depth == 0:
                    break
                buf.append(c)
                self.i += 1
                continue
            if c == "\\":
                if self.i + 1 < n:
                    nxt = s[self.i + 1]
                    self.i += 2
                    if nxt == "\n":
                        continue
                    flush()
                    parts.append(Quoted(nxt))
                else:
                    buf.append("\\")
                    self.i += 1
            elif c == "'":
                j = s.find("'", self.i + 1)
                if j < 0:
                    raise UnsupportedSyntax("unexpected EOF while looking for matching `''")
                flush()
                parts.append(Quoted(s[self.i + 1: j]))
                self.i = j + 1
            elif c == '"':
                flush()
                parts.append(self.parse_dq())
            elif c == "$":
                flush()
                parts.append(self.parse_dollar(in_dq=False))
            elif c == "`":
                flush()
                parts.append(self.parse_backtick())
            elif c == "~" and (self.i == start or assignment and s[self.i - 1] == ":") and (
                self.i + 1 >= n or s[self.i + 1] == "/" or s[self.i + 1] in _META
                or assignment and s[self.i + 1] == ":"
            ):  # ~ at the start; in an assignment also after each unquoted `:` (x=a:~/b)
                flush()
                parts.append(Tilde())
                self.i += 1
            else:
                m = _PLAIN_RE.match(s, self.i)
                if m and m.end() > self.i:
                    text = m.group(0)
                    cut = text.find(":~") if assignment else -1
                    if cut >= 0:  # stop after the `:` so the `~` after it is seen
                        text = text[:cut + 1]
                    buf.append(text)
                    self.i += len(text)
                else:
                    buf.append(c)
                    self.i += 1
        flush()
        if not parts and not assignment:
            raise self.syntax_error()
        return Word(parts, start + self.offset, s[start: self.i])

    def _extglob_group(self, buf: list[str]) -> None:
        """Copy an extglob group ``(...)`` (cursor at its ``(``; nested groups and quotes
        inside are kept as text) into ``buf``."""
        s, n = self.s, self.n
        depth = 0
        j = self.i
        while j < n:
            c = s[j]
            if c == "\\":
                j += 2
                continue
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    break
            elif c == "\n":
                break
            j += 1
        if j >= n or s[j] != ")":
            raise UnsupportedSyntax("unexpected EOF while looking for matching `)'")
        if "$" in s[self.i: j] or "`" in s[self.i: j]:
            raise UnsupportedSyntax("expansions inside an extglob group @(...) are not "
                                    "supported; put the alternatives in the pattern literally")
        buf.append(s[self.i: j + 1])
        self.i = j + 1

    def parse_dq(self) -> DQ:
        """Parse ``"..."`` starting at the opening quote."""
        s, n = self.s, self.n
        start = self.i
        self.i += 1
        parts: list[Part] = []
        buf: list[str] = []
        while True:
            if self.i >= n:
                raise UnsupportedSyntax('unexpected EOF while looking for matching `"\'')
            if s[self.i] == '"':
                self.i += 1
                break
            self._dq_piece(buf, parts)
        _flush_quoted(buf, parts)
        for k, part in enumerate(parts):
            if isinstance(part, Param) and part.op == "bad" and part.arg is not None:
                # bash names the whole quoted string in the message
                # (only ``\"`` loses its backslash); the name ``"`` marks the text as whole
                text = s[start + 1:self.i - 1].replace('\\"', '"')
                parts[k] = Param('"', "bad", Word([Quoted(text)], part.arg.pos, text), pos=part.pos)
        return DQ(parts)

    def _dq_piece(self, buf: list[str], parts: list[Part], escapable: str = '$`"\\\n') -> None:
        """Consume one piece of double-quoted text at the cursor: a backslash escape (only
        before a character of ``escapable``; a newline is removed with it), an expansion, a
        backquote, or one character."""
        s, n = self.s, self.n
        c = s[self.i]
        if c == "\\" and self.i + 1 < n and s[self.i + 1] in escapable:
            if s[self.i + 1] != "\n":
                buf.append(s[self.i + 1])
            self.i += 2
        elif c == "$":
            _flush_quoted(buf, parts)
            parts.append(self.parse_dollar(in_dq=True))
        elif c == "`":
            _flush_quoted(buf, parts)
            parts.append(self.parse_backtick(in_dq=True))
        else:
            buf.append(c)
            self.i += 1

    def parse_dollar(self, in_dq: bool) -> Part:
        """Parse an expansion starting at ``$``."""
        s, n = self.s, self.n
        pos = self.i + self.offset
        while s.startswith("\\\n", self.i + 1):  # `$\<newline>?` is `$?`
            self.i += 2
        nxt = s[self.i + 1] if self.i + 1 < n else ""
        if nxt == "(":
            start = self.i
            if s.startswith("((", self.i + 1):
                self.i += 3
                expr = self.parse_arith_expr()
                if expr is not None:
                    self.i += 2
                    return ArithSub(expr, pos)
                self.i = start  # `$((cmd) ...)`: a command substitution of a subshell
            self.i += 2
            body = self.parse_list(close_paren=True)
            if self.i >= n or s[self.i] != ")":
                exc = UnsupportedSyntax("unexpected EOF while looking for matching `)'")
                if s.startswith("$((", start):  # read as arithmetic first: bash names the
                    exc.pos = n  # type: ignore[attr-defined]  # last line, not the one after
                raise exc
            self.i += 1
            return CmdSub(body, pos)
        if nxt == "[":  # `$[ expr ]`: bash's old spelling of `$(( expr ))`
            self.i += 2
            expr = self.parse_arith_expr(bracket=True)
            self.i += 1
            return ArithSub(expr, pos)  # type: ignore[arg-type]
        if nxt == "{":
            self.i += 2
            return self._braced_or_bad(pos, in_dq)
        if nxt == "'" and not in_dq:
            return Quoted(self.parse_ansi_c())
        if nxt == '"' and not in_dq:
            self.i += 1
            return self.parse_dq()
        if nxt and (nxt.isascii() and (nxt.isalpha() or nxt == "_")):
            m = _NAME_RE.match(s, self.i + 1)
            assert m
            self.i = m.end()
            return Param(m.group(0), pos=pos)
        if nxt and nxt in _SPECIAL_PARAMS:
            self.i += 2
            return Param(nxt, pos=pos, bare=True)
        self.i += 1
        return Lit("$") if not in_dq else Quoted("$")

    def _braced_or_bad(self, pos: int, in_dq: bool) -> Param:
        """``${...}``; one bash can't expand (``${#x-}``, ``${x!y}``) is a Param with op
        ``bad``, an error when it runs (bash's ``bad substitution`` at run time, status 1)."""
        begin = self.i
        try:
            return self.parse_braced_param(pos, in_dq)
        except UnsupportedSyntax as exc:
            if "bad substitution" not in str(exc):
                raise
            end = _brace_end(self.s, begin)
            if end < 0:  # nothing closes it: bash reads on to the end of the script
                rest = self.s[begin:]
                quote = '"' if rest.count('"') % 2 else "}"
                raise UnsupportedSyntax(f"unexpected EOF while looking for matching `{quote}'") \
                    from None
            self.i = end + 1
            text = self.s[begin:end]
            return Param("", "bad", Word([Quoted(text)], begin + self.offset, text), pos=pos)

    def parse_braced_param(self, pos: int, in_dq: bool) -> Param:
        """Parse the inside of ``${...}`` (cursor after the brace)."""
        s, n = self.s, self.n
        if self.i < n and s[self.i] == "#" and self.i + 1 < n and s[self.i + 1] != "}":
            save = self.i
            self.i += 1
            try:
                name, index = self._param_name()
            except UnsupportedSyntax:
                name, index = "", None
            if name and self.i < n and s[self.i] == "}":
                self.i += 1
                return Param(name, "#len", pos=pos, index=index)
            self.i = save  # ${#-...}, ${##...}: the special parameter # with an operator
        indirect = False
        if self.i + 1 < n and s[self.i] == "!" and s[self.i + 1] not in "}":
            self.i += 1
            indirect = True
            m = _NAME_RE.match(s, self.i)
            if m and m.end() < n and s[m.end()] in "*@" and s.startswith("}", m.end() + 1):
                self.i = m.end() + 2
                return Param(m.group(0) + s[m.end()], "!prefix", pos=pos)
        name, index = self._param_name()
        if indirect and name.endswith(("[@]", "[*]")) and s.startswith("}", self.i):
            self.i += 1
            return Param(name, "!keys", pos=pos)
        if self.i >= n:
            raise UnsupportedSyntax("unexpected EOF while looking for matching `}'")
        c = s[self.i]
        if c == "}":
            self.i += 1
            return Param(name, pos=pos, index=index, indirect=indirect)
        op = None
        for cand in (":-", ":=", ":+", ":?", "##", "%%", "//", "/#", "/%", "^^", ",,", "~~", "-",
                     "=", "+", "?", "#", "%", "/", ":", "^", ",", "~", "@"):
            if s.startswith(cand, self.i):
                op = cand
                break
        if op is None:
            raise UnsupportedSyntax(f"${{{name}{c}...}}: bad substitution")
        self.i += len(op)
        if op == ":":
            if s.startswith("}", self.i):  # ${s:} (bash: bad substitution when it runs)
                raise UnsupportedSyntax(f"${{{name}:}}: bad substitution")
            offset = self._param_word(frozenset(":}"), True, False)
            length = None
            if self.i < n and s[self.i] == ":":
                self.i += 1
                length = self._param_word(frozenset("}"), True, False)
            self.i += 1
            return Param(name, op, offset, length, pos, index, indirect)
        if op == "@":
            if self.i + 1 < n and s[self.i] in "QEPAKaUuLk" and s[self.i + 1] == "}":
                self.i += 2
                letter = s[self.i - 2]
                return Param(name, op, Word([Quoted(letter)], self.i - 2 + self.offset, letter),
                             None, pos, index, indirect)
            raise UnsupportedSyntax(f"${{{name}@...}}: bad substitution")
        pattern_op = op[0] in "#%/"
        if op[0] == "/":
            arg = self._param_word(frozenset("/}"), in_dq and not pattern_op, pattern_op)
            repl = None
            if self.i < n and s[self.i] == "/":
                self.i += 1
                repl = self._param_word(frozenset("}"), False, False)  # quotes work in "..."
            self.i += 1
            return Param(name, op, arg, repl, pos, index, indirect)
        pattern_op = pattern_op or op[0] in "^,~"
        arg = self._param_word(frozenset("}"), in_dq and not pattern_op, pattern_op)
        self.i += 1
        return Param(name, op, arg, None, pos, index, indirect)

    def _param_name(self) -> tuple[str, Word | None]:
        """The name of ``${name...}`` and its subscript word (None for none, ``@``, ``*``)."""
        s = self.s
        m = _NAME_RE.match(s, self.i)
        if m:
            self.i = m.end()
            if self.i < self.n and s[self.i] == "[":
                end = _subscript_end(s, self.i)
                if end < 0:
                    raise UnsupportedSyntax("unexpected EOF while looking for matching `]'")
                sub = s[self.i + 1: end]
                if sub == "":  # ${a[]}: bash's bad substitution when it runs
                    raise UnsupportedSyntax(f"${{{m.group(0)}[]}}: bad substitution")
                if sub in ("@", "*"):
                    self.i = end + 1
                    return f"{m.group(0)}[{sub}]", None
                self.i += 1
                index = self._subscript_word(end)
                self.i = end + 1
                return m.group(0), index
            return m.group(0), None
        if self.i < self.n and s[self.i].isdigit():
            j = self.i
            while j < self.n and s[j].isdigit():
                j += 1
            name = s[self.i:j]
            self.i = j
            return name, None
        if self.i < self.n and s[self.i] in _SPECIAL_PARAMS:
            self.i += 1
            return s[self.i - 1], None
        raise UnsupportedSyntax("bad substitution: ${...} needs a variable name")

    def _param_word(self, stops: frozenset[str], in_dq: bool, pattern: bool) -> Word:
        """The operand of ``${v op word}``: up to an unquoted character in ``stops``."""
        s, n = self.s, self.n
        start = self.i
        parts: list[Part] = []
        buf: list[str] = []
        depth = 0
        sq = False  # inside '...' within "${...}" (literal quotes)

        def flush() -> None:
            if buf:
                parts.append(Quoted("".join(buf)) if in_dq else Lit("".join(buf)))
                buf.clear()

        while True:
            if self.i >= n:
                raise UnsupportedSyntax("unexpected EOF while looking for matching `}'")
            c = s[self.i]
            if c in stops and depth == 0 and not sq:
                break
            if c == "{" and not sq:
                depth += 1
            elif c == "}" and not sq:
                depth -= 1
            if c == "\\" and self.i + 1 < n:
                nxt = s[self.i + 1]
                self.i += 2
                if nxt == "\n":
                    continue
                if in_dq and nxt not in '$`"\\}':
                    buf.append("\\" + nxt)
                    continue
                flush()
                parts.append(Quoted(nxt))
            elif c == "'" and in_dq:  # "${v-'}'}": literal quotes, but `}` inside is text
                if not sq and s.find("'", self.i + 1) < 0:
                    raise UnsupportedSyntax("unexpected EOF while looking for matching `''")
                sq = not sq
                buf.append(c)
                self.i += 1
            elif c == "'":
                j = s.find("'", self.i + 1)
                if j < 0:
                    raise UnsupportedSyntax("unexpected EOF while looking for matching `''")
                flush()
                parts.append(Quoted(s[self.i + 1: j]))
                self.i = j + 1
            elif c == '"':
                flush()
                parts.append(self.parse_dq())
            elif c == "$":
                flush()
                parts.append(self.parse_dollar(in_dq))
            elif c == "`":
                flush()
                parts.append(self.parse_backtick())
            else:
                buf.append(c)
                self.i += 1
        flush()
        return Word(parts, start + self.offset, s[start: self.i])

    def parse_ansi_c(self) -> str:
        """Decode ``$'...'`` (cursor at ``$``)."""
        s, n = self.s, self.n
        self.i += 2
        out: list[str] = []
        while True:
            if self.i >= n:
                raise UnsupportedSyntax("unexpected EOF while looking for matching `''")
            c = s[self.i]
            if c == "'":
                self.i += 1
                return join_bytes(out)
            if c == "\\" and self.i + 1 < n:
                text, self.i = decode_escape(s, self.i + 1, ansi_c=True)
                if text == "\x00":  # bash stops the string at a NUL
                    j = self.i
                    while j < n and s[j] != "'":
                        j += 2 if s[j] == "\\" else 1
                    self.i = j
                    continue
                out.append(text)
            else:
                out.append(c)
                self.i += 1

    def parse_backtick(self, in_dq: bool = False) -> CmdSub:
        """Parse ```...``` (cursor at the opening backtick); inside double quotes ``\\"``
        in its body is a plain ``"`` too."""
        s, n = self.s, self.n
        pos = self.i + self.offset
        j = self.i + 1
        inner: list[str] = []
        while True:
            if j >= n:
                raise UnsupportedSyntax("unexpected EOF while looking for matching ``'")
            c = s[j]
            if c == "`":
                break
            if c == "\\" and j + 1 < n and (s[j + 1] in "$`\\" or in_dq and s[j + 1] == '"'):
                inner.append(s[j + 1])
                j += 2
                continue
            inner.append(c)
            j += 1
        self.i = j + 1
        text = "".join(inner)
        sub = Parser(text, pos + 1)
        sub.depth = self.depth
        try:
            body = sub.parse_list()
            if sub.i < sub.n:
                raise sub.syntax_error()
        except UnsupportedSyntax as exc:
            message = str(exc)
            if not _is_syntax_error(message):
                raise  # a construct the sandbox refuses is refused wherever it is
            return CmdSub(Script([]), pos, _backtick_error(text, sub.i, exc))
        return CmdSub(body, pos)


_SIMPLE_ESC = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n",
               "r": "\r", "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


def decode_escape(s: str, i: int, ansi_c: bool) -> tuple[str, int]:
    """Decode one backslash escape whose letter is at ``s[i]``; return (text, next index).

    Shared by ``$'...'`` and ``echo -e`` / ``printf %b`` (``ansi_c=False``: ``\\0nnn`` octal
    and no ``\\'``/``\\"``). Unknown escapes stay as backslash + letter.
    """
    n = len(s)
    c = s[i]
    if c in _SIMPLE_ESC and (ansi_c or c not in "'\"?"):
        return _SIMPLE_ESC[c], i + 1
    if c in "01234567" and (ansi_c or c != "0"):
        j = i
        while j < n and j < i + 3 and s[j] in "01234567":
            j += 1
        return _byte_char(int(s[i:j], 8) & 0xFF), j
    if c == "0" and not ansi_c:
        j = i + 1
        while j < n and j < i + 4 and s[j] in "01234567":
            j += 1
        return _byte_char(int(s[i:j], 8) & 0xFF if j > i + 1 else 0), j
    if c == "x":
        j = i + 1
        while j < n and j < i + 3 and s[j] in "0123456789abcdefABCDEF":
            j += 1
        if j == i + 1:
            return "\\x", i + 1
        return _byte_char(int(s[i + 1:j], 16)), j
    if c in "uU":
        limit = 4 if c == "u" else 8
        j = i + 1
        while j < n and j < i + 1 + limit and s[j] in "0123456789abcdefABCDEF":
            j += 1
        if j == i + 1:
            return "\\" + c, i + 1
        code = int(s[i + 1:j], 16)
        try:
            return (chr(code) if code < 0x110000 and not 0xD800 <= code < 0xE000 else "\ufffd"), j
        except ValueError:  # pragma: no cover
            return "\ufffd", j
    if c == "c" and ansi_c and i + 1 < n and s[i + 1] != "'":
        return chr(ord(s[i + 1]) & 0x1F), i + 2
    return "\\" + c, i + 1


def join_bytes(pieces: list[str]) -> str:
    """The decoded pieces as one string, raw bytes that spell UTF-8 together made the
    character they spell (``$'\\xc3\\xa9'`` is ``é``, one character, as in bash)."""
    return "".join(pieces).encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")


def _byte_char(value: int) -> str:
    """A raw byte as text: ASCII as is, other bytes as surrogate escapes (lossless)."""
    return chr(value) if value < 0x80 else bytes([value]).decode("utf-8", "surrogateescape")


def _subscript_end(s: str, i: int) -> int:
    """The index of the ``]`` closing the subscript whose ``[`` is at ``s[i]``, or -1."""
    depth = 0
    j = i
    n = len(s)
    while j < n:
        c = s[j]
        if c == "\\":
            j += 2
            continue
        if c == "'":
            k = s.find(c, j + 1)
            if k < 0:
                return -1
            j = k + 1
            continue
        if c == '"':  # `m["q\"z"]`: a backslash-escaped quote does not end it
            j += 1
            while j < n and s[j] != '"':
                j += 2 if s[j] == "\\" else 1
            if j >= n:
                return -1
            j += 1
            continue
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0:
                return j
        elif c == "\n":
            return -1
        j += 1
    return -1


def _brace_end(s: str, i: int) -> int:
    """The index of the ``}`` closing a ``${`` whose body starts at ``s[i]`` (nested braces,
    quotes and backslashes skipped), or -1."""
    depth = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            j = s.find("'", i + 1)
            if j < 0:
                return -1
            i = j + 1
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            if depth == 0:
                return i
            depth -= 1
        i += 1
    return -1


def _heredoc_delim(word: Word) -> str:
    out = []
    for p in word.parts:
        if isinstance(p, (Lit, Quoted)):
            out.append(p.text)
        elif isinstance(p, DQ):
            for q in p.parts:
                out.append(q.text if isinstance(q, (Lit, Quoted)) else "$")
        elif isinstance(p, Param):
            out.append("$" + p.name)
        elif isinstance(p, Tilde):
            out.append("~")
    if not word.is_quoted() and word.text:
        return word.text  # `<<${a}`: the delimiter is the text as written
    return "".join(out)


def _parse_heredoc_body(body: str, offset: int) -> Word:
    """An unquoted here-document body: ``$`` and backticks expand, ``\\`` escapes $ ` \\ only."""
    p = Parser(body, offset)
    parts: list[Part] = []
    buf: list[str] = []
    while p.i < p.n:
        p._dq_piece(buf, parts, escapable="$`\\\n")
    _flush_quoted(buf, parts)
    return Word(parts, offset, body)


def parse_heredoc_text(text: str) -> Word:
    """``text`` read as an unquoted here-document body (``$`` and backticks expand, ``\\``
    escapes ``$ ` \\`` only, quotes stay): a prompt string's second pass (``${v@P}``)."""
    try:
        return _parse_heredoc_body(text, 0)
    except RecursionError:
        raise UnsupportedSyntax("prompt string is nested too deeply") from None


#: bash -c runs the complete lines before the one that does not parse (``echo 1\nfi`` prints
#: 1, then the error), and so do we: ``parse_script(..., lines_before_error=True)`` gives those
#: lines (guarded like any script) and a ``SyntaxFailure`` after them. Off: a script that does
#: not parse runs nothing.
RUN_LINES_BEFORE_SYNTAX_ERROR = True


def parse_script(src: str, offset: int = 0, lines_before_error: bool = False,
                 discarded: int = 0) -> Script:
    """Parse a whole script into a ``Script``; raise ``UnsupportedSyntax`` on anything else.

    ``lines_before_error``: a ``[[ ]]`` that does not parse on the first line gives a
    ``SyntaxFailure`` (bash leaves with ``$?``, not 2), and with
    ``RUN_LINES_BEFORE_SYNTAX_ERROR`` any syntax error after complete lines gives those lines
    and the ``SyntaxFailure``; a syntax error inside ``name=( )`` drops that command and the
    script reads on (``_discarded_lines``; ``discarded`` of them so far, at most
    ``MAX_DISCARDED``)."""
    p = Parser(src, offset)
    try:
        script = p.parse_list()
        if p.i < p.n:
            raise p.syntax_error()
        if p.extglob_groups:
            script.extglob = tuple(p.extglob_groups)
        if p.heredoc_warnings:
            script.warnings = tuple(p.heredoc_warnings)
    except RecursionError:
        raise UnsupportedSyntax("script is nested too deeply") from None
    except UnsupportedSyntax as exc:
        if offset or not _is_syntax_error(str(exc)):
            raise
        pos = getattr(exc, "pos", None)
        line = _error_line(src, p.i, str(exc)) if pos is None else src.count("\n", 0, pos) + 1
        rule = getattr(exc, "status_rule", None) or _status_rule(src, p, str(exc))
        lines = p.complete is not None and p.complete[1] > 0
        echo = exc.echo_line or (f"`{src.split(chr(10))[line - 1]}'"
                                 if "near unexpected token" in str(exc) else None)
        if lines_before_error and getattr(exc, "discard_line", False) and discarded < MAX_DISCARDED:
            return _discarded_lines(src, p, f"line {line}: {exc}", echo, discarded)
        if lines_before_error and (RUN_LINES_BEFORE_SYNTAX_ERROR and lines
                                   or rule in ("keep", "1") and not lines):
            return _lines_then_failure(p, f"line {line}: {exc}", rule, echo)
        err = UnsupportedSyntax(f"line {line}: {exc}")
        err.bash_syntax, err.echo_line = True, echo
        raise err from None
    return script


def syntax_error_text(message: str, echo_line: str | None) -> str:
    """What ``bash -c`` prints for its syntax error ``line N: ...``: ``bash: -c: line N:
    ...`` and, where bash adds one, a second line ``bash: -c: line N: ECHO`` (after an
    unexpected token ECHO is `` `LINE' ``, the line that holds it)."""
    text = f"bash: -c: {message}\n"
    if echo_line is not None:
        text += f"bash: -c: {message.split(':', 1)[0]}: {echo_line}\n"
    return text


def _lines_then_failure(p: Parser, message: str, rule: str, echo: str | None = None) -> Script:
    """The complete lines ``p`` read before its syntax error, then the ``SyntaxFailure``."""
    items, count, end = p.complete if p.complete is not None else ([], 0, 0)
    failure = SyntaxFailure(message, rule, end, echo_line=echo)
    script = Script(items[:count] + [AndOr(Pipeline([failure], pos=end), pos=end)], 0)
    groups = tuple(g for g in p.extglob_groups if g < end)
    if groups:
        script.extglob = groups
    return script


#: How many commands with a bad ``name=( )`` one script may drop and read on past (each costs
#: a parse of the rest); the next such error ends the script as any other syntax error.
MAX_DISCARDED = 64


def _discarded_lines(src: str, p: Parser, message: str, echo: str | None, discarded: int) -> Script:
    """A syntax error inside ``name=( ... )``: bash reports it, drops the top-level command
    it is in (all of its lines up to the error's) with status 1, and reads on from the next
    line. The dropped text is blanked (lines and offsets stay) and the script parsed again,
    the ``SyntaxFailure`` (rule ``discard``) where the dropped command was."""
    start = p.complete[2] if p.complete is not None else 0
    end = src.find("\n", p.i)
    end = len(src) if end < 0 else end
    blank = "".join(c if c == "\n" else " " for c in src[start:end])
    script = parse_script(src[:start] + blank + src[end:], 0, lines_before_error=True,
                          discarded=discarded + 1)
    failure = SyntaxFailure(message, "discard", start, echo_line=echo)
    k = sum(1 for item in script.items if item.pos < start)
    script.items.insert(k, AndOr(Pipeline([failure], pos=start), pos=start))
    return script


def _status_rule(src: str, p: Parser, message: str) -> str:
    """Which status bash -c leaves with after this syntax error (``SyntaxFailure``)."""
    if message.startswith("unexpected EOF while looking for matching") and message[-2:-1] in "\"'`":
        return "quote"
    if message.startswith(_COND_ERRORS):
        return "keep"
    return "2"


def _backtick_error(text: str, at: int, exc: UnsupportedSyntax) -> tuple[str, ...]:
    """bash's message for a backquoted body that does not parse (it says so when the
    substitution runs): the error's line and, for an unexpected token, that line's text."""
    message = str(exc)
    pos = getattr(exc, "pos", None)
    line = _error_line(text, at, message) if pos is None else text.count("\n", 0, pos) + 1
    lines = [f"command substitution: line {line}: {message}"]
    if "near unexpected token" in message:
        source = text.split("\n")
        if line <= len(source):
            lines.append(f"command substitution: line {line}: `{source[line - 1]}'")
    return tuple(lines)


#: bash's messages for a ``[[ ]]`` that does not parse (its status is then ``$?``).
_COND_ERRORS = ("syntax error in conditional expression", "conditional binary operator expected",
                "unexpected argument")


def _is_syntax_error(message: str) -> bool:
    return message.startswith(("syntax error", "unexpected EOF") + _COND_ERRORS)


def _error_line(src: str, pos: int, message: str) -> int:
    """The line bash names in a syntax error: the token's line, or for an error at the end
    of the script (bash reads an implicit newline there) the line after the last one."""
    if message.endswith("unexpected end of file") or message.endswith("matching `)'"):
        return src.count("\n") + (1 if src.endswith("\n") else 2)
    return src.count("\n", 0, min(pos, len(src))) + 1
