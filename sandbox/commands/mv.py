"""``mv``: move (rename) files (GNU coreutils 9.1): ``-f -n -u -v -t DIR -T``, into a directory;
``-b``/``--backup[=CONTROL]``/``-S SUFFIX`` rename a destination about to be replaced to its
backup name first (``backup_name``, shared with ``cp``).

A move within one mount is an atomic rename; across mounts it is a copy then a removal.
A source named ``.`` or ``..`` (``mv dir/. x``) fails as rename(2) does (``Device or
resource busy``). ``-i`` (interactive) is refused: there is no terminal.
"""

from __future__ import annotations

import errno
import re

from sandbox.commands._quoting import quote, quoteaf
from sandbox.commands._canonical import stat_through
from sandbox.commands._writing import basename, copy_tree, is_inside, join, operands_of, remove_tree, new_slash_errno, same_path, stat_operand
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import LINK, FileStat, FSError, mtime_ns_of

SPEC = OptionSpec(
    "bfinS:t:TuvZ",
    {
        "backup": (OPTIONAL, "backup"),
        "suffix": (REQUIRED, "S"),
        "strip-trailing-slashes": (NO_ARG, "strip"),
        "context": (NO_ARG, "Z"),
        "force": (NO_ARG, "f"),
        "interactive": (NO_ARG, "i"),
        "no-clobber": (NO_ARG, "n"),
        "target-directory": (REQUIRED, "t"),
        "no-target-directory": (NO_ARG, "T"),
        "update": (NO_ARG, "u"),
        "verbose": (NO_ARG, "v"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: mv [OPTION]... [-T] SOURCE DEST
  or:  mv [OPTION]... SOURCE... DIRECTORY
  or:  mv [OPTION]... -t DIRECTORY SOURCE...
Rename SOURCE to DEST, or move SOURCE(s) to DIRECTORY.

      --backup[=CONTROL]       make a backup of each existing destination file
  -b                           like --backup but does not accept an argument
  -f, --force                  do not prompt before overwriting
  -n, --no-clobber             do not overwrite an existing file
  -S, --suffix=SUFFIX          override the usual backup suffix
  -t, --target-directory=DIRECTORY  move all SOURCE arguments into DIRECTORY
  -T, --no-target-directory    treat DEST as a normal file
  -u, --update                 move only when the SOURCE file is newer
                                 than the destination file or when the
                                 destination file is missing
  -v, --verbose                explain what is being done
      --help        display this help and exit
      --version     output version information and exit
"""


#: GNU's backup types, synonyms together (``argmatch`` lists them so).
BACKUP_TYPES = [["none", "off"], ["simple", "never"], ["existing", "nil"], ["numbered", "t"]]


class Backups:
    """The backup policy of one ``cp``/``mv`` run: ``kind`` is ``simple``, ``numbered`` or
    ``existing`` (numbered where numbered backups exist, else simple)."""

    def __init__(self, kind: str, suffix: str):
        self.kind = kind
        self.suffix = suffix

    def name(self, ctx: CommandContext, dst: str) -> str:
        """The backup name of the existing ``dst``: ``dst~`` (SUFFIX) or ``dst.~N~``."""
        kind = self.kind
        if kind in ("numbered", "existing"):
            head, _, base = dst.rpartition("/")
            folder = head + "/" if _ else ""
            pattern = re.compile(re.escape(base) + r"\.~([1-9][0-9]*)~")
            try:
                listed = ctx.listdir(folder or ".")
            except FSError:
                listed = []
            numbers = [int(m.group(1)) for m in map(pattern.fullmatch, listed) if m]
            if numbers or kind == "numbered":
                return f"{dst}.~{max(numbers, default=0) + 1}~"
        return dst + self.suffix


def backup_policy(ctx: CommandContext, opts: list[tuple[str, str | None]]) -> "Backups | None | int":
    """GNU's ``xget_version`` over -b/--backup[=CONTROL]/-S: the policy, None for no backups,
    or an exit status after the error (``Try`` line included)."""
    wanted, control, suffix = False, None, None
    for key, value in opts:
        if key == "b":
            wanted = True
        elif key == "backup":
            wanted = True
            if value is not None:
                control = value
        elif key == "S":
            wanted, suffix = True, value
    if not wanted:
        return None
    where = "backup type"
    if control is None and ctx.env.get("VERSION_CONTROL"):
        control, where = ctx.env["VERSION_CONTROL"], "$VERSION_CONTROL"
    kind = "existing"
    if control is not None:
        words = [w for group in BACKUP_TYPES for w in group]
        groups = {i for i, g in enumerate(BACKUP_TYPES) for w in g if w.startswith(control)}
        exact = [i for i, g in enumerate(BACKUP_TYPES) if control in g]
        if exact:
            groups = set(exact)
        if len(groups) != 1:
            kind_word = "ambiguous" if groups else "invalid"
            lines = [f"{kind_word} argument {quote(control)} for {quote(where)}", "Valid arguments are:"]
            lines += ["  - " + ", ".join(quote(w) for w in g) for g in BACKUP_TYPES]
            ctx.error("\n".join(lines))
            ctx.stderr.write(f"Try '{ctx.argv[0]} --help' for more information.\n".encode())
            return 1
        del words
        kind = BACKUP_TYPES[groups.pop()][0]
    if kind == "none":
        return None
    if suffix is None:
        suffix = ctx.env.get("SIMPLE_BACKUP_SUFFIX") or "~"
    if "/" in suffix:
        suffix = "~"
    return Backups(kind, suffix)


def writes(args: list[str]) -> list[str]:
    """Sources (removed) and the destination (written)."""
    opts, operands = operands_of(SPEC, args)
    return operands + [v for k, v in opts if k == "t" and v is not None]


def targets(ctx: CommandContext, prog_opts: list[tuple[str, str | None]], operands: list[str]) -> tuple[list[tuple[str, str]], int] | None:
    """Resolve (source, target) pairs for mv and cp the GNU way; None after an error message."""
    target_dir = None
    no_target = False
    for key, value in prog_opts:
        if key == "t":
            target_dir = value
        elif key == "T":
            no_target = True
    if target_dir is not None:
        if not operands:
            ctx.usage_error("missing file operand")
            return None
        if no_target:
            ctx.error("cannot combine --target-directory (-t) and --no-target-directory (-T)")
            return None
        try:
            st = ctx.stat(target_dir)
            if not st.is_dir:
                raise FSError(errno.ENOTDIR, target_dir)
        except FSError as e:
            ctx.error(f"target directory {quoteaf(target_dir)}: {e}")
            return None
        return [(src, join(target_dir, basename(src))) for src in operands], 0
    if not operands:
        ctx.usage_error("missing file operand")
        return None
    if len(operands) == 1:
        ctx.usage_error(f"missing destination file operand after {quoteaf(operands[0])}")
        return None
    *sources, dest = operands
    if no_target:
        if len(sources) > 1:
            ctx.usage_error(f"extra operand {quoteaf(operands[2])}")
            return None
        return [(sources[0], dest)], 0
    try:
        dest_is_dir = ctx.stat(dest).is_dir
    except FSError as e:
        if len(sources) > 1:
            ctx.error(f"target {quoteaf(dest)}: {e}")
            return None
        dest_is_dir = False
    if len(sources) > 1 and not dest_is_dir:
        ctx.error(f"target {quoteaf(dest)}: Not a directory")
        return None
    if dest_is_dir:
        return [(src, join(dest, basename(src))) for src in sources], 0
    return [(sources[0], dest)], 0


def _link_to(ctx: CommandContext, src: str, src_stat: FileStat, dst_stat: FileStat) -> bool:
    """True if ``src`` is a link naming the file ``dst`` is (GNU's same_file_ok refuses to
    move a link onto its own target: the file would be lost)."""
    if src_stat.kind != LINK or dst_stat.kind == LINK or dst_stat.version is None:
        return False
    try:
        return stat_through(ctx, src)[0].version == dst_stat.version
    except FSError:
        return False


def _move(ctx: CommandContext, src: str, dst: str, no_clobber: bool, verbose: bool,
          backups: "Backups | None" = None, update: bool = False) -> bool:
    try:  # lstat, as GNU's: a link is moved as itself (rename(2) never follows it)
        src_stat = stat_through(ctx, src, follow=False)[0]
        if src.rstrip("/").rpartition("/")[2] in (".", ".."):
            ctx.path(src)  # ``file/.``: ENOTDIR
    except FSError as e:
        ctx.error(f"cannot stat {quoteaf(src)}: {e}")
        return False
    try:
        dst_stat = stat_through(ctx, dst, follow=False)[0]
    except FSError as e:
        if e.errno == errno.ENOTDIR:  # "file/": the kernel refuses the path
            if no_clobber:  # GNU's no-replace rename meets the existing file: skipped
                return True
            ctx.error(f"cannot stat {quoteaf(dst)}: {e}")
            return False
        dst_stat = None
    if dst_stat is None and dst.endswith("/") and not src_stat.is_dir:
        # rename(2) of a file to a new "name/" fails (only a directory may take the slash)
        ctx.error(f"cannot move {quoteaf(src)} to {quoteaf(dst)}: {FSError(new_slash_errno(ctx, dst), dst)}")
        return False
    if dst_stat is not None and no_clobber:
        return True
    if dst_stat is not None and (same_path(ctx, src, dst) or _link_to(ctx, src, src_stat, dst_stat)):
        ctx.error(f"{quoteaf(src)} and {quoteaf(dst)} are the same file")
        return False
    if (update and dst_stat is not None and not dst_stat.is_dir
            and mtime_ns_of(dst_stat) >= mtime_ns_of(src_stat)):
        return True  # -u: the destination is not older than the source
    if dst_stat is not None:
        if no_clobber:
            return True
        if dst_stat.is_dir and not src_stat.is_dir:
            ctx.error(f"cannot overwrite directory {quoteaf(dst)} with non-directory")
            return False
        if not dst_stat.is_dir and src_stat.is_dir:
            ctx.error(f"cannot overwrite non-directory {quoteaf(dst)} with directory {quoteaf(src)}")
            return False
    if src.rstrip("/").rpartition("/")[2] in (".", ".."):  # rename(2) refuses to move a dot
        ctx.error(f"cannot move {quoteaf(src)} to {quoteaf(dst)}: {FSError(errno.EBUSY, src)}")
        return False
    if src_stat.is_dir and is_inside(ctx, dst, src):
        ctx.error(f"cannot move {quoteaf(src)} to a subdirectory of itself, {quoteaf(dst)}")
        return False
    backup = None
    if backups is not None and dst_stat is not None:
        backup = backups.name(ctx, dst)
        try:
            ctx.rename(dst, backup)
        except FSError as e:
            ctx.error(f"cannot backup {quoteaf(dst)}: {e}")
            return False
        dst_stat = None
    try:
        try:
            ctx.rename(src, dst)
        except FSError as e:
            if e.errno != errno.EXDEV:
                raise
            if dst_stat is not None:
                remove_tree(ctx, dst)
            copy_tree(ctx, src, dst)
            remove_tree(ctx, src)
    except FSError as e:
        ctx.error(f"cannot move {quoteaf(src)} to {quoteaf(dst)}: {e}")
        return False
    if verbose:
        said = f"renamed {quoteaf(src)} -> {quoteaf(dst)}" + (f" (backup: {quoteaf(backup)})" if backup else "")
        ctx.stdout.write((said + "\n").encode("utf-8", "surrogateescape"))
    return True


def run(ctx: CommandContext) -> int:
    """Run ``mv``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="mv (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    keys = {key for key, _ in opts}
    no_clobber = False
    for key, _ in opts:  # -f, -i, -n: the last one wins
        if key == "n":
            no_clobber = True
        elif key == "f":
            no_clobber = False
        elif key == "i":
            ctx.error("interactive mode (-i) is not available in the sandbox; use -n or -f")
            return 1
    backups = backup_policy(ctx, opts)
    if isinstance(backups, int):
        return backups
    if backups is not None and no_clobber:
        ctx.error("options --backup and --no-clobber are mutually exclusive")
        ctx.stderr.write(b"Try 'mv --help' for more information.\n")
        return 1
    resolved = targets(ctx, opts, operands)
    if resolved is None:
        return 1
    status = 0
    for src, dst in resolved[0]:
        ctx.budget.check_time()
        if not _move(ctx, src, dst, no_clobber, "v" in keys, backups, "u" in keys):
            status = 1
    return status
