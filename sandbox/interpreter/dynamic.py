"""Code made at run time, under ``Policy(dynamic=True)`` only: ``eval``, ``source``/``.`` of a
jail file, ``bash -c``/``sh -c``. Each string is parsed and checked by the same guard as a
whole script (allowlist, read-only, protected paths, approval) at the moment it runs; a
refused string runs nothing (``sandbox: refused: ...``, status 126). Command names that are
not literal words are checked by the interpreter when they are known (``run_external``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox.errors import UnsupportedSyntax
from sandbox.interpreter import callstack, toplevel
from sandbox.interpreter.toplevel import AbortLine

if TYPE_CHECKING:
    from sandbox.interpreter.core import IO, Shell
    from sandbox.parse.ast import Script


def _guarded(sh: "Shell", text: str, io_: "IO", prog: str) -> "Script | None":
    """Parse and guard ``text``; print the refusal and return None when it may not run."""
    from sandbox import guard
    from sandbox.parse import parse_strict as parse
    try:
        tree = parse(text)
    except UnsupportedSyntax as exc:
        sh.diag(io_, f"{prog}: {exc}")
        sh.status = 2
        return None
    walker = guard._Walker(sh.policy, sh.cwd, sh.commands)
    walker.functions = set(sh.functions)
    walker.collect_functions(tree)
    walker.script(tree)
    messages = [guard.format_violation(text, v) for v in walker.violations]
    if not messages and sh.policy.approve is not None:
        try:
            ok = sh.policy.approve(text, list(dict.fromkeys(walker.writes)))
        except Exception:
            ok = False
        if not ok:
            messages.append("refused by the approval callback")
    if messages:
        io_.stderr.write("".join(f"sandbox: refused: {m}\n" for m in messages)
                         .encode("utf-8", "replace"))
        sh.status = 126
        return None
    return tree


def b_eval(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``eval ARGS``: the arguments joined by spaces, run in this shell."""
    text = " ".join(argv[1:])
    if not text.strip():
        return 0
    tree = _guarded(sh, text, io_, "eval")
    if tree is None:
        return sh.status
    old = callstack.set_source(sh, text, callstack.lineno(sh) - 1)
    try:
        return sh.run_script(tree, io_)
    except AbortLine as exc:  # an assignment error ends the eval'd string, not the line
        sh.status = exc.status
        return exc.status
    finally:
        callstack.restore_source(sh, old)


def b_source(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``source FILE [ARGS]`` / ``. FILE [ARGS]``: a jail file run in this shell."""
    from sandbox.fs.base import FSError
    from sandbox.interpreter.core import ReturnFromFunction
    prog = argv[0]
    if len(argv) < 2:
        sh.diag(io_, f"{prog}: filename argument required")
        io_.stderr.write(f"{prog}: usage: {prog} filename [arguments]\n".encode("utf-8", "surrogateescape"))
        return 2
    try:
        data = sh._ctx(io_).read_bytes(argv[1])
    except FSError as exc:
        sh.diag(io_, f"{argv[1]}: {exc.strerror or exc}")
        return 1
    text = data.decode("utf-8", "surrogateescape")
    tree = _guarded(sh, text, io_, prog)
    if tree is None:
        return sh.status
    saved = sh.positional
    if len(argv) > 2:
        sh.positional = list(argv[2:])
    old = callstack.set_source(sh, text)
    try:
        try:
            sh.run_script(tree, io_)
        except ReturnFromFunction as r:
            sh.status = r.status
        if sh.traps:  # the RETURN trap runs when a sourced file ends (traps.py)
            from sandbox.interpreter import traps
            status = sh.status
            try:
                traps.on_return(sh, io_)
            except ReturnFromFunction as r:  # `return` in the action
                status = r.status
            sh.status = status
        return sh.status
    except AbortLine as exc:
        sh.status = exc.status
        return exc.status
    finally:
        callstack.restore_source(sh, old)
        if len(argv) > 2:
            sh.positional = saved


def b_bash_c(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``bash -c STRING [NAME [ARGS]]`` / ``sh -c ...``: the string in a subshell."""
    if len(argv) < 3 or argv[1] != "-c":
        sh.diag(io_, f"{argv[0]}: only `{argv[0]} -c STRING' runs in the sandbox")
        return 2
    tree = _guarded(sh, argv[2], io_, argv[0])
    if tree is None:
        return sh.status
    sub = sh.copy()
    sub.arg0 = argv[3] if len(argv) > 3 else argv[0]
    sub.positional = list(argv[4:])
    sub.functions = {}
    sub.errtrace = sub.functrace = False  # a new shell: no set -E / -T, and of the traps
    if sub.traps or sub.trap_ghosts is not None:  # only the ignored signals stay
        from sandbox.interpreter import traps
        traps.for_new_shell(sub)
    return sub.run_subshell_body(lambda: toplevel.run(sub, tree, io_, argv[2]))


TABLE = {"eval": b_eval, "source": b_source, ".": b_source, "bash": b_bash_c, "sh": b_bash_c}


def b_builtin(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``builtin NAME ARGS``: the shell builtin ``NAME`` (never a function or a program)."""
    from sandbox.interpreter import builtins
    from sandbox.interpreter.core import _REGISTRY_BUILTINS, BUILTINS
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        return 0
    name = args[0]
    if name == "builtin" or (name == "command" and runs_command(args)):
        return (b_builtin if name == "builtin" else b_command)(sh, args, io_)
    if name in TABLE and name not in ("bash", "sh"):
        return TABLE[name](sh, args, io_)
    if name not in BUILTINS:
        sh.diag(io_, f"builtin: {name}: not a shell builtin")
        return 1
    if name in _REGISTRY_BUILTINS:
        return sh.run_external(args, io_, set())
    return builtins.run(sh, args, io_)


def b_command(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``command [-p] NAME ARGS``: ``NAME`` as a builtin or an allowed command, skipping
    functions (``command -v`` / ``-V`` report, as without the dynamic policy)."""
    from sandbox.interpreter import builtins
    from sandbox.interpreter.core import BUILTINS
    args = argv[1:]
    while args and args[0] in ("-p", "--"):
        done = args[0] == "--"
        args = args[1:]
        if done:
            break
    if args and args[0].startswith("-") and len(args[0]) > 1:
        return builtins.run(sh, argv, io_)  # -v, -V, or an invalid option
    if not args:
        return 0
    if args[0] in BUILTINS or args[0] in TABLE or args[0] == "builtin":
        return b_builtin(sh, ["builtin", *args], io_)
    return sh.run_external(args, io_, set())


def runs_command(argv: list[str]) -> bool:
    """True when ``command ...`` runs a command (not ``command -v``/``-V``)."""
    for a in argv[1:]:
        if a in ("-p",):
            continue
        return not (a.startswith("-") and a != "--" and len(a) > 1)
    return True


def expand_subscript_code(sh: "Shell", text: str) -> str | None:
    """Under ``Policy(dynamic=True)``: a subscript given as a string that holds a command
    substitution (``unset 'm[$(echo k)]'``) expands as bash expands it, the substitution
    checked by the guard first like any dynamic code (None: refused, message printed)."""
    import io
    from sandbox.interpreter.core import IO
    from sandbox.parse.ast import Assign
    err = sh._current_stderr
    tree = _guarded(sh, f"_sub_={text}", IO(io.BytesIO(b""), err, err), "bash")
    if tree is None:
        return None
    try:
        cmd = tree.items[0].first.commands[0]
        a = cmd.assigns[0]
    except (IndexError, AttributeError):
        return None
    if not isinstance(a, Assign):
        return None
    return sh.expander.word(a.value)
