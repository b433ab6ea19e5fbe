"""``jq`` for the sandbox: the jq language (1.7/1.8) in pure Python.

Modules: ``lexer`` (tokens), ``parser`` (AST), ``compiler`` (name resolution, AST to nodes),
``interp`` (evaluation), ``builtins`` (the builtin library), ``values`` (ordering, number
formatting, JSON output), ``jsonparse`` (streaming input), ``formats`` (``@csv``...),
``jqregex`` (regular expressions), ``dates`` (time functions), ``cli`` (options and exit
statuses). Refused: modules (``import``, ``include``, ``-L``, ``modulemeta``,
``get_search_list``); ``env``/``$ENV`` only show the sandbox environment.
"""

from __future__ import annotations

from sandbox.commands.base import CommandContext
from sandbox.commands.jq.cli import run as _run


def run(ctx: CommandContext) -> int:
    """Run ``jq`` with ``ctx.argv``; see ``cli.run``."""
    return _run(ctx)


__all__ = ["run"]
