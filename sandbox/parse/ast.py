"""Our own small typed AST of a shell script (what the parser returns, what guard and
interpreter walk). Positions are character offsets into the script."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union


# -- words ------------------------------------------------------------------------------------


@dataclass
class Lit:
    """Unquoted literal text (subject to brace expansion, globbing; never to field splitting)."""

    text: str


@dataclass
class Quoted:
    """Literal text that was quoted ('...', $'...', backslash escapes, literal parts of "...")."""

    text: str


@dataclass
class DQ:
    """A double-quoted string: its parts are expanded but never split or globbed."""

    parts: list["Part"]


@dataclass
class Param:
    """A parameter expansion: ``$name``, ``${name}``, ``${name<op>arg}``, ``${#name}``.

    ``op`` is one of "" (plain), "#len", ":-", "-", ":=", "=", ":+", "+", ":?", "?", "#", "##",
    "%", "%%", "/", "//", "/#", "/%", ":" (substring: ``arg`` the offset, ``repl`` the length
    or None), "^" "^^" "," ",," (case: ``arg`` the pattern), "@" (transform: ``arg`` the
    letter), "!" (indirection ``${!v}``), "!keys" (``${!a[@]}``), "!prefix" (``${!p*}``,
    ``name`` ends with the ``*`` or ``@``). ``arg`` is the operand word (the pattern for the
    removal / substitution forms); ``repl`` is the replacement for the substitution forms.
    ``index`` is the subscript of ``${a[i]}`` (``name`` is then the array's name; the
    subscripts ``@`` and ``*`` are spelled in ``name`` instead: ``a[@]``).
    """

    name: str
    op: str = ""
    arg: "Word | None" = None
    repl: "Word | None" = None
    pos: int = 0
    index: "Word | None" = None
    #: ``${!v...}``: the name is the value of ``v`` (indirection before ``op`` applies).
    indirect: bool = False
    #: ``$1`` / ``$!`` written without braces (bash's ``set -u`` message then says ``$1``).
    bare: bool = False
    #: Set on the copy the expander makes (never on the parsed tree): the name as written
    #: (``m[$k]``, ``!ref``), which bash's ``set -u``
    #: message shows rather than the subscript's value.
    written: "str | None" = None


@dataclass
class CmdSub:
    """A command substitution ``$(...)`` or backticks: its body is a whole script.

    ``error``: a backquoted body bash could not parse (bash parses it only when it runs):
    the lines of bash's message; the substitution then prints them, gives nothing and sets
    status 2, and the command around it still runs."""

    body: "Script"
    pos: int = 0
    error: "tuple[str, ...] | None" = None


@dataclass
class ArithSub:
    """An arithmetic expansion ``$(( expr ))``: ``expr`` is expanded like a double-quoted
    string (parameters, command substitutions, quote removal), then evaluated."""

    expr: "Word"
    pos: int = 0


@dataclass
class Tilde:
    """A leading ``~`` (``~`` alone or ``~/...``): expands to $HOME."""


@dataclass
class DeclAssign:
    """An assignment given as an argument of ``declare``/``typeset``/``local``/``export``/
    ``readonly`` (``local a=(1 2)``): assigned, never split or globbed."""

    assign: "Assign"


@dataclass
class ProcSub:
    """Process substitution ``<(body)``: the body's output, readable as ``/dev/fd/N``;
    ``>(body)`` (``out``): what is written to ``/dev/fd/N`` becomes the body's input."""

    body: "Script"
    pos: int = 0
    out: bool = False


Part = Union[Lit, Quoted, DQ, Param, CmdSub, ArithSub, Tilde, DeclAssign, ProcSub]


@dataclass
class Word:
    """One shell word: a sequence of parts; ``pos`` its start; ``text`` its source text."""

    parts: list[Part]
    pos: int = 0
    text: str = ""

    def literal(self) -> str | None:
        """The word's value if it contains no expansion at all (quotes removed), else None."""
        out = []
        for p in self.parts:
            if isinstance(p, (Lit, Quoted)):
                out.append(p.text)
            elif isinstance(p, DQ) and all(isinstance(q, (Lit, Quoted)) for q in p.parts):
                out.extend(q.text for q in p.parts)  # type: ignore[union-attr]
            else:
                return None
        return "".join(out)

    def is_quoted(self) -> bool:
        """True if any part of the word was quoted (used for here-doc delimiters)."""
        return any(isinstance(p, (Quoted, DQ)) for p in self.parts)


# -- commands ---------------------------------------------------------------------------------


@dataclass
class Redirect:
    """A redirection. ``op`` is one of < > >> >| <> <& >& &> &>> << <<- <<<.

    ``fd`` is the explicit file descriptor or None for the default; ``target`` is the word
    (file name, fd number for <& >&, here-string); ``heredoc`` is the here-document body (a
    Word whose parts are expanded unless the delimiter was quoted).
    """

    op: str
    fd: int | None
    target: Word | None
    pos: int = 0
    heredoc: Word | None = None
    heredoc_quoted: bool = False
    #: ``{name}>file``: the variable that receives the new descriptor's number (>= 10).
    varname: str | None = None


@dataclass
class Assign:
    """``name=value`` (or ``name+=value`` when ``append``) before a command or alone."""

    name: str
    value: Word
    append: bool = False
    pos: int = 0
    #: ``name[index]=value``: the subscript.
    index: Word | None = None
    #: ``name=(...)``: the elements, each (``[key]`` subscript or None, value word).
    array: "list[tuple[Word | None, Word]] | None" = None


@dataclass
class SimpleCommand:
    """Assignments, words (argv before expansion) and redirections."""

    assigns: list[Assign]
    words: list[Word]
    redirects: list[Redirect]
    pos: int = 0


@dataclass
class BraceGroup:
    """``{ list; }``."""

    body: "Script"
    redirects: list[Redirect] = field(default_factory=list)
    pos: int = 0


@dataclass
class Subshell:
    """``( list )``: variable changes and cd inside do not leak."""

    body: "Script"
    redirects: list[Redirect] = field(default_factory=list)
    pos: int = 0


@dataclass
class If:
    """``if c; then b; elif c2; then b2; else e; fi``: clauses are (condition, body)."""

    clauses: list[tuple["Script", "Script"]]
    else_body: "Script | None"
    redirects: list[Redirect] = field(default_factory=list)
    pos: int = 0


@dataclass
class For:
    """``for var in words; do body; done`` (words None: iterate over "$@")."""

    var: str
    words: list[Word] | None
    body: "Script"
    redirects: list[Redirect] = field(default_factory=list)
    pos: int = 0


@dataclass
class While:
    """``while``/``until`` loop."""

    cond: "Script"
    body: "Script"
    until: bool = False
    redirects: list[Redirect] = field(default_factory=list)
    pos: int = 0


@dataclass
class ArithCmd:
    """The arithmetic command ``(( expr ))``: status 0 if the value is non-zero, else 1."""

    expr: Word
    redirects: list[Redirect] = field(default_factory=list)
    pos: int = 0


@dataclass
class ArithFor:
    """``for (( init; cond; step )); do body; done`` (an empty ``cond`` is true)."""

    init: Word
    cond: Word
    step: Word
    body: "Script"
    redirects: list[Redirect] = field(default_factory=list)
    pos: int = 0


@dataclass
class CaseArm:
    """One arm of ``case``: ``(p1 | p2) body ;;`` — ``term`` is ``;;``, ``;&`` or ``;;&``."""

    patterns: list[Word]
    body: "Script"
    term: str = ";;"


@dataclass
class Case:
    """``case word in arms esac``."""

    word: Word
    arms: list[CaseArm]
    redirects: list[Redirect] = field(default_factory=list)
    pos: int = 0


@dataclass
class CondUnary:
    """``[[ -op operand ]]`` (file tests, ``-n``, ``-z``, ``-v``, ``-o``...)."""

    op: str
    operand: Word
    #: How many ``( )`` were written around it (``declare -f`` prints them).
    paren: int = 0


@dataclass
class CondBinary:
    """``[[ left op right ]]``: ``==``/``=``/``!=`` (right a pattern), ``=~`` (right an ERE),
    ``<``/``>``, ``-eq``... (arithmetic operands), ``-nt``/``-ot``/``-ef``."""

    op: str
    left: Word
    right: Word
    #: How many ``( )`` were written around it (``declare -f`` prints them).
    paren: int = 0


@dataclass
class CondWord:
    """``[[ word ]]``: true if the word is not empty."""

    word: Word
    #: How many ``( )`` were written around it (``declare -f`` prints them).
    paren: int = 0


@dataclass
class CondNot:
    """``[[ ! expr ]]``."""

    expr: "CondExpr"
    #: How many ``( )`` were written around it (``declare -f`` prints them).
    paren: int = 0


@dataclass
class CondAndOr:
    """``[[ a && b ]]`` / ``[[ a || b ]]``."""

    op: str
    left: "CondExpr"
    right: "CondExpr"
    #: How many ``( )`` were written around it (``declare -f`` prints them).
    paren: int = 0


CondExpr = Union[CondUnary, CondBinary, CondWord, CondNot, CondAndOr]


@dataclass
class DBracket:
    """The conditional command ``[[ expr ]]`` (no word splitting or globbing inside)."""

    expr: CondExpr
    redirects: list[Redirect] = field(default_factory=list)
    pos: int = 0


@dataclass
class FunctionDef:
    """``name() compound`` or ``function name compound``."""

    name: str
    body: "Command"
    pos: int = 0


@dataclass
class SyntaxFailure:
    """Where a script stops parsing (bash reports the error and exits). ``message`` is the
    whole text (``line N: ...``); ``status_rule`` is bash's exit status: "2", "quote" (``$?``
    when it is not 0, else 2: an unterminated quote), "keep" (``$?``: a ``[[ ]]`` that does
    not parse), "1" (an array assignment the end of the script cuts) or "discard" (an
    array assignment that does not parse: status 1, the script goes on with the next line). Complete lines before it may run first (``parser.RUN_LINES_BEFORE_SYNTAX_ERROR``).
    It has no words and runs nothing."""

    message: str
    status_rule: str = "2"
    pos: int = 0
    redirects: list[Redirect] = field(default_factory=list)
    #: bash's second line after ``line N: `` (`` `LINE' `` after an unexpected token), or None.
    echo_line: str | None = None


Command = Union[SimpleCommand, BraceGroup, Subshell, If, For, While, ArithCmd, ArithFor,
                Case, DBracket, FunctionDef, SyntaxFailure]


@dataclass
class Pipeline:
    """``[!] cmd | cmd ...`` (``|&`` sends stderr too: ``stderr_pipes[i]`` for stage i)."""

    commands: list[Command]
    negate: bool = False
    stderr_pipes: list[bool] = field(default_factory=list)
    pos: int = 0
    #: ``time [-p] pipeline``: "" (bash's format, or $TIMEFORMAT), "p" (POSIX), None.
    timed: str | None = None


@dataclass
class AndOr:
    """``p1 && p2 || p3``: ``rest`` holds (operator, pipeline) pairs."""

    first: Pipeline
    rest: list[tuple[str, Pipeline]] = field(default_factory=list)
    background: bool = False
    pos: int = 0


@dataclass
class Script:
    """A list of and-or lists run one after the other. ``extglob``: where the extglob
    groups of its words open (outside ``[[ ]]``): bash rejects such a line unless
    ``shopt -s extglob`` ran before it was read."""

    items: list[AndOr]
    pos: int = 0
    extglob: tuple[int, ...] = ()
    #: (offset, text) of bash's parse-time warnings (a here-document that the end of the
    #: script closes), printed when the line holding the offset is read (``toplevel.py``).
    warnings: tuple[tuple[int, str], ...] = ()


Node = Union[Script, AndOr, Pipeline, Command, Word, Part, Redirect, Assign]
