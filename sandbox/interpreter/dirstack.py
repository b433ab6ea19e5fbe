"""``pushd``, ``popd`` and ``dirs``: bash 5.2's directory stack.

Element 0 is always the current directory; ``Shell.dirstack`` holds the others, top first (a
tuple, so a subshell's copy shares it until it changes its own). Entries print with the
``$HOME`` prefix as ``~`` (bash's ``polite_directory_format``) unless ``-l``; ``pushd -n DIR``
stores DIR as written. Messages and statuses are bash's: ``no other directory`` and
``directory stack empty`` (1), ``N: directory stack index out of range`` (1), ``invalid
number`` / ``invalid argument`` / ``invalid option`` with the usage line (2). ``$DIRSTACK`` is
not provided.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sandbox.interpreter.core import IO, Shell

_USAGE = {"pushd": "pushd [-n] [+N | -N | dir]", "popd": "popd [-n] [+N | -N]",
          "dirs": "dirs [-clpv] [+N] [-N]"}
_NUMBER = re.compile(r"[+-]\d+")


def _stack(sh: "Shell") -> list[str]:
    return [sh.cwd, *getattr(sh, "dirstack", ())]


def _set(sh: "Shell", entries: list[str]) -> None:
    sh.dirstack = tuple(entries)


def _polite(sh: "Shell", path: str) -> str:
    home = sh.get_var("HOME")
    if home and len(home) > 1 and path.startswith(home) and path[len(home):len(home) + 1] in ("", "/"):
        return "~" + path[len(home):]
    return path


def _say(sh: "Shell", io_: "IO", prog: str, message: str) -> None:
    sh.diag(io_, f"{prog}: {message}")


def _usage(sh: "Shell", io_: "IO", prog: str, message: str) -> int:
    _say(sh, io_, prog, message)
    io_.stderr.write(f"{prog}: usage: {_USAGE[prog]}\n".encode())
    return 2


def _index(text: str, size: int) -> int | None:
    """Position in a stack of ``size`` of ``+N`` (from the top) or ``-N`` (from the bottom)."""
    n = int(text[1:])
    i = n if text[0] == "+" else size - 1 - n
    return i if 0 <= i < size else None


def _out_of_range(sh: "Shell", io_: "IO", prog: str, shown: str, stack: list[str]) -> int:
    """bash's pushd_error: an empty stack says so, else the index is out of range."""
    if len(stack) < 2:
        _say(sh, io_, prog, "directory stack empty")
    else:
        _say(sh, io_, prog, f"{shown}: directory stack index out of range")
    return 1


def _print(sh: "Shell", io_: "IO") -> None:
    line = " ".join(_polite(sh, d) for d in _stack(sh))
    io_.stdout.write((line + "\n").encode("utf-8", "surrogateescape"))


def b_dirs(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``dirs [-clpv] [+N] [-N]``."""
    clear = long = per_line = verbose = False
    pick: str | None = None
    for arg in argv[1:]:
        if arg == "-c":
            clear = True
        elif arg == "-l":
            long = True
        elif arg == "-p":
            per_line = True
        elif arg == "-v":
            verbose = per_line = True
        elif _NUMBER.fullmatch(arg):
            pick = arg
        elif arg.startswith(("-", "+")) and len(arg) > 1:
            return _usage(sh, io_, "dirs", f"{arg}: invalid number")
        else:
            return _usage(sh, io_, "dirs", f"{arg}: invalid option")
    if clear:
        _set(sh, [])
        return 0
    stack = _stack(sh)
    shown = [(i, d if long else _polite(sh, d)) for i, d in enumerate(stack)]
    if pick is not None:
        i = _index(pick, len(stack))
        if i is None:
            return _out_of_range(sh, io_, "dirs", pick[1:], stack)
        shown = [shown[i]]
    if verbose:
        text = "".join(f"{i:2d}  {d}\n" for i, d in shown)
    elif per_line:
        text = "".join(f"{d}\n" for _, d in shown)
    else:
        text = " ".join(d for _, d in shown) + "\n"
    io_.stdout.write(text.encode("utf-8", "surrogateescape"))
    return 0


def _options(sh: "Shell", io_: "IO", prog: str, argv: list[str]) -> tuple[bool, list[str]] | int:
    """(-n given, the other arguments) of pushd/popd, or the exit status of a usage error."""
    no_cd = False
    rest: list[str] = []
    args = argv[1:]
    while args:
        arg = args.pop(0)
        if arg == "--":
            rest += args
            break
        if arg == "-n":
            no_cd = True
        elif _NUMBER.fullmatch(arg) or not arg.startswith(("-", "+")) or arg in ("-", "+"):
            rest.append(arg)
        else:
            return _usage(sh, io_, prog, f"{arg}: invalid number")
    return no_cd, rest


def b_pushd(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``pushd [-n] [+N | -N | dir]``, step for step as bash's pushd.def: the stack changes
    before the ``cd``, so a ``cd`` that fails leaves it changed (as in bash)."""
    from sandbox.interpreter.builtins import change_dir
    parsed = _options(sh, io_, "pushd", argv)
    if isinstance(parsed, int):
        return parsed
    no_cd, rest = parsed
    if len(rest) > 1:
        _say(sh, io_, "pushd", "too many arguments")
        return 1
    stack = _stack(sh)

    def go(target: str) -> int:  # bash's change_to_temp: cd, then dirs on success
        if change_dir(sh, io_, target, "pushd"):
            return 1
        _print(sh, io_)
        return 0

    if not rest:
        if no_cd:
            return 0
        if len(stack) < 2:
            _say(sh, io_, "pushd", "no other directory")
            return 1
        target = stack[1]  # the top two swap
        _set(sh, [sh.cwd, *stack[2:]])
        return go(target)
    arg = rest[0]
    if _NUMBER.fullmatch(arg):
        i = _index(arg, len(stack))
        if i is None:
            return _out_of_range(sh, io_, "pushd", arg, stack)
        if i == 0:
            return 0 if no_cd else go(sh.cwd)
        rotated = stack[i:] + stack[:i]
        _set(sh, rotated[1:])
        return 0 if no_cd else go(rotated[0])
    if no_cd:
        _set(sh, [arg, *stack[1:]])
    else:
        old = sh.cwd
        if change_dir(sh, io_, arg, "pushd"):
            return 1
        _set(sh, [old, *stack[1:]])
    _print(sh, io_)
    return 0


def b_popd(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``popd [-n] [+N | -N]``."""
    from sandbox.interpreter.builtins import change_dir
    parsed = _options(sh, io_, "popd", argv)
    if isinstance(parsed, int):
        return parsed
    no_cd, rest = parsed
    for arg in rest:
        if not _NUMBER.fullmatch(arg):
            return _usage(sh, io_, "popd", f"{arg}: invalid argument")
    stack = _stack(sh)
    if len(stack) < 2:
        _say(sh, io_, "popd", "directory stack empty")
        return 1
    i = 0
    if rest:
        found = _index(rest[-1], len(stack))
        if found is None:
            return _out_of_range(sh, io_, "popd", rest[-1], stack)
        i = found
    if i == 0 and no_cd:
        i = 1
    if i == 0:
        if change_dir(sh, io_, stack[1], "popd"):
            return 1
        _set(sh, stack[2:])
    else:
        _set(sh, stack[1:i] + stack[i + 1:])
    _print(sh, io_)
    return 0
