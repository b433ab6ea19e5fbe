"""``sync``: a no-op in the sandbox (every write is already durable in the jail), with GNU
coreutils 9.1's command line: ``-d``/``--data`` and ``-f``/``--file-system`` are accepted (not
both; ``-d`` needs a FILE), and each FILE must exist (``error opening 'x': No such file or
directory``, exit 1)."""

from __future__ import annotations

from sandbox.commands._quoting import quoteaf
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_in_order
from sandbox.commands._lookup import kernel_lstat
from sandbox.fs.base import FSError

SPEC = OptionSpec("df", {"data": (NO_ARG, "d"), "file-system": (NO_ARG, "f"),
                         "help": (NO_ARG, "help"), "version": (NO_ARG, "version")})

USAGE = """Usage: sync [OPTION] [FILE]...
Synchronize cached writes to persistent storage

If one or more files are specified, sync only them,
or their containing file systems.

  -d, --data             sync only file data, no unneeded metadata
  -f, --file-system      sync the file systems that contain the files
      --help        display this help and exit
      --version     output version information and exit
"""


def run(ctx: CommandContext) -> int:
    """Run ``sync``."""
    parsed = parse_in_order(ctx, SPEC, USAGE, "sync (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    keys = {key for key, _ in opts}
    if "d" in keys and "f" in keys:
        ctx.error("cannot specify both --data and --file-system")
        return 1
    if "d" in keys and not operands:
        ctx.error("--data needs at least one argument")
        return 1
    ok = True
    for name in operands:
        try:
            kernel_lstat(ctx, name)
        except FSError as err:
            ctx.error(f"error opening {quoteaf(name)}: {err.strerror}")
            ok = False
    return 0 if ok else 1
