"""``id``: the sandbox's virtual identity (user ``user``, uid and gid 1000, one group), as
coreutils 9.1's id prints it: ``-u -g -G`` with ``-n -r -z``, ``-a`` (ignored), user operands
(``user``/``1000`` or ``root``/``0``, the virtual user database; any other name is ``no such
user``), GNU's messages and statuses.
``-Z`` fails as on a kernel without SELinux."""

from __future__ import annotations

from sandbox.commands._identity import GID, GROUP, UID, USER, account
from sandbox.commands._quoting import quote
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_command_line

SPEC = OptionSpec(
    "agGnruzZ",
    {"context": (NO_ARG, "Z"), "group": (NO_ARG, "g"), "groups": (NO_ARG, "G"), "name": (NO_ARG, "n"),
     "real": (NO_ARG, "r"), "user": (NO_ARG, "u"), "zero": (NO_ARG, "z"),
     "help": (NO_ARG, "help"), "version": (NO_ARG, "version")},
)
USAGE = """Usage: id [OPTION]... [USER]...
Print user and group information for each specified USER,
or (when USER omitted) for the current process.

  -a             ignore, for compatibility with other versions
  -Z, --context  print only the security context of the process
  -g, --group    print only the effective group ID
  -G, --groups   print all group IDs
  -n, --name     print a name instead a number, for -ugG
  -r, --real     print the real ID instead of the effective ID, with -ugG
  -u, --user     print only the effective user ID
  -z, --zero     delimit entries with NUL characters, not whitespace;
                   not permitted in default format
      --help        display this help and exit
      --version     output version information and exit

Without any OPTION, print some useful set of identified information.
"""


def run(ctx: CommandContext) -> int:
    """Run ``id``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="id (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    opts, users = parsed
    keys = {k for k, _ in opts}
    if "Z" in keys and not users:
        ctx.error("--context (-Z) works only on an SELinux-enabled kernel")
        return 1
    if "Z" in keys:
        ctx.error("cannot print security context when user specified")
        return 1
    if sum(k in keys for k in "ugG") > 1:
        ctx.error('cannot print "only" of more than one choice')
        return 1
    default = not keys & set("ugG")
    if default and keys & set("nr"):
        ctx.error("cannot print only names or real IDs in default format")
        return 1
    if default and "z" in keys:
        ctx.error("option --zero not permitted in default format")
        return 1
    end = "\0" if "z" in keys else "\n"
    name = "n" in keys
    status = 0
    out = []
    for user in users or [None]:
        found = (USER, UID, GROUP, GID) if user is None else account(user)
        if found is None:
            ctx.error(f"{quote(user)}: no such user")
            status = 1
            continue
        uname, uid, gname, gid = found
        if "u" in keys:
            out.append((uname if name else str(uid)) + end)
        elif "g" in keys or "G" in keys:
            out.append((gname if name else str(gid)) + end)
        else:
            out.append(f"uid={uid}({uname}) gid={gid}({gname}) groups={gid}({gname}){end}")
    ctx.stdout.write("".join(out).encode())
    return status
