"""``tar``: GNU tar 1.34's ``-c``, ``-x``, ``-t``, ``-r``, ``-u``, ``-d`` and ``--delete`` over
the jail, in GNU's default format.

Options: ``-f`` (``-`` is stdin/stdout, the default), ``-v``/``-vv``, ``-C``, ``-z``/``-j``/``-J``
(gzip as gzip 1.12 writes it; reading detects compression as GNU does), ``-a``, ``--exclude``,
``-X``, ``-T`` (``--null``, ``--verbatim-files-from``, ``--unquote``), ``--exclude-vcs``,
``--exclude-backups``, ``--no-recursion``, ``--wildcards``, ``-O``, ``-k``,
``--skip-old-files``, ``--overwrite``, ``-m``, ``-P``, ``--remove-files``, ``--transform``,
``--show-transformed-names``, ``--totals``, ``--strip-components``, ``--numeric-owner``,
``--owner``, ``--group``, ``--mtime``, ``--sort``, ``--full-time``; traditional style
(``tar czf x.tgz dir``). The selection options are positional, as GNU's (``namelist``).
Archives hold the sandbox's virtual identity (``user``/1000) and the files' virtual modes and
times; directories are walked in the host's readdir order, as GNU's default ``--sort=none``
(name order with ``--sort=name``). Links and device files
are never extracted (the jail has none): each is refused with one message, status 2.
"""

from __future__ import annotations

import time

from sandbox.commands.base import CommandContext
from sandbox.commands.date import DateError, Moment, parse_date, resolve_zone, strftime
from sandbox.commands.tar.buffer import SUFFIXES, Fatal
from sandbox.commands.tar.cli import TRY, CliError, Options, parse_args
from sandbox.commands.tar.common import Tar
from sandbox.commands.tar.compare import compare
from sandbox.commands.tar.create import EmptyArchive, chdir_path, create
from sandbox.commands.tar.delete import delete
from sandbox.commands.tar.extract import extract, list_members
from sandbox.commands.tar.format import RECORD
from sandbox.commands.tar.namelist import expand_all, trailing_options
from sandbox.commands.tar.names import quote
from sandbox.commands.tar.reading import open_archive
from sandbox.commands.tar.update import existing_blocks
from sandbox.fs.base import FSError, mtime_ns_of

VERSION = """tar (GNU tar) 1.34
Copyright (C) 2021 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by John Gilmore and Jay Fenlason.
"""

USAGE = """Usage: tar [OPTION...] [FILE]...
GNU 'tar' saves many files together into a single tape or disk archive, and can
restore individual files from the archive.

Examples:
  tar -cf archive.tar foo bar  # Create archive.tar from files foo and bar.
  tar -tvf archive.tar         # List all files in archive.tar verbosely.
  tar -xf archive.tar          # Extract all files from archive.tar.

 Main operation mode:
  -c, --create               create a new archive
  -t, --list                 list the contents of an archive
  -r, --append               append files to the end of an archive
  -u, --update               only append files newer than copy in archive
  -x, --extract, --get       extract files from an archive
  -d, --diff, --compare      find differences between archive and file system
      --delete               delete from the archive

 Options supported in the sandbox:
  -f, --file=ARCHIVE         use archive file ARCHIVE ('-': stdin/stdout)
  -v, --verbose              verbosely list files processed
  -C, --directory=DIR        change to directory DIR
  -z, --gzip  -j, --bzip2  -J, --xz   filter the archive
  -a, --auto-compress        use archive suffix to determine the compression
      --exclude=PATTERN      exclude files, given as a PATTERN
  -X, --exclude-from=FILE    exclude patterns listed in FILE
      --exclude-vcs          exclude version control system directories
      --exclude-backups      exclude backup and lock files
  -T, --files-from=FILE      get names to extract or create from FILE
      --null                 -T reads null-terminated names
      --no-null              disable the effect of the previous --null option
      --unquote, --no-unquote, --verbatim-files-from, --no-verbatim-files-from
      --no-recursion         avoid descending automatically in directories
      --recursion            recurse into directories (default)
      --wildcards            use wildcards in member names
  -O, --to-stdout            extract files to standard output
  -k, --keep-old-files       don't replace existing files when extracting
      --skip-old-files       don't replace existing files, silently skip them
      --overwrite            overwrite existing files when extracting
  -m, --touch                don't extract file modified time
  -P, --absolute-names       don't strip leading '/'s from file names
      --remove-files         remove files after adding them to the archive
      --transform=EXPRESSION, --xform=EXPRESSION
                             use sed replace EXPRESSION to transform file names
      --show-transformed-names   show file or archive names after transformation
      --totals               print total bytes after processing the archive
      --strip-components=NUMBER   strip NUMBER leading components from file names
      --numeric-owner        always use numbers for user/group names
      --full-time            print file time to its full resolution
      --owner=NAME[:UID]  --group=NAME[:GID]  --mtime=DATE  --sort=none|name

Links and device files are never extracted: the sandbox has none.
"""

def writes(args: list[str]) -> list[str]:
    """What this command line may write: the archive for ``-c``/``-r``/``-u``/``--delete``
    (nothing for ``-f -``) and, with ``--remove-files``, what it archives; the extraction
    directory for ``-x`` (nothing with ``-O``; anywhere with ``-P``)."""
    try:
        o = parse_args(args)
    except CliError:
        return []
    if o.help or o.version:
        return []
    out: list[str] = []
    if o.mode in ("c", "r", "u", "delete") and o.archive != "-":
        out.append(o.archive)
    if o.mode in ("c", "r", "u") and o.remove_files:
        dirs: list[str] = []
        for e in o.elements:
            if e.key == "C":
                dirs.append(e.value or "")
            elif e.key in ("", "T"):
                base = chdir_path(tuple(dirs))
                name = e.value or "" if e.key == "" else "."
                out.append(name if not base or name.startswith("/") else f"{base}/{name}")
    if o.mode == "x" and not o.to_stdout:
        out.append("/" if o.absolute else chdir_path(tuple(o.dirs)) or ".")
    return out


def _mtime(ctx: CommandContext, text: str | None, verbose: int) -> int | None:
    """``--mtime``: a date, or the time of a file when it starts with ``/`` or ``.`` (GNU's
    ``get_date_or_file``); an unknown date is GNU's minimum time, with its warning."""
    if text is None:
        return None
    if text.startswith(("/", ".")):
        try:
            return mtime_ns_of(ctx.stat(text)) // 1_000_000_000
        except FSError as err:
            ctx.error(f"{quote(text, True)}: Cannot stat: {err.strerror}")
            raise CliError("Date sample file not found", 2) from None
    zone, name = resolve_zone(ctx.env.get("TZ"))
    now = time.time_ns()
    try:
        seconds, nanos = parse_date(text, Moment(now // 10**9, now % 10**9, zone), zone)
        if verbose:  # GNU's report_textual_dates
            treated = strftime("%Y-%m-%d %H:%M:%S", Moment(seconds, 0, zone, name))
            if nanos:
                treated += "." + f"{nanos:09d}".rstrip("0")
            if treated != text:
                ctx.error(f"Option --mtime: Treating date '{text}' as {treated}")
        return seconds
    except (DateError, ValueError, OverflowError):
        ctx.error(f"Substituting -9223372036854775807 for unknown date format ‘{text}’")
        return -(1 << 63)  # (what GNU stores, one below what it says)


def _cli_error(ctx: CommandContext, err: CliError) -> int:
    ctx.error(str(err))
    if err.try_line:
        ctx.stderr.write(f"{TRY}\n".encode())
    if err.epilogue:
        ctx.error("Error is not recoverable: exiting now")
    return err.status


def run(ctx: CommandContext) -> int:
    """Run tar."""
    try:
        opts = parse_args(ctx.args)
        mtime = _mtime(ctx, opts.mtime, opts.verbose)
        tar = Tar(ctx, opts)
    except CliError as err:
        return _cli_error(ctx, err)
    if opts.mode is None and not (opts.help or opts.version):
        ctx.error("You must specify one of the '-Acdtrux', '--delete' or '--test-label' options")
        ctx.stderr.write(f"{TRY}\n".encode())
        return 2
    if opts.help:
        ctx.stdout.write(USAGE.encode())
        return 0
    if opts.version:
        ctx.stdout.write(VERSION.encode())
        return 0
    try:
        return _run(tar, opts, mtime)
    except CliError as err:
        return _cli_error(ctx, err)
    except Fatal as err:
        for line in err.child:
            ctx.stderr.write(f"tar (child): {line}\n".encode("utf-8", "surrogateescape"))
        if err.child:
            ctx.stderr.write(b"tar (child): Error is not recoverable: exiting now\n")
        if err.raw:
            ctx.stderr.write(err.raw)
        for line in err.lines:
            tar.error(line)
        if err.epilogue:
            tar.error("Error is not recoverable: exiting now")
        return 2


def _print_totals(tar: Tar) -> None:
    """GNU ``print_total_stats``."""
    o = tar.opts
    t = tar.totals
    if o.mode in ("c", "r", "u"):
        lines = [t.line("Total bytes written", tar.bytes_written)]
    elif o.mode == "delete":
        lines = [t.line("Total bytes read", tar.bytes_read),
                 t.line("Total bytes written", tar.bytes_written),
                 f"Total bytes deleted: {tar.bytes_deleted}"]
    else:
        lines = [t.line("Total bytes read", tar.bytes_read)]
    tar.ctx.stderr.write(("\n".join(lines) + "\n").encode())


def _read_mode(tar: Tar, o: Options) -> None:
    """``-t``, ``-x`` and ``-d``: the names first, then the archive."""
    ctx = tar.ctx
    expand_all(tar)
    reader = open_archive(tar)
    dirs = tuple(o.read_dirs)
    for i in range(1, len(dirs) + 1):
        d = chdir_path(dirs[:i])
        try:
            if not ctx.stat(d).is_dir:
                raise FSError(20, d)
        except FSError as err:
            raise Fatal(f"{quote(dirs[i - 1], True)}: Cannot open: {err.strerror}") from None
    base = chdir_path(dirs)
    try:
        if o.mode == "t":
            list_members(tar, reader)
        elif o.mode == "d":
            compare(tar, reader, base)
        else:
            extract(tar, reader, base)
    finally:
        tar.bytes_read = reader.records_read * RECORD


def _run(tar: Tar, o: Options, mtime: int | None) -> int:
    ctx = tar.ctx
    if o.mode in ("r", "u"):
        expand_all(tar)
        old = existing_blocks(tar, o.mode == "u")
        create(tar, None, mtime, old, o.operands)
    elif o.mode == "c":
        kind = o.compress
        if kind is None and o.auto_compress and o.archive != "-":
            kind = next((k for s, k in SUFFIXES.items() if o.archive.endswith(s)), None)
        try:
            create(tar, kind, mtime)
        except EmptyArchive:
            ctx.error("Cowardly refusing to create an empty archive")
            ctx.stderr.write(f"{TRY}\n".encode())
            return 2
    elif o.mode == "delete":
        expand_all(tar)
        delete(tar)
    else:
        _read_mode(tar, o)
    if o.updating:
        late = trailing_options(o.elements)
        if late:
            tar.warn("The following options were used after any non-optional arguments in "
                     "archive create or update mode.  These options are positional and affect "
                     "only arguments that follow them.  Please, rearrange them properly.")
            for shown in late:
                tar.error(f"{shown} has no effect")
    if o.totals:
        _print_totals(tar)
    if tar.failed:
        ctx.error("Exiting with failure status due to previous errors")
        return 2
    return 1 if tar.differs else 0
