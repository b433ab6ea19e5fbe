"""``sha1sum``: print or check SHA1 checksums (GNU coreutils 9.1); see ``_digests``."""

from __future__ import annotations

from sandbox.commands._digests import run_digest
from sandbox.commands.base import CommandContext


def run(ctx: CommandContext) -> int:
    """Run ``sha1sum``."""
    return run_digest(ctx, "sha1sum")
