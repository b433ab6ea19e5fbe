"""``base64``: base64 encode or decode a file (GNU coreutils 9.1: -d -i -w); see ``_basenc``."""

from __future__ import annotations

from sandbox.commands._basenc import run_basenc
from sandbox.commands.base import CommandContext


def run(ctx: CommandContext) -> int:
    """Run ``base64``."""
    return run_basenc(ctx, "base64")
