"""``readlink``: print resolved symbolic links or canonical file names (GNU coreutils 9.1):
``-f -e -m -n -z -v -q -s``.

Without ``-f``/``-e``/``-m`` it prints a link's text (a link a host process put in the
directory: the sandbox makes none); anything else is "not a link": nothing is printed and the
status is 1 (``-v`` says ``Invalid argument``). ``-f -e -m`` canonicalise inside the jail,
resolving links by name without following them (see ``_canonical``).
"""

from __future__ import annotations

from sandbox.commands._canonical import (
    ALL_BUT_LAST, EXISTING, MISSING, canonicalize, stat_through,
)
from sandbox.commands._quoting import quotef
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    "efmnqsvz",
    {
        "canonicalize": (NO_ARG, "f"),
        "canonicalize-existing": (NO_ARG, "e"),
        "canonicalize-missing": (NO_ARG, "m"),
        "no-newline": (NO_ARG, "n"),
        "quiet": (NO_ARG, "q"),
        "silent": (NO_ARG, "s"),
        "verbose": (NO_ARG, "v"),
        "zero": (NO_ARG, "z"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: readlink [OPTION]... FILE...
Print value of a symbolic link or canonical file name

  -f, --canonicalize            canonicalize by following every symlink in
                                every component of the given name recursively;
                                all but the last component must exist
  -e, --canonicalize-existing   canonicalize by following every symlink in
                                every component of the given name recursively,
                                all components must exist
  -m, --canonicalize-missing    canonicalize by following every symlink in
                                every component of the given name recursively,
                                without requirements on components existence
  -n, --no-newline              do not output the trailing delimiter
  -q, --quiet
  -s, --silent                  suppress most error messages (on by default)
  -v, --verbose                 report error messages
  -z, --zero                    end each output line with NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
"""


def run(ctx: CommandContext) -> int:
    """Run ``readlink``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="readlink (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    mode = ""
    no_newline = verbose = zero = False
    for key, _ in opts:
        if key in "efm":
            mode = {"e": EXISTING, "f": ALL_BUT_LAST, "m": MISSING}[key]
        elif key == "n":
            no_newline = True
        elif key in "qs":
            verbose = False
        elif key == "v":
            verbose = True
        elif key == "z":
            zero = True
    if not operands:
        return ctx.usage_error("missing operand")
    if no_newline and len(operands) > 1:
        ctx.error("ignoring --no-newline with multiple arguments")
        no_newline = False
    status = 0
    for operand in operands:
        try:
            if not mode:  # the link's own text (EINVAL: not a link); links above it resolved
                value = ctx.fs.readlink(stat_through(ctx, operand, follow=False)[1])
            else:
                value = canonicalize(ctx, operand, mode)
        except FSError as e:
            status = 1
            if verbose:
                ctx.error(f"{quotef(operand)}: {e}")
            continue
        out = value.encode("utf-8", "surrogateescape")
        if not no_newline:
            out += b"\0" if zero else b"\n"
        ctx.stdout.write(out)
    return status
