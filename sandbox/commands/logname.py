"""``logname``: print the sandbox's virtual login name (``_identity.USER``), never the host's;
messages as GNU coreutils 9.1's logname."""

from __future__ import annotations

from sandbox.commands._identity import USER
from sandbox.commands._quoting import quote
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_in_order

SPEC = OptionSpec("", {"help": (NO_ARG, "help"), "version": (NO_ARG, "version")})

USAGE = """Usage: logname [OPTION]
Print the user's login name.

      --help        display this help and exit
      --version     output version information and exit
"""


def run(ctx: CommandContext) -> int:
    """Run ``logname``."""
    parsed = parse_in_order(ctx, SPEC, USAGE, "logname (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    _, operands = parsed
    if operands:
        return ctx.usage_error(f"extra operand {quote(operands[0])}")
    ctx.stdout.write(f"{USER}\n".encode())
    return 0
