"""Commands the jail refuses by design (``ln``, ``chmod``, ``chown``): one line saying why, exit 1.

They never touch a file, so they declare no writes.
"""

from __future__ import annotations

from sandbox.commands.base import CommandContext

REASONS = {
    "ln": "links are not supported in the sandbox: the jail never follows links; copy the file with cp instead",
    "chmod": "changing permissions is not supported in the sandbox: memory files stay private (0600)",
    "chown": "changing ownership is not supported in the sandbox: files have no owners here and memory files stay private",
}


def refuse(ctx: CommandContext, name: str) -> int:
    """Print the one-line refusal for ``name`` and return 1."""
    ctx.error(REASONS[name])
    return 1
