"""gnulib ``canonicalize_filename_mode`` over the jail, for ``readlink`` and ``realpath``.

The jail has no symbolic links, so canonicalising is resolving ``.`` and ``..`` against the
working directory, plus the existence checks of the mode: ``e`` (every component must exist),
``f`` (all but the last), ``m`` (none). ``nolinks`` (``realpath -s``) checks only what the
kernel would for ``..`` and non-directories in the middle of the name.
"""

from __future__ import annotations

import errno

from sandbox.commands.base import CommandContext
from sandbox.fs.base import FileStat, FSError

EXISTING, ALL_BUT_LAST, MISSING = "e", "f", "m"


def _stat(ctx: CommandContext, parts: list[str]) -> FileStat | None:
    try:
        return ctx.fs.stat("/" + "/".join(parts))
    except FSError as e:
        if e.errno in (errno.ENOENT, errno.ENOTDIR):
            return None
        raise


def canonicalize(ctx: CommandContext, name: str, mode: str, nolinks: bool = False) -> str:
    """The absolute virtual path ``name`` names; raises ``FSError`` as gnulib fails."""
    if name == "":
        raise FSError(errno.ENOENT, "")
    resolved = [] if name.startswith("/") else [p for p in ctx.cwd.split("/") if p]
    pieces = name.split("/")
    n = len(pieces)
    for i, comp in enumerate(pieces):
        ctx.budget.check_time()
        if comp == "":
            continue
        more_text = i < n - 1
        last = all(p == "" for p in pieces[i + 1 :])
        if comp == ".":
            continue
        if comp == "..":
            if nolinks and resolved:
                st = _stat(ctx, resolved)
                if st is None:
                    raise FSError(errno.ENOENT, name)
                if not st.is_dir:
                    raise FSError(errno.ENOTDIR, name)
            if resolved:
                resolved.pop()
            continue
        resolved.append(comp)
        if mode == MISSING:
            continue
        st = _stat(ctx, resolved)
        if st is None:
            if nolinks or (mode == ALL_BUT_LAST and last):
                continue
            parent = _stat(ctx, resolved[:-1])
            raise FSError(errno.ENOTDIR if parent is not None and not parent.is_dir else errno.ENOENT, name)
        if not st.is_dir and more_text:
            raise FSError(errno.ENOTDIR, name)
    if nolinks and mode != MISSING and resolved and [p for p in pieces if p][-1:] == ["."]:
        st = _stat(ctx, resolved)
        if st is None:
            raise FSError(errno.ENOENT, name)
        if not st.is_dir:
            raise FSError(errno.ENOTDIR, name)
    return "/" + "/".join(resolved)
