"""What glibc's argp programs (``iconv``, ``locale``) do with the options and errors every one
of them has: ``--help``/``-?``, ``--usage``, ``-V``/``--version``, and a usage error's
``Try `PROG --help' or `PROG --usage'`` line with status 64."""

from __future__ import annotations

from sandbox.commands.base import CommandContext


def argp_error(ctx: CommandContext, message: str) -> int:
    """A command-line error as argp reports it: the message, its "Try" line, status 64."""
    ctx.error(message)
    ctx.stderr.write(f"Try `{ctx.prog} --help' or `{ctx.prog} --usage' for more information.\n"
                     .encode())
    return 64


def argp_info(ctx: CommandContext, keys: list[str], help_text: str, usage: str,
              version: str) -> bool:
    """Print the help, usage or version the first of ``keys`` that asks for one names (the
    parsed option keys ``?``, ``usage``, ``V``); True when one was printed (status 0)."""
    for key in keys:
        text = {"?": help_text, "usage": usage, "V": version}.get(key)
        if text is not None:
            ctx.stdout.write(text.encode())
            return True
    return False
