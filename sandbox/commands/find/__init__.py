"""``find``: search a directory tree (GNU findutils 4.9), inside the jail.

Start points, then an expression: tests ``-name -iname -path -ipath -wholename -iwholename
-regex -iregex -type -xtype -size -empty -newer -mtime -mmin -atime -amin -ctime -cmin -perm
-newerXY -links -user -group -uid -gid -samefile -readable -writable -executable -true -false``
(and ``-nouser -nogroup -lname -ilname -used -inum``, false or 0 here),
options ``-maxdepth -mindepth -depth -regextype -daystart -warn -nowarn`` (and the no-op
``-noleaf -xdev -mount -ignore_readdir_race``), actions ``-print -print0 -printf -ls -delete
-exec -execdir -prune -quit``, operators ``! -not -a -and -o -or ( ) ,``. Messages and exit
statuses are GNU's (warnings only under ``-warn``: GNU warns only when stdin is a terminal).

Sandbox rules: nothing is opened through a symbolic link. Links and special files a host
process left are listed as what they are (``-type l``/``p``, ``-lname``, ``%y %l``, ``-ls``);
``-xtype``/``%Y``, ``-H``/``-L`` start points and ``-L``'s tests resolve a link by name inside
the jail, but ``-L`` never walks into a directory through a link; ``-follow`` is refused in one
line; ``-ok``/``-okdir`` are refused (no terminal to ask); ``-delete`` goes through the jail's
write policy; ``-exec``/``-execdir`` run through ``ctx.run_command`` (the guard checks the
command names first, see ``runs``). The backends know no access or change times: ``-atime``,
``-ctime`` and their ``%A``/``%C`` directives use the modification time. The virtual owner is
``user``; inode and device numbers are 0. Directory entries come in the host's readdir order
where the directory is a host directory (``_dirorder.py``), else sorted.
"""

from __future__ import annotations

from sandbox.commands.base import DYNAMIC, CommandContext
from sandbox.commands.find import parse as P
from sandbox.commands.find.walk import Quit, Walker
from sandbox.fs.base import FSError

USAGE = """Usage: find [-H] [-L] [-P] [-Olevel] [-D debugopts] [path...] [expression]

Default path is the current directory; default expression is -print.
Expression may consist of: operators, options, tests, and actions.

Operators (decreasing precedence; -and is implicit where no others are given):
      ( EXPR )   ! EXPR   -not EXPR   EXPR1 -a EXPR2   EXPR1 -and EXPR2
      EXPR1 -o EXPR2   EXPR1 -or EXPR2   EXPR1 , EXPR2

Positional options (always true):
      -daystart -follow -nowarn -regextype -warn

Normal options (always true, specified before other expressions):
      -depth -files0-from FILE -maxdepth LEVELS -mindepth LEVELS
       -mount -noleaf -xdev -ignore_readdir_race -noignore_readdir_race

Tests (N can be +N or -N or N):
      -amin N -anewer FILE -atime N -cmin N -cnewer FILE -context CONTEXT
      -ctime N -empty -false -fstype TYPE -gid N -group NAME -ilname PATTERN
      -iname PATTERN -inum N -iwholename PATTERN -iregex PATTERN
      -links N -lname PATTERN -mmin N -mtime N -name PATTERN -newer FILE
      -nouser -nogroup -path PATTERN -perm [-/]MODE -regex PATTERN
      -readable -writable -executable
      -wholename PATTERN -size N[bcwkMG] -true -type [bcdpflsD] -uid N
      -used N -user NAME -xtype [bcdpfls]

Actions:
      -delete -print0 -printf FORMAT -fprintf FILE FORMAT -print 
      -fprint0 FILE -fprint FILE -ls -fls FILE -prune -quit
      -exec COMMAND ; -exec COMMAND {} + -ok COMMAND ;
      -execdir COMMAND ; -execdir COMMAND {} + -okdir COMMAND ;

Other common options:
      --help                   display this help and exit
      --version                output version information and exit

Valid arguments for -D:
exec, opt, rates, search, stat, time, tree, all, help
Use '-D help' for a description of the options, or see find(1)

Please see also the documentation at https://www.gnu.org/software/findutils/.
You can report (and track progress on fixing) bugs in the "find"
program via the GNU findutils bug-reporting page at
https://savannah.gnu.org/bugs/?group=findutils or, if
you have no web access, by sending email to <bug-findutils@gnu.org>.
"""


VERSION = """find (GNU findutils) 4.9.0
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Eric B. Decker, James Youngman, and Kevin Dalley.
Features enabled: D_TYPE O_NOFOLLOW(enabled) LEAF_OPTIMISATION FTS(FTS_CWDFD) CBO(level=2) 
"""


def _split(args: list[str]) -> tuple[list[str], list[str], list[str]]:
    """(leading options, start points, expression words)."""
    lead: list[str] = []
    i = 0
    while i < len(args) and args[i] in ("-H", "-L", "-P") or (
            i < len(args) and args[i].startswith("-O")):
        lead.append(args[i])
        i += 1
    if i < len(args) and args[i] == "--":
        i += 1
    starts: list[str] = []
    while i < len(args) and not P.looks_like_expression(args[i]):
        starts.append(args[i])
        i += 1
    return lead, starts, args[i:]


def runs(args: list[str]) -> list[list[str]]:
    """The commands of every ``-exec``/``-execdir``/``-ok``/``-okdir`` (``{}`` left in place;
    a command name holding ``{}`` is marked ``DYNAMIC``)."""
    out: list[list[str]] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-exec", "-execdir", "-ok", "-okdir"):
            j = i + 1
            while j < len(args) and args[j] != ";" and not (
                    args[j] == "+" and j > i + 1 and "{}" in args[j - 1]):
                j += 1
            if j > i + 1:
                argv = args[i + 1:j]
                if "{}" in argv[0]:  # `-exec {} ;`: the name is each file found, not a word
                    argv = [DYNAMIC + argv[0], *argv[1:]]
                out.append(argv)
            i = j + 1
            continue
        i += 1
    return out


def writes(args: list[str]) -> list[str]:
    """``-delete`` writes (removes) under every start point."""
    if "-delete" not in args:
        return []
    _, starts, _ = _split(args)
    return [s for s in starts or ["."] if not s.startswith(DYNAMIC)] or ["."]


def _exists(ctx: CommandContext, operand: str) -> bool:
    try:
        ctx.stat(operand)
    except FSError:
        return False
    return True


def run(ctx: CommandContext) -> int:
    """``find``."""
    args = ctx.args
    if args[:1] in (["--help"], ["-help"]):
        ctx.stdout.write(USAGE.encode())
        return 0
    if args[:1] in (["--version"], ["-version"]):
        ctx.stdout.write(VERSION.encode())
        return 0
    lead, starts, words = _split(args)
    for word in words:  # GNU's -help/-version predicates act as soon as they are parsed
        if word in ("-help", "--help"):
            ctx.stdout.write(USAGE.encode())
            return 0
        if word in ("-version", "--version"):
            ctx.stdout.write(VERSION.encode())
            return 0
    options = P.Options()
    for word in lead:
        if word in ("-H", "-L", "-P"):
            options.follow = word[1]
    walker = Walker(ctx, options)
    try:
        parser = P.Parser(words, options, walker.make)
        parser.warn = ctx.error
        parser.exists = lambda word: _exists(ctx, word)
        expr = parser.parse()
        if options.delete and options.prune and not any(w in ("-depth", "-d") for w in words):
            raise P.FindError("The -delete action automatically turns on -depth, but -prune "
                              "does nothing when -depth is in effect.  If you want to carry "
                              "on anyway, just explicitly use the -depth option.")
    except P.FindError as exc:
        walker.flush()
        ctx.error(str(exc))
        return 1
    if options.delete:
        options.depth = True
    printer = P.Node("pred", "-print", fn=walker.make("-print", []))
    if expr is None:
        expr = printer
    elif not options.has_action:
        expr = P.Node("and", left=expr, right=printer)
    try:
        for start in starts or ["."]:
            walker.walk(start, expr)
    except Quit:
        pass
    walker.finish()
    return walker.status
