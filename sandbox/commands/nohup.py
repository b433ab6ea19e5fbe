"""``nohup``: run a command immune to hangups (GNU coreutils 9.1).

``nohup COMMAND [ARG]...``. In the sandbox no standard stream is ever a terminal, so GNU's
redirections never apply: standard input stays as it is, output goes where the script sends it,
no ``nohup.out`` is created (GNU creates it only when standard output is a terminal) and no
"ignoring input" message is printed (GNU prints one only when standard input is a terminal).
There are no signals to ignore. The command runs through ``ctx.run_command`` (the guard checks
its name first, see ``runs``). Exit statuses: 125 for nohup's own errors, 127 when the
command is not found, 126 when it cannot be run, else the command's.
"""

from __future__ import annotations

from sandbox.commands._quoting import quoteaf
from sandbox.commands._subcommand import spawn
from sandbox.commands.base import CommandContext

USAGE = """Usage: nohup COMMAND [ARG]...
  or:  nohup OPTION
Run COMMAND, ignoring hangup signals.

      --help        display this help and exit
      --version     output version information and exit

If standard input is a terminal, redirect it from an unreadable file.
If standard output is a terminal, append output to 'nohup.out' if possible,
'$HOME/nohup.out' otherwise.
If standard error is a terminal, redirect it to standard output.
To save output to FILE, use 'nohup COMMAND > FILE'.

NOTE: your shell may have its own version of nohup, which usually supersedes
the version described here.  Please refer to your shell's documentation
for details about the options it supports.

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Report any translation bugs to <https://translationproject.org/team/>
Full documentation <https://www.gnu.org/software/coreutils/nohup>
or available locally via: info '(coreutils) nohup invocation'
"""

VERSION = """nohup (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Jim Meyering."""
EXIT_CANCELED = 125


def _first_option(args: list[str]) -> tuple[str | None, str | None]:
    """(``"help"``/``"version"``/``"--"``/None, glibc's error message or None): what nohup's
    getopt makes of its first argument (it acts on the first option only)."""
    if not args or not args[0].startswith("-") or args[0] == "-":
        return None, None
    a = args[0]
    if a == "--":
        return "--", None
    if not a.startswith("--"):
        return None, f"invalid option -- '{a[1]}'"
    name, eq, _ = a[2:].partition("=")
    full = [n for n in ("help", "version") if n.startswith(name)]
    if not full:
        return None, f"unrecognized option '{a}'"
    if eq:
        return None, f"option '--{full[0]}' doesn't allow an argument"
    return full[0], None


def runs(args: list[str]) -> list[list[str]]:
    """The command nohup would run, if any."""
    action, error = _first_option(args)
    if error is not None or action in ("help", "version"):
        return []
    rest = args[1:] if action == "--" else args
    return [rest] if rest else []


def run(ctx: CommandContext) -> int:
    """``nohup``."""
    args = ctx.args
    action, error = _first_option(args)
    if error is not None:
        return ctx.usage_error(error, EXIT_CANCELED)
    if action == "help":
        ctx.stdout.write(USAGE.encode())
        return 0
    if action == "version":
        ctx.stdout.write(f"{VERSION}\n".encode())
        return 0
    operands = args[1:] if action == "--" else args
    if not operands:
        return ctx.usage_error("missing operand", EXIT_CANCELED)
    return spawn(ctx, operands,
                 lambda name, why: f"failed to run command {quoteaf(name)}: {why}")
