"""``uname``: the sandbox's virtual system information, as coreutils 9.1's uname prints it.

Values come from ``sandbox.commands._identity`` (``Linux sandbox 6.1.0 #1 SMP PREEMPT_DYNAMIC
x86_64 GNU/Linux``), never from the host. As GNU, ``-a`` leaves out ``-p`` and ``-i`` when they
are ``unknown``.
"""

from __future__ import annotations

from sandbox.commands import _identity as ident
from sandbox.commands._quoting import quote
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_command_line

SPEC = OptionSpec(
    "asnrvmpio",
    {"all": (NO_ARG, "a"), "kernel-name": (NO_ARG, "s"), "sysname": (NO_ARG, "s"),
     "nodename": (NO_ARG, "n"), "kernel-release": (NO_ARG, "r"), "release": (NO_ARG, "r"),
     "kernel-version": (NO_ARG, "v"), "machine": (NO_ARG, "m"), "processor": (NO_ARG, "p"),
     "hardware-platform": (NO_ARG, "i"), "operating-system": (NO_ARG, "o"),
     "help": (NO_ARG, "help"), "version": (NO_ARG, "version")},
)
USAGE = """Usage: uname [OPTION]...
Print certain system information.  With no OPTION, same as -s.

  -a, --all                print all information, in the following order,
                             except omit -p and -i if unknown:
  -s, --kernel-name        print the kernel name
  -n, --nodename           print the network node hostname
  -r, --kernel-release     print the kernel release
  -v, --kernel-version     print the kernel version
  -m, --machine            print the machine hardware name
  -p, --processor          print the processor type (non-portable)
  -i, --hardware-platform  print the hardware platform (non-portable)
  -o, --operating-system   print the operating system
      --help        display this help and exit
      --version     output version information and exit
"""
FIELDS = [("s", ident.KERNEL_NAME), ("n", ident.HOSTNAME), ("r", ident.KERNEL_RELEASE),
          ("v", ident.KERNEL_VERSION), ("m", ident.MACHINE), ("p", ident.PROCESSOR),
          ("i", ident.HARDWARE_PLATFORM), ("o", ident.OPERATING_SYSTEM)]


def run(ctx: CommandContext) -> int:
    """Run ``uname``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="uname (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    if operands:
        return ctx.usage_error(f"extra operand {quote(operands[0])}")
    keys = {k for k, _ in opts}
    every = "a" in keys
    if not keys:
        keys = {"s"}
    out = []
    for key, value in FIELDS:
        if every and key in "pi" and value == "unknown":
            continue  # GNU: omitted whenever -a is given, even with -p/-i
        if key in keys or every:
            out.append(value)
    ctx.stdout.write((" ".join(out) + "\n").encode())
    return 0
