"""``dirname``: strip the last component from file names (GNU coreutils 9.1, ``-z``)."""

from __future__ import annotations

from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_command_line

SPEC = OptionSpec(short="z", long={"zero": (NO_ARG, "z")})



HELP = '''Usage: dirname [OPTION] NAME...
Output each NAME with its last non-slash component and trailing slashes
removed; if NAME contains no /'s, output '.' (meaning the current directory).

  -z, --zero     end each output line with NUL, not newline
'''

def dir_name(name: str) -> str:
    """GNU's dirname of ``name``: ``.`` when it has no slash, ``/`` for the root."""
    stripped = name.rstrip("/")
    if stripped == "":
        return "/" if name.startswith("/") else "."
    head, slash, _ = stripped.rpartition("/")
    if not slash:
        return "."
    head = head.rstrip("/")
    return head if head else "/"


def run(ctx: CommandContext) -> int:
    """Print each NAME's directory part."""
    parsed = parse_command_line(ctx, SPEC, HELP, early_help=True)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    end = "\0" if any(key == "z" for key, _ in opts) else "\n"
    if not operands:
        return ctx.usage_error("missing operand")
    out = "".join(dir_name(name) + end for name in operands)
    ctx.stdout.write(out.encode("utf-8", "surrogateescape"))
    return 0
