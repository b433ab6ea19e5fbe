"""Where the shell is: ``$LINENO``, ``$BASH_LINENO``, ``$BASH_SOURCE`` and ``caller``.

The parser records each command's offset in the script text; ``Shell.cur_pos`` is the offset
of the simple command running, ``Shell.source`` the text it belongs to (the script, a
``bash -c`` string, an ``eval`` string, a sourced file) and ``Shell.line_base`` the line that
text starts after (``eval`` on line 3 counts from 3). ``Shell.call_lines`` holds, for each
function running, the line it was called from (bash's ``BASH_LINENO``).
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sandbox.interpreter.core import IO, Shell

#: ``BASH_SOURCE`` of a function defined in a ``bash -c`` string (bash 5.2 says this).
_SOURCE_NAME = "environment"


def set_source(sh: "Shell", text: str | None, line_base: int = 0) -> tuple:
    """Make ``text`` the source of the positions from now on; returns what
    ``restore_source`` needs to put the previous one back."""
    old = (sh.source, sh.source_lines, sh.line_base, sh.cur_pos)
    sh.source = text or ""
    sh.source_lines = None
    sh.line_base = line_base
    sh.cur_pos = 0
    return old


def restore_source(sh: "Shell", old: tuple) -> None:
    """Undo ``set_source``."""
    sh.source, sh.source_lines, sh.line_base, sh.cur_pos = old


def lineno(sh: "Shell") -> int:
    """``$LINENO``: the line of the command running."""
    lines = sh.source_lines
    if lines is None:
        text = sh.source
        lines = [k for k, c in enumerate(text) if c == "\n"]
        sh.source_lines = lines
    return sh.line_base + bisect.bisect_left(lines, sh.cur_pos) + 1


def error_prefix(sh: "Shell") -> str:
    """What bash puts before a diagnostic of the running command: ``bash: line N: `` (the
    name is ``environment`` while a function runs, as bash 5.2 names functions of a ``-c``
    string)."""
    return f"{_SOURCE_NAME if sh.funcstack else 'bash'}: line {lineno(sh)}: "


def bash_lineno(sh: "Shell") -> list[str]:
    """``${BASH_LINENO[@]}``: for each function running (innermost first), the line it was
    called from."""
    return [str(n) for n in reversed(sh.call_lines)]


def bash_source(sh: "Shell") -> list[str]:
    """``${BASH_SOURCE[@]}``: one entry for each function running."""
    return [_SOURCE_NAME] * len(sh.funcstack)


def b_caller(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``caller [N]``: the line (and function, and source) of a call on the stack."""
    funcs = list(reversed(sh.funcstack))
    lines = bash_lineno(sh)
    sources = bash_source(sh)
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not funcs:
        return 1
    if not args:
        src = sources[1] if len(sources) > 1 else "NULL"
        io_.stdout.write(f"{lines[0]} {src}\n".encode("utf-8", "surrogateescape"))
        return 0
    text = args[0]
    if not text.isdigit():
        what = "invalid option" if text.startswith("-") and len(text) > 1 else "invalid number"
        io_.stderr.write(f"{error_prefix(sh)}caller: {text}: {what}\n".encode("utf-8", "surrogateescape"))
        io_.stderr.write(b"caller: usage: caller [expr]\n")
        return 2
    n = int(text)
    if n + 1 >= len(funcs):
        return 1
    io_.stdout.write(f"{lines[n]} {funcs[n + 1]} {sources[n + 1]}\n"
                     .encode("utf-8", "surrogateescape"))
    return 0
