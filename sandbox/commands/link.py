"""``link``: refused in one line with ``ln``'s reason (see ``_refused``), exit 1. Usage errors
(missing or extra operand), ``--help`` and ``--version`` are GNU coreutils 9.1's. It never
touches a file, so it declares no writes."""

from __future__ import annotations

from sandbox.commands._quoting import quote
from sandbox.commands._refused import refuse
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_in_order

SPEC = OptionSpec("", {"help": (NO_ARG, "help"), "version": (NO_ARG, "version")})

USAGE = """Usage: link FILE1 FILE2
  or:  link OPTION
Call the link function to create a link named FILE2 to an existing FILE1.

      --help        display this help and exit
      --version     output version information and exit
"""


def run(ctx: CommandContext) -> int:
    """Check the command line as GNU's link does, then refuse."""
    parsed = parse_in_order(ctx, SPEC, USAGE, "link (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    _, operands = parsed
    if not operands:
        return ctx.usage_error("missing operand")
    if len(operands) == 1:
        return ctx.usage_error(f"missing operand after {quote(operands[0])}")
    if len(operands) > 2:
        return ctx.usage_error(f"extra operand {quote(operands[2])}")
    return refuse(ctx, "ln")
