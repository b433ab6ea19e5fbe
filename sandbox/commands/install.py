"""``install``: copy files and make directories (GNU coreutils 9.1): ``-d``, ``-D``, ``-t DIR``,
``-T``, ``-m MODE``, ``-v``, ``-b``/``--backup[=CONTROL]``/``-S SUFFIX`` (cp's and mv's backup
helpers), ``-p``, ``-C``, ``-c`` (ignored, as GNU).

Modes stay private in the jail: ``-m MODE`` is parsed and validated exactly as GNU's
``mode_compile`` (``install: invalid mode ‘x’``), but every file is written private (0600,
directories 0700), whatever the mode says. ``-C`` skips a destination with the same contents
only when its mode is the one GNU would set (0755 or ``-m``'s octal mode), as GNU: so in the
jail, where files are private, ``-C`` copies; over a host directory it follows the host's modes.
A second source for a destination already written by this run is GNU's ``will not overwrite
just-created`` error.
``-o``/``-g`` (owner, group) and ``-s``/``--strip-program`` (running ``strip``) are refused in
one line: the jail has one owner and runs no programs. As GNU, an existing destination is
removed first (``-v``: ``removed 'b'``), or renamed to its backup name with ``-b``.
"""

from __future__ import annotations

import errno

from sandbox.commands._quoting import quote, quoteaf
from sandbox.commands._writing import basename, copy_file, join, operands_of, same_path, stat_operand
from sandbox.commands.base import CommandContext
from sandbox.commands.mkdir import make_parents
from sandbox.commands.mv import Backups, backup_policy
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    "bcCdDg:m:o:psS:t:TvZ",
    {
        "backup": (OPTIONAL, "backup"),
        "compare": (NO_ARG, "C"),
        "directory": (NO_ARG, "d"),
        "group": (REQUIRED, "g"),
        "mode": (REQUIRED, "m"),
        "owner": (REQUIRED, "o"),
        "preserve-timestamps": (NO_ARG, "p"),
        "strip": (NO_ARG, "s"),
        "strip-program": (REQUIRED, "strip-program"),
        "suffix": (REQUIRED, "S"),
        "target-directory": (REQUIRED, "t"),
        "no-target-directory": (NO_ARG, "T"),
        "verbose": (NO_ARG, "v"),
        "preserve-context": (NO_ARG, "preserve-context"),
        "context": (OPTIONAL, "Z"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: install [OPTION]... [-T] SOURCE DEST
  or:  install [OPTION]... SOURCE... DIRECTORY
  or:  install [OPTION]... -t DIRECTORY SOURCE...
  or:  install [OPTION]... -d DIRECTORY...

This install program copies files (often just compiled) into destination
locations you choose.  If you want to download and install a ready-to-use
package on a GNU/Linux system, you should instead be using a package manager
like yum(1) or apt-get(1).

In the first three forms, copy SOURCE to DEST or multiple SOURCE(s) to
the existing DIRECTORY, while setting permission modes and owner/group.
In the 4th form, create all components of the given DIRECTORY(ies).

Mandatory arguments to long options are mandatory for short options too.
      --backup[=CONTROL]  make a backup of each existing destination file
  -b                  like --backup but does not accept an argument
  -c                  (ignored)
  -C, --compare       compare content of source and destination files, and
                        if no change to content, ownership, and permissions,
                        do not modify the destination at all
  -d, --directory     treat all arguments as directory names; create all
                        components of the specified directories
  -D                  create all leading components of DEST except the last,
                        or all components of --target-directory,
                        then copy SOURCE to DEST
  -g, --group=GROUP   set group ownership, instead of process' current group
  -m, --mode=MODE     set permission mode (as in chmod), instead of rwxr-xr-x
  -o, --owner=OWNER   set ownership (super-user only)
  -p, --preserve-timestamps   apply access/modification times of SOURCE files
                        to corresponding destination files
  -s, --strip         strip symbol tables
      --strip-program=PROGRAM  program used to strip binaries
  -S, --suffix=SUFFIX  override the usual backup suffix
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY
  -T, --no-target-directory  treat DEST as a normal file
  -v, --verbose       print the name of each directory as it is created
      --preserve-context  preserve SELinux security context
  -Z                      set SELinux security context of destination
                            file and each created directory to default type
      --context[=CTX]     like -Z, or if CTX is specified then set the
                            SELinux or SMACK security context to CTX
      --help        display this help and exit
      --version     output version information and exit

The backup suffix is '~', unless set with --suffix or SIMPLE_BACKUP_SUFFIX.
The version control method may be selected via the --backup option or through
the VERSION_CONTROL environment variable.  Here are the values:

  none, off       never make backups (even if --backup is given)
  numbered, t     make numbered backups
  existing, nil   numbered if numbered backups exist, simple otherwise
  simple, never   always make simple backups

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Report any translation bugs to <https://translationproject.org/team/>
Full documentation <https://www.gnu.org/software/coreutils/install>
or available locally via: info '(coreutils) install invocation'
"""

VERSION = """install (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by David MacKenzie."""

ALLM = 0o7777


def valid_mode(text: str) -> bool:
    """True when gnulib's ``mode_compile`` accepts ``text`` (octal or symbolic)."""
    s = text
    n = len(s)
    if s[:1] in tuple("01234567"):
        value = 0
        for ch in s:
            if ch not in "01234567":
                return False
            value = value * 8 + int(ch)
            if value > ALLM:
                return False
        return True
    p = 0
    while True:
        affected = False
        while p < n and s[p] in "ugoa":
            affected = True
            p += 1
        while True:
            if p >= n or s[p] not in "=+-":
                return False
            p += 1
            if p < n and s[p] in "01234567":
                value = 0
                while p < n and s[p] in "01234567":
                    value = value * 8 + int(s[p])
                    p += 1
                    if value > ALLM:
                        return False
                if affected or (p < n and s[p] != ","):
                    return False
            elif p < n and s[p] in "ugo":
                p += 1
            else:
                while p < n and s[p] in "rwxXst":
                    p += 1
            if not (p < n and s[p] in "=+-"):
                break
        if p < n and s[p] == ",":
            p += 1
            continue
        return p == n


def writes(args: list[str]) -> list[str]:
    """Everything this command line may create or replace: -d's directories, the destination
    (or ``-t DIR``), and with -D the leading directories."""
    opts, operands = operands_of(SPEC, args)
    keys = {k for k, _ in opts}
    if "d" in keys:
        return operands
    target_dirs = [v for k, v in opts if k == "t" and v is not None]
    if target_dirs:
        return target_dirs
    return operands[-1:] if len(operands) > 1 else []


def _emit(ctx: CommandContext, text: str) -> None:
    ctx.stdout.write((text + "\n").encode("utf-8", "surrogateescape"))


class _Installer:
    def __init__(self, ctx: CommandContext, verbose: bool, backups: Backups | None,
                 preserve: bool, compare: bool, mode: int | None):
        self.ctx = ctx
        self.verbose = verbose
        self.backups = backups
        self.preserve = preserve
        self.compare = compare
        #: The mode GNU would give the copy (``-C`` skips only a same file of that mode).
        self.mode = mode
        self.installed: set[str] = set()

    def make_dirs(self, operand: str, gnu_quote: bool) -> bool:
        """Create ``operand`` and its missing parents (``-d``; ``-D``'s leading directories)."""
        ctx = self.ctx
        q = quote if gnu_quote else quoteaf
        if operand == "":
            ctx.error(f"cannot create directory {q(operand)}: No such file or directory")
            return False

        def created(prefix: str) -> None:
            if self.verbose:
                _emit(ctx, f"install: creating directory {quoteaf(prefix)}")
        return make_parents(ctx, operand, created, q, exists_last=gnu_quote)

    def install(self, src: str, dst: str) -> bool:
        """Copy one file as ``install_file_in_file``."""
        ctx = self.ctx
        try:
            src_stat = stat_operand(ctx, src)
        except FSError as e:
            ctx.error(f"cannot stat {quoteaf(src)}: {e.strerror}")
            return False
        if src_stat.is_dir:
            ctx.error(f"omitting directory {quoteaf(src)}")
            return False
        try:
            dst_stat = stat_operand(ctx, dst)
        except FSError as e:
            if e.errno != errno.ENOENT:
                ctx.error(f"cannot stat {quoteaf(dst)}: {e.strerror}")
                return False
            dst_stat = None
        if dst_stat is not None and same_path(ctx, src, dst):
            ctx.error(f"{quoteaf(src)} and {quoteaf(dst)} are the same file")
            return False
        if dst_stat is not None and dst_stat.is_dir:
            ctx.error(f"cannot overwrite directory {quoteaf(dst)} with non-directory")
            return False
        if dst in self.installed:
            ctx.error(f"will not overwrite just-created {quoteaf(dst)} with {quoteaf(src)}")
            return False
        if self.compare and dst_stat is not None and dst_stat.mode == self.mode:
            try:
                if ctx.read_bytes(src) == ctx.read_bytes(dst):
                    return True
            except FSError:
                pass
        backup_note = ""
        try:
            if dst_stat is not None:
                if self.backups is not None:
                    name = self.backups.name(ctx, dst)
                    ctx.rename(dst, name)
                    backup_note = f" (backup: {quoteaf(name)})"
                else:
                    ctx.remove(dst)
                    if self.verbose:
                        _emit(ctx, f"removed {quoteaf(dst)}")
        except FSError as e:
            ctx.error(f"cannot remove {quoteaf(dst)}: {e.strerror}")
            return False
        if self.verbose:
            _emit(ctx, f"{quoteaf(src)} -> {quoteaf(dst)}{backup_note}")
        try:
            if dst.endswith("/"):
                raise FSError(errno.ENOTDIR, dst)
            copy_file(ctx, src, dst)
        except FSError as e:
            ctx.error(f"cannot create regular file {quoteaf(dst)}: {e.strerror}")
            return False
        self.installed.add(dst)
        if self.preserve:
            try:
                ctx.set_mtime(dst, src_stat.mtime)
            except FSError:
                pass
        return True


def run(ctx: CommandContext) -> int:
    """Run ``install``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version=VERSION)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    keys = {k for k, _ in opts}
    for key, what in (("o", "-o/--owner"), ("g", "-g/--group"), ("s", "-s/--strip"),
                      ("strip-program", "--strip-program")):
        if key in keys:
            ctx.error(f"{what} is not available in the sandbox (one owner, no programs to run)")
            return 1
    dir_arg = "d" in keys
    target_dir = None
    for key, value in opts:
        if key == "t":
            if target_dir is not None:
                ctx.error("multiple target directories specified")
                return 1
            target_dir = value
    no_target = "T" in keys
    mode = None
    for key, value in opts:
        if key == "m":
            mode = value
    if dir_arg and target_dir is not None:
        ctx.error("target directory not allowed when installing a directory")
        return 1
    backups = backup_policy(ctx, opts)
    if isinstance(backups, int):
        return backups
    n_files = len(operands)
    if n_files == 0 or (n_files == 1 and not dir_arg and target_dir is None):
        if n_files == 0:
            return ctx.usage_error("missing file operand")
        return ctx.usage_error(f"missing destination file operand after {quoteaf(operands[0])}")
    make_leading = "D" in keys
    if no_target:
        if target_dir is not None:
            ctx.error("cannot combine --target-directory (-t) and --no-target-directory (-T)")
            return 1
        if n_files > 2:
            return ctx.usage_error(f"extra operand {quoteaf(operands[2])}")
    elif target_dir is None and not dir_arg:
        last = operands[-1]
        try:
            is_dir = ctx.stat(last).is_dir
            err = None
        except FSError as e:
            is_dir, err = False, e
        if n_files >= 2 and is_dir:
            target_dir = last
            operands = operands[:-1]
        elif n_files > 2:
            if err is not None:
                ctx.error(f"target {quoteaf(last)}: {err.strerror}")
                return 1
            if err is None:
                ctx.error(f"target {quoteaf(last)}: Not a directory")
                return 1
    create_target = False
    if "t" in keys and target_dir is not None:
        try:
            if not ctx.stat(target_dir).is_dir:
                raise FSError(errno.ENOTDIR, target_dir)
        except FSError as e:
            if not (make_leading and e.errno == errno.ENOENT):
                ctx.error(f"failed to access {quoteaf(target_dir)}: {e.strerror}")
                return 1
            create_target = True
    if "C" in keys and "p" in keys:
        ctx.error("options --compare (-C) and --preserve-timestamps are mutually exclusive")
        return _try(ctx)
    if mode is not None and not valid_mode(mode):
        ctx.error(f"invalid mode {quote(mode)}")
        return 1
    octal = 0o755 if mode is None else int(mode, 8) if mode[:1].isdigit() else None
    inst = _Installer(ctx, "v" in keys, backups, "p" in keys, "C" in keys, octal)
    status = 0
    if dir_arg:
        for operand in operands:
            ctx.budget.check_time()
            if not inst.make_dirs(operand, gnu_quote=True):
                status = 1
        return status
    if target_dir is None:
        src, dst = operands[0], operands[1]
        if make_leading:
            parent = dst.rstrip("/").rpartition("/")[0] if "/" in dst.rstrip("/") else ""
            if dst.endswith("/") and "/" in dst.rstrip("/"):
                parent = dst.rstrip("/").rpartition("/")[0]
            if parent and not inst.make_dirs(parent, gnu_quote=False):
                return 1
        return 0 if inst.install(src, dst) else 1
    if create_target and not inst.make_dirs(target_dir, gnu_quote=False):
        return 1
    for src in operands:
        ctx.budget.check_time()
        if not inst.install(src, join(target_dir, basename(src))):
            status = 1
    return status


def _try(ctx: CommandContext) -> int:
    ctx.stderr.write(f"Try '{ctx.prog} --help' for more information.\n".encode())
    return 1
