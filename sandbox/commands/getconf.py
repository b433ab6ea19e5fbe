"""``getconf``: print system configuration values (glibc 2.36's ``getconf``) from a fixed table.

The table holds the common ``sysconf``/``confstr``/``limits.h`` names with this machine's glibc
values (``ARG_MAX``, ``PAGESIZE``, ``LONG_BIT``, ``CLK_TCK``, ``OPEN_MAX``, ``INT_MAX``...)
and the ``pathconf`` names (``PATH_MAX``, ``NAME_MAX``, ``PIPE_BUF``... which need a path;
the ones glibc answers without looking at the path answer for any path, the others need it to
exist in the jail: ``getconf: pathconf: /nope: No such file or directory``, exit 3).
``_NPROCESSORS_ONLN``/``_NPROCESSORS_CONF`` are the virtual identity's processor count; names
that describe the host's hardware (``_PHYS_PAGES``, ``_AVPHYS_PAGES``, cache sizes) and any
name not in the table are ``getconf: Unrecognized variable `X'`` (exit 2). ``-a`` is refused in
one line (the full list describes the host). ``-v SPEC`` is accepted and ignored, as glibc does
on x86-64 for the specifications it has.
"""

from __future__ import annotations

from sandbox.commands import _identity
from sandbox.commands.base import CommandContext
from sandbox.fs.base import FSError

USAGE = """Usage: getconf [-v specification] variable_name [pathname]
       getconf -a [pathname]
"""

HELP = """Usage: getconf [-v SPEC] VAR
  or:  getconf [-v SPEC] PATH_VAR PATH

Get the configuration value for variable VAR, or for variable PATH_VAR
for path PATH.  If SPEC is given, give values for compilation
environment SPEC.

For bug reporting instructions, please see:
<http://www.debian.org/Bugs/>.
"""

VERSION = """getconf (Debian GLIBC 2.36-9+deb12u14) 2.36
Copyright (C) 2022 Free Software Foundation, Inc.
This is free software; see the source for copying conditions.  There is NO
warranty; not even for MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.
Written by Roland McGrath.
"""

#: sysconf / confstr / limits values of glibc 2.36 on x86-64 (this machine's).
SYSTEM: dict[str, str] = {
    "ARG_MAX": "2097152", "_POSIX_ARG_MAX": "2097152", "PAGESIZE": "4096", "PAGE_SIZE": "4096",
    "LONG_BIT": "64", "WORD_BIT": "32", "CLK_TCK": "100", "OPEN_MAX": "20000",
    "CHILD_MAX": "96365", "LINE_MAX": "2048", "CHAR_BIT": "8", "CHAR_MAX": "127",
    "CHAR_MIN": "-128", "SCHAR_MAX": "127", "SCHAR_MIN": "-128", "UCHAR_MAX": "255",
    "SHRT_MAX": "32767", "SHRT_MIN": "-32768", "USHRT_MAX": "65535", "INT_MAX": "2147483647",
    "INT_MIN": "-2147483648", "UINT_MAX": "4294967295", "ULONG_MAX": "18446744073709551615",
    "SSIZE_MAX": "32767", "MB_LEN_MAX": "16", "NZERO": "20", "HOST_NAME_MAX": "64",
    "LOGIN_NAME_MAX": "256", "NGROUPS_MAX": "65536", "TTY_NAME_MAX": "32", "TZNAME_MAX": "undefined",
    "STREAM_MAX": "16", "IOV_MAX": "1024", "ATEXIT_MAX": "2147483647", "RTSIG_MAX": "32",
    "SIGQUEUE_MAX": "96365", "DELAYTIMER_MAX": "2147483647", "SEM_NSEMS_MAX": "undefined",
    "_POSIX_VERSION": "200809", "POSIX2_VERSION": "200809", "_XOPEN_VERSION": "700",
    "_POSIX_THREADS": "200809", "_POSIX_MONOTONIC_CLOCK": "200809", "POSIX2_C_BIND": "200809",
    "BC_BASE_MAX": "99", "BC_DIM_MAX": "2048", "BC_SCALE_MAX": "99", "BC_STRING_MAX": "1000",
    "COLL_WEIGHTS_MAX": "255", "EXPR_NEST_MAX": "32", "RE_DUP_MAX": "32767",
    "NL_ARGMAX": "4096", "NL_LANGMAX": "2048", "NL_MSGMAX": "2147483647", "NL_NMAX": "2147483647",
    "NL_SETMAX": "2147483647", "NL_TEXTMAX": "2147483647",
    "GNU_LIBC_VERSION": "glibc 2.36", "GNU_LIBPTHREAD_VERSION": "NPTL 2.36",
    "PATH": "/bin:/usr/bin", "CS_PATH": "/bin:/usr/bin",
}

#: Names whose glibc value is read from the calling process's resource limits (the stack's,
#: RLIMIT_NOFILE, RLIMIT_NPROC, RLIMIT_SIGPENDING), so it differs from host to host: the table
#: gives the sandbox one fixed value for each, never the host's.
FROM_RLIMITS = frozenset({"ARG_MAX", "_POSIX_ARG_MAX", "OPEN_MAX", "CHILD_MAX", "SIGQUEUE_MAX"})

#: pathconf names: (value, whether glibc answers without looking at the path).
PATHCONF: dict[str, tuple[str, bool]] = {
    "PATH_MAX": ("4096", True), "_POSIX_PATH_MAX": ("4096", True),
    "MAX_CANON": ("255", True), "_POSIX_MAX_CANON": ("255", True),
    "MAX_INPUT": ("255", True), "_POSIX_MAX_INPUT": ("255", True),
    "PIPE_BUF": ("4096", True), "_POSIX_PIPE_BUF": ("4096", True),
    "_POSIX_VDISABLE": ("0", True), "_POSIX_NO_TRUNC": ("1", True), "SYMLINK_MAX": ("undefined", True),
    "NAME_MAX": ("255", False), "_POSIX_NAME_MAX": ("255", False),
    "LINK_MAX": ("65000", False), "_POSIX_LINK_MAX": ("65000", False),
    "FILESIZEBITS": ("64", False), "_POSIX_CHOWN_RESTRICTED": ("1", False),
}


def value_of(name: str) -> str | None:
    """The value of a system (non-path) variable, or None when it is not in the table."""
    if name in ("_NPROCESSORS_ONLN", "_NPROCESSORS_CONF"):
        return str(_identity.NPROC)
    return SYSTEM.get(name)


def run(ctx: CommandContext) -> int:
    """Run ``getconf``."""
    args = list(ctx.args)
    if args and args[0] == "--version":
        ctx.stdout.write(VERSION.encode())
        return 0
    if args and args[0] == "--help":
        ctx.stdout.write(HELP.encode())
        return 0
    if args and args[0] == "-a":
        ctx.error("-a is not available in this sandbox (the full list describes the host)")
        return 1
    if args and args[0].startswith("-v"):
        if args[0] == "-v":
            if len(args) < 2:
                ctx.stderr.write(USAGE.encode())
                return 2
            args = args[2:]
        else:
            args = args[1:]
    if args and args[0] == "--":
        args = args[1:]
    if len(args) not in (1, 2):
        ctx.stderr.write(USAGE.encode())
        return 2
    name = args[0]
    if name in PATHCONF:
        if len(args) != 2:
            ctx.stderr.write(USAGE.encode())
            return 2
        value, constant = PATHCONF[name]
        if not constant or args[1] == "":
            try:
                ctx.stat(args[1])
            except FSError as err:
                ctx.stderr.write(f"getconf: pathconf: {args[1]}: {err.strerror}\n".encode("utf-8", "surrogateescape"))
                return 3
        ctx.stdout.write(f"{value}\n".encode())
        return 0
    value = value_of(name)
    if value is None:
        ctx.stderr.write(f"getconf: Unrecognized variable `{name}'\n".encode("utf-8", "surrogateescape"))
        return 2
    if len(args) != 1:
        ctx.stderr.write(USAGE.encode())
        return 2
    ctx.stdout.write(f"{value}\n".encode())
    return 0
