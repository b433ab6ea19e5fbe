"""``hostname``: print the sandbox's virtual host name (``sandbox``), as net-tools' hostname.

Display options ``-s --short -f --fqdn --long`` print the name (it has no domain); ``-d
--domain`` prints an empty line; setting the name (an operand, ``-F``, ``-b``) is refused with
the message an unprivileged user gets. A usage error prints the usage on stdout, exit 255. Other options: ``-a -A -i -I -y`` are refused as
unsupported in one line (exit 1).
"""

from __future__ import annotations

from sandbox.commands._identity import HOSTNAME
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, UsageError, parse

SPEC = OptionSpec(
    "sfdbF:aAiIyhV",
    {"short": (NO_ARG, "s"), "fqdn": (NO_ARG, "f"), "long": (NO_ARG, "f"), "domain": (NO_ARG, "d"),
     "boot": (NO_ARG, "b"), "file": (REQUIRED, "F"), "alias": (NO_ARG, "a"),
     "all-fqdns": (NO_ARG, "A"), "ip-address": (NO_ARG, "i"), "all-ip-addresses": (NO_ARG, "I"),
     "yp": (NO_ARG, "y"), "nis": (NO_ARG, "y"), "help": (NO_ARG, "h"), "version": (NO_ARG, "V")},
)
USAGE = """Usage: hostname [-b] {hostname|-F file}         set host name (from file)
       hostname [-a|-A|-d|-f|-i|-I|-s|-y]       display formatted name
       hostname                                 display host name

       hostname -V|--version|-h|--help          print info and exit
"""


def run(ctx: CommandContext) -> int:
    """Run ``hostname``."""
    try:
        opts, operands = parse(SPEC, ctx.args)
    except UsageError as err:
        ctx.error(str(err))
        ctx.stdout.write(USAGE.encode())
        return 255
    keys = [k for k, _ in opts]
    if "h" in keys:
        ctx.stdout.write(USAGE.encode())
        return 0
    if "V" in keys:
        ctx.stdout.write(b"hostname 3.23\n")
        return 0
    if len(operands) > 1:
        ctx.stdout.write(USAGE.encode())
        return 255
    if operands or "F" in keys or "b" in keys:
        ctx.error("you must be root to change the host name")
        return 1
    for key in "aAiIy":
        if key in keys:
            ctx.error(f"option -{key} is not available in the sandbox (there is no network)")
            return 1
    ctx.stdout.write(b"\n" if keys and keys[-1] == "d" else f"{HOSTNAME}\n".encode())
    return 0
