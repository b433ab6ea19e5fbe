"""``mkdir``: make directories (GNU coreutils 9.1): ``-p``, ``-v``.

New directories are private (0700, the filesystem's rule). ``-m MODE`` is refused with a clear
message: the sandbox filesystem has no chmod.
"""

from __future__ import annotations

import errno
from typing import Callable

from sandbox.commands._quoting import quote, quoteaf
from sandbox.commands._writing import operands_of
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    "pvm:Z",
    {
        "parents": (NO_ARG, "p"),
        "verbose": (NO_ARG, "v"),
        "mode": (REQUIRED, "m"),
        "context": (NO_ARG, "Z"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: mkdir [OPTION]... DIRECTORY...
Create the DIRECTORY(ies), if they do not already exist.

  -p, --parents     no error if existing, make parent directories as needed
  -v, --verbose     print a message for each created directory
      --help        display this help and exit
      --version     output version information and exit
"""


def writes(args: list[str]) -> list[str]:
    """The directories this command line may create."""
    return operands_of(SPEC, args)[1]


def _prefixes(operand: str) -> list[str]:
    """The typed prefixes of ``operand`` ending at each component (``a//b/`` -> a, a//b/)."""
    result = []
    i = 0
    n = len(operand)
    while i < n:
        while i < n and operand[i] == "/":
            i += 1
        if i >= n:
            break
        j = operand.find("/", i)
        j = n if j < 0 else j
        result.append(operand[:j])
        i = j
    if result:
        result[-1] = operand
    return result


def make_parents(ctx: CommandContext, operand: str,
                 created: Callable[[str], None] | None = None, q: Callable[[str], str] = quote,
                 exists_last: bool = True) -> bool:
    """Create ``operand`` and its missing parents as ``mkdir -p`` does, with GNU's messages
    (``q`` quotes the names; ``exists_last``: an existing non-directory as the last component
    says ``File exists``, else ``Not a directory``); ``created(prefix)`` after each one made."""
    prefixes = _prefixes(operand)
    if not prefixes:
        return True  # "/" or "///": exists
    for k, prefix in enumerate(prefixes):
        last = k == len(prefixes) - 1
        try:
            st = ctx.stat(prefix)
        except FSError as e:
            if e.errno != errno.ENOENT:
                ctx.error(f"cannot create directory {q(prefix.rstrip('/') or prefix)}: {e}")
                return False
            st = None
        if st is not None:
            if st.is_dir:
                continue
            shown = prefix if last else prefix.rstrip("/")
            reason = "File exists" if last and exists_last else "Not a directory"
            ctx.error(f"cannot create directory {q(shown)}: {reason}")
            return False
        try:
            ctx.mkdir(prefix)
        except FSError as e:
            ctx.error(f"cannot create directory {q(prefix)}: {e}")
            return False
        if created is not None:
            created(prefix)
    return True


def _make_parents(ctx: CommandContext, operand: str, verbose: bool) -> bool:
    def created(prefix: str) -> None:
        ctx.stdout.write(f"mkdir: created directory {quoteaf(prefix)}\n".encode("utf-8", "surrogateescape"))
    return make_parents(ctx, operand, created if verbose else None)


def run(ctx: CommandContext) -> int:
    """Run ``mkdir``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="mkdir (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    keys = {key for key, _ in opts}
    if "m" in keys:
        ctx.error("option -m is not supported in the sandbox (new directories are private, 0700)")
        return 1
    if not operands:
        return ctx.usage_error("missing operand")
    parents, verbose = "p" in keys, "v" in keys
    status = 0
    for operand in operands:
        ctx.budget.check_time()
        if operand == "":
            ctx.error(f"cannot create directory {quote(operand)}: No such file or directory")
            status = 1
            continue
        if parents:
            if not _make_parents(ctx, operand, verbose):
                status = 1
            continue
        try:
            ctx.mkdir(operand)
        except FSError as e:
            ctx.error(f"cannot create directory {quote(operand)}: {e}")
            status = 1
            continue
        if verbose:
            ctx.stdout.write(f"mkdir: created directory {quoteaf(operand)}\n".encode("utf-8", "surrogateescape"))
    return status
