"""``unlink``: remove exactly one file through the jail (GNU coreutils 9.1): a directory is
``cannot unlink 'd': Is a directory``; missing or extra operands are GNU's usage errors. The
write policy applies (``writes`` declares the operand)."""

from __future__ import annotations

import errno

from sandbox.commands._quoting import quote, quoteaf
from sandbox.commands._writing import operands_of
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_in_order
from sandbox.commands._lookup import kernel_lstat
from sandbox.fs.base import FSError

SPEC = OptionSpec("", {"help": (NO_ARG, "help"), "version": (NO_ARG, "version")})

USAGE = """Usage: unlink FILE
  or:  unlink OPTION
Call the unlink function to remove the specified FILE.

      --help        display this help and exit
      --version     output version information and exit
"""


def writes(args: list[str]) -> list[str]:
    """The file this command line would remove."""
    _, operands = operands_of(SPEC, args)
    return operands[:1]


def run(ctx: CommandContext) -> int:
    """Run ``unlink``."""
    parsed = parse_in_order(ctx, SPEC, USAGE, "unlink (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    _, operands = parsed
    if not operands:
        return ctx.usage_error("missing operand")
    if len(operands) > 1:
        return ctx.usage_error(f"extra operand {quote(operands[1])}")
    name = operands[0]
    try:
        if kernel_lstat(ctx, name).is_dir:
            raise FSError(errno.EISDIR, name)
        ctx.remove(name)
    except FSError as err:
        ctx.error(f"cannot unlink {quoteaf(name)}: {err.strerror}")
        return 1
    return 0
