"""``yes``: repeat a line (its operands joined by spaces, default ``y``) until the reader goes,
as coreutils 9.1's yes. Output is written in blocks of about 64 KiB; it ends at a broken pipe,
the run's output limit or its time limit (each raises out of ``run``)."""

from __future__ import annotations

from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_command_line

SPEC = OptionSpec("", {"help": (NO_ARG, "help"), "version": (NO_ARG, "version")})
USAGE = """Usage: yes [STRING]...
  or:  yes OPTION
Repeatedly output a line with all specified STRING(s), or 'y'.

      --help        display this help and exit
      --version     output version information and exit
"""
BLOCK = 1 << 16


def run(ctx: CommandContext) -> int:
    """Run ``yes`` (returns only when the output is refused: BrokenPipe/LimitExceeded)."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="yes (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    _, operands = parsed
    line = ((" ".join(operands) if operands else "y") + "\n").encode("utf-8", "surrogateescape")
    block = line * max(1, BLOCK // len(line))
    while True:
        ctx.budget.check_time()
        ctx.stdout.write(block)
