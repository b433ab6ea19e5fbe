"""``sha512sum``: print or check SHA512 checksums (GNU coreutils 9.1); see ``_digests``."""

from __future__ import annotations

from sandbox.commands._digests import run_digest
from sandbox.commands.base import CommandContext


def run(ctx: CommandContext) -> int:
    """Run ``sha512sum``."""
    return run_digest(ctx, "sha512sum")
