"""``type`` and ``command -v`` / ``command -V``: reporting builtins. They say whether a name is
a keyword, a function, a builtin or an allowed command; they never run anything (``command``
with anything but ``-v``/``-V`` stays refused by the guard, so the guard still sees every
command a script runs). An allowed command is reported at ``/usr/bin/NAME``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox import commands as registry

if TYPE_CHECKING:
    from sandbox.interpreter.core import IO, Shell

KEYWORDS = frozenset("if then else elif fi case esac for select while until do done in "
                     "function time { } ! [[ ]] coproc".split())
#: bash's builtins (all of them are builtins to ``type``, even the ones the sandbox refuses).
BASH_BUILTINS = frozenset(
    ". : [ alias bg bind break builtin caller cd command compgen complete compopt continue "
    "declare dirs disown echo enable eval exec exit export false fc fg getopts hash help "
    "history jobs kill let local logout mapfile popd printf pushd pwd read readarray "
    "readonly return set shift shopt source suspend test times trap true type typeset "
    "ulimit umask unalias unset wait".split())


def kind(sh: "Shell", name: str) -> str | None:
    """``keyword``, ``function``, ``builtin``, ``file`` or None (not found)."""
    if name in KEYWORDS:
        return "keyword"
    if name in sh.functions:
        return "function"
    if name in BASH_BUILTINS:
        return "builtin"
    if name in sh.policy.allow and (name in sh.commands or registry.get(name) is not None):
        return "file"
    return None


def _path(name: str) -> str:
    return f"/usr/bin/{name}"


def _describe(name: str, k: str) -> str:
    return {"keyword": f"{name} is a shell keyword", "function": f"{name} is a function",
            "builtin": f"{name} is a shell builtin", "file": f"{name} is {_path(name)}"}[k]


def b_type(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``type [-afptP] name...``."""
    flags = ""
    names = []
    for a in argv[1:]:
        if a.startswith("-") and len(a) > 1 and not names:
            if a == "--":
                continue
            bad = [c for c in a[1:] if c not in "afptP"]
            if bad:
                io_.stderr.write(f"bash: type: -{bad[0]}: invalid option\n".encode("utf-8", "surrogateescape"))
                io_.stderr.write(b"type: usage: type [-afptP] name [name ...]\n")
                return 2
            flags += a[1:]
        else:
            names.append(a)
    status = 0
    out: list[str] = []
    for name in names:
        k = kind(sh, name)
        if "P" in flags or "p" in flags:
            if k == "file" or ("P" in flags and name in sh.policy.allow and k is not None
                               and registry.get(name) is not None):
                out.append(_path(name))
            elif k is None:
                status = 1
            continue
        if k is None:
            status = 1
            if "t" not in flags:
                io_.stderr.write(f"bash: type: {name}: not found\n"
                                 .encode("utf-8", "surrogateescape"))
            continue
        out.append(k if "t" in flags else _describe(name, k))
    io_.stdout.write("".join(x + "\n" for x in out).encode("utf-8", "surrogateescape"))
    return status


def b_command(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``command -v name...`` / ``command -V name...`` (the only forms the guard lets run)."""
    args = argv[1:]
    verbose = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "--":
            args = args[1:]
            break
        for c in args[0][1:]:
            if c == "V":
                verbose = True
            elif c not in "vp":
                io_.stderr.write(f"bash: command: -{c}: invalid option\n".encode("utf-8", "surrogateescape"))
                io_.stderr.write(b"command: usage: command [-pVv] command [arg ...]\n")
                return 2
        args = args[1:]
    if not any(a.startswith("-") and ("v" in a or "V" in a) for a in argv[1:2]):
        io_.stderr.write(b"bash: command: only `command -v' and `command -V' run in the "
                         b"sandbox; call the command directly\n")
        return 2
    status = 0
    out: list[str] = []
    for name in args:
        k = kind(sh, name)
        if k is None:
            status = 1
            if verbose:
                io_.stderr.write(f"bash: command: {name}: not found\n"
                                 .encode("utf-8", "surrogateescape"))
            continue
        if verbose:
            out.append(_describe(name, k))
        else:
            out.append(_path(name) if k == "file" else name)
    io_.stdout.write("".join(x + "\n" for x in out).encode("utf-8", "surrogateescape"))
    return status
