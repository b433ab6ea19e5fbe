"""``which``: print where each named command lives, as debianutils' ``which`` (a shell script
over ``PATH``) prints it, in the sandbox's virtual file system.

A name is found when the policy allows it and the sandbox has a command of that name (its
own, or one the embedder registered with ``Sandbox(commands=...)``); its
virtual path is ``/usr/bin/NAME`` (the only directory the virtual ``PATH`` holds, so ``-a``
prints the same single line). A name with a ``/`` is found only as ``/usr/bin/NAME`` of such
a command (nothing in the jail itself is executable). Exit 0 when every name was found, 1 otherwise (also with no name); an invalid
option prints ``Illegal option -x`` and the usage line, exit 2. Options stop at the first name.
"""

from __future__ import annotations

from sandbox import commands
from sandbox.commands.base import CommandContext

BIN = "/usr/bin"


def embedder_commands(ctx: CommandContext) -> dict:
    """The commands the embedder registered (``Sandbox(commands=...)``): the interpreter that
    runs this command holds them (its ``run_subcommand`` is ``ctx.runner``); none outside a
    shell."""
    shell = getattr(ctx.runner, "__self__", None)
    extra = getattr(shell, "commands", None)
    return extra if isinstance(extra, dict) else {}


def allowed(ctx: CommandContext, name: str) -> bool:
    """True if ``name`` is a command this sandbox would run (a registry command or one the
    embedder registered, and allowed by the policy)."""
    if name.startswith(BIN + "/"):
        name = name[len(BIN) + 1:]
    if "/" in name or name not in ctx.policy.allow:
        return False
    return commands.get(name) is not None or name in embedder_commands(ctx)


def run(ctx: CommandContext) -> int:
    """Run ``which``."""
    args = ctx.args
    i = 0
    while i < len(args) and args[i].startswith("-") and args[i] != "-":
        if args[i] == "--":
            i += 1
            break
        for letter in args[i][1:]:
            if letter != "a":
                ctx.stderr.write(f"Illegal option -{letter}\n".encode("utf-8", "surrogateescape"))
                ctx.stdout.write(f"Usage: {BIN}/which [-a] args\n".encode())
                return 2
        i += 1
    names = args[i:]
    status = 0 if names else 1
    out = []
    for name in names:
        if allowed(ctx, name):
            out.append(name + "\n" if "/" in name else f"{BIN}/{name}\n")
        else:
            status = 1
    ctx.stdout.write("".join(out).encode("utf-8", "surrogateescape"))
    return status
