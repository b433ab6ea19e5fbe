"""``whoami``: print the sandbox's virtual user name (``user``), as coreutils 9.1's whoami."""

from __future__ import annotations

from sandbox.commands._identity import USER
from sandbox.commands._quoting import quote
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_command_line

SPEC = OptionSpec("", {"help": (NO_ARG, "help"), "version": (NO_ARG, "version")})
USAGE = """Usage: whoami [OPTION]...
Print the user name associated with the current effective user ID.
Same as id -un.

      --help        display this help and exit
      --version     output version information and exit
"""


def run(ctx: CommandContext) -> int:
    """Run ``whoami``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="whoami (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    _, operands = parsed
    if operands:
        return ctx.usage_error(f"extra operand {quote(operands[0])}")
    ctx.stdout.write(f"{USER}\n".encode())
    return 0
