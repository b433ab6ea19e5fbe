"""``nproc``: print the number of processing units (GNU coreutils 9.1), from the sandbox's
virtual identity (``_identity.NPROC``), never the host's.

Without ``--all`` the count honours ``OMP_NUM_THREADS`` and ``OMP_THREAD_LIMIT`` of the script's
environment as gnulib's ``num_processors`` does; ``--ignore=N`` subtracts N, never going below 1.
"""

from __future__ import annotations

from sandbox.commands import _identity
from sandbox.commands._numbers import CountError, parse_count
from sandbox.commands._quoting import quote
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_in_order

SPEC = OptionSpec("", {"all": (NO_ARG, "all"), "ignore": (REQUIRED, "ignore"),
                       "help": (NO_ARG, "help"), "version": (NO_ARG, "version")})

USAGE = """Usage: nproc [OPTION]...
Print the number of processing units available to the current process,
which may be less than the number of online processors

      --all      print the number of installed processors
      --ignore=N  if possible, exclude N processing units
      --help        display this help and exit
      --version     output version information and exit
"""

ULONG_MAX = (1 << 64) - 1
_SPACES = " \t\n\v\f\r"


def parse_omp_threads(value: str | None) -> int:
    """gnulib's ``parse_omp_threads``: the first count of an OpenMP variable, or 0."""
    if value is None:
        return 0
    text = value.lstrip(_SPACES)
    digits = len(text) - len(text.lstrip("0123456789"))
    if not digits:
        return 0
    rest = text[digits:].lstrip(_SPACES)
    if rest and rest[0] != ",":
        return 0
    number = text[:digits].lstrip("0") or "0"
    return ULONG_MAX if len(number) > 20 or int(number) > ULONG_MAX else int(number)


def available(env: dict[str, str], all_units: bool) -> int:
    """The count before ``--ignore``."""
    count = _identity.NPROC
    if all_units:
        return count
    limit = parse_omp_threads(env.get("OMP_THREAD_LIMIT")) or ULONG_MAX
    threads = parse_omp_threads(env.get("OMP_NUM_THREADS"))
    if threads:
        return min(threads, limit)
    return min(count, limit)


def run(ctx: CommandContext) -> int:
    """Run ``nproc``."""
    state = {"all": False, "ignore": 0}

    def check(key: str, value: str | None) -> int | None:
        if key == "all":
            state["all"] = True
        elif key == "ignore":
            try:
                state["ignore"] = parse_count(value or "", "")
            except CountError as err:
                detail = ": Value too large for defined data type" if err.overflow else ""
                ctx.error(f"invalid number: {quote(value or '')}{detail}")
                return 1
        return None

    parsed = parse_in_order(ctx, SPEC, USAGE, "nproc (GNU coreutils) 9.1", check)
    if isinstance(parsed, int):
        return parsed
    _, operands = parsed
    all_units, ignore = bool(state["all"]), int(state["ignore"])
    if operands:
        return ctx.usage_error(f"extra operand {quote(operands[0])}")
    count = available(ctx.env, all_units)
    count = count - ignore if ignore < count else 1
    ctx.stdout.write(f"{count}\n".encode())
    return 0
