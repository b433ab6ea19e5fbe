"""``b2sum``: print or check BLAKE2b checksums (GNU coreutils 9.1); see ``_digests``."""

from __future__ import annotations

from sandbox.commands._digests import run_digest
from sandbox.commands.base import CommandContext


def run(ctx: CommandContext) -> int:
    """Run ``b2sum``."""
    return run_digest(ctx, "b2sum")
