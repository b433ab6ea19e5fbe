"""``kernel_lstat``: a name looked up in the jail as the kernel's ``lstat(2)`` does, with its
errors (``File name too long`` beyond NAME_MAX 255 / PATH_MAX 4096, ``Not a directory`` through
a file or after a trailing slash on one), for commands that report them (pathchk, sync,
unlink)."""

from __future__ import annotations

import errno

from sandbox.commands.base import CommandContext
from sandbox.fs.base import FileStat, FSError

#: The virtual file system's limits (those of Linux on ext4).
NAME_MAX = 255
PATH_MAX = 4096


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def kernel_lstat(ctx: CommandContext, operand: str) -> FileStat:
    """``lstat(2)`` of an operand in the jail, with the kernel's errors: ENOENT for ``""``,
    ENAMETOOLONG for a name of PATH_MAX bytes or a component over NAME_MAX (met while walking,
    so a missing directory before it is ENOENT), ENOTDIR through a file or for ``file/``."""
    data = _bytes(operand)
    if not data:
        raise FSError(errno.ENOENT, "")
    if len(data) >= PATH_MAX:
        raise FSError(errno.ENAMETOOLONG, operand)
    parts = data.split(b"/")
    for i, part in enumerate(parts):
        if not part:
            continue
        if len(part) > NAME_MAX:
            raise FSError(errno.ENAMETOOLONG, operand)
        if i + 1 < len(parts):
            prefix = b"/".join(parts[: i + 1]) or b"/"
            if not ctx.stat(prefix.decode("utf-8", "surrogateescape")).is_dir:
                raise FSError(errno.ENOTDIR, operand)
    st = ctx.stat(operand)
    if data.endswith(b"/") and not st.is_dir:
        raise FSError(errno.ENOTDIR, operand)
    return st
