"""Shared pieces of the commands that change files (mkdir touch rm mv cp tee).

Everything goes through ``CommandContext`` (policy, write budget) with the operand text the
user typed, so messages name paths exactly as GNU prints them.
"""

from __future__ import annotations

import errno

from sandbox.commands.base import CommandContext
from sandbox.commands.options import OptionSpec, UsageError, parse
from sandbox.fs.base import FSError

COPY_BLOCK = 1 << 20


def join(parent: str, name: str) -> str:
    """``parent/name`` as GNU prints it (no doubled slash)."""
    return parent + name if parent.endswith("/") else f"{parent}/{name}"


def basename(operand: str) -> str:
    """The last component of an operand as typed (``a/b/`` gives ``b``)."""
    stripped = operand.rstrip("/")
    if not stripped:
        return "/"
    return stripped.rsplit("/", 1)[-1]


def operands_of(spec: OptionSpec, args: list[str]) -> tuple[list[tuple[str, str | None]], list[str]]:
    """Options and operands, or ([], every non-option word) when the line does not parse."""
    try:
        return parse(spec, args)
    except UsageError:
        return [], [a for a in args if not a.startswith("-") or a == "-"]


def copy_file(ctx: CommandContext, src: str, dst: str) -> None:
    """Copy one regular file's bytes (streamed in pieces into an atomic whole-file write when
    small, or appended piece by piece for large files)."""
    with ctx.open_read(src) as stream:
        data = stream.read(COPY_BLOCK)
        rest = stream.read(1)
        if not rest:
            ctx.write_bytes(dst, data)
            return
        ctx.write_bytes(dst, b"")
        ctx.append_bytes(dst, data)
        pending = rest
        while True:
            block = stream.read(COPY_BLOCK)
            if pending:
                block = pending + block
                pending = b""
            if not block:
                return
            ctx.append_bytes(dst, block)
            ctx.budget.check_time()


def same_path(ctx: CommandContext, a: str, b: str) -> bool:
    """True if two operands name the same virtual path."""
    try:
        return ctx.path(a) == ctx.path(b)
    except FSError:
        return False


def is_inside(ctx: CommandContext, child: str, parent: str) -> bool:
    """True if operand ``child`` is ``parent`` or lies below it."""
    try:
        c, p = ctx.path(child), ctx.path(parent)
    except FSError:
        return False
    return c == p or c.startswith(p.rstrip("/") + "/")


def stat_operand(ctx: CommandContext, operand: str):
    """``ctx.stat`` that, like the kernel, refuses ``name/`` when ``name`` is not a directory."""
    st = ctx.stat(operand)
    if operand.endswith("/") and not st.is_dir:
        raise FSError(20, operand)  # ENOTDIR
    return st


def new_slash_errno(ctx: CommandContext, dst: str) -> int:
    """Why the kernel refuses to create a non-directory at a new ``name/``: ENOTDIR, unless
    resolving the parent already fails (``missing/dir/``: ENOENT)."""
    parent = dst.rstrip("/").rpartition("/")[0] or ("/" if dst.startswith("/") else ".")
    try:
        ctx.stat(parent)
    except FSError as e:
        return e.errno
    return 20  # ENOTDIR (a file parent too: it cannot hold the name)


def check_slashed_create(ctx: CommandContext, operand: str) -> None:
    """What open(2) with ``O_CREAT`` says of ``name/`` when name is no directory: EISDIR
    for a file or a new name, the parent's error when that does not resolve (raised as
    ``FSError``). A directory passes (the caller's own "Is a directory" follows)."""
    if not operand.endswith("/"):
        return
    try:
        if ctx.stat(operand).is_dir:
            return
    except FSError as e:
        if e.errno != errno.ENOENT or new_slash_errno(ctx, operand) != errno.ENOTDIR:
            raise
    raise FSError(errno.EISDIR, operand)


def copy_tree(ctx: CommandContext, src: str, dst: str, on_copied=None) -> None:
    """Copy ``src`` (file or directory) to a new ``dst``; raises FSError on the first failure."""
    st = ctx.stat(src)
    if not st.is_dir:
        copy_file(ctx, src, dst)
        if on_copied:
            on_copied(src, dst)
        return
    ctx.mkdir(dst)
    if on_copied:
        on_copied(src, dst)
    for name in ctx.listdir(src):
        ctx.budget.check_time()
        copy_tree(ctx, join(src, name), join(dst, name), on_copied)


def remove_tree(ctx: CommandContext, path: str) -> None:
    """Remove a file or a whole directory tree."""
    st = ctx.stat(path)
    if not st.is_dir:
        ctx.remove(path)
        return
    for name in ctx.listdir(path):
        ctx.budget.check_time()
        remove_tree(ctx, join(path, name))
    ctx.rmdir(path)
