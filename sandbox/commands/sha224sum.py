"""``sha224sum``: print or check SHA224 checksums (GNU coreutils 9.1); see ``_digests``."""

from __future__ import annotations

from sandbox.commands._digests import run_digest
from sandbox.commands.base import CommandContext


def run(ctx: CommandContext) -> int:
    """Run ``sha224sum``."""
    return run_digest(ctx, "sha224sum")
