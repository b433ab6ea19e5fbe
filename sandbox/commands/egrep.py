"""``egrep``: GNU grep 3.8's wrapper: ``egrep: warning: egrep is obsolescent`` on stderr, then
``grep -E`` with the same arguments."""

from __future__ import annotations

from sandbox.commands._grep_wrapper import run_as
from sandbox.commands.base import CommandContext


def run(ctx: CommandContext) -> int:
    """Run ``grep -E`` after the obsolescence warning."""
    return run_as(ctx, "-E")
