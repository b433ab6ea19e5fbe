"""``cp``: copy files and directories (GNU coreutils 9.1): ``-r -R -f -n -v -t DIR -T``.

Each copied file is written atomically (files over 1 MiB are streamed in pieces); new files
are private (0600) and existing targets keep their permission bits. ``-i`` (interactive) is
refused: there is no terminal.

Deviation: copying a directory into itself (``cp -r d d/sub``) creates the target directory,
reports ``cannot copy a directory, 'd', into itself, 'd/sub/d'`` and stops; GNU stops at the
same point but may have copied some entries first, depending on directory order.
"""

from __future__ import annotations

import errno

from sandbox.commands._quoting import quoteaf
from sandbox.commands._writing import copy_file, is_inside, join, operands_of, same_path, stat_operand
from sandbox.commands.base import CommandContext
from sandbox.commands.mv import targets
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    "finrRt:Tv",
    {
        "force": (NO_ARG, "f"),
        "interactive": (NO_ARG, "i"),
        "no-clobber": (NO_ARG, "n"),
        "recursive": (NO_ARG, "r"),
        "target-directory": (REQUIRED, "t"),
        "no-target-directory": (NO_ARG, "T"),
        "verbose": (NO_ARG, "v"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: cp [OPTION]... [-T] SOURCE DEST
  or:  cp [OPTION]... SOURCE... DIRECTORY
  or:  cp [OPTION]... -t DIRECTORY SOURCE...
Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY.

  -f, --force                  if an existing destination file cannot be opened, remove it
  -n, --no-clobber             do not overwrite an existing file
  -R, -r, --recursive          copy directories recursively
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY
  -T, --no-target-directory    treat DEST as a normal file
  -v, --verbose                explain what is being done
      --help        display this help and exit
      --version     output version information and exit
"""


def writes(args: list[str]) -> list[str]:
    """The destination this command line may write (the last operand or ``-t DIR``)."""
    opts, operands = operands_of(SPEC, args)
    target_dirs = [v for k, v in opts if k == "t" and v is not None]
    if target_dirs:
        return target_dirs
    return operands[-1:] if len(operands) > 1 else []


class _Copier:
    def __init__(self, ctx: CommandContext, recursive: bool, no_clobber: bool, verbose: bool):
        self.ctx = ctx
        self.recursive = recursive
        self.no_clobber = no_clobber
        self.verbose = verbose
        self.created: set[str] = set()  # virtual paths of files this run wrote

    def say(self, src: str, dst: str) -> None:
        if self.verbose:
            self.ctx.stdout.write(f"{quoteaf(src)} -> {quoteaf(dst)}\n".encode("utf-8", "surrogateescape"))

    def copy(self, src: str, dst: str, top: bool) -> bool:
        ctx = self.ctx
        ctx.budget.check_time()
        try:
            src_stat = stat_operand(ctx, src)
        except FSError as e:
            ctx.error(f"cannot stat {quoteaf(src)}: {e}")
            return False
        if src_stat.is_dir and not self.recursive:
            ctx.error(f"-r not specified; omitting directory {quoteaf(src)}")
            return False
        try:
            dst_stat = stat_operand(ctx, dst)
        except FSError as e:
            if e.errno != errno.ENOENT:
                ctx.error(f"cannot stat {quoteaf(dst)}: {e}")
                return False
            dst_stat = None
        if dst_stat is not None and self.no_clobber and not (src_stat.is_dir and dst_stat.is_dir):
            return True
        if dst_stat is not None and same_path(ctx, src, dst):
            ctx.error(f"{quoteaf(src)} and {quoteaf(dst)} are the same file")
            return False
        if src_stat.is_dir:
            if dst_stat is not None and not dst_stat.is_dir:
                ctx.error(f"cannot overwrite non-directory {quoteaf(dst)} with directory {quoteaf(src)}")
                return False
            if top and is_inside(ctx, dst, src):
                # GNU creates the target, then meets it as a source and stops; we stop at
                # once after creating it (GNU may have copied part of the tree meanwhile).
                if dst_stat is None:
                    try:
                        ctx.mkdir(dst)
                    except FSError:
                        pass
                ctx.error(f"cannot copy a directory, {quoteaf(src)}, into itself, {quoteaf(dst)}")
                return False
            if dst_stat is None:
                try:
                    ctx.mkdir(dst)
                except FSError as e:
                    ctx.error(f"cannot create directory {quoteaf(dst)}: {e}")
                    return False
                self.say(src, dst)
            try:
                names = ctx.listdir(src)
            except FSError as e:
                ctx.error(f"cannot access {quoteaf(src)}: {e}")
                return False
            ok = True
            for name in names:
                ok = self.copy(join(src, name), join(dst, name), False) and ok
            return ok
        if dst_stat is not None:
            if ctx.path(dst) in self.created:
                ctx.error(f"will not overwrite just-created {quoteaf(dst)} with {quoteaf(src)}")
                return False
            if dst_stat.is_dir:
                ctx.error(f"cannot overwrite directory {quoteaf(dst)} with non-directory")
                return False
        self.say(src, dst)  # GNU announces the copy before opening the target
        try:
            copy_file(ctx, src, dst)
        except FSError as e:
            if e.path and ctx.path(src).endswith(e.path) and not ctx.path(dst).endswith(e.path):
                ctx.error(f"cannot open {quoteaf(src)} for reading: {e}")
            else:
                ctx.error(f"cannot create regular file {quoteaf(dst)}: {e}")
            return False
        self.created.add(ctx.path(dst))
        return True


def run(ctx: CommandContext) -> int:
    """Run ``cp``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="cp (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    keys = {key for key, _ in opts}
    no_clobber = False
    for key, _ in opts:
        if key == "n":
            no_clobber = True
        elif key == "i":
            ctx.error("interactive mode (-i) is not available in the sandbox; use -n or -f")
            return 1
    resolved = targets(ctx, opts, operands)
    if resolved is None:
        return 1
    copier = _Copier(ctx, bool(keys & {"r", "R"}), no_clobber, "v" in keys)
    status = 0
    for src, dst in resolved[0]:
        if not copier.copy(src, dst, True):
            status = 1
    return status
