"""``env``: print the environment, or run a command in a modified one (GNU coreutils 9.1).

``env [-i] [-0] [-u NAME]... [-C DIR] [-] [NAME=VALUE]... [COMMAND [ARG]...]``. The
environment is the sandbox's (the script's exported variables), never the host's. A command is
run through ``ctx.run_command`` (the allowlist is checked by the guard before the script runs,
and again there). ``-S``/``--split-string`` and the signal options are not supported (they are
GNU's "invalid option" here).
"""

from __future__ import annotations

import errno

from sandbox.commands._quoting import quote, quoteaf
from sandbox.commands._subcommand import spawn
from sandbox.commands.base import DYNAMIC, CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec("+iu:0C:", {
    "ignore-environment": (NO_ARG, "i"),
    "unset": (REQUIRED, "u"),
    "null": (NO_ARG, "0"),
    "chdir": (REQUIRED, "C"),
    "help": (NO_ARG, "help"),
    "version": (NO_ARG, "version"),
}, permute=False)

USAGE = """Usage: env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]
Set each NAME to VALUE in the environment and run COMMAND.

Mandatory arguments to long options are mandatory for short options too.
  -i, --ignore-environment  start with an empty environment
  -0, --null           end each output line with NUL, not newline
  -u, --unset=NAME     remove variable from the environment
  -C, --chdir=DIR      change working directory to DIR
      --help        display this help and exit
      --version     output version information and exit

A mere - implies -i.  If no COMMAND, print the resulting environment.
"""

VERSION = "env (GNU coreutils) 9.1"
SANDBOX_STATUS = 125


def _split(args: list[str]) -> tuple[list[str], list[str]]:
    """(option words, the rest) the way env's getopt (``+``, stop at the first operand) does."""
    i = 0
    takes = {"-u", "-C", "--unset", "--chdir"}
    while i < len(args):
        a = args[i]
        if a == "--":
            return args[:i + 1], args[i + 1:]
        if not a.startswith("-") or a == "-":
            break
        if a in takes or (a.startswith("-") and not a.startswith("--") and a[-1] in "uC"
                          and len(a) > 1):
            i += 1
        i += 1
    return args[:i], args[i:]


def runs(args: list[str]) -> list[list[str]]:
    """The command env would run (after its options and NAME=VALUE words), if any."""
    _, rest = _split(args)
    while rest and (rest[0] == "-" or ("=" in rest[0] and not rest[0].startswith(DYNAMIC))):
        rest = rest[1:]
    return [rest] if rest else []


def run(ctx: CommandContext) -> int:
    """``env``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version=VERSION, usage_status=SANDBOX_STATUS)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    env = dict(ctx.env)
    null = False
    chdir = None
    for key, value in opts:
        if key == "i":
            env = {}
        elif key == "u":
            assert value is not None
            if value == "" or "=" in value:
                ctx.error(f"cannot unset {quote(value)}: Invalid argument")
                return SANDBOX_STATUS
            env.pop(value, None)
        elif key == "0":
            null = True
        elif key == "C":
            chdir = value
    if operands and operands[0] == "-":
        env = {}
        operands = operands[1:]
    while operands and "=" in operands[0]:
        name, _, value = operands[0].partition("=")
        env[name] = value  # putenv: an existing variable keeps its place
        operands = operands[1:]
    if not operands:
        if chdir is not None:
            return ctx.usage_error("must specify command with --chdir (-C)", SANDBOX_STATUS)
        end = b"\0" if null else b"\n"
        ctx.stdout.write(b"".join(f"{k}={v}".encode("utf-8", "surrogateescape") + end
                                  for k, v in env.items()))
        return 0
    if null:
        return ctx.usage_error("cannot specify --null (-0) with command", SANDBOX_STATUS)
    cwd = None
    if chdir is not None:
        try:
            cwd = ctx.path(chdir)
            if not ctx.fs.stat(cwd).is_dir:
                raise FSError(errno.ENOTDIR, chdir)
        except FSError as exc:
            ctx.error(f"cannot change directory to {quoteaf(chdir)}: {exc}")
            return SANDBOX_STATUS
    return spawn(ctx, operands, lambda name, why: f"{quote(name)}: {why}", env=env, cwd=cwd)
