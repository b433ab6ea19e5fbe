"""``cp``: copy files and directories (GNU coreutils 9.1): ``-r -R -a -f -n -u -v -t DIR -T``,
``-p``/``--preserve[=ATTR_LIST]``/``--no-preserve=ATTR_LIST``, ``--parents``, ``-d -P -L -H``,
``-x``, ``-Z``/``--context[=CTX]``.

Each copied file is written atomically (files over 1 MiB are streamed in pieces); new files
are private (0600) and existing targets keep their permission bits. ``-i`` (interactive) is
refused: there is no terminal.

Preserving: of the attributes ``--preserve`` names (checked with GNU's argmatch, in order,
as its ``decode_preserve_arg`` does), only ``timestamps`` has an effect: the copy's mtime is
set to the source's (files, directories after their contents, and with ``--parents`` the
parent directories it passed through). ``mode`` and ``ownership`` are accepted and ignored,
because files in the jail are always private (0600, directories 0700) and have one owner;
``links`` and ``xattr`` have nothing to preserve. ``context`` needs SELinux, which the jail
never has: ``--preserve=context`` fails the way GNU does on a kernel without it, and
``-Z``/``--context`` are accepted (``--context=CTX`` warns as GNU does). There are no
symbolic or hard links in the jail, so ``-d -P -L -H`` (dereferencing) change nothing.
Access times are not kept.

``--parents`` appends each SOURCE as given (less trailing slashes) to the target directory,
creating the missing leading directories as GNU's ``make_dir_parents_private`` does (``-v``
prints ``SRC -> DST`` unquoted for each one it makes).

Copying a directory into itself (``cp -r d d/sub``) goes as GNU's: the target is created
and filled in directory order until the first directory the operand created is met as a
source; that is reported (``cannot copy a directory, 'd', into itself, 'd/sub/d'``) and the
operand's copy ends there.
"""

from __future__ import annotations

import errno

from sandbox.commands._dirorder import in_inode_order
from sandbox.commands._quoting import quoteaf
from sandbox.commands._textutil import ArgmatchError, argmatch
from sandbox.commands._writing import copy_file, join, operands_of, new_slash_errno, same_path, stat_operand
from sandbox.commands.base import CommandContext
from sandbox.commands.mv import Backups, backup_policy, targets
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError, Timestamp, mtime_ns_of

SPEC = OptionSpec(
    "abdfHiLnPprRS:t:TuvxZ",
    {
        "archive": (NO_ARG, "a"),
        "backup": (OPTIONAL, "backup"),
        "suffix": (REQUIRED, "S"),
        "strip-trailing-slashes": (NO_ARG, "strip"),
        "reflink": (OPTIONAL, "reflink"),
        "sparse": (REQUIRED, "sparse"),
        "context": (OPTIONAL, "context"),
        "dereference": (NO_ARG, "L"),
        "force": (NO_ARG, "f"),
        "interactive": (NO_ARG, "i"),
        "no-clobber": (NO_ARG, "n"),
        "no-dereference": (NO_ARG, "P"),
        "no-preserve": (REQUIRED, "no-preserve"),
        "one-file-system": (NO_ARG, "x"),
        "parents": (NO_ARG, "parents"),
        "preserve": (OPTIONAL, "preserve"),
        "recursive": (NO_ARG, "r"),
        "target-directory": (REQUIRED, "t"),
        "no-target-directory": (NO_ARG, "T"),
        "update": (NO_ARG, "u"),
        "verbose": (NO_ARG, "v"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: cp [OPTION]... [-T] SOURCE DEST
  or:  cp [OPTION]... SOURCE... DIRECTORY
  or:  cp [OPTION]... -t DIRECTORY SOURCE...
Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY.

Mandatory arguments to long options are mandatory for short options too.
  -a, --archive                same as -dR --preserve=all
  -d                           same as --no-dereference --preserve=links
  -f, --force                  if an existing destination file cannot be
                                 opened, remove it and try again (this option
                                 is ignored when the -n option is also used)
  -H                           follow command-line symbolic links in SOURCE
  -L, --dereference            always follow symbolic links in SOURCE
  -n, --no-clobber             do not overwrite an existing file
  -P, --no-dereference         never follow symbolic links in SOURCE
  -p                           same as --preserve=mode,ownership,timestamps
      --preserve[=ATTR_LIST]   preserve the specified attributes (default:
                                 mode,ownership,timestamps), if possible
                                 additional attributes: context, links, xattr,
                                 all
      --no-preserve=ATTR_LIST  don't preserve the specified attributes
      --parents                use full source file name under DIRECTORY
  -R, -r, --recursive          copy directories recursively
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY
  -T, --no-target-directory    treat DEST as a normal file
  -u, --update                 copy only when the SOURCE file is newer
                                 than the destination file or when the
                                 destination file is missing
  -v, --verbose                explain what is being done
  -x, --one-file-system        stay on this file system
  -Z                           set SELinux security context of destination
                                 file to default type
      --context[=CTX]          like -Z, or if CTX is specified then set the
                                 SELinux or SMACK security context to CTX
      --help        display this help and exit
      --version     output version information and exit

In the sandbox files are always private (mode 0600, directories 0700): of the
preserved attributes only timestamps (the modification time) are kept.
"""

#: ``--preserve`` attribute names in GNU's order (its argmatch list).
PRESERVE_ARGS = ["mode", "timestamps", "ownership", "links", "context", "xattr", "all"]


def writes(args: list[str]) -> list[str]:
    """The destination this command line may write (the last operand or ``-t DIR``)."""
    opts, operands = operands_of(SPEC, args)
    target_dirs = [v for k, v in opts if k == "t" and v is not None]
    if target_dirs:
        return target_dirs
    return operands[-1:] if len(operands) > 1 else []


def name_concat(directory: str, base: str) -> tuple[str, int]:
    """gnulib ``file_name_concat``: DIR (less trailing slashes) joined to BASE, and the index
    where BASE starts in the result."""
    stripped = directory.rstrip("/")
    if not stripped and directory:  # a root: keep one slash
        sep = "." if base.startswith("/") else ""
        head = directory[:1]
    else:
        head = stripped
        sep = "/" if stripped and not base.startswith("/") else ""
    if not directory:
        head, sep = "", ""
    return head + sep + base, len(head) + len(sep)


def dir_len(name: str) -> int:
    """gnulib ``dir_len``: the length of NAME's directory part, less trailing slashes."""
    prefix = 1 if name.startswith("/") else 0
    i = len(name)
    while i > 0 and name[i - 1] != "/":  # the last component (trailing slashes are gone)
        i -= 1
    while i > prefix and name[i - 1] == "/":
        i -= 1
    return i


class _Copier:
    def __init__(self, ctx: CommandContext, recursive: bool, no_clobber: bool, verbose: bool,
                 update: bool = False, keep_times: bool = False):
        self.ctx = ctx
        self.recursive = recursive
        self.no_clobber = no_clobber
        self.verbose = verbose
        self.update = update
        self.keep_times = keep_times
        self.created: set[str] = set()  # virtual paths of files this run wrote
        self.new_dst = False  # GNU do_copy's new_dst, kept across --parents operands
        self.dereference = False  # -L: a directory met again is copied again
        #: GNU's src_info (only with two or more sources into a directory): source files seen.
        self.seen_files: set[str] | None = None
        #: GNU's remember_copied for directory operands: source path -> its copy's path
        #: (and the first directory each operand creates -> itself, to meet it as a source).
        self.dir_copies: dict[str, tuple[str, str]] = {}
        #: The operand being copied and its target, as GNU's messages name them.
        self.top_names = ("", "")
        #: GNU's first_dir_created_per_command_line_arg, and its copy_into_self (which ends
        #: the listing of every directory the operand is in the middle of).
        self.first_dir_created = False
        self.into_self = False
        #: -b/--backup/-S: an existing destination file is renamed to its backup name first
        self.backups: Backups | None = None
        #: --reflink[=always]: a clone or nothing; the jail's ext4-like store can't clone
        self.clone_only = False

    def say(self, src: str, dst: str, backup: str | None = None) -> None:
        if self.verbose:
            said = f"{quoteaf(src)} -> {quoteaf(dst)}" + (f" (backup: {quoteaf(backup)})" if backup else "")
            self.ctx.stdout.write((said + "\n").encode("utf-8", "surrogateescape"))

    def keep_mtime(self, dst: str, mtime: float) -> bool:
        if not self.keep_times:
            return True
        try:
            self.ctx.set_mtime(dst, mtime)  # a Timestamp: the source's exact nanoseconds
        except FSError as e:
            self.ctx.error(f"preserving times for {quoteaf(dst)}: {e}")
            return False
        return True

    def make_parents(self, dst_name: str, src_offset: int, dirs: list[tuple[str, float]]) -> bool:
        """GNU ``make_dir_parents_private``: create the missing leading directories of
        ``dst_name`` whose names come from the source at ``src_offset``; each directory whose
        times -p must restore goes to ``dirs``."""
        ctx = self.ctx
        dirlen = dir_len(dst_name)
        if dirlen <= src_offset:
            return True
        dst_dir = dst_name[:dirlen]
        try:
            st = ctx.stat(dst_dir)
        except FSError:
            st = None
        if st is not None:
            if not st.is_dir:
                ctx.error(f"{quoteaf(dst_dir)} exists but is not a directory")
                return False
            self.new_dst = False
            return True
        i = src_offset
        while i < len(dst_name) and dst_name[i] == "/":
            i += 1
        while True:
            slash = dst_name.find("/", i)
            if slash < 0:
                break
            prefix = dst_name[:slash]
            src = prefix[src_offset:]
            try:
                here = ctx.stat(prefix)
            except FSError:
                here = None
            if here is None or self.keep_times:
                try:
                    src_st = ctx.stat(src)
                    if not src_st.is_dir:
                        raise FSError(errno.ENOTDIR, src)
                except FSError as e:
                    ctx.error(f"failed to get attributes of {quoteaf(src)}: {e}")
                    return False
                dirs.append((prefix, Timestamp(mtime_ns_of(src_st))))
            if here is None:
                try:
                    ctx.mkdir(prefix)
                except FSError as e:
                    ctx.error(f"cannot make directory {quoteaf(prefix)}: {e}")
                    return False
                self.new_dst = True
                if self.verbose:
                    ctx.stdout.write(f"{src} -> {prefix}\n".encode("utf-8", "surrogateescape"))
            elif not here.is_dir:
                ctx.error(f"{quoteaf(prefix)} exists but is not a directory")
                return False
            else:
                self.new_dst = False
            i = slash + 1
            while i < len(dst_name) and dst_name[i] == "/":
                i += 1
        return True

    def copy(self, src: str, dst: str, top: bool, new_dst: bool = False) -> bool:
        """Copy ``src`` to ``dst``. ``new_dst`` is GNU's flag that the target is known not to
        exist (``--parents`` leaves it set from the previous operand): then an existing
        target is not looked at and its creation fails with EEXIST."""
        ctx = self.ctx
        ctx.budget.check_time()
        if top:
            self.top_names, self.first_dir_created, self.into_self = (src, dst), False, False
        try:
            src_stat = stat_operand(ctx, src)
        except FSError as e:
            ctx.error(f"cannot stat {quoteaf(src)}: {e}")
            return False
        if src_stat.is_dir and not self.recursive:
            ctx.error(f"-r not specified; omitting directory {quoteaf(src)}")
            return False
        if top and self.seen_files is not None and not src_stat.is_dir:
            key = ctx.path(src)
            if key in self.seen_files:
                ctx.error(f"warning: source file {quoteaf(src)} specified more than once")
                return True
            self.seen_files.add(key)
        try:
            dst_stat = stat_operand(ctx, dst)
        except FSError as e:
            if e.errno != errno.ENOENT:
                ctx.error(f"cannot stat {quoteaf(dst)}: {e}")
                return False
            dst_stat = None
        if new_dst and dst_stat is not None:
            what = "directory" if src_stat.is_dir else "regular file"
            ctx.error(f"cannot create {what} {quoteaf(dst)}: {FSError(errno.EEXIST, dst)}")
            return False
        if dst_stat is not None and self.no_clobber and not (src_stat.is_dir and dst_stat.is_dir):
            return True
        if dst_stat is not None and same_path(ctx, src, dst):
            ctx.error(f"{quoteaf(src)} and {quoteaf(dst)} are the same file")
            return False
        if dst_stat is not None and self.update and not src_stat.is_dir and mtime_ns_of(dst_stat) >= mtime_ns_of(src_stat):
            return True  # -u: the destination is not older than the source
        if src_stat.is_dir:
            if dst_stat is not None and not dst_stat.is_dir:
                ctx.error(f"cannot overwrite non-directory {quoteaf(dst)} with directory {quoteaf(src)}")
                return False
            key = ctx.path(src)
            earlier = self.dir_copies.get(key)
            if top:
                self.dir_copies.setdefault(key, (ctx.path(dst), dst))
            if earlier is not None:
                if top:
                    if earlier[0] == ctx.path(dst):
                        ctx.error(f"warning: source directory {quoteaf(src)} specified more than once")
                        return True
                elif earlier[0] == key:  # the copy made below itself, met as a source
                    top_src, top_dst = self.top_names
                    ctx.error(f"cannot copy a directory, {quoteaf(top_src)}, into itself, {quoteaf(top_dst)}")
                    self.into_self = True
                    return False
                elif not self.dereference:
                    ctx.error(f"will not create hard link {quoteaf(dst)} to directory {quoteaf(earlier[1])}")
                    return False
            if dst_stat is None:
                try:
                    ctx.mkdir(dst)
                except FSError as e:
                    ctx.error(f"cannot create directory {quoteaf(dst)}: {e}")
                    return False
                if not self.first_dir_created:
                    self.first_dir_created = True
                    self.dir_copies.setdefault(ctx.path(dst), (ctx.path(dst), dst))
                self.say(src, dst)
            try:
                names = in_inode_order(ctx.fs, ctx.path(src), ctx.listdir(src))
            except FSError as e:
                ctx.error(f"cannot access {quoteaf(src)}: {e}")
                return False
            ok = True
            for name in names:
                ok = self.copy(join(src, name), join(dst, name), False) and ok
                if self.into_self:  # no point in going on (GNU's copy_dir)
                    break
            return self.keep_mtime(dst, Timestamp(mtime_ns_of(src_stat))) and ok
        if dst_stat is not None:
            if ctx.path(dst) in self.created:
                ctx.error(f"will not overwrite just-created {quoteaf(dst)} with {quoteaf(src)}")
                return False
            if dst_stat.is_dir:
                ctx.error(f"cannot overwrite directory {quoteaf(dst)} with non-directory")
                return False
        backup = None
        if dst_stat is not None and self.backups is not None:
            backup = self.backups.name(ctx, dst)
            try:
                ctx.rename(dst, backup)
            except FSError as e:
                ctx.error(f"cannot backup {quoteaf(dst)}: {e}")
                return False
        if self.clone_only:  # GNU opens (creates) the target, then the clone ioctl fails
            try:
                ctx.write_bytes(dst, b"")  # opened with O_TRUNC
            except FSError as e:
                ctx.error(f"cannot create regular file {quoteaf(dst)}: {e}")
                return False
            ctx.error(f"failed to clone {quoteaf(dst)} from {quoteaf(src)}: Operation not supported")
            return False
        self.say(src, dst, backup)  # GNU announces the copy before opening the target
        if dst_stat is None and dst.endswith("/"):  # open(2) of a new "name/" fails
            ctx.error(f"cannot create regular file {quoteaf(dst)}: {FSError(new_slash_errno(ctx, dst), dst)}")
            return False
        try:
            copy_file(ctx, src, dst)
        except FSError as e:
            if e.path and ctx.path(src).endswith(e.path) and not ctx.path(dst).endswith(e.path):
                ctx.error(f"cannot open {quoteaf(src)} for reading: {e}")
            elif e.errno == errno.ENOSPC:  # opened, then a write failed (/dev/full)
                ctx.error(f"error writing {quoteaf(dst)}: {e}")
            else:
                ctx.error(f"cannot create regular file {quoteaf(dst)}: {e}")
            return False
        self.created.add(ctx.path(dst))
        return self.keep_mtime(dst, Timestamp(mtime_ns_of(src_stat)))


def _decode_preserve(ctx: CommandContext, arg: str, on: bool, attrs: dict[str, bool]) -> bool:
    """GNU ``decode_preserve_arg``; False after the argmatch error (usage already printed)."""
    for item in arg.split(","):
        try:
            name = argmatch("--preserve" if on else "--no-preserve", item, PRESERVE_ARGS)
        except ArgmatchError as e:
            ctx.usage_error(str(e))
            return False
        if name == "all":
            for key in ("mode", "timestamps", "ownership", "links", "xattr"):
                attrs[key] = on
        else:
            attrs[name] = on
            if name == "context":
                attrs["require_context"] = on
    return True


def run(ctx: CommandContext) -> int:
    """Run ``cp``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="cp (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    keys = {key for key, _ in opts}
    no_clobber = False
    attrs: dict[str, bool] = {}
    target_seen = False
    for key, value in opts:
        if key == "n":
            no_clobber = True
        elif key == "i":
            ctx.error("interactive mode (-i) is not available in the sandbox; use -n or -f")
            return 1
        elif key == "t":
            if target_seen:
                ctx.error("multiple target directories specified")
                return 1
            target_seen = True
        elif key in ("p", "a") or (key == "preserve" and value is None):
            for name in ("mode", "ownership", "timestamps") + (("links", "xattr") if key == "a" else ()):
                attrs[name] = True
        elif key in ("preserve", "no-preserve"):
            if not _decode_preserve(ctx, value or "", key == "preserve", attrs):
                return 1
        elif key == "context" and value is not None:
            ctx.error("warning: ignoring --context; it requires an SELinux-enabled kernel")
    if attrs.get("require_context"):
        ctx.error("cannot preserve security context without an SELinux-enabled kernel")
        return 1
    reflink = "auto"
    for key, value in opts:
        if key == "reflink":
            reflink = "always" if value is None else reflink
        if key in ("reflink", "sparse"):  # how the bytes are stored: nothing to choose in the jail
            choices = {"reflink": ["auto", "always", "never"], "sparse": ["never", "auto", "always"]}[key]
            if key == "sparse" or value is not None:
                try:
                    word = argmatch(f"--{key}", value or "", choices)
                    if key == "reflink":
                        reflink = word
                except ArgmatchError as e:
                    ctx.error(str(e))
                    ctx.stderr.write(b"Try 'cp --help' for more information.\n")
                    return 1
    backups = backup_policy(ctx, opts)
    if isinstance(backups, int):
        return backups
    if backups is not None and no_clobber:
        ctx.error("options --backup and --no-clobber are mutually exclusive")
        ctx.stderr.write(b"Try 'cp --help' for more information.\n")
        return 1
    copier = _Copier(ctx, bool(keys & {"r", "R", "a"}), no_clobber, "v" in keys,
                     update="u" in keys, keep_times=attrs.get("timestamps", False))
    copier.backups = backups
    copier.clone_only = reflink == "always"
    for key, _ in opts:  # the last of -L -P -d -a -H decides, as GNU's x.dereference
        if key in ("L", "P", "d", "a", "H"):
            copier.dereference = key == "L"
    if "parents" in keys:
        return _copy_parents(ctx, copier, opts, operands)
    resolved = targets(ctx, opts, operands)
    if resolved is None:
        return 1
    if len(resolved[0]) >= 2:
        copier.seen_files = set()
    status = 0
    for src, dst in resolved[0]:
        if not copier.copy(src, dst, True):
            status = 1
    return status


def _copy_parents(ctx: CommandContext, copier: _Copier, opts: list[tuple[str, str | None]],
                  operands: list[str]) -> int:
    """``cp --parents``: GNU's do_copy with parents_option."""
    target_dir = next((v for k, v in opts if k == "t"), None)
    no_target = any(k == "T" for k, _ in opts)
    if len(operands) <= (target_dir is None):
        if not operands:
            return ctx.usage_error("missing file operand")
        return ctx.usage_error(f"missing destination file operand after {quoteaf(operands[0])}")
    sources = operands
    if no_target:
        if target_dir is not None:
            ctx.error("cannot combine --target-directory (-t) and --no-target-directory (-T)")
            return 1
        if len(operands) > 2:
            return ctx.usage_error(f"extra operand {quoteaf(operands[2])}")
    elif target_dir is not None:
        try:
            if not ctx.stat(target_dir).is_dir:
                raise FSError(errno.ENOTDIR, target_dir)
        except FSError as e:
            ctx.error(f"target directory {quoteaf(target_dir)}: {e}")
            return 1
    else:
        last = operands[-1]
        try:
            if not ctx.stat(last).is_dir:
                raise FSError(errno.ENOTDIR, last)
            target_dir, sources = last, operands[:-1]
        except FSError as e:
            if len(operands) > 2:
                ctx.error(f"target {quoteaf(last)}: {e}")
                return 1
    if target_dir is None:
        return ctx.usage_error("with --parents, the destination must be a directory")
    if len(sources) >= 2:
        copier.seen_files = set()
    status = 0
    for arg in sources:
        trimmed = arg.rstrip("/") or arg[:1]
        dst_name, offset = name_concat(target_dir, trimmed)
        dirs: list[tuple[str, float]] = []
        if not copier.make_parents(dst_name, offset, dirs):
            status = 1
            continue
        if not copier.copy(arg, dst_name, True, copier.new_dst):
            status = 1
        for path, mtime in dirs:  # GNU's re_protect: innermost first
            if not copier.keep_mtime(path, mtime):
                status = 1
                break
    return status
