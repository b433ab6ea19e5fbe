"""``realpath``: print the resolved absolute file name (GNU coreutils 9.1):
``-e -m -s -L -P -q -z --relative-to --relative-base``.

The jail has no symbolic links, so ``-L``/``-P``/``-s`` change only the existence checks (see
``_canonical``); names are virtual paths inside the jail.
"""

from __future__ import annotations

from sandbox.commands._canonical import ALL_BUT_LAST, EXISTING, MISSING, canonicalize
from sandbox.commands._quoting import quotef
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    "emLPqsz",
    {
        "canonicalize-existing": (NO_ARG, "e"),
        "canonicalize-missing": (NO_ARG, "m"),
        "logical": (NO_ARG, "L"),
        "physical": (NO_ARG, "P"),
        "quiet": (NO_ARG, "q"),
        "relative-base": (REQUIRED, "relative-base"),
        "relative-to": (REQUIRED, "relative-to"),
        "strip": (NO_ARG, "s"),
        "no-symlinks": (NO_ARG, "s"),
        "zero": (NO_ARG, "z"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

USAGE = """Usage: realpath [OPTION]... FILE...
Print the resolved absolute file name;
all but the last component must exist

  -e, --canonicalize-existing  all components of the path must exist
  -m, --canonicalize-missing   no path components need exist or be a directory
  -L, --logical                resolve '..' components before symlinks
  -P, --physical               resolve symlinks as encountered (default)
  -q, --quiet                  suppress most error messages
      --relative-to=DIR        print the resolved path relative to DIR
      --relative-base=DIR      print absolute paths unless paths below DIR
  -s, --strip, --no-symlinks   don't expand symlinks
  -z, --zero                   end each output line with NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
"""


def path_prefix(prefix: str, path: str) -> bool:
    """coreutils ``path_prefix``: ``prefix`` is ``path`` or one of its ancestors."""
    prefix, path = prefix[1:], path[1:]
    if not prefix:
        return not path.startswith("/")
    return path == prefix or path.startswith(prefix + "/")


def _common_prefix(a: str, b: str) -> int:
    i = ret = 0
    while i < len(a) and i < len(b) and a[i] == b[i]:
        if a[i] == "/":
            ret = i + 1
        i += 1
    if (i == len(a) and i == len(b)) or (i == len(a) and b[i:i + 1] == "/") or (i == len(b) and a[i:i + 1] == "/"):
        ret = i
    return ret


def relpath(fname: str, reldir: str) -> str | None:
    """coreutils ``relpath``: ``fname`` relative to ``reldir`` (both canonical)."""
    common = _common_prefix(reldir, fname)
    if not common:
        return None
    rel, rest = reldir[common:], fname[common:]
    rel = rel[1:] if rel.startswith("/") else rel
    rest = rest[1:] if rest.startswith("/") else rest
    if rel:
        out = ".." + "/.." * rel.count("/")
        return out + "/" + rest if rest else out
    return rest or "."


def run(ctx: CommandContext) -> int:
    """Run ``realpath``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="realpath (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    mode, nolinks, quiet, zero = ALL_BUT_LAST, False, False, False
    rel_to = rel_base = None
    for key, value in opts:
        if key == "e":
            mode = EXISTING
        elif key == "m":
            mode = MISSING
        elif key == "s":
            nolinks = True
        elif key == "L":
            nolinks = True
        elif key == "P":
            nolinks = False
        elif key == "q":
            quiet = True
        elif key == "z":
            zero = True
        elif key == "relative-to":
            rel_to = value
        elif key == "relative-base":
            rel_base = value
    if not operands:
        return ctx.usage_error("missing operand")
    if rel_base is not None and rel_to is None:
        rel_to = rel_base
    can_to = can_base = None
    for which in ("to", "base"):
        arg = rel_to if which == "to" else rel_base
        if arg is None or (which == "base" and rel_base == rel_to):
            continue
        try:
            canon = canonicalize(ctx, arg, mode, nolinks)
            if mode == EXISTING and not ctx.fs.stat(canon).is_dir:
                raise FSError(20, arg)
        except FSError as e:
            ctx.error(f"{quotef(arg)}: {e}")
            return 1
        if which == "to":
            can_to = canon
        else:
            can_base = canon
    if rel_base is not None and rel_base == rel_to:
        can_base = can_to
    elif can_base is not None and not path_prefix(can_base, can_to or ""):
        can_base, can_to = can_to, None
    status = 0
    end = b"\0" if zero else b"\n"
    for operand in operands:
        try:
            canon = canonicalize(ctx, operand, mode, nolinks)
        except FSError as e:
            if not quiet:
                ctx.error(f"{quotef(operand)}: {e}")
            status = 1
            continue
        shown = canon
        if can_to is not None and (can_base is None or path_prefix(can_base, canon)):
            rel = relpath(canon, can_to)
            if rel is not None:
                shown = rel
        ctx.stdout.write(shown.encode("utf-8", "surrogateescape") + end)
    return status
