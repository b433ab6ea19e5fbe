"""``rmdir``: remove empty directories (GNU coreutils 9.1): ``-p``, ``-v``,
``--ignore-fail-on-non-empty``. Removal goes through the jail and the write policy."""

from __future__ import annotations

import errno

from sandbox.commands._quoting import quoteaf
from sandbox.commands._writing import operands_of
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    "pv",
    {
        "ignore-fail-on-non-empty": (NO_ARG, "ignore"),
        "parents": (NO_ARG, "p"),
        "verbose": (NO_ARG, "v"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: rmdir [OPTION]... DIRECTORY...
Remove the DIRECTORY(ies), if they are empty.

      --ignore-fail-on-non-empty
                    ignore each failure that is solely because a directory
                    is non-empty
  -p, --parents     remove DIRECTORY and its ancestors; e.g., 'rmdir -p a/b/c' is
                    similar to 'rmdir a/b/c a/b a'
  -v, --verbose     output a diagnostic for every directory processed
      --help        display this help and exit
      --version     output version information and exit
"""


def writes(args: list[str]) -> list[str]:
    """The directories this command line may remove (with ``-p``, their parents too)."""
    opts, operands = operands_of(SPEC, args)
    found = list(operands)
    if any(k == "p" for k, _ in opts):
        for operand in operands:
            path = operand.rstrip("/")
            while "/" in path:
                path = path[: path.rfind("/")].rstrip("/")
                if path:
                    found.append(path)
    return found


def _rmdir(ctx: CommandContext, operand: str) -> None:
    """rmdir(2) on an operand, with the kernel's answers for ``.``, ``..`` and ``/``."""
    stripped = operand.rstrip("/")
    if operand and not stripped:
        raise FSError(errno.EBUSY, "/")
    last = stripped.rsplit("/", 1)[-1]
    if last in (".", ".."):
        ctx.path(stripped)  # ENOENT / ENOTDIR for a bad prefix
        if "/" in stripped:
            prefix = stripped.rsplit("/", 1)[0] or "/"
            if not ctx.stat(prefix).is_dir:
                raise FSError(errno.ENOTDIR, prefix)
        raise FSError(errno.EINVAL if last == "." else errno.ENOTEMPTY, operand)
    ctx.rmdir(operand)


def _ignorable(ignore: bool, err: FSError) -> bool:
    return ignore and err.errno in (errno.ENOTEMPTY, errno.EEXIST)


def _say(ctx: CommandContext, verbose: bool, name: str) -> None:
    if verbose:
        ctx.stdout.write(f"rmdir: removing directory, {quoteaf(name)}\n".encode("utf-8", "surrogateescape"))


def _remove_parents(ctx: CommandContext, operand: str, ignore: bool, verbose: bool) -> bool:
    path = operand.rstrip("/") or operand
    while True:
        ctx.budget.check_time()
        slash = path.rfind("/")
        if slash < 0:
            return True
        while slash > 0 and path[slash] == "/":
            slash -= 1
        path = path[: slash + 1]
        _say(ctx, verbose, path)
        try:
            _rmdir(ctx, path)
        except FSError as e:
            if _ignorable(ignore, e):
                return True
            what = "failed to remove" if e.errno == errno.ENOTDIR else "failed to remove directory"
            ctx.error(f"{what} {quoteaf(path)}: {e}")
            return False


def run(ctx: CommandContext) -> int:
    """Run ``rmdir``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="rmdir (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    keys = {k for k, _ in opts}
    parents, verbose, ignore = "p" in keys, "v" in keys, "ignore" in keys
    if not operands:
        return ctx.usage_error("missing operand")
    ok = True
    for operand in operands:
        ctx.budget.check_time()
        _say(ctx, verbose, operand)
        try:
            _rmdir(ctx, operand)
        except FSError as e:
            if _ignorable(ignore, e):
                continue
            ctx.error(f"failed to remove {quoteaf(operand)}: {e}")
            ok = False
            continue
        if parents:
            ok = _remove_parents(ctx, operand, ignore, verbose) and ok
    return 0 if ok else 1
