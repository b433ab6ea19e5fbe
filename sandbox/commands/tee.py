"""``tee``: copy standard input to standard output and to files (GNU coreutils 9.1): ``-a``.

Files are truncated (or, with ``-a``, appended to) when tee starts and receive the data in
pieces as it streams, like GNU tee; a file that cannot be opened is reported and skipped, and
the others still get the data. ``-i`` and ``-p`` are accepted (no signals, no pipes to lose).
"""

from __future__ import annotations

from sandbox.commands._quoting import quotef
from sandbox.commands._writing import check_slashed_create, operands_of
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OPTIONAL, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    "aip",
    {
        "append": (NO_ARG, "a"),
        "ignore-interrupts": (NO_ARG, "i"),
        "output-error": (OPTIONAL, "output-error"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

BLOCK = 1 << 16

USAGE = """Usage: tee [OPTION]... [FILE]...
Copy standard input to each FILE, and also to standard output.

  -a, --append              append to the given FILEs, do not overwrite
  -i, --ignore-interrupts   ignore interrupt signals
  -p                        diagnose errors writing to non pipes
      --help        display this help and exit
      --version     output version information and exit
"""


def writes(args: list[str]) -> list[str]:
    """The files this command line writes."""
    return operands_of(SPEC, args)[1]  # GNU tee writes a file named "-" too


def run(ctx: CommandContext) -> int:
    """Run ``tee``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="tee (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    keys = {key for key, _ in opts}
    append = "a" in keys
    status = 0
    outputs: list[str] = []
    seen: set[str] = set()
    for operand in operands:
        try:
            check_slashed_create(ctx, operand)
            if append:
                ctx.append_bytes(operand, b"")
            else:
                ctx.write_bytes(operand, b"")
        except FSError as e:
            ctx.error(f"{quotef(operand)}: {e}")
            status = 1
            continue
        try:
            vpath = ctx.path(operand)
        except FSError:
            vpath = operand
        # Without -a, GNU opens a file named twice twice at offset 0: the data lands once.
        if append or vpath not in seen:
            outputs.append(operand)
        seen.add(vpath)
    read = getattr(ctx.stdin, "read1", None) or ctx.stdin.read
    while True:
        try:
            block = read(BLOCK)
        except FSError as e:  # ``tee < dir``: the files stay as they are, GNU's read error
            ctx.error(f"read error: {e}")
            return 1
        if not block:
            break
        ctx.budget.check_time()
        ctx.stdout.write(block)
        for operand in list(outputs):
            try:
                ctx.append_bytes(operand, block)
            except FSError as e:
                ctx.error(f"{quotef(operand)}: {e}")
                outputs.remove(operand)
                status = 1
    return status
