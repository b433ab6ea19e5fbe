"""The ``shopt`` builtin: bash 5.2's shell options, by name (``-s`` ``-u`` ``-p`` ``-q``).

Every option bash 5.2 lists exists and can be set or queried; the ones that change what the
sandbox does are extglob (always parsed; matched by the pattern engine), nullglob, failglob,
dotglob and nocasematch. The others are accepted and reported but change nothing (there are
no interactive features, no aliases, no jobs in the sandbox).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox.interpreter import callstack

if TYPE_CHECKING:
    from sandbox.interpreter.core import IO, Shell

#: bash 5.2's ``shopt`` options (non-interactive ``bash -c``) and whether each starts on.
OPTIONS: dict[str, bool] = {name: False for name in (
    "autocd assoc_expand_once cdable_vars cdspell checkhash checkjobs checkwinsize cmdhist "
    "compat31 compat32 compat40 compat41 compat42 compat43 compat44 complete_fullquote "
    "direxpand dirspell dotglob execfail expand_aliases extdebug extglob extquote failglob "
    "force_fignore globasciiranges globskipdots globstar gnu_errfmt histappend histreedit "
    "histverify hostcomplete huponexit inherit_errexit interactive_comments lastpipe lithist "
    "localvar_inherit localvar_unset login_shell mailwarn no_empty_cmd_completion nocaseglob "
    "nocasematch noexpand_translation nullglob patsub_replacement progcomp progcomp_alias "
    "promptvars restricted_shell shift_verbose sourcepath varredir_close xpg_echo").split()}
DEFAULT_ON = frozenset(
    "checkwinsize cmdhist complete_fullquote extquote force_fignore globasciiranges "
    "globskipdots hostcomplete interactive_comments patsub_replacement progcomp promptvars "
    "sourcepath".split())


def b_shopt(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``shopt [-pqsu] [-o] [optname ...]``."""
    flags = ""
    i = 1
    while i < len(argv) and argv[i].startswith("-") and len(argv[i]) > 1:
        if argv[i] == "--":
            i += 1
            break
        for c in argv[i][1:]:
            if c not in "pqsuo":
                io_.stderr.write(f"{callstack.error_prefix(sh)}shopt: -{c}: invalid option\n".encode("utf-8", "surrogateescape"))
                io_.stderr.write(b"shopt: usage: shopt [-pqsu] [-o] [optname ...]\n")
                return 2
        flags += argv[i][1:]
        i += 1
    names = argv[i:]
    if "s" in flags and "u" in flags:
        io_.stderr.write(f"{callstack.error_prefix(sh)}shopt: cannot set and unset shell options "
                         "simultaneously\n".encode())
        return 1
    if "o" in flags:
        return _set_o(sh, flags, names, io_)
    status = 0
    for name in names:
        if name not in OPTIONS:
            io_.stderr.write(f"{callstack.error_prefix(sh)}shopt: {name}: invalid shell option name\n"
                             .encode("utf-8", "surrogateescape"))
            status = 1
    if status:
        return status
    if "s" in flags or "u" in flags:
        on = "s" in flags
        if not names:  # list the options that are on (-s) / off (-u)
            _print(sh, io_, [n for n in OPTIONS if (n in sh.shopts) == on], "p" in flags)
            return 0
        for name in names:
            (sh.shopts.add if on else sh.shopts.discard)(name)
        return 0
    shown = names or list(OPTIONS)
    if "q" in flags:
        return 0 if all(n in sh.shopts for n in shown) else 1
    _print(sh, io_, shown, "p" in flags)
    return 0 if all(n in sh.shopts for n in names) else (1 if names else 0)


def _print(sh: "Shell", io_: "IO", names: list[str], reusable: bool) -> None:
    out = []
    for n in names:
        on = n in sh.shopts
        if reusable:
            out.append(f"shopt {'-s' if on else '-u'} {n}\n")
        else:
            out.append(f"{n:<15}\t{'on' if on else 'off'}\n")
    io_.stdout.write("".join(out).encode("utf-8", "surrogateescape"))


def _set_o(sh: "Shell", flags: str, names: list[str], io_: "IO") -> int:
    """``shopt -o``: the ``set -o`` options (only those the sandbox has)."""
    table = {"errexit": "errexit", "nounset": "nounset", "pipefail": "pipefail"}
    status = 0
    for name in names:
        if name not in table:
            io_.stderr.write(f"{callstack.error_prefix(sh)}shopt: {name}: invalid option name\n".encode("utf-8", "surrogateescape"))
            status = 1
        elif "s" in flags or "u" in flags:
            setattr(sh, table[name], "s" in flags)
        elif "q" in flags:
            status = status or (0 if getattr(sh, table[name]) else 1)
        else:
            on = getattr(sh, table[name])
            io_.stdout.write((f"set {'-o' if on else '+o'} {name}\n" if "p" in flags
                              else f"{name:<15}\t{'on' if on else 'off'}\n").encode("utf-8", "surrogateescape"))
            status = status or (0 if on else 1)
    return status
