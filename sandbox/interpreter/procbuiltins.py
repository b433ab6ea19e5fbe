"""``wait``, ``times`` and ``umask``: the process builtins, over the sandbox's virtual process.

There are no background jobs (the guard refuses ``&``), so ``wait`` has nothing to wait for:
with no operand it returns 0 at once, ``wait -n`` 127, and a pid or job spec is bash's "not a
child" / "no such job" (127). ``times`` reports the run's own time (user: the time since the
shell started; system and children: 0), never the host's. ``umask`` is a per-shell value
(0022 at start) reported and set as bash does (octal or symbolic, ``-S``, ``-p``); the virtual
filesystem keeps its own modes, so the mask only changes what ``umask`` reports.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

from sandbox.interpreter import callstack

if TYPE_CHECKING:
    from sandbox.interpreter.core import IO, Shell

#: The mask a new shell starts with.
DEFAULT_UMASK = 0o022
_WHO = {"u": 0o700, "g": 0o070, "o": 0o007}
_PERM = {"r": 0o444, "w": 0o222, "x": 0o111}


def _say(io_: "IO", text: str) -> None:
    io_.stdout.write(text.encode("utf-8", "surrogateescape"))


def _err(sh: "Shell", io_: "IO", text: str) -> None:
    io_.stderr.write(f"{callstack.error_prefix(sh)}{text}\n".encode("utf-8", "surrogateescape"))


def b_wait(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``wait [-fn] [-p var] [id ...]``: there are never jobs to wait for."""
    args = argv[1:]
    wait_next = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        a = args.pop(0)
        if a == "--":
            break
        for i, c in enumerate(a[1:]):
            if c == "n":
                wait_next = True
            elif c == "f":
                pass
            elif c == "p":
                rest = a[i + 2:]
                if not rest and not args:
                    _err(sh, io_, "wait: -p: option requires an argument")
                    io_.stderr.write(b"wait: usage: wait [-fn] [-p var] [id ...]\n")
                    return 2
                if not rest:
                    args.pop(0)
                break
            else:
                _err(sh, io_, f"wait: -{c}: invalid option")
                io_.stderr.write(b"wait: usage: wait [-fn] [-p var] [id ...]\n")
                return 2
    if not args:
        return 127 if wait_next else 0
    status = 0
    for a in args:
        if a.startswith("%"):
            _err(sh, io_, f"wait: {a}: no such job")
            status = 127
        elif a.isdigit():
            _err(sh, io_, f"wait: pid {int(a)} is not a child of this shell")
            status = 127
        else:
            _err(sh, io_, f"wait: `{a}': not a pid or valid job spec")
            status = 1
    return status


def _clock(seconds: float) -> str:
    minutes, rest = divmod(max(seconds, 0.0), 60.0)
    return f"{int(minutes)}m{rest:.3f}s"


def b_times(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``times``: user and system time of the shell, then of its children (virtual)."""
    user = time.monotonic() - sh.start_time
    _say(io_, f"{_clock(user)} {_clock(0)}\n{_clock(0)} {_clock(0)}\n")
    return 0


def _show_symbolic(mask: int) -> str:
    perm = ~mask & 0o777
    parts = []
    for who, shift in (("u", 6), ("g", 3), ("o", 0)):
        bits = (perm >> shift) & 7
        parts.append(who + "=" + "".join(c for c, b in (("r", 4), ("w", 2), ("x", 1)) if bits & b))
    return ",".join(parts)


class _ModeError(Exception):
    pass


_CLAUSE_RE = re.compile(r"([ugoa]*)(.*)", re.S)


def _apply_symbolic(mask: int, text: str) -> int:
    """A symbolic mode (``u=rwx,g-w,o=``) applied to the permissions the mask leaves."""
    perm = ~mask & 0o777
    for clause in text.split(","):
        m = _CLAUSE_RE.match(clause)
        assert m is not None
        who_text, rest = m.group(1), m.group(2)
        who = 0
        for c in who_text or "a":
            who |= 0o777 if c == "a" else _WHO[c]
        if not rest or rest[0] not in "+-=":
            raise _ModeError(f"`{rest[:1] or ' '}': invalid symbolic mode operator")
        while rest:
            op = rest[0]
            j = 1
            bits = 0
            while j < len(rest) and rest[j] not in "+-=":
                c = rest[j]
                if c not in _PERM:
                    raise _ModeError(f"`{c}': invalid symbolic mode character")
                bits |= _PERM[c]
                j += 1
            bits &= who
            if op == "+":
                perm |= bits
            elif op == "-":
                perm &= ~bits
            else:
                perm = (perm & ~who) | bits
            rest = rest[j:]
    return ~perm & 0o777


def b_umask(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``umask [-p] [-S] [mode]``."""
    args = argv[1:]
    symbolic = portable = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        a = args.pop(0)
        if a == "--":
            break
        for c in a[1:]:
            if c == "S":
                symbolic = True
            elif c == "p":
                portable = True
            else:
                _err(sh, io_, f"umask: -{c}: invalid option")
                io_.stderr.write(b"umask: usage: umask [-p] [-S] [mode]\n")
                return 2
    mask = getattr(sh, "umask", DEFAULT_UMASK)
    if not args:
        shown = _show_symbolic(mask) if symbolic else f"{mask:04o}"
        prefix = ("umask -S " if symbolic else "umask ") if portable else ""
        _say(io_, prefix + shown + "\n")
        return 0
    mode = args[0]
    if mode[:1].isdigit():
        if not re.fullmatch(r"[0-7]+", mode) or int(mode, 8) > 0o7777:
            _err(sh, io_, f"umask: {mode}: octal number out of range")
            return 1
        mask = int(mode, 8) & 0o777
    else:
        try:
            mask = _apply_symbolic(mask, mode)
        except _ModeError as exc:
            _err(sh, io_, f"umask: {exc}")
            return 1
    sh.umask = mask  # type: ignore[attr-defined]
    if symbolic:
        _say(io_, _show_symbolic(mask) + "\n")
    return 0
