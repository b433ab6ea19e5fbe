"""``basename``: strip directory and suffix from file names (GNU coreutils 9.1).

``basename NAME [SUFFIX]`` or ``basename -a|-s SUFFIX [-z] NAME...``.
"""

from __future__ import annotations

from sandbox.commands._quoting import quote
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line

SPEC = OptionSpec(
    short="as:z",
    long={"multiple": (NO_ARG, "a"), "suffix": (REQUIRED, "s"), "zero": (NO_ARG, "z")},
    permute=False,
)



HELP = '''Usage: basename NAME [SUFFIX]
  or:  basename OPTION... NAME...
Print NAME with any leading directory components removed.
If specified, also remove a trailing SUFFIX.

  -a, --multiple       support multiple arguments and treat each as a NAME
  -s, --suffix=SUFFIX  remove a trailing SUFFIX; implies -a
  -z, --zero           end each output line with NUL, not newline
'''

def base_name(name: str, suffix: str = "") -> str:
    """GNU's basename of ``name``, with ``suffix`` removed unless it is the whole name."""
    if name == "":
        return ""
    stripped = name.rstrip("/")
    if stripped == "":
        return "/"
    base = stripped.rsplit("/", 1)[-1]
    if suffix and base != suffix and base.endswith(suffix):
        base = base[: -len(suffix)]
    return base


def run(ctx: CommandContext) -> int:
    """Print each NAME's last component."""
    parsed = parse_command_line(ctx, SPEC, HELP, early_help=True)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    multiple = False
    suffix = ""
    end = "\n"
    for key, value in opts:
        if key == "a":
            multiple = True
        elif key == "s":
            multiple = True
            suffix = value or ""
        elif key == "z":
            end = "\0"
    if not operands:
        return ctx.usage_error("missing operand")
    if not multiple:
        if len(operands) > 2:
            return ctx.usage_error(f"extra operand {quote(operands[2])}")
        if len(operands) == 2:
            suffix = operands[1]
        operands = operands[:1]
    out = "".join(base_name(name, suffix) + end for name in operands)
    ctx.stdout.write(out.encode("utf-8", "surrogateescape"))
    return 0
