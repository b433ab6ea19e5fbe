"""``pathchk``: diagnose invalid or unportable file names (GNU coreutils 9.1).

``-p`` checks POSIX's portable limits (14-byte components, 255-byte names, the portable
character set); ``-P`` empty names and components starting with ``-``; ``--portability`` both.
Without ``-p`` a name is looked up in the jail the way the kernel's ``lstat`` does
(``kernel_lstat``: ``File name too long`` beyond NAME_MAX 255 / PATH_MAX 4096, ``Not a
directory`` through a file or after a trailing slash on one), and the limits are the virtual
file system's (NAME_MAX 255, PATH_MAX 4096).
"""

from __future__ import annotations

import errno

from sandbox.commands._quoting import quote, quoteaf, quotef
from sandbox.commands.base import CommandContext
from sandbox.commands._lookup import NAME_MAX, PATH_MAX, kernel_lstat
from sandbox.commands.options import NO_ARG, OptionSpec, parse_in_order
from sandbox.fs.base import FSError

SPEC = OptionSpec("pP", {"portability": (NO_ARG, "portability"),
                         "help": (NO_ARG, "help"), "version": (NO_ARG, "version")})

USAGE = """Usage: pathchk [OPTION]... NAME...
Diagnose invalid or unportable file names.

  -p                  check for most POSIX systems
  -P                  check for empty names and leading "-"
      --portability   check for all POSIX systems (equivalent to -p -P)
      --help        display this help and exit
      --version     output version information and exit
"""

_POSIX_NAME_MAX = 14
_POSIX_PATH_MAX = 256
#: glibc's _XOPEN_NAME_MAX / _XOPEN_PATH_MAX: below these no pathconf() is needed.
_NAME_MAX_MINIMUM = 255
_PATH_MAX_MINIMUM = 1024
_PORTABLE = frozenset(b"/ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _components(data: bytes) -> list[bytes]:
    return [part for part in data.split(b"/") if part]


def _utf8_char(data: bytes, i: int) -> bytes:
    """The character at ``data[i]`` as ``mbrlen`` reads it in UTF-8 (one byte if invalid)."""
    for size in (1, 2, 3, 4):
        try:
            data[i : i + size].decode("utf-8")
            return data[i : i + size]
        except UnicodeDecodeError:
            continue
    return data[i : i + 1]


def _check(ctx: CommandContext, name: str, basic: bool, extra: bool) -> bool:
    """GNU's ``validate_file_name``."""
    data = _bytes(name)
    if extra:
        for i, c in enumerate(data):
            if c == 0x2D and (i == 0 or data[i - 1] == 0x2F):
                ctx.error(f"leading '-' in a component of file name {quoteaf(name)}")
                return False
    if (basic or extra) and not data:
        ctx.error("empty file name")
        return False
    exists = False
    if basic:
        for i, c in enumerate(data):
            if c not in _PORTABLE:
                char = _utf8_char(data, i)
                ctx.error(f"nonportable character {quote(char)} in file name {quoteaf(name)}")
                return False
    else:
        try:
            kernel_lstat(ctx, name)
            exists = True
        except FSError as err:
            if err.errno != errno.ENOENT or not data:
                ctx.error(f"{quotef(name)}: {err.strerror}")
                return False
    if basic or (not exists and len(data) >= _PATH_MAX_MINIMUM):
        maxsize = _POSIX_PATH_MAX if basic else PATH_MAX
        if maxsize <= len(data):
            ctx.error(f"limit {maxsize - 1} exceeded by length {len(data)} of file name {quoteaf(name)}")
            return False
    check_lengths = basic or (not exists and any(len(c) > _NAME_MAX_MINIMUM for c in _components(data)))
    if check_lengths:
        limit = _POSIX_NAME_MAX if basic else NAME_MAX
        for component in _components(data):
            if len(component) > limit:
                ctx.error(f"limit {limit} exceeded by length {len(component)} of file name component "
                          f"{quote(component)}")
                return False
    return True


def run(ctx: CommandContext) -> int:
    """Run ``pathchk``."""
    parsed = parse_in_order(ctx, SPEC, USAGE, "pathchk (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    basic = any(key in ("p", "portability") for key, _ in opts)
    extra = any(key in ("P", "portability") for key, _ in opts)
    if not operands:
        return ctx.usage_error("missing operand")
    ok = True
    for name in operands:
        ok &= _check(ctx, name, basic, extra)
        ctx.budget.check_time()
    return 0 if ok else 1
