"""patch's command line: GNU's options, their values, the usage and version texts."""

from __future__ import annotations

from dataclasses import dataclass, field

from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, UsageError, parse
from sandbox.commands.patch.names import quotearg

#: GNU 2.7.6's getopt string (Debian builds it with --merge).
SPEC = OptionSpec("bB:cd:D:eEfF:g:i:lmnNo:p:r:RstTuvV:x:Y:z:Z", {
    "backup": (NO_ARG, "b"), "prefix": (REQUIRED, "B"), "context": (NO_ARG, "c"),
    "directory": (REQUIRED, "d"), "ifdef": (REQUIRED, "D"), "ed": (NO_ARG, "e"),
    "remove-empty-files": (NO_ARG, "E"), "force": (NO_ARG, "f"), "fuzz": (REQUIRED, "F"),
    "get": (REQUIRED, "g"), "input": (REQUIRED, "i"), "ignore-whitespace": (NO_ARG, "l"),
    "merge": (OPTIONAL, "m"), "normal": (NO_ARG, "n"), "forward": (NO_ARG, "N"),
    "output": (REQUIRED, "o"), "strip": (REQUIRED, "p"), "reject-file": (REQUIRED, "r"),
    "reverse": (NO_ARG, "R"), "quiet": (NO_ARG, "s"), "silent": (NO_ARG, "s"),
    "batch": (NO_ARG, "t"), "set-time": (NO_ARG, "T"), "unified": (NO_ARG, "u"),
    "version": (NO_ARG, "v"), "version-control": (REQUIRED, "V"), "debug": (REQUIRED, "x"),
    "basename-prefix": (REQUIRED, "Y"), "suffix": (REQUIRED, "z"), "set-utc": (NO_ARG, "Z"),
    "dry-run": (NO_ARG, "dry-run"), "verbose": (NO_ARG, "verbose"), "binary": (NO_ARG, "binary"),
    "help": (NO_ARG, "help"), "backup-if-mismatch": (NO_ARG, "backup-if-mismatch"),
    "no-backup-if-mismatch": (NO_ARG, "no-backup-if-mismatch"), "posix": (NO_ARG, "posix"),
    "quoting-style": (REQUIRED, "quoting-style"), "reject-format": (REQUIRED, "reject-format"),
    "read-only": (REQUIRED, "read-only"), "follow-symlinks": (NO_ARG, "follow-symlinks"),
})

#: Options GNU patch has that this one does not implement: refused, not ignored.
UNSUPPORTED = {"B": "-B", "D": "-D", "g": "-g", "l": "-l", "m": "--merge", "T": "-T",
               "V": "-V", "x": "-x", "Y": "-Y", "z": "-z", "Z": "-Z", "posix": "--posix",
               "quoting-style": "--quoting-style", "read-only": "--read-only"}

VERSION = """GNU patch 2.7.6
Copyright (C) 2003, 2009-2012 Free Software Foundation, Inc.
Copyright (C) 1988 Larry Wall

License GPLv3+: GNU GPL version 3 or later <http://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Larry Wall and Paul Eggert
"""

USAGE = """Usage: patch [OPTION]... [ORIGFILE [PATCHFILE]]

Input options:

  -p NUM  --strip=NUM  Strip NUM leading components from file names.
  -F LINES  --fuzz LINES  Set the fuzz factor to LINES for inexact matching.
  -l  --ignore-whitespace  Ignore white space changes between patch and input.

  -c  --context  Interpret the patch as a context difference.
  -e  --ed  Interpret the patch as an ed script.
  -n  --normal  Interpret the patch as a normal difference.
  -u  --unified  Interpret the patch as a unified difference.

  -N  --forward  Ignore patches that appear to be reversed or already applied.
  -R  --reverse  Assume patches were created with old and new files swapped.

  -i PATCHFILE  --input=PATCHFILE  Read patch from PATCHFILE instead of stdin.

Output options:

  -o FILE  --output=FILE  Output patched files to FILE.
  -r FILE  --reject-file=FILE  Output rejects to FILE.

  -D NAME  --ifdef=NAME  Make merged if-then-else output using NAME.
  --merge  Merge using conflict markers instead of creating reject files.
  -E  --remove-empty-files  Remove output files that are empty after patching.

  -Z  --set-utc  Set times of patched files, assuming diff uses UTC (GMT).
  -T  --set-time  Likewise, assuming local time.

  --quoting-style=WORD   output file names using quoting style WORD.
    Valid WORDs are: literal, shell, shell-always, c, escape.
    Default is taken from QUOTING_STYLE env variable, or 'shell' if unset.

Backup and version control options:

  -b  --backup  Back up the original contents of each file.
  --backup-if-mismatch  Back up if the patch does not match exactly.
  --no-backup-if-mismatch  Back up mismatches only if otherwise requested.

  -V STYLE  --version-control=STYLE  Use STYLE version control.
\tSTYLE is either 'simple', 'numbered', or 'existing'.
  -B PREFIX  --prefix=PREFIX  Prepend PREFIX to backup file names.
  -Y PREFIX  --basename-prefix=PREFIX  Prepend PREFIX to backup file basenames.
  -z SUFFIX  --suffix=SUFFIX  Append SUFFIX to backup file names.

  -g NUM  --get=NUM  Get files from RCS etc. if positive; ask if negative.

Miscellaneous options:

  -t  --batch  Ask no questions; skip bad-Prereq patches; assume reversed.
  -f  --force  Like -t, but ignore bad-Prereq patches, and assume unreversed.
  -s  --quiet  --silent  Work silently unless an error occurs.
  --verbose  Output extra information about the work being done.
  --dry-run  Do not actually change any files; just print what would happen.
  --posix  Conform to the POSIX standard.

  -d DIR  --directory=DIR  Change the working directory to DIR first.
  --reject-format=FORMAT  Create 'context' or 'unified' rejects.
  --binary  Read and write data in binary mode.
  --read-only=BEHAVIOR  How to handle read-only input files: 'ignore' that they
                        are read-only, 'warn' (default), or 'fail'.

  -v  --version  Output version info.
  --help  Output this help.

Report bugs to <bug-patch@gnu.org>.
"""

#: Diff kinds (GNU's ``enum diff``; the order matters: ``< NEW_CONTEXT`` picks reject styles).
NO_DIFF, CONTEXT_DIFF, NORMAL_DIFF, ED_DIFF, NEW_CONTEXT_DIFF, UNI_DIFF = range(6)

#: Verbosity levels.
DEFAULT, SILENT, VERBOSE = range(3)


class Fatal(Exception):
    """``patch: **** MESSAGE``, exit 2 (the message as GNU words it)."""


class Usage(Exception):
    """A command-line error: GNU's message, then the ``Try 'patch --help'`` line, exit 2."""


@dataclass
class Options:
    """Everything the command line set (GNU's globals of the same names)."""

    backup: bool = False
    backup_if_mismatch: bool = True
    diff_type: int = NO_DIFF
    directories: list[str] = field(default_factory=list)
    remove_empty_files: bool = False
    force: bool = False
    maxfuzz: int = 2
    patchname: str | None = None
    noreverse: bool = False
    outfile: str | None = None
    strippath: int = -1
    rejname: str | None = None
    reverse: bool = False
    verbosity: int = DEFAULT
    batch: bool = False
    dry_run: bool = False
    no_strip_trailing_cr: bool = False
    reject_format: int = NO_DIFF
    inname: str | None = None
    help: bool = False
    version: bool = False
    #: The first option this patch does not implement, as GNU spells it.
    unsupported: str | None = None


def numeric_string(text: str, negative_allowed: bool, what: str) -> int:
    """GNU's ``numeric_string``: digits with an optional sign, clamped on overflow."""
    p = text[1:] if text[:1] in "+-" and text else text
    negative = text.startswith("-")
    if not p or not all("0" <= c <= "9" for c in p):
        raise Fatal(f"{what} {quotearg(text)} is not a number")
    value = int(p)
    if negative:
        value = -value
    if value < 0 and not negative_allowed:
        raise Fatal(f"{what} {quotearg(text)} is negative")
    return max(-(1 << 63), min(value, (1 << 63) - 1))


def parse_options(args: list[str], chdir) -> Options:
    """GNU's ``get_some_switches``, in order: ``chdir(dir)`` is called for each ``-d`` when it
    is met (it raises ``Fatal`` for a missing directory), so later errors come after it."""
    try:
        pairs, operands = parse(SPEC, args)
    except UsageError as err:
        raise Usage(str(err)) from None
    opts = Options()
    for key, value in pairs:
        val = value or ""
        if key in UNSUPPORTED and opts.unsupported is None:
            opts.unsupported = UNSUPPORTED[key]
        if key == "b":
            opts.backup = True
        elif key == "c":
            opts.diff_type = CONTEXT_DIFF
        elif key == "d":
            chdir(val)
            opts.directories.append(val)
        elif key == "e":
            opts.diff_type = ED_DIFF
        elif key == "E":
            opts.remove_empty_files = True
        elif key == "f":
            opts.force = True
        elif key == "F":
            opts.maxfuzz = numeric_string(val, False, "fuzz factor")
        elif key == "i":
            opts.patchname = val
        elif key == "n":
            opts.diff_type = NORMAL_DIFF
        elif key == "N":
            opts.noreverse = True
        elif key == "o":
            opts.outfile = val
        elif key == "p":
            opts.strippath = numeric_string(val, False, "strip count")
        elif key == "r":
            opts.rejname = val
        elif key == "R":
            opts.reverse = True
        elif key == "s":
            opts.verbosity = SILENT
        elif key == "t":
            opts.batch = True
        elif key == "u":
            opts.diff_type = UNI_DIFF
        elif key == "v":
            opts.version = True
            return opts
        elif key == "dry-run":
            opts.dry_run = True
        elif key == "verbose":
            opts.verbosity = VERBOSE
        elif key == "binary":
            opts.no_strip_trailing_cr = True
        elif key == "help":
            opts.help = True
            return opts
        elif key == "backup-if-mismatch":
            opts.backup_if_mismatch = True
        elif key == "no-backup-if-mismatch":
            opts.backup_if_mismatch = False
        elif key == "reject-format":
            if val == "context":
                opts.reject_format = NEW_CONTEXT_DIFF
            elif val == "unified":
                opts.reject_format = UNI_DIFF
            else:
                raise Usage("")
    if operands:
        opts.inname = operands[0]
        if len(operands) > 1:
            opts.patchname = operands[1]
        if len(operands) > 2:
            raise Usage(f"{quotearg(operands[2])}: extra operand")
    return opts
