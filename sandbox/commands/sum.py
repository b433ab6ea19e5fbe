"""``sum``: checksum and count the blocks of files (GNU coreutils 9.1): ``-r`` (BSD, the
default), ``-s``/``--sysv`` (System V). See ``_sums``."""

from __future__ import annotations

from sandbox.commands._quoting import quotef
from sandbox.commands._sums import bsd_line, bsd_sum, sysv_line, sysv_sum
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec("rs", {"sysv": (NO_ARG, "s"), "help": (NO_ARG, "help"), "version": (NO_ARG, "version")})

USAGE = """Usage: sum [OPTION]... [FILE]...
Print checksum and block counts for each FILE.

With no FILE, or when FILE is -, read standard input.

  -r              use BSD sum algorithm (the default), use 1K blocks
  -s, --sysv      use System V sum algorithm, use 512 bytes blocks
      --help        display this help and exit
      --version     output version information and exit
"""


def run(ctx: CommandContext) -> int:
    """Run ``sum``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="sum (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    sysv = False
    for key, _ in opts:
        sysv = key == "s"
    status = 0
    for name in operands or ["-"]:
        try:
            with ctx.open_read("/dev/stdin" if name == "-" else name) as stream:
                checksum, total = (sysv_sum if sysv else bsd_sum)(ctx, stream)
        except FSError as e:
            ctx.error(f"{quotef(name)}: {e}")
            status = 1
            continue
        text = (sysv_line if sysv else bsd_line)(checksum, total)
        if operands:
            text += " " + name
        ctx.stdout.write(text.encode("utf-8", "surrogateescape") + b"\n")
    return status
