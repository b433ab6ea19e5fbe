"""``printenv``: print the sandbox environment, or the values of named variables (coreutils 9.1).

``-0``/``--null`` ends each entry with NUL. Exit 1 if a named variable is not set (or a name
contains ``=``), 2 on a usage error, as GNU.
"""

from __future__ import annotations

from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_command_line

SPEC = OptionSpec("0", {"null": (NO_ARG, "0"), "help": (NO_ARG, "help"),
                        "version": (NO_ARG, "version")})

USAGE = """Usage: printenv [OPTION]... [VARIABLE]...
Print the values of the specified environment VARIABLE(s).
If no VARIABLE is specified, print name and value pairs for them all.

  -0, --null     end each output line with NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
"""


def run(ctx: CommandContext) -> int:
    """``printenv``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="printenv (GNU coreutils) 9.1",
                                usage_status=2)
    if isinstance(parsed, int):
        return parsed
    opts, names = parsed
    end = b"\0" if opts else b"\n"
    if not names:
        ctx.stdout.write(b"".join(f"{k}={v}".encode("utf-8", "surrogateescape") + end
                                  for k, v in ctx.env.items()))
        return 0
    status = 0
    out = []
    for name in names:
        if "=" not in name and name in ctx.env:
            out.append(ctx.env[name].encode("utf-8", "surrogateescape") + end)
        else:
            status = 1
    ctx.stdout.write(b"".join(out))
    return status
