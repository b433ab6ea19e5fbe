"""gnulib ``canonicalize_filename_mode`` over the jail, for ``readlink`` and ``realpath``.

Canonicalising resolves ``.``, ``..`` and symbolic links against the working directory, with
the existence checks of the mode: ``e`` (every component must exist), ``f`` (all but the
last), ``m`` (none). A link is resolved by its text, as a name inside the jail (an absolute
text starts again at the virtual root): nothing is opened through it, so a link can never
lead out of the jail; more than ``MAX_LINKS`` links in one name is ``ELOOP``. ``nolinks``
(``realpath -s``) resolves no link in the name; its existence checks follow links, as the
kernel's ``stat`` does.
"""

from __future__ import annotations

import errno

from sandbox.commands.base import CommandContext
from sandbox.fs.base import LINK, FileStat, FSError
from sandbox.fs.paths import normalize

EXISTING, ALL_BUT_LAST, MISSING = "e", "f", "m"
#: Links one name may go through (the kernel's and gnulib's limit).
MAX_LINKS = 40


def _lstat(ctx: CommandContext, parts: list[str]) -> FileStat | None:
    try:
        return ctx.fs.lstat("/" + "/".join(parts))
    except FSError as e:
        if e.errno in (errno.ENOENT, errno.ENOTDIR):
            return None
        raise


def _stat(ctx: CommandContext, parts: list[str]) -> FileStat | None:
    """What ``stat`` (following links) says of ``parts``; None when it does not exist."""
    try:
        target = canonicalize(ctx, "/" + "/".join(parts), EXISTING)
    except FSError as e:
        if e.errno in (errno.ENOENT, errno.ENOTDIR):
            return None
        raise
    return _lstat(ctx, [p for p in target.split("/") if p])


def stat_through(ctx: CommandContext, name: str, follow: bool = True) -> tuple[FileStat, str]:
    """(stat, virtual path) of ``name`` with the links in it resolved by name, as the
    kernel's ``stat`` (``follow``) or ``lstat`` (the last component not followed) would;
    ``name/`` follows the last link too and must be a directory (``ENOTDIR``). Raises
    ``FSError``. No link is opened."""
    slash = name.endswith("/") and name.strip("/") != ""
    follow = follow or slash
    head, _, last = name.rstrip("/").rpartition("/")
    whole = last in ("", ".", "..")  # no last name to keep unresolved

    def above() -> str:  # the directories above the last name, their links resolved
        if whole:
            return canonicalize(ctx, name, EXISTING)
        where = canonicalize(ctx, head or ("/" if name.startswith("/") else "."), EXISTING)
        return where.rstrip("/") + "/" + last

    # `link/..` is the parent of what the link names: resolved, not cut lexically; `x/.` and
    # `x/..` need x to be a directory (`missing/..` is ENOENT, `file/.` ENOTDIR)
    path = above() if ".." in head.split("/") or (whole and head) else normalize(name, ctx.cwd)
    try:
        st = ctx.fs.lstat(path)
    except FSError as e:
        if e.errno != errno.ELOOP:  # ELOOP: a link above the last component
            raise
        path = above()
        st = ctx.fs.lstat(path)
    if follow and st.kind == LINK:
        path = canonicalize(ctx, path, EXISTING)
        st = ctx.fs.lstat(path)
    if slash and not st.is_dir:
        raise FSError(errno.ENOTDIR, name)
    return st, path


def canonicalize(ctx: CommandContext, name: str, mode: str, nolinks: bool = False) -> str:
    """The absolute virtual path ``name`` names; raises ``FSError`` as gnulib fails."""
    if name == "":
        raise FSError(errno.ENOENT, "")
    resolved = [] if name.startswith("/") else [p for p in ctx.cwd.split("/") if p]
    pending = name.split("/")
    pending.reverse()  # popped from the end
    links = 0
    while pending:
        ctx.budget.check_time()
        comp = pending.pop()
        if comp == "" or comp == ".":
            continue
        more_text = bool(pending)
        last = all(p == "" for p in pending)
        if comp == "..":
            if nolinks and resolved and mode != MISSING:
                st = _stat(ctx, resolved)
                if st is None:
                    raise FSError(errno.ENOENT, name)
                if not st.is_dir:
                    raise FSError(errno.ENOTDIR, name)
            if resolved:
                resolved.pop()
            continue
        resolved.append(comp)
        if nolinks and mode == MISSING:  # -ms: the name as written, nothing looked at
            continue
        st = _stat(ctx, resolved) if nolinks else _lstat(ctx, resolved)
        if st is not None and st.kind == LINK:
            links += 1
            if links > MAX_LINKS:
                if mode == MISSING:  # -m: the name stays as it is, as gnulib leaves it
                    continue
                raise FSError(errno.ELOOP, name)
            text = ctx.fs.readlink("/" + "/".join(resolved))
            resolved.pop()
            if text.startswith("/"):
                resolved = []
            pending.extend(reversed(text.split("/")))
            continue
        if mode == MISSING:
            continue
        if st is None:
            if (nolinks and mode != EXISTING) or (mode == ALL_BUT_LAST and last):
                continue
            parent = _stat(ctx, resolved[:-1]) if resolved[:-1] else None
            raise FSError(errno.ENOTDIR if parent is not None and not parent.is_dir
                          else errno.ENOENT, name)
        if not st.is_dir and more_text:
            raise FSError(errno.ENOTDIR, name)
    if nolinks and mode != MISSING and resolved and [p for p in name.split("/") if p][-1:] == ["."]:
        st = _stat(ctx, resolved)
        if st is None:
            raise FSError(errno.ENOENT, name)
        if not st.is_dir:
            raise FSError(errno.ENOTDIR, name)
    return "/" + "/".join(resolved)
