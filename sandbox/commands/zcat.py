"""``zcat``: ``gzip -cd`` (GNU gzip 1.12's zcat script: its own ``--help``/``--version`` as
the first argument, otherwise every message is gzip's). It never writes a file."""

from __future__ import annotations

from sandbox.commands import gzip as _gzip
from sandbox.commands.base import CommandContext

USAGE = """Usage: /usr/bin/zcat [OPTION]... [FILE]...
Uncompress FILEs to standard output.

  -f, --force       force; read compressed data even from a terminal
  -l, --list        list compressed file contents
  -q, --quiet       suppress all warnings
  -r, --recursive   operate recursively on directories
  -S, --suffix=SUF  use suffix SUF on compressed files
      --synchronous synchronous output (safer if system crashes, but slower)
  -t, --test        test compressed file integrity
  -v, --verbose     verbose mode
      --help        display this help and exit
      --version     display version information and exit

With no FILE, or when FILE is -, read standard input.

Report bugs to <bug-gzip@gnu.org>.
"""

VERSION = """zcat (gzip) 1.12
Copyright (C) 2007, 2011-2018 Free Software Foundation, Inc.
This is free software.  You may redistribute copies of it under the terms of
the GNU General Public License <https://www.gnu.org/licenses/gpl.html>.
There is NO WARRANTY, to the extent permitted by law.

Written by Paul Eggert.
"""


def run(ctx: CommandContext) -> int:
    """Run ``gzip -cd`` with ``ctx.args``."""
    if ctx.args[:1] == ["--help"]:
        ctx.stdout.write(USAGE.encode())
        return 0
    if ctx.args[:1] == ["--version"]:
        ctx.stdout.write(VERSION.encode())
        return 0
    return _gzip.Gzip(ctx).main(["-cd", *ctx.args])
