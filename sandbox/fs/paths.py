"""Pure functions on virtual POSIX paths (no filesystem access)."""

from __future__ import annotations

import errno

from sandbox.fs.base import FSError


def normalize(path: str, cwd: str = "/") -> str:
    """Return the absolute, normalised virtual path of ``path`` seen from ``cwd``.

    ``.`` and empty components vanish and ``..`` removes the previous component; ``..`` at
    the root stays at the root, so nothing can climb above ``/``. A NUL byte is refused with
    ``EINVAL``. The result always starts with ``/`` and never ends with ``/`` (except ``/``).
    """
    if "\x00" in path:
        raise FSError(errno.EINVAL, "", "Invalid argument (NUL byte in path)")
    if not path.startswith("/"):
        path = cwd.rstrip("/") + "/" + path
    parts: list[str] = []
    for part in path.split("/"):
        if part == "" or part == ".":
            continue
        if part == "..":
            if parts:
                parts.pop()
            continue
        parts.append(part)
    return "/" + "/".join(parts)


def split(path: str) -> tuple[str, str]:
    """Split a normalised absolute path into (parent, name); ``/`` gives ``("/", "")``."""
    if path == "/":
        return "/", ""
    head, _, tail = path.rpartition("/")
    return head or "/", tail


def join(parent: str, name: str) -> str:
    """Join a normalised absolute directory and a single name."""
    return (parent.rstrip("/") + "/" + name) if parent != "/" else "/" + name
