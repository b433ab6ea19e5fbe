"""``tar``: GNU tar 1.34's ``-c``, ``-x``, ``-t``, ``-r`` and ``-u`` over the jail, in GNU's
default format.

Options: ``-f`` (``-`` is stdin/stdout, the default), ``-v``/``-vv``, ``-C``, ``-z``/``-j``/``-J``
(gzip as gzip 1.12 writes it; reading detects compression as GNU does), ``-a``, ``--exclude``,
``--wildcards``, ``-O``, ``-k``, ``-m``, ``--strip-components``, ``--numeric-owner``,
``--owner``, ``--group``, ``--mtime``, ``--sort``, ``--full-time``; traditional style
(``tar czf x.tgz dir``).
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
from sandbox.commands.tar.create import EmptyArchive, chdir_path, create
from sandbox.commands.tar.extract import extract, list_members
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

 Options supported in the sandbox:
  -f, --file=ARCHIVE         use archive file ARCHIVE ('-': stdin/stdout)
  -v, --verbose              verbosely list files processed
  -C, --directory=DIR        change to directory DIR
  -z, --gzip  -j, --bzip2  -J, --xz   filter the archive
  -a, --auto-compress        use archive suffix to determine the compression
      --exclude=PATTERN      exclude files, given as a PATTERN
      --wildcards            use wildcards in member names
  -O, --to-stdout            extract files to standard output
  -k, --keep-old-files       don't replace existing files when extracting
  -m, --touch                don't extract file modified time
      --strip-components=NUMBER   strip NUMBER leading components from file names
      --numeric-owner        always use numbers for user/group names
      --full-time            print file time to its full resolution
      --owner=NAME[:UID]  --group=NAME[:GID]  --mtime=DATE  --sort=none|name

Links and device files are never extracted: the sandbox has none.
"""

def writes(args: list[str]) -> list[str]:
    """What this command line may write: the archive for ``-c`` (nothing for ``-f -``), the
    extraction directory for ``-x`` (nothing with ``-O``)."""
    try:
        o = parse_args(args)
    except CliError:
        return []
    if o.help or o.version:
        return []
    if o.mode in ("c", "r", "u"):
        return [] if o.archive == "-" else [o.archive]
    if o.mode == "x" and not o.to_stdout:
        return [chdir_path(tuple(o.dirs)) or "."]
    return []


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


def run(ctx: CommandContext) -> int:
    """Run tar."""
    try:
        opts = parse_args(ctx.args)
        mtime = _mtime(ctx, opts.mtime, opts.verbose)
    except CliError as err:
        ctx.error(str(err))
        if err.try_line:
            ctx.stderr.write(f"{TRY}\n".encode())
        return err.status
    if opts.help:
        ctx.stdout.write(USAGE.encode())
        return 0
    if opts.version:
        ctx.stdout.write(VERSION.encode())
        return 0
    if opts.mode is None:
        ctx.error("You must specify one of the '-Acdtrux', '--delete' or '--test-label' options")
        ctx.stderr.write(f"{TRY}\n".encode())
        return 2
    tar = Tar(ctx, opts)
    try:
        return _run(tar, opts, mtime)
    except CliError as err:
        ctx.error(str(err))
        if err.try_line:
            ctx.stderr.write(f"{TRY}\n".encode())
        return err.status
    except Fatal as err:
        if err.raw:
            ctx.stderr.write(err.raw)
        for line in err.lines:
            tar.error(line)
        if err.epilogue:
            tar.error("Error is not recoverable: exiting now")
        return 2


def _run(tar: Tar, o: Options, mtime: int | None) -> int:
    ctx = tar.ctx
    if o.mode in ("r", "u"):
        create(tar, None, mtime, existing_blocks(tar, o.mode == "u"))
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
        if o.late_excludes:
            tar.warn("The following options were used after any non-optional arguments in "
                     "archive create or update mode.  These options are positional and affect "
                     "only arguments that follow them.  Please, rearrange them properly.")
            for pattern in o.late_excludes:
                tar.error(f"--exclude ‘{pattern}’ has no effect")
    else:
        reader = open_archive(tar)
        base = chdir_path(tuple(o.dirs))
        if base:
            try:
                if not ctx.stat(base).is_dir:
                    raise FSError(20, base)
            except FSError as err:
                raise Fatal(f"{quote(base, True)}: Cannot open: {err.strerror}") from None
        if o.mode == "t":
            list_members(tar, reader)
        else:
            extract(tar, reader, base)
    if tar.failed:
        ctx.error("Exiting with failure status due to previous errors")
        return 2
    return 0
