"""The two conditional compound commands: ``case`` and ``[[ ]]``.

``case`` expands its word once, then each arm's patterns in order (quoted parts match
themselves) until one matches; ``;;`` ends the command, ``;&`` runs the next arm's body too,
``;;&`` goes on testing the next arms. ``[[ ]]`` evaluates its expression tree without word
splitting or globbing: ``==``/``!=`` match shell patterns, ``=~`` a POSIX ERE (through
``sandbox.regex``; quoted parts match literally, as in bash) and sets ``BASH_REMATCH``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox.errors import LimitExceeded
from sandbox.interpreter import patterns, testcmd, xtrace
from sandbox.interpreter.arith import ArithError, ArithUnbound, evaluate
from sandbox.interpreter.expand import ExpansionError
from sandbox.parse.ast import (
    Case, CondAndOr, CondBinary, CondExpr, CondNot, CondUnary, CondWord, DBracket,
)

if TYPE_CHECKING:
    from sandbox.interpreter.core import IO, Shell

#: Characters a quoted part of an ``=~`` operand must escape to match literally.
_ERE_SPECIAL = frozenset("\\.[]()*+?{}|^$")


def run_case(sh: "Shell", node: Case, io_: "IO") -> int:
    """``case word in ... esac``: the status of the last body run, 0 if none ran."""
    sh._current_stdin, sh._current_stderr = io_.stdin, io_.stderr
    try:
        subject = sh.expander.word(node.word)
    except ExpansionError as exc:
        return sh._expansion_failed(exc, io_)
    if sh.xtrace:
        xtrace.line(sh, io_, f"case {node.word.text} in")
    status = 0
    arms = node.arms
    k = 0
    while k < len(arms):
        arm = arms[k]
        try:
            hit = any(_matches(sh, sh.expander.pattern(p), subject) for p in arm.patterns)
        except ExpansionError as exc:
            return sh._expansion_failed(exc, io_)
        if hit:
            while True:
                status = sh.run_script(arm.body, io_) if arm.body.items else 0
                if arm.term == ";&" and k + 1 < len(arms):
                    k += 1
                    arm = arms[k]
                    continue
                break
            if arm.term != ";;&":
                break
        k += 1
    sh.status = status
    return status


def _matches(sh: "Shell", chunks: tuple, text: str) -> bool:
    sh.budget.check_time()
    if "nocasematch" in sh.shopts:
        chunks = tuple((t.lower(), q) for t, q in chunks)
        text = text.lower()
    return patterns.match(chunks, text)


class _CondError(Exception):
    """An arithmetic error inside ``[[ ]]``: its message is printed, the comparison false."""


def run_dbracket(sh: "Shell", node: DBracket, io_: "IO") -> int:
    """``[[ expr ]]``: 0 true, 1 false, 2 for a bad regular expression."""
    sh._current_stdin, sh._current_stderr = io_.stdin, io_.stderr
    try:
        status = _status(sh, node.expr, io_)
    except ExpansionError as exc:
        return sh._expansion_failed(exc, io_)
    sh.status = status
    return status


def _status(sh: "Shell", e: CondExpr, io_: "IO", negated: bool = False) -> int:
    """bash's ``execute_cond_node``: 0, 1, or 2 (a bad regex); ``&&``/``||`` take 2 as
    false, ``!`` turns it into 0 (``negated``: a ``!`` right above this test, for ``set -x``)."""
    if isinstance(e, CondNot):
        leaf = isinstance(e.expr, (CondUnary, CondBinary, CondWord))
        return 0 if _status(sh, e.expr, io_, leaf) != 0 else 1
    if isinstance(e, CondAndOr):
        left = _status(sh, e.left, io_)
        if (left == 0) == (e.op == "&&"):
            return _status(sh, e.right, io_)
        return left
    if isinstance(e, CondBinary) and e.op == "=~":
        text = sh.expander.word(e.left)
        pattern = _ere(sh.expander.pattern(e.right, join=" ", extglob=True))
        if sh.xtrace:
            _trace(sh, io_, negated, text, "=~", pattern)
        return _regex_match(sh, text, pattern)
    return 0 if _eval(sh, e, io_, negated) else 1


def _trace(sh: "Shell", io_: "IO", negated: bool, *parts: str) -> None:
    """``set -x``'s line for one test: ``[[ ! a == b ]]``, operands as evaluated."""
    xtrace.line(sh, io_, "[[ " + ("! " if negated else "") + " ".join(parts) + " ]]")


def _eval(sh: "Shell", e: CondExpr, io_: "IO", negated: bool = False) -> bool:
    if isinstance(e, CondWord):
        word = sh.expander.word(e.word)
        if sh.xtrace:
            _trace(sh, io_, negated, "-n", word)
        return word != ""
    if isinstance(e, CondUnary):
        operand = sh.expander.word(e.operand)
        if sh.xtrace:
            _trace(sh, io_, negated, e.op, operand)
        return testcmd.unary_test(sh, e.op, operand)
    assert isinstance(e, CondBinary)
    op = e.op
    left = sh.expander.word(e.left)
    if op in ("==", "=", "!="):
        chunks = sh.expander.pattern(e.right, join=" ", extglob=True)
        if sh.xtrace:  # the pattern as bash keeps it: quoted characters backslashed
            _trace(sh, io_, negated, left, op,
                   "".join(t if not q else "".join("\\" + c for c in t) for t, q in chunks))
        hit = _matches(sh, chunks, left)
        return hit if op != "!=" else not hit
    right = sh.expander.word(e.right)
    if sh.xtrace:
        _trace(sh, io_, negated, left, op, right)
    if op == "<":
        return left < right
    if op == ">":
        return left > right
    if op in ("-nt", "-ot", "-ef"):
        return testcmd.file_compare(sh, left, op, right)
    try:  # an arithmetic error prints bash's message and makes this comparison false
        a = _arith(sh, left)
        return testcmd.int_compare(a, op, _arith(sh, right))
    except _CondError as exc:
        sh.diag(io_, str(exc))
        return False


def _arith(sh: "Shell", text: str) -> int:
    try:
        return evaluate(text, sh, sh.nounset, sh.budget.check_time)
    except ArithUnbound as exc:
        raise ExpansionError(str(exc), status=exc.status) from None
    except ArithError as exc:
        raise _CondError(f"[[: {exc}") from None


def _ere(chunks: tuple) -> str:
    """The right side of ``=~`` as an ERE: quoted specials backslashed."""
    return "".join(t if not q else "".join("\\" + c if c in _ERE_SPECIAL else c for c in t)
                   for t, q in chunks)


def _regex_match(sh: "Shell", text: str, pattern: str) -> int:
    """``=~``: 0 and ``BASH_REMATCH`` set on a match, 1 (and it emptied) on none, 2 (and it
    untouched) for a pattern that doesn't compile."""
    from sandbox.regex import compile_regex
    from sandbox.regex.parser import RegexError
    try:
        rx = compile_regex(pattern.encode("utf-8", "surrogateescape"), extended=True,
                           dot_newline=True, glibc_syntax=True, budget=sh.budget,
                           icase="nocasematch" in sh.shopts)
    except RegexError:
        return 2
    data = text.encode("utf-8", "surrogateescape")
    try:
        m = rx.search(data)
    except LimitExceeded:
        raise
    if m is None:
        sh.set_rematch([])
        return 1
    groups = []
    for g in range(rx.groups + 1):
        got = m.group(g)
        groups.append("" if got is None else got.decode("utf-8", "surrogateescape"))
    sh.set_rematch(groups)
    return 0
