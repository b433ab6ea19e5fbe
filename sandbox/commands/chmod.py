"""``chmod``: refused in one line (see ``_refused``); exit status 1."""

from __future__ import annotations

from sandbox.commands._refused import refuse
from sandbox.commands.base import CommandContext


def run(ctx: CommandContext) -> int:
    """Refuse ``chmod``."""
    return refuse(ctx, "chmod")
