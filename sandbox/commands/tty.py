"""``tty``: the sandbox's standard input is never a terminal, so this prints ``not a tty`` and
exits 1 (``-s``/``--silent``/``--quiet``: nothing, exit 1), as GNU coreutils 9.1 does off a
terminal; usage errors exit 2 as GNU's."""

from __future__ import annotations

from sandbox.commands._quoting import quote
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_in_order

SPEC = OptionSpec("s", {"silent": (NO_ARG, "s"), "quiet": (NO_ARG, "s"),
                        "help": (NO_ARG, "help"), "version": (NO_ARG, "version")})

USAGE = """Usage: tty [OPTION]...
Print the file name of the terminal connected to standard input.

  -s, --silent, --quiet   print nothing, only return an exit status
      --help        display this help and exit
      --version     output version information and exit
"""


def run(ctx: CommandContext) -> int:
    """Run ``tty``."""
    parsed = parse_in_order(ctx, SPEC, USAGE, "tty (GNU coreutils) 9.1", usage_status=2)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    if operands:
        return ctx.usage_error(f"extra operand {quote(operands[0])}", 2)
    if not any(key == "s" for key, _ in opts):
        ctx.stdout.write(b"not a tty\n")
    return 1
