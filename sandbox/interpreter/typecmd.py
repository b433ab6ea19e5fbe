"""``type``, ``command -v`` / ``command -V`` and ``hash``: reporting builtins. They say whether a name is
a keyword, a function, a builtin or an allowed command; they never run anything (``command``
with anything but ``-v``/``-V`` stays refused by the guard, so the guard still sees every
command a script runs). An allowed command is reported at ``/usr/bin/NAME``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox import commands as registry
from sandbox.interpreter import callstack

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


def _has_file(sh: "Shell", name: str) -> bool:
    """An allowed command (or a builtin that is a program too, like ``echo``): it has a
    virtual ``/usr/bin/NAME``."""
    from sandbox.interpreter.core import _PROGRAM_BUILTINS
    if "/" in name or not name:
        return False
    if name in _PROGRAM_BUILTINS:
        return True
    return name in sh.policy.allow and (name in sh.commands or registry.get(name) is not None)


def kinds(sh: "Shell", name: str, functions: bool = True) -> list[str]:
    """Every way ``name`` resolves, in bash's order: keyword, function, builtin, file."""
    out = []
    if name in KEYWORDS:
        out.append("keyword")
    if functions and name in sh.functions:
        out.append("function")
    if name in BASH_BUILTINS:
        out.append("builtin")
    if _has_file(sh, name):
        out.append("file")
    return out


def kind(sh: "Shell", name: str) -> str | None:
    """``keyword``, ``function``, ``builtin``, ``file`` or None (not found)."""
    found = kinds(sh, name)
    return found[0] if found else None


def _path(name: str) -> str:
    return f"/usr/bin/{name}"


def _describe(sh: "Shell", name: str, k: str) -> str:
    if k == "file":
        hashed = name in sh.hashed
        return f"{name} is hashed ({_path(name)})" if hashed else f"{name} is {_path(name)}"
    return {"keyword": f"{name} is a shell keyword", "function": f"{name} is a function",
            "builtin": f"{name} is a shell builtin"}[k]


def b_type(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``type [-afptP] name...``: what each name is (``-t`` one word, ``-p``/``-P`` the
    path of the command it would run, ``-a`` every match, ``-f`` functions skipped)."""
    flags = ""
    names: list[str] = []
    args = argv[1:]
    while args and args[0].startswith("-") and len(args[0]) > 1:
        a = args.pop(0)
        if a == "--":
            break
        bad = [c for c in a[1:] if c not in "afptP"]
        if bad:
            io_.stderr.write(f"{callstack.error_prefix(sh)}type: -{bad[0]}: invalid option\n".encode("utf-8", "surrogateescape"))
            io_.stderr.write(b"type: usage: type [-afptP] name [name ...]\n")
            return 2
        flags += a[1:]
    names = args
    every = "a" in flags
    status = 0
    out: list[str] = []
    for name in names:
        found = kinds(sh, name, functions="f" not in flags)
        if "P" in flags:
            if _has_file(sh, name):
                out.append(_path(name))
            else:
                status = 1
            continue
        if not found:
            status = 1
            if "t" not in flags and "p" not in flags:
                _flush_lines(io_, out)  # bash's stdout goes first (in order under 2>&1)
                io_.stderr.write(f"{callstack.error_prefix(sh)}type: {name}: not found\n"
                                 .encode("utf-8", "surrogateescape"))
            continue
        shown = found if every else found[:1]
        if "p" in flags:
            out.extend(_path(name) for k in shown if k == "file")
            continue
        if "t" in flags:
            out.extend(shown)
            continue
        for k in shown:
            out.append(_describe(sh, name, k))
            if k == "function":  # bash prints the definition after the line (funcprint)
                from sandbox.interpreter import funcprint
                text = funcprint.render(sh.functions[name])
                if text is not None:
                    out.append(text)
    _flush_lines(io_, out)
    return status


def _flush_lines(io_: "IO", lines: list[str]) -> None:
    """Write the pending ``lines`` on stdout and forget them."""
    io_.stdout.write("".join(x + "\n" for x in lines).encode("utf-8", "surrogateescape"))
    lines.clear()


def _bucket(name: str) -> int:
    """bash's bucket for ``name`` in its 256-bucket command table (FNV-1 of the bytes)."""
    h = 2166136261
    for c in name.encode("utf-8", "surrogateescape"):
        h = (h * 16777619) & 0xFFFFFFFF
        h ^= c
    return h & 255


def _bash_order(table: dict[str, int]) -> list[str]:
    """The table's names in the order bash lists them: by bucket, newest first in one."""
    order = list(table)
    return sorted(order, key=lambda n: (_bucket(n), -order.index(n)))


_HASH_USAGE = b"hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]\n"


def b_hash(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``hash [-lrdt] [name ...]``: the table of commands found by name, with their hits. It
    never runs anything; ``-p PATH`` (which would make a name run another program) is
    refused."""
    def err(text: str) -> None:
        io_.stderr.write(f"{callstack.error_prefix(sh)}hash: {text}\n".encode("utf-8", "surrogateescape"))

    args = argv[1:]
    flags = set()
    while args and args[0].startswith("-") and len(args[0]) > 1:
        a = args.pop(0)
        if a == "--":
            break
        for c in a[1:]:
            if c == "p":
                err("-p: not supported in the sandbox (commands are found by name); call the "
                    "command by its name")
                return 2
            if c not in "lrdt":
                err(f"-{c}: invalid option")
                io_.stderr.write(_HASH_USAGE)
                return 2
            flags.add(c)
    table = sh.hashed
    if "r" in flags:
        table.clear()
    if not args:
        if "t" in flags:
            err("-t: option requires an argument")
            return 1
        if "r" in flags or "d" in flags:
            return 0
        if not table:
            io_.stdout.write(b"hash: hash table empty\n")
            return 0
        names = _bash_order(table)
        if "l" in flags:
            lines = [f"builtin hash -p {_path(n)} {n}\n" for n in names]
        else:
            lines = ["hits\tcommand\n"] + [f"{table[n]:4d}\t{_path(n)}\n" for n in names]
        io_.stdout.write("".join(lines).encode("utf-8", "surrogateescape"))
        return 0
    status = 0
    for name in args:
        if "d" in flags:
            if not table:
                continue  # bash: nothing to delete from an empty table is no error
            if table.pop(name, None) is None:
                err(f"{name}: not found")
                status = 1
            continue
        if "t" in flags:
            if name not in table:
                err(f"{name}: not found")
                status = 1
            elif "l" in flags:
                io_.stdout.write(f"builtin hash -p {_path(name)} {name}\n".encode("utf-8", "surrogateescape"))
            else:
                line = f"{name}\t{_path(name)}" if len(args) > 1 else _path(name)
                io_.stdout.write((line + "\n").encode("utf-8", "surrogateescape"))
            continue
        if "/" in name or name in sh.functions or name in BASH_BUILTINS:
            continue
        if _has_file(sh, name):
            table.setdefault(name, 0)
        else:
            err(f"{name}: not found")
            status = 1
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
                io_.stderr.write(f"{callstack.error_prefix(sh)}command: -{c}: invalid option\n".encode("utf-8", "surrogateescape"))
                io_.stderr.write(b"command: usage: command [-pVv] command [arg ...]\n")
                return 2
        args = args[1:]
    if not any(a.startswith("-") and ("v" in a or "V" in a) for a in argv[1:2]):
        io_.stderr.write(f"{callstack.error_prefix(sh)}command: only `command -v' and `command -V' "
                         "run in the sandbox; call the command directly\n".encode())
        return 2
    status = 0
    out: list[str] = []
    for name in args:
        k = kind(sh, name)
        if k is None:
            status = 1
            if verbose:
                _flush_lines(io_, out)
                io_.stderr.write(f"{callstack.error_prefix(sh)}command: {name}: not found\n"
                                 .encode("utf-8", "surrogateescape"))
            continue
        if verbose:
            out.append(_describe(sh, name, k))
        else:
            out.append(_path(name) if k == "file" else name)
    _flush_lines(io_, out)
    return status
