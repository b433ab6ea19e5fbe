"""The ``trap`` builtin and the traps bash runs: EXIT, ERR and RETURN, as bash 5.2 does.

``Shell.traps`` maps a signal number (0 is EXIT; 65 DEBUG, 66 ERR, 67 RETURN, bash's own
numbers) to its action; ``""`` is an ignored signal. Signals are stored and shown (``trap
-p``) but never delivered: there are no processes in the sandbox. The DEBUG trap is refused.

* EXIT runs once when a shell ends (the script, a subshell, a command substitution, a
  ``bash -c``): at its end, ``exit N``, ``set -e``, a fatal expansion error (never after a
  sandbox limit); ``$?`` is the exit status, which ``exit`` inside the action replaces.
* ERR runs where ``set -e`` would exit (``Shell._check_errexit``); not inherited by functions,
  subshells and command substitutions unless ``set -E``.
* RETURN runs when a function or ``source`` ends, inside it; not inherited by functions unless
  ``set -T``.

A subshell keeps its parent's actions for display only (``$(trap -p)`` shows them, as in
bash) until it changes a trap. The guard (``guard_check``) parses a literal action before the
script runs and checks it like the rest of the script; an action built at run time is refused
unless ``Policy(dynamic=True)``, which guards it when the trap is set.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sandbox.interpreter.core import IO, Shell

EXIT, DEBUG, ERR, RETURN = 0, 65, 66, 67
NSIG = 65  # signal numbers 0..64 (Linux)

_RT = ([f"SIGRTMIN+{k}" for k in range(1, 16)] + [f"SIGRTMAX-{k}" for k in range(14, 0, -1)])
#: bash's signal_names on Linux (32 and 33 have none: shown as numbers, left out of -l).
NAMES: dict[int, str] = {
    0: "EXIT", 1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT",
    7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2",
    13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM", 16: "SIGSTKFLT", 17: "SIGCHLD", 18: "SIGCONT",
    19: "SIGSTOP", 20: "SIGTSTP", 21: "SIGTTIN", 22: "SIGTTOU", 23: "SIGURG", 24: "SIGXCPU",
    25: "SIGXFSZ", 26: "SIGVTALRM", 27: "SIGPROF", 28: "SIGWINCH", 29: "SIGIO", 30: "SIGPWR",
    31: "SIGSYS", 34: "SIGRTMIN", **{35 + k: n for k, n in enumerate(_RT)}, 64: "SIGRTMAX",
    DEBUG: "DEBUG", ERR: "ERR", RETURN: "RETURN",
}
_RTMIN, _RTMAX = 34, 64
_NUMBER_RE = re.compile(r"[ \t\n\v\f\r]*[+-]?[0-9]+[ \t\n\v\f\r]*")
USAGE = b"trap: usage: trap [-lp] [[arg] signal_spec ...]\n"
_HELP = """trap: trap [-lp] [[arg] signal_spec ...]
    Trap signals and other events.
    
    Defines and activates handlers to be run when the shell receives signals
    or other conditions.
    
    ARG is a command to be read and executed when the shell receives the
    signal(s) SIGNAL_SPEC.  If ARG is absent (and a single SIGNAL_SPEC
    is supplied) or `-', each specified signal is reset to its original
    value.  If ARG is the null string each SIGNAL_SPEC is ignored by the
    shell and by the commands it invokes.
    
    If a SIGNAL_SPEC is EXIT (0) ARG is executed on exit from the shell.  If
    a SIGNAL_SPEC is DEBUG, ARG is executed before every simple command.  If
    a SIGNAL_SPEC is RETURN, ARG is executed each time a shell function or a
    script run by the . or source builtins finishes executing.  A SIGNAL_SPEC
    of ERR means to execute ARG each time a command's failure would cause the
    shell to exit when the -e option is enabled.
    
    If no arguments are supplied, trap prints the list of commands associated
    with each signal.
    
    Options:
      -l\tprint a list of signal names and their corresponding numbers
      -p\tdisplay the trap commands associated with each SIGNAL_SPEC
    
    Each SIGNAL_SPEC is either a signal name in <signal.h> or a signal number.
    Signal names are case insensitive and the SIG prefix is optional.  A
    signal may be sent to the shell with "kill -signal $$".
    
    Exit Status:
    Returns success unless a SIGSPEC is invalid or an invalid option is given.
"""
DEBUG_REFUSED = ("the DEBUG trap is not supported in the sandbox; use `set -x` to trace "
                 "commands, or echo what you need where you need it")


def _signal_list() -> str:
    """``trap -l``: bash's display_signal_list (five a line, tab-separated)."""
    out, column = [], 0
    for i in range(1, NSIG):
        if i not in NAMES:
            continue
        out.append(f"{i:2d}) {NAMES[i]}")
        column += 1
        if column < 5:
            out.append("\t")
        else:
            out.append("\n")
            column = 0
    if column:
        out.append("\n")
    return "".join(out)


def decode(text: str) -> int | None:
    """bash's decode_signal (DSIG_NOCASE|DSIG_SIGPREFIX): a number below 65, or a name with
    or without SIG in any case; None when it names no signal."""
    if _NUMBER_RE.fullmatch(text):
        n = int(text)
        return n if 0 <= n < NSIG else None
    up = text.upper()
    for prefix in ("SIGRTMIN+", "RTMIN+"):
        if up.startswith(prefix):
            rest = text[len(prefix):]
            if _NUMBER_RE.fullmatch(rest) and 0 <= int(rest) <= _RTMAX - _RTMIN:
                return _RTMIN + int(rest)
            return None
    for sig, name in NAMES.items():
        if name.startswith("SIG") and up == name[3:]:
            return sig
        if up == name:
            return sig
    return None


def _quote(action: str) -> str:
    """bash's sh_single_quote."""
    return "'" + action.replace("'", "'\\''") + "'"


def _name(sig: int) -> str:
    return NAMES.get(sig, str(sig))


def _shown(sh: "Shell") -> dict[int, str]:
    """The traps ``trap -p`` shows: a subshell's inherited ones too, until it sets one."""
    if sh.trap_ghosts is None:
        return dict(sh.traps)
    return {**sh.trap_ghosts, **sh.traps}


def _show(sh: "Shell", sig: int, shown: dict[int, str], out: list[str]) -> None:
    action = shown.get(sig)
    if action is not None:
        out.append(f"trap -- {_quote(action) if action else chr(39) * 2} {_name(sig)}\n")


def _err(sh: "Shell", io_: "IO", message: str) -> None:
    sh.diag(io_, f"trap: {message}")


def b_trap(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``trap [-lp] [[ACTION] SIGSPEC ...]``."""
    args = argv[1:]
    list_names = display = False
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            i += 1
            break
        if a == "--help":
            io_.stdout.write(_HELP.encode())
            return 2
        if not a.startswith("-") or a == "-":
            break
        for ch in a[1:]:
            if ch == "l":
                list_names = True
            elif ch == "p":
                display = True
            else:
                _err(sh, io_, f"-{ch}: invalid option")
                io_.stderr.write(USAGE)
                return 2
        i += 1
    args = args[i:]
    if list_names:
        io_.stdout.write(_signal_list().encode())
        return 0
    if display or not args:
        return _display(sh, args, io_)
    first = args[0]
    op = "set"
    first_sig = decode(first) if first else None
    if first_sig is not None and first.isdigit():
        op = "revert"
    elif first and first != "-" and first_sig is not None and len(args) == 1:
        op = "revert"
    else:
        args = args[1:]
        if not args:
            io_.stderr.write(USAGE)
            return 2
        if first == "":
            op = "ignore"
        elif first == "-":
            op = "revert"
    if op == "set" and sh.policy.dynamic:  # an action made at run time: guarded now
        from sandbox.interpreter import dynamic
        if dynamic._guarded(sh, first, io_, "trap") is None:
            return sh.status
    if sh.trap_ghosts is not None:  # a subshell that changes a trap forgets its parent's
        sh.trap_ghosts = None
    status = 0
    for spec in args:
        sig = decode(spec)
        if sig is None:
            _err(sh, io_, f"{spec}: invalid signal specification")
            status = 1
            continue
        table = sh.own_dict("traps")
        if op == "revert":
            table.pop(sig, None)
        elif sig == DEBUG:
            io_.stderr.write(f"sandbox: trap: {DEBUG_REFUSED}\n".encode())
            status = 1
        else:
            table[sig] = "" if op == "ignore" else first
    return status


def _display(sh: "Shell", specs: list[str], io_: "IO") -> int:
    shown = _shown(sh)
    out: list[str] = []
    status = 0
    if not specs:
        for sig in sorted(shown):
            _show(sh, sig, shown, out)
    for spec in specs:
        sig = decode(spec)
        if sig is None:
            io_.stdout.write("".join(out).encode("utf-8", "surrogateescape"))
            out = []
            _err(sh, io_, f"{spec}: invalid signal specification")
            status = 1
            continue
        _show(sh, sig, shown, out)
    io_.stdout.write("".join(out).encode("utf-8", "surrogateescape"))
    return status


# -- inheritance --------------------------------------------------------------------------


def for_subshell(sub: "Shell", parent: "Shell") -> None:
    """A subshell (``( )``, a pipeline stage, ``$( )``): ignored signals stay ignored, ERR
    stays with ``set -E`` and RETURN with ``set -T``; the rest only show in ``trap -p``."""
    shown = _shown(parent)
    keep = {s: a for s, a in parent.traps.items()
            if (a == "" and 0 < s < NSIG) or (s == ERR and parent.errtrace)
            or (s == RETURN and parent.functrace)}
    sub.traps = keep
    sub.trap_ghosts = shown
    sub.trap_busy = frozenset()


def for_new_shell(sub: "Shell") -> None:
    """``bash -c``: a new shell; only the ignored signals are inherited."""
    sub.traps = {s: a for s, a in sub.traps.items() if a == "" and 0 < s < NSIG}
    sub.trap_ghosts = None
    sub.trap_busy = frozenset()


def enter_function(sh: "Shell") -> dict[int, str] | None:
    """A function starts: without ``set -E`` / ``set -T`` it runs without the ERR / RETURN
    trap (bash puts them back when it returns, unless it set its own)."""
    saved = {}
    if not sh.errtrace and ERR in sh.traps:
        saved[ERR] = sh.traps[ERR]
    if not sh.functrace and RETURN in sh.traps:
        saved[RETURN] = sh.traps[RETURN]
    if not saved:
        return None
    table = sh.own_dict("traps")
    for s in saved:
        del table[s]
    return saved


def leave_function(sh: "Shell", saved: dict[int, str]) -> None:
    """Put back what ``enter_function`` took away, unless the function trapped it."""
    table = sh.own_dict("traps")
    for s, a in saved.items():
        table.setdefault(s, a)


# -- running ------------------------------------------------------------------------------


def _run(sh: "Shell", sig: int, action: str, io_: "IO", line_base: int, status: int) -> None:
    """Run ``action`` with ``$?`` = ``status`` (bash's parse_and_execute of the trap string)."""
    from sandbox.interpreter import callstack
    from sandbox.parse import parse_strict as parse
    tree = parse(action)  # checked by the guard (literal) or when it was set (dynamic)
    old = callstack.set_source(sh, action, line_base)
    busy, saved = sh.trap_busy, sh.trap_saved
    sh.trap_busy = busy | {sig}
    sh.trap_saved = (sig, status)
    sh.status = status
    try:
        sh.run_script(tree, io_)
    finally:
        callstack.restore_source(sh, old)
        sh.trap_busy, sh.trap_saved = busy, saved


def on_err(sh: "Shell", status: int, io_: "IO") -> None:
    """A command failed where ``set -e`` would exit: the ERR trap, then ``$?`` back."""
    action = sh.traps.get(ERR)
    if not action or ERR in sh.trap_busy:
        return
    from sandbox.interpreter import callstack
    _run(sh, ERR, action, io_, callstack.lineno(sh) - 1, status)
    sh.status = status


def on_return(sh: "Shell", io_: "IO") -> None:
    """A function or ``source`` ends (still inside it): the RETURN trap."""
    action = sh.traps.get(RETURN)
    if not action or RETURN in sh.trap_busy:
        return
    from sandbox.interpreter import callstack
    status = sh.status
    _run(sh, RETURN, action, io_, callstack.lineno(sh) - 1, status)
    sh.status = status


def at_exit(sh: "Shell", io_: "IO", status: int) -> int:
    """The shell ends with ``status``: its EXIT trap, once; returns the final status
    (``exit N`` or ``set -e`` inside the action replace it)."""
    action = sh.traps.get(EXIT)
    if action is None:
        return status
    if not action or EXIT in sh.trap_busy:
        return status
    from sandbox.errors import BrokenPipe
    from sandbox.interpreter.core import ExitShell, LoopControl, ReturnFromFunction
    from sandbox.interpreter.toplevel import AbortLine
    try:  # `trap -p` in the action still shows it; it never runs again
        _run(sh, EXIT, action, io_, 0, status)
    except ExitShell as e:
        return status if e.from_expansion else e.status
    except (LoopControl, ReturnFromFunction, AbortLine, BrokenPipe):
        pass
    finally:
        sh.own_dict("traps").pop(EXIT, None)
    sh.status = status
    return status


# -- the guard ----------------------------------------------------------------------------


def guard_check(walker, node) -> None:  # type: ignore[no-untyped-def]
    """Check ``trap ...`` before the script runs (``sandbox.guard``): a literal action is
    parsed and walked like the rest of the script; one built at run time is refused unless
    the policy is dynamic (then it is guarded when the trap is set); DEBUG is refused."""
    from sandbox.errors import UnsupportedSyntax
    from sandbox.parse import parse_strict as parse
    from sandbox.parse.ast import Lit
    words = node.words[1:]
    i = 0
    while i < len(words):
        lit = words[i].literal()
        if lit is None:
            break
        if lit == "--":
            i += 1
            break
        if not lit.startswith("-") or lit == "-":
            break
        if "l" in lit or "p" in lit or lit == "--help":
            return  # shows the traps or the signals; sets nothing
        i += 1
    words = words[i:]
    if not words:
        return
    head, specs = words[0], words[1:]
    first = head.literal()
    if first is not None and any(isinstance(p, Lit) and any(c in p.text for c in "*?[{(")
                                 for p in head.parts):
        first = None  # `trap echo\ a* EXIT`: a glob or brace list makes its text at run time
    if first is None:
        if not walker.policy.dynamic:
            walker.add(head.pos, f"a trap action built at run time (`{head.text}`) can't be "
                       "checked before the script runs; single-quote it (`trap 'rm -f \"$t\"' "
                       "EXIT`) so it expands when the trap runs")
        return
    sig = decode(first) if first else None
    if sig is not None and (first.isdigit() or (first != "-" and not specs)):
        return  # `trap INT`, `trap 0 1`: resets
    if not specs or first in ("", "-"):
        return  # usage error, ignore or reset
    if any((w.literal() or "").upper() == "DEBUG" for w in specs):
        walker.add(head.pos, DEBUG_REFUSED)
        return
    try:
        tree = parse(first)
    except UnsupportedSyntax as exc:
        walker.add(head.pos, f"the trap action does not parse ({exc}); fix its syntax")
        return
    before = len(walker.violations)
    walker.collect_functions(tree)
    walker.script(tree)
    found = walker.violations[before:]
    del walker.violations[before:]
    for v in found:
        walker.add(head.pos, f"in the trap action: {v.message}", v.syntax)
