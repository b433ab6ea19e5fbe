"""The top level of a script, line by line, and bash's "assignment error" rule.

bash reads a script one complete command (one line, with everything ``;``-separated on it)
at a time. An assignment error -- a read-only variable, a bad array subscript, a circular
nameref -- in an assignment statement abandons the rest of that line (bash's
``jump_to_top_level (DISCARD)``): the next line still runs, and ``$?`` is 1. Inside a
subshell or a command substitution it ends that subshell with status 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox.interpreter import callstack
from sandbox.interpreter.expand import ExpansionError
from sandbox.parse import syntax_error_text

if TYPE_CHECKING:
    from sandbox.interpreter.core import IO, Shell
    from sandbox.parse.ast import AndOr, Script


class AssignFailed(ExpansionError):
    """An assignment bash refuses (``x=1`` with ``x`` read-only, ``a[-9]=1``...)."""


class AbortLine(Exception):
    """Raised after an assignment error's message: the rest of the line does not run."""

    def __init__(self, status: int = 1):
        super().__init__(status)
        self.status = status


def units(tree: "Script", source: str | None) -> list[list["AndOr"]]:
    """The script's and-or lists grouped by line (a list continued by ``;`` or ``&`` on
    the same line stays with its line)."""
    items = list(tree.items)
    if not items:
        return []
    if not source:
        return [[it] for it in items]
    out: list[list[AndOr]] = [[items[0]]]
    for it in items[1:]:
        k = min(it.pos, len(source)) - 1
        while k >= 0 and source[k] in " \t":
            k -= 1
        newline = k >= 0 and source[k] == "\n" and not (k > 0 and source[k - 1] == "\\")
        if newline:
            out.append([it])
        else:
            out[-1].append(it)
    return out


def run(sh: "Shell", tree: "Script", io_: "IO", source: str | None) -> int:
    """Run a whole script (the top level, or ``bash -c``'s string), line by line, then its
    EXIT trap (``traps.py``) if it set one."""
    from sandbox.interpreter import traps
    from sandbox.interpreter.core import ExitShell
    try:
        status = _run(sh, tree, io_, source)
    except ExitShell as e:
        if traps.EXIT not in sh.traps:
            raise
        status = e.status
    return traps.at_exit(sh, io_, status)


def _run(sh: "Shell", tree: "Script", io_: "IO", source: str | None) -> int:
    if source is not None:
        if "source" in sh.__dict__:
            callstack.set_source(sh, source)
        else:  # a new shell: the other position fields still hold their starting values
            sh.source = source
    items = tree.items
    if len(items) == 1 and not tree.extglob:  # one and-or list (the usual script)
        if tree.warnings:
            _warn(io_, tree.warnings, 0, None)
        try:
            sh.run_andor(items[0], io_)
        except AbortLine as exc:
            sh.status = exc.status
        return sh.status
    groups = units(tree, source)
    for k, unit in enumerate(groups):
        if tree.extglob and "extglob" not in sh.shopts:
            end = groups[k + 1][0].pos if k + 1 < len(groups) else None
            at = next((p for p in tree.extglob if p >= unit[0].pos and (end is None or p < end)),
                      None)
            if at is not None:
                return _extglob_off(sh, io_, source or "", at)
        if tree.warnings:
            _warn(io_, tree.warnings, unit[0].pos if k else 0,
                  groups[k + 1][0].pos if k + 1 < len(groups) else None)
        try:
            for item in unit:
                sh.run_andor(item, io_)
        except AbortLine as exc:
            sh.status = exc.status
    return sh.status


def _warn(io_: "IO", warnings: tuple, start: int, end: int | None) -> None:
    """Print bash's parse-time warnings of the lines about to run (``[start, end)``)."""
    for at, text in warnings:
        if at >= start and (end is None or at < end):
            io_.stderr.write(f"bash: {text}\n".encode("utf-8", "surrogateescape"))


def _extglob_off(sh: "Shell", io_: "IO", source: str, at: int) -> int:
    """bash reads each line just before it runs it: an extglob group in a line read while
    ``extglob`` is off is its syntax error there (the lines before it ran); status 2."""
    line = source.count("\n", 0, at) + 1
    # bash echoes the line (`LINE') unless errexit made its parser_error leave at once
    echo = None if sh.errexit else f"`{source.split(chr(10))[line - 1]}'"
    text = syntax_error_text(f"line {line}: syntax error near unexpected token `('", echo)
    io_.stderr.write(text.encode("utf-8", "surrogateescape"))
    sh.status = 2
    return 2
