"""GNU ``getopt_long`` for commands: the one option parser every command uses.

Behaviour follows glibc: options and operands may be mixed (operands are permuted to the end),
short options cluster (``-nE``), a short option's argument may be attached (``-n5``) or the next
word (``-n 5``), long options take ``--name=value`` or ``--name value``, any unambiguous prefix
of a long option is accepted, ``--`` ends the options and a lone ``-`` is an operand.

Errors raise ``UsageError`` with glibc's wording (without the program name), e.g.
``invalid option -- 'z'``, ``unrecognized option '--foo'``, ``option requires an argument -- 'n'``,
``option '--max' is ambiguous; possibilities: '--max-count' '--max-depth'``. The command prints
``f"{prog}: {err}"`` and its own ``Try '{prog} --help' for more information.`` line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # base.py does not import this module; the hint only needs the name
    from sandbox.commands.base import CommandContext

NO_ARG = 0
REQUIRED = 1
OPTIONAL = 2


class UsageError(Exception):
    """A command line the parser refuses; ``str(err)`` is glibc's message."""


@dataclass
class OptionSpec:
    """What a command accepts.

    ``short`` is a getopt string: each letter an option, ``:`` after it for a required
    argument, ``::`` for an optional one (attached only). ``long`` maps each long name to
    (NO_ARG | REQUIRED | OPTIONAL, key), where key is what ``parse`` reports for it (often the
    equivalent short letter, so ``-n`` and ``--number`` read the same).
    """

    short: str = ""
    long: dict[str, tuple[int, str]] = field(default_factory=dict)
    permute: bool = True

    def __post_init__(self) -> None:
        self._short: dict[str, int] = {}
        i = 0
        s = self.short
        while i < len(s):
            ch = s[i]
            kind = NO_ARG
            if s[i + 1 : i + 3] == "::":
                kind, i = OPTIONAL, i + 2
            elif s[i + 1 : i + 2] == ":":
                kind, i = REQUIRED, i + 1
            self._short[ch] = kind
            i += 1


def parse(spec: OptionSpec, args: list[str]) -> tuple[list[tuple[str, str | None]], list[str]]:
    """Parse ``args`` (without argv[0]); return ([(key, value-or-None)...], operands).

    Short options are reported by their letter, long ones by the key from ``spec.long``.
    """
    opts: list[tuple[str, str | None]] = []
    operands: list[str] = []
    i = 0
    n = len(args)
    while i < n:
        arg = args[i]
        i += 1
        if arg == "--":
            operands.extend(args[i:])
            break
        if arg.startswith("--"):
            body = arg[2:]
            name, eq, value = body.partition("=")
            key_kind = _match_long(spec, name, arg)
            kind, key = key_kind
            if kind == NO_ARG:
                if eq:
                    raise UsageError(f"option '--{_full_long(spec, name)}' doesn't allow an argument")
                opts.append((key, None))
            elif kind == REQUIRED:
                if eq:
                    opts.append((key, value))
                elif i < n:
                    opts.append((key, args[i]))
                    i += 1
                else:
                    raise UsageError(f"option '--{_full_long(spec, name)}' requires an argument")
            else:
                opts.append((key, value if eq else None))
            continue
        if arg.startswith("-") and arg != "-":
            j = 1
            while j < len(arg):
                ch = arg[j]
                kind = spec._short.get(ch)
                if kind is None:
                    raise UsageError(f"invalid option -- '{ch}'")
                j += 1
                if kind == NO_ARG:
                    opts.append((ch, None))
                    continue
                if j < len(arg):
                    opts.append((ch, arg[j:]))
                elif kind == REQUIRED:
                    if i < n:
                        opts.append((ch, args[i]))
                        i += 1
                    else:
                        raise UsageError(f"option requires an argument -- '{ch}'")
                else:
                    opts.append((ch, None))
                break
            continue
        if not spec.permute:
            operands.append(arg)
            operands.extend(args[i:])
            break
        operands.append(arg)
    return opts, operands


#: What ``parse`` returns: ([(key, value-or-None)...], operands).
ParsedArgs = tuple[list[tuple[str, str | None]], list[str]]


def wants_help(args: list[str]) -> bool:
    """True if ``--help`` (or an unambiguous prefix of it, ``--he``) comes before ``--``."""
    for arg in args:
        if arg == "--":
            return False
        if len(arg) >= 4 and "--help".startswith(arg):
            return True
    return False


def parse_command_line(
    ctx: CommandContext,
    spec: OptionSpec,
    usage: str,
    *,
    version: str | None = None,
    args: list[str] | None = None,
    usage_status: int = 1,
    early_help: bool = False,
) -> ParsedArgs | int:
    """The start of every command's ``run``: parse ``args`` (default ``ctx.args``) with ``spec``.

    Returns ``(opts, operands)`` to go on with, or the exit status when the command is done:
    ``usage_status`` after GNU's two usage-error lines; 0 after printing ``usage`` for an
    option keyed ``help`` (or, with ``early_help``, for any ``--help`` word of ``ctx.args``
    before ``--``, checked before parsing, as the text commands do); 0 after printing the
    ``version`` line for an option keyed ``version`` (when ``version`` is given).
    """
    if early_help and wants_help(ctx.args):
        ctx.stdout.write(usage.encode())
        return 0
    try:
        opts, operands = parse(spec, ctx.args if args is None else args)
    except UsageError as err:
        return ctx.usage_error(str(err), usage_status)
    keys = {key for key, _ in opts}
    if "help" in keys:
        ctx.stdout.write(usage.encode())
        return 0
    if version is not None and "version" in keys:
        ctx.stdout.write(f"{version}\n".encode())
        return 0
    return opts, operands


def _full_long(spec: OptionSpec, name: str) -> str:
    if name in spec.long:
        return name
    matches = [k for k in spec.long if k.startswith(name)]
    return matches[0] if len(matches) == 1 else name


def _match_long(spec: OptionSpec, name: str, arg: str) -> tuple[int, str]:
    if name in spec.long:
        return spec.long[name]
    matches = [k for k in spec.long if k.startswith(name)]
    if not matches:
        raise UsageError(f"unrecognized option '{arg}'")
    distinct = {spec.long[m] for m in matches}
    if len(matches) > 1 and len(distinct) > 1:
        names = " ".join(f"'--{m}'" for m in matches)
        raise UsageError(f"option '{arg.split('=')[0]}' is ambiguous; possibilities: {names}")
    return spec.long[matches[0]]


def parse_in_order(ctx: CommandContext, spec: OptionSpec, usage: str, version: str,
                   check: Callable[[str, str | None], int | None] | None = None,
                   usage_status: int = 1) -> tuple[list[tuple[str, str | None]], list[str]] | int:
    """``parse_command_line`` in getopt's order, for the small commands: options are acted on
    one by one up to the first bad word, so ``--help`` or ``--version`` before it prints and
    exits 0, and ``check(key, value)`` (an option value's own error: return an exit status to
    stop with) reports a bad value before a later unknown option, as GNU does.

    Returns (opts, operands), or the exit status when the command is done.
    """
    args = ctx.args
    error = None
    try:
        opts, operands = parse(spec, args)
    except UsageError as err:
        error = str(err)
        opts, operands = [], []
        for k in range(1, len(args) + 1):
            try:
                parse(spec, args[:k])
            except UsageError as cut:
                if str(cut) == error:
                    try:
                        opts, operands = parse(spec, args[: k - 1])
                    except UsageError:
                        pass
                    break
    for key, value in opts:
        if key == "help":
            ctx.stdout.write(usage.encode())
            return 0
        if key == "version":
            ctx.stdout.write(f"{version}\n".encode())
            return 0
        if check is not None:
            status = check(key, value)
            if status is not None:
                return status
    if error is not None:
        return ctx.usage_error(error, usage_status)
    return opts, operands
