"""``chown``: refused in one line (see ``_refused``); exit status 1."""

from __future__ import annotations

from sandbox.commands._refused import refuse
from sandbox.commands.base import CommandContext


def run(ctx: CommandContext) -> int:
    """Refuse ``chown``."""
    return refuse(ctx, "chown")
