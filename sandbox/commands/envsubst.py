"""``envsubst`` (GNU gettext-runtime 0.21): substitute environment variables in stdin.

``$VAR`` and ``${VAR}`` (VAR: a letter or ``_``, then letters, digits, ``_``) are replaced with
the value of the sandbox's exported variable (empty when unset). A SHELL-FORMAT operand limits
the substitution to the variables it references; other references are copied unchanged, as are
a lone ``$``, ``${`` without a name and ``${VAR`` without its ``}``. ``-v``/``--variables``
prints the variables SHELL-FORMAT references, one per line, in order (repeats included).
Errors as gettext: ``missing arguments``, ``too many arguments`` (exit 1).
"""

from __future__ import annotations

import re

from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, UsageError, parse

SPEC = OptionSpec("hvV", {"help": (NO_ARG, "h"), "variables": (NO_ARG, "v"),
                          "version": (NO_ARG, "V")})

USAGE = """Usage: envsubst [OPTION] [SHELL-FORMAT]

Substitutes the values of environment variables.

Operation mode:
  -v, --variables             output the variables occurring in SHELL-FORMAT

Informative output:
  -h, --help                  display this help and exit
  -V, --version               output version information and exit

In normal operation mode, standard input is copied to standard output,
with references to environment variables of the form $VARIABLE or ${VARIABLE}
being replaced with the corresponding values.  If a SHELL-FORMAT is given,
only those environment variables that are referenced in SHELL-FORMAT are
substituted; otherwise all environment variables references occurring in
standard input are substituted.

When --variables is used, standard input is ignored, and the output consists
of the environment variables that are referenced in SHELL-FORMAT, one per line.

Report bugs in the bug tracker at <https://savannah.gnu.org/projects/gettext>
or by email to <bug-gettext@gnu.org>.
"""

VERSION = """envsubst (GNU gettext-runtime) 0.21
Copyright (C) 2003-2020 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.
Written by Bruno Haible.
"""

_REFERENCE = re.compile(rb"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
_NAME = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


def format_variables(shell_format: bytes) -> list[bytes]:
    """gettext's ``find_variables``: the names SHELL-FORMAT references, in order."""
    found = []
    i = 0
    n = len(shell_format)
    while i < n:
        c = shell_format[i:i + 1]
        i += 1
        if c != b"$":
            continue
        brace = shell_format[i:i + 1] == b"{"
        if brace:
            i += 1
        m = _NAME.match(shell_format, i)
        if m is None:
            continue
        i = m.end()
        if brace:
            if shell_format[i:i + 1] != b"}":
                continue
            i += 1
        found.append(m.group())
    return found


def substitute(data: bytes, env: dict[str, str], only: set[bytes] | None) -> bytes:
    """Replace the references in ``data`` (all of them, or those named in ``only``)."""

    def value(m: re.Match[bytes]) -> bytes:
        name = m.group(1) or m.group(2)
        if only is not None and name not in only:
            return m.group()
        return env.get(name.decode("ascii"), "").encode("utf-8", "surrogateescape")

    return _REFERENCE.sub(value, data)


def run(ctx: CommandContext) -> int:
    """Run ``envsubst``."""
    args = ctx.args
    try:
        opts, operands = parse(SPEC, args)
    except UsageError as err:
        return ctx.usage_error(str(err))
    keys = {key for key, _ in opts}
    if "V" in keys:
        ctx.stdout.write(VERSION.encode())
        return 0
    if "h" in keys:
        ctx.stdout.write(USAGE.encode())
        return 0
    if len(operands) > 1:
        ctx.error("too many arguments")
        return 1
    if operands:
        shell_format = operands[0].encode("utf-8", "surrogateescape")
        names = format_variables(shell_format)
        if "v" in keys:
            ctx.stdout.write(b"".join(name + b"\n" for name in names))
            return 0
        only: set[bytes] | None = set(names)
    elif "v" in keys:
        ctx.error("missing arguments")
        return 1
    else:
        only = None
    data = ctx.stdin.read()
    ctx.stdout.write(substitute(data, ctx.env, only))
    return 0
