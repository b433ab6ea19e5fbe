"""Shell builtins the interpreter runs itself: cd pwd test [ true false export unset local
read shift set return exit break continue :. (``echo`` and ``printf`` are command modules
in ``sandbox/commands`` that the interpreter also runs as builtins.)"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

from sandbox.fs.base import FSError

if TYPE_CHECKING:
    from sandbox.interpreter.core import IO, Shell

_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_INT_RE = re.compile(r"\s*[-+]?\d+\s*\Z")


def _err(sh: "Shell", io_: "IO", prog: str, message: str) -> None:
    sh.diag(io_, f"{prog}: {message}")


def b_true(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``true`` and ``:``."""
    return 0


def b_false(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``false``."""
    return 1


def b_let(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``let expr...``: each argument is an arithmetic expression, evaluated in order; the
    status is 1 when the last value is 0, or at the first error (the rest are not run)."""
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        _err(sh, io_, "let", "expression expected")
        return 1
    value: int | None = 0
    for expr in args:
        sh._current_stdin, sh._current_stderr = io_.stdin, io_.stderr
        value = sh.arith_text(expr, io_, "let")
        if value is None:
            return 1
    return 0 if value else 1


def b_cd(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``cd [dir]`` (``cd -`` goes back and prints the directory)."""
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    if len(args) > 1:
        _err(sh, io_, "cd", "too many arguments")
        return 1
    if not args:
        target = sh.get_var("HOME")
        if target is None:
            _err(sh, io_, "cd", "HOME not set")
            return 1
    else:
        target = args[0]
    return change_dir(sh, io_, target, "cd")


def change_dir(sh: "Shell", io_: "IO", target: str, prog: str) -> int:
    """``cd target`` as ``prog`` (cd, pushd, popd) reports it: ``-`` is $OLDPWD, printed; an
    empty target stays (``$OLDPWD`` is the directory still); a missing or non-directory
    target fails with status 1."""
    show = False
    if target == "-":
        old = sh.get_var("OLDPWD")
        if old is None:  # (an empty $OLDPWD is an empty target)
            _err(sh, io_, prog, "OLDPWD not set")
            return 1
        target, show = old, True
    if target == "":
        sh.vars["OLDPWD"] = sh.cwd
        if show:
            io_.stdout.write(b"\n")
        return 0
    try:
        from sandbox.fs.paths import normalize
        vpath = normalize(target, sh.cwd)
        st = sh.fs.stat(vpath)
    except FSError as exc:
        _err(sh, io_, prog, f"{target}: {exc}")
        return 1
    if not st.is_dir:
        _err(sh, io_, prog, f"{target}: Not a directory")
        return 1
    sh.vars["OLDPWD"] = sh.cwd
    sh.cwd = vpath
    sh.vars["PWD"] = vpath
    if show:
        io_.stdout.write((vpath + "\n").encode("utf-8", "surrogateescape"))
    return 0


def b_pwd(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``pwd``."""
    for a in argv[1:]:
        if a.startswith("-") and a not in ("-L", "-P", "--"):
            _err(sh, io_, "pwd", f"{a[:2]}: invalid option")
            io_.stderr.write(b"pwd: usage: pwd [-LP]\n")
            return 2
    io_.stdout.write((sh.cwd + "\n").encode("utf-8", "surrogateescape"))
    return 0


def b_export(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``export name[=value]...`` (``-n`` un-exports)."""
    status = 0
    unexport = functions = False
    args = argv[1:]
    while args and args[0].startswith("-") and args[0] != "-":
        if args[0] == "--":
            args = args[1:]
            break
        for c in args[0][1:]:  # (letters may come together: `export -nf f`)
            if c == "n":
                unexport = True
            elif c == "f":  # functions: each name must be one (nothing else changes)
                functions = True
            elif c != "p":
                _err(sh, io_, "export", f"-{c}: invalid option")
                io_.stderr.write(b"export: usage: export [-fn] [name[=value] ...] or export -p\n")
                return 2
        args = args[1:]
    if not args and functions:  # `export -f`: each exported function and its attribute
        from sandbox.interpreter import funcprint
        for name in sorted(n for n in sh.exported_funcs if n in sh.functions):
            text = funcprint.render(sh.functions[name])
            head = "" if text is None else text + "\n"
            io_.stdout.write(f"{head}declare -fx {name}\n".encode("utf-8", "surrogateescape"))
        return 0
    if not args:
        for k in sorted(sh.exported):
            if k in sh.vars:
                v = sh.vars[k].replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$").replace("`", "\\`")
                io_.stdout.write(f'declare -x {k}="{v}"\n'.encode("utf-8", "surrogateescape"))
        return 0
    if functions:
        for name in args:
            if name not in sh.functions:
                _err(sh, io_, "export", f"{name}: not a function")
                status = 1
            elif unexport:
                sh.own_set("exported_funcs").discard(name)
            else:
                sh.own_set("exported_funcs").add(name)
        return status
    for a in args:
        name, eq, value = a.partition("=")
        if not _NAME_RE.match(name):
            _err(sh, io_, "export", f"`{a}': not a valid identifier")
            status = 1
            continue
        if eq:
            sh.set_var(name, value)
        if unexport:
            sh.exported.discard(name)
        else:
            sh.exported.add(name)
    return status


def _unset_readonly(sh: "Shell", name: str, io_: "IO") -> bool:
    """``unset ro`` (also through a nameref): bash's message; True when refused."""
    from sandbox.interpreter import namerefs
    target = namerefs.for_read(sh, name) if namerefs.is_ref(sh, name) else name
    if target is None or "r" not in sh.attrs.get(target, ()):
        return False
    _err(sh, io_, "unset", f"{target}: cannot unset: readonly variable")
    return True


def b_unset(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``unset [-v|-f] name...``."""
    funcs = False
    explicit_var = False
    refs = False
    args = argv[1:]
    while args and args[0].startswith("-"):
        if args[0] == "-v":
            explicit_var = True
        if args[0] == "-n":  # the namerefs themselves, not what they refer to
            refs = True
        elif args[0] == "-f":
            funcs = True
        elif args[0] == "--":
            args = args[1:]
            break
        elif args[0] != "-v":
            _err(sh, io_, "unset", f"{args[0][:2]}: invalid option")
            io_.stderr.write(b"unset: usage: unset [-f] [-v] [-n] [name ...]\n")
            return 2
        args = args[1:]
    status = 0
    for name in args:
        if funcs:
            sh.functions.pop(name, None)
            if sh.exported_funcs:
                sh.own_set("exported_funcs").discard(name)
            continue
        if refs:  # bash's unbind_nameref: a variable that is not a nameref stays
            if "n" in sh.attrs.get(name, ()):
                sh.vars.pop(name, None)
                sh.attrs[name].discard("n")
            continue
        if "[" in name and name.endswith("]") and _NAME_RE.match(name.partition("[")[0]):
            from sandbox.interpreter import state
            try:
                sh.unset_var(state.text_subscript(sh, name))
            except state.SubscriptError as exc:
                _err(sh, io_, "unset", str(exc))
                status = 1
            continue
        if not _NAME_RE.match(name):
            if explicit_var:  # without -v bash tries it as a function name, silently
                _err(sh, io_, "unset", f"`{name}': not a valid identifier")
                status = 1
            continue
        if name not in sh.vars and name not in sh.arrays and name in sh.functions:
            sh.functions.pop(name, None)
            if sh.exported_funcs:
                sh.own_set("exported_funcs").discard(name)
            continue
        if sh.attrs and _unset_readonly(sh, name, io_):
            status = 1
            continue
        if not _unset_callers_local(sh, name):
            sh.unset_var(name)
    return status


def _unset_callers_local(sh: "Shell", name: str) -> bool:
    """``unset x`` where ``x`` is a local of a calling function (not of the running one):
    that local goes, and the value of the scope before it shows again, as in bash (a local
    of the running function stays a local, unset). True when done."""
    if not sh.locals or name in sh.locals[-1]:
        return False
    depth = next((k for k in range(len(sh.locals) - 2, -1, -1) if name in sh.locals[k]), None)
    if depth is None:
        return False
    hidden = sh.local_attrs.get(depth + 1, {}).get(name) if sh.local_attrs else None
    if sh.local_attrs and name in sh.local_attrs.get(depth + 1, {}):
        del sh.own_dict("local_attrs")[depth + 1][name]
    sh.restore_var(name, sh.locals[depth].pop(name))
    sh.attrs.pop(name, None)
    if hidden is not None:
        sh.attrs[name] = hidden
    return True


def _too_many(sh: "Shell", io_: "IO", name: str) -> None:
    """A special builtin (exit, return, break, continue, shift) given too many arguments:
    bash 5.2 prints the error and ends the shell with status 1."""
    from sandbox.interpreter.core import ExitShell
    _err(sh, io_, name, "too many arguments")
    raise ExitShell(1)


def b_shift(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``shift [n]``."""
    n = 1
    if len(argv) > 2:
        _too_many(sh, io_, "shift")
    if len(argv) > 1:
        if not _INT_RE.match(argv[1]):
            _err(sh, io_, "shift", f"{argv[1]}: numeric argument required")
            return 1
        n = int(argv[1])
    if n < 0:
        _err(sh, io_, "shift", f"{argv[1]}: shift count out of range")
        return 1
    if n > len(sh.positional):
        return 1
    sh.positional = sh.positional[n:]
    return 0


def b_set(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``set [-eu] [+eu] [-o pipefail] [--] [args]``: options and positional parameters
    (without arguments: the variables and functions)."""
    args = argv[1:]
    if not args:
        from sandbox.interpreter.declare import print_set
        return print_set(sh, io_)
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            sh.positional = args[i + 1:]
            return 0
        if a in ("-", "+"):
            i += 1
            continue
        if a[:1] in ("-", "+") and len(a) > 1:
            on = a[0] == "-"
            for letter in a[1:]:
                if letter == "e":
                    sh.errexit = on
                elif letter == "u":
                    sh.nounset = on
                elif letter == "f":
                    sh.noglob = on
                elif letter == "C":
                    sh.noclobber = on
                elif letter == "x":
                    sh.xtrace = on
                elif letter == "E":  # errtrace: functions and subshells keep the ERR trap
                    sh.errtrace = on
                elif letter == "T":  # functrace: functions keep the RETURN trap
                    sh.functrace = on
                elif letter in "vhBbmnaHPk":
                    pass
                elif letter == "o":
                    i += 1
                    if i >= len(args):  # `set -o` / `set +o`: every option and its state
                        _list_options(sh, io_, on)
                        return 0
                    opt = args[i]
                    if opt == "pipefail":
                        sh.pipefail = on
                    elif opt == "errexit":
                        sh.errexit = on
                    elif opt == "nounset":
                        sh.nounset = on
                    elif opt == "noglob":
                        sh.noglob = on
                    elif opt == "noclobber":
                        sh.noclobber = on
                    elif opt == "xtrace":
                        sh.xtrace = on
                    elif opt in ("errtrace", "functrace"):
                        setattr(sh, opt, on)
                    elif opt in ("verbose", "posix"):
                        pass
                    else:
                        _err(sh, io_, "set", f"{opt}: invalid option name")
                        return 2
                else:
                    _err(sh, io_, "set", f"{a[0]}{letter}: invalid option")
                    io_.stderr.write(b"set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]\n")
                    return 2
            i += 1
            continue
        sh.positional = args[i:]
        return 0
    return 0


#: ``set -o``'s names, in bash 5.2's order (bash -c: those that are on whatever we do).
_SET_O_NAMES = ("allexport", "braceexpand", "emacs", "errexit", "errtrace", "functrace",
                "hashall", "histexpand", "history", "ignoreeof", "interactive-comments",
                "keyword", "monitor", "noclobber", "noexec", "noglob", "nolog", "notify",
                "nounset", "onecmd", "physical", "pipefail", "posix", "privileged", "verbose",
                "vi", "xtrace")
_SET_O_ALWAYS_ON = frozenset({"braceexpand", "hashall", "interactive-comments"})
#: The options the shell keeps (each an attribute of ``Shell`` of the same name).
_SET_O_TRACKED = frozenset({"errexit", "errtrace", "functrace", "noclobber", "noglob", "nounset",
                            "pipefail", "xtrace"})


def options_on(sh: "Shell") -> list[str]:
    """The ``set -o`` options that are on, in bash's order (``$SHELLOPTS``)."""
    return [name for name in _SET_O_NAMES if name in _SET_O_ALWAYS_ON
            or (name in _SET_O_TRACKED and bool(getattr(sh, name)))]


def _list_options(sh: "Shell", io_: "IO", dash: bool) -> None:
    """``set -o`` (``name<TAB>on``, names padded to 15) or ``set +o`` (commands)."""
    lines = []
    enabled = set(options_on(sh))
    for name in _SET_O_NAMES:
        on = name in enabled
        if dash:
            lines.append(f"{name:<15}\t{'on' if on else 'off'}\n")
        else:
            lines.append(f"set {'-' if on else '+'}o {name}\n")
    io_.stdout.write("".join(lines).encode())


def _int_arg(sh: "Shell", io_: "IO", prog: str, text: str) -> int | None:
    if not _INT_RE.match(text):
        _err(sh, io_, prog, f"{text}: numeric argument required")
        return None
    return int(text)


def b_exit(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``exit [n]``."""
    from sandbox.interpreter.core import ExitShell
    if len(argv) > 2:
        _too_many(sh, io_, "exit")
    if len(argv) == 2:
        n = _int_arg(sh, io_, "exit", argv[1])
        raise ExitShell(2 if n is None else n & 255)
    if sh.trap_saved is not None and sh.trap_saved[0] == 0:  # in the EXIT trap: its $?
        raise ExitShell(sh.trap_saved[1])
    raise ExitShell(sh.status_before)


def b_return(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``return [n]`` (only inside a function)."""
    from sandbox.interpreter.core import ReturnFromFunction
    if len(argv) > 2:
        _too_many(sh, io_, "return")
    if sh.call_depth == 0:
        _err(sh, io_, "return", "can only `return' from a function or sourced script")
        return 2  # bash 5.2's status
    if len(argv) > 1:
        n = _int_arg(sh, io_, "return", argv[1])
        raise ReturnFromFunction(2 if n is None else n & 255)
    if sh.trap_saved is not None:  # in a trap action: the $? from before the trap
        raise ReturnFromFunction(sh.trap_saved[1])
    raise ReturnFromFunction(sh.status_before)


def _loop(kind: str) -> Callable[["Shell", list[str], "IO"], int]:
    def run(sh: "Shell", argv: list[str], io_: "IO") -> int:
        from sandbox.interpreter.core import ExitShell, LoopControl
        if sh.loop_depth == 0:  # bash checks this before the argument
            _err(sh, io_, kind, "only meaningful in a `for', `while', or `until' loop")
            return 0
        n = 1
        if len(argv) > 2:
            _too_many(sh, io_, kind)
        if len(argv) > 1:
            m = _int_arg(sh, io_, kind, argv[1])
            if m is None:  # `numeric argument required` is fatal, as in bash
                raise ExitShell(128)
            if m < 1:  # bash leaves every enclosing loop, with status 1
                _err(sh, io_, kind, f"{argv[1]}: loop count out of range")
                raise LoopControl("break", sh.loop_depth, 1)
            n = m
        raise LoopControl(kind, min(n, sh.loop_depth))
    run.__doc__ = f"``{kind} [n]``."
    return run


from sandbox.interpreter.declare import b_declare, b_readonly  # noqa: E402
from sandbox.interpreter.getopts import b_getopts  # noqa: E402
from sandbox.interpreter.mapfile import b_mapfile  # noqa: E402
from sandbox.interpreter.read import b_read  # noqa: E402
from sandbox.interpreter.shopt import b_shopt  # noqa: E402
from sandbox.interpreter.testcmd import b_test  # noqa: E402
from sandbox.interpreter.typecmd import b_command, b_hash, b_type  # noqa: E402
from sandbox.interpreter.procbuiltins import b_times, b_umask, b_wait  # noqa: E402
from sandbox.interpreter.callstack import b_caller  # noqa: E402
from sandbox.interpreter.traps import b_trap  # noqa: E402
from sandbox.interpreter.dirstack import b_dirs, b_popd, b_pushd  # noqa: E402

TABLE: dict[str, Callable[["Shell", list[str], "IO"], int]] = {
    "cd": b_cd, "pwd": b_pwd, "test": b_test, "[": b_test, "true": b_true, ":": b_true,
    "false": b_false, "export": b_export, "unset": b_unset,
    "read": b_read, "shift": b_shift, "set": b_set, "return": b_return, "exit": b_exit,
    "break": _loop("break"), "continue": _loop("continue"), "let": b_let,
    "shopt": b_shopt, "declare": b_declare, "typeset": b_declare, "local": b_declare,
    "readonly": b_readonly, "mapfile": b_mapfile, "readarray": b_mapfile,
    "type": b_type, "command": b_command, "getopts": b_getopts,
    "hash": b_hash, "wait": b_wait, "times": b_times, "umask": b_umask,
    "caller": b_caller, "trap": b_trap, "pushd": b_pushd, "popd": b_popd, "dirs": b_dirs,
}


def run(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """Run the builtin ``argv[0]``."""
    return TABLE[argv[0]](sh, argv, io_)
