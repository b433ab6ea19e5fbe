"""``nice``: run a command with a modified niceness, or print the niceness (GNU coreutils 9.1).

``nice [-n N | --adjustment=N | -N] [COMMAND [ARG]...]``. Without a command it prints the
current niceness (0 at the start of a run). The niceness is the sandbox's own: a number that a
``nice`` run inside the command sees (``nice -n 5 nice`` prints 5), clamped to -20..19 as the
kernel clamps it; no host process priority changes. The virtual user is not privileged, so
lowering the niceness fails as it does for an ordinary user (``cannot set niceness:
Permission denied``, and the command runs at the niceness it had). The command runs through
``ctx.run_command`` (the guard checks its name first, see ``runs``). Exit statuses: 125 for
nice's own errors, 127 when the command is not found, 126 when it cannot be run.
"""

from __future__ import annotations

from contextvars import ContextVar

from sandbox.commands._quoting import quote
from sandbox.commands._subcommand import spawn
from sandbox.commands.base import CommandContext

USAGE = """Usage: nice [OPTION] [COMMAND [ARG]...]
Run COMMAND with an adjusted niceness, which affects process scheduling.
With no COMMAND, print the current niceness.  Niceness values range from
-20 (most favorable to the process) to 19 (least favorable to the process).

Mandatory arguments to long options are mandatory for short options too.
  -n, --adjustment=N   add integer N to the niceness (default 10)
      --help        display this help and exit
      --version     output version information and exit

NOTE: your shell may have its own version of nice, which usually supersedes
the version described here.  Please refer to your shell's documentation
for details about the options it supports.

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Report any translation bugs to <https://translationproject.org/team/>
Full documentation <https://www.gnu.org/software/coreutils/nice>
or available locally via: info '(coreutils) nice invocation'
"""

VERSION = """nice (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by David MacKenzie."""
EXIT_CANCELED = 125
#: The niceness of the commands running now (the run starts at 0).
NICENESS: ContextVar[int] = ContextVar("sandbox_niceness", default=0)
_LONG = ("adjustment", "help", "version")


class _Usage(Exception):
    """A command-line error: the message (None for a bare usage exit)."""


def _is_obsolete(s: str) -> bool:
    """GNU's test for the obsolete ``-N`` / ``--N`` / ``-+N`` form."""
    if len(s) < 2 or s[0] != "-":
        return False
    k = 2 if s[1] in "-+" else 1
    return k < len(s) and s[k] in "0123456789"


def parse(args: list[str]) -> tuple[str | None, int, str | None]:
    """(adjustment text or None, index of COMMAND (``len(args)`` when none), action): action is
    ``"help"`` or ``"version"`` when one was asked for. Raises ``_Usage`` with glibc's message
    for a bad option. The loop is nice.c's: the obsolete ``-N`` form is checked before each
    getopt step, so both forms may be mixed (the last one wins)."""
    adjustment: str | None = None
    i = 0
    while i < len(args):
        s = args[i]
        if _is_obsolete(s):
            adjustment = s[1:]
            i += 1
            continue
        if s == "--":
            return adjustment, i + 1, None
        if not s.startswith("-") or s == "-":
            break
        if s.startswith("--"):
            name, eq, value = s[2:].partition("=")
            full = [n for n in _LONG if n.startswith(name)]
            if not full:
                raise _Usage(f"unrecognized option '{s}'")
            long = full[0]
            if long != "adjustment":
                if eq:
                    raise _Usage(f"option '--{long}' doesn't allow an argument")
                return adjustment, i + 1, long
            if not eq:
                if i + 1 >= len(args):
                    raise _Usage(f"option '--{long}' requires an argument")
                value = args[i + 1]
                i += 1
            adjustment = value
            i += 1
            continue
        if s[1] != "n":
            raise _Usage(f"invalid option -- '{s[1]}'")
        if len(s) > 2:
            adjustment = s[2:]
        elif i + 1 < len(args):
            adjustment = args[i + 1]
            i += 1
        else:
            raise _Usage("option requires an argument -- 'n'")
        i += 1
    return adjustment, i, None


def _strtol(text: str) -> int | None:
    """gnulib ``xstrtol(text, base 10, no suffixes)``: leading blanks and a sign, then digits
    and nothing else; an overflow saturates (accepted, as nice accepts it). None if invalid."""
    s = text.lstrip(" \t\n\v\f\r")
    sign = 1
    if s[:1] in ("+", "-"):
        sign = -1 if s[0] == "-" else 1
        s = s[1:]
    if not s or not s.isascii() or not s.isdigit():
        return None
    value = sign * int(s) if len(s) < 40 else sign * (1 << 63)
    return max(-(1 << 63), min(value, (1 << 63) - 1))


def runs(args: list[str]) -> list[list[str]]:
    """The command nice would run (the operands after its options), if any."""
    try:
        _, i, action = parse(args)
    except _Usage:
        return []
    return [args[i:]] if action is None and i < len(args) else []


def run(ctx: CommandContext) -> int:
    """``nice``."""
    args = ctx.args
    try:
        adjustment, i, action = parse(args)
    except _Usage as err:
        return ctx.usage_error(str(err), EXIT_CANCELED)
    if action == "help":
        ctx.stdout.write(USAGE.encode())
        return 0
    if action == "version":
        ctx.stdout.write(f"{VERSION}\n".encode())
        return 0
    step = 10
    if adjustment is not None:
        value = _strtol(adjustment)
        if value is None:
            ctx.error(f"invalid adjustment {quote(adjustment)}")
            return EXIT_CANCELED
        step = max(-39, min(value, 39))
    current = NICENESS.get()
    if i >= len(args):
        if adjustment is not None:
            return ctx.usage_error("a command must be given with an adjustment", EXIT_CANCELED)
        ctx.stdout.write(f"{current}\n".encode())
        return 0
    wanted = max(-20, min(current + step, 19))
    if wanted < current:  # only a privileged process may lower its niceness
        ctx.error("cannot set niceness: Permission denied")
        wanted = current
    token = NICENESS.set(wanted)
    try:
        return spawn(ctx, args[i:], lambda name, why: f"{quote(name)}: {why}")
    finally:
        NICENESS.reset(token)
