"""``timeout``: run a command with a time limit (GNU coreutils 9.1).

``timeout [-s SIG] [-k DUR] [-v] [--preserve-status] [--foreground] DURATION COMMAND [ARG]...``.
The command gets an earlier deadline (a budget whose ``check_time`` also stops at DURATION);
the sandbox's own limits still apply and still end the whole run. When DURATION passes the
command is stopped at its next time check, and timeout exits 124 (``--preserve-status``: 128 +
the signal number; ``-s KILL``: 137, as GNU). A duration of 0 disables the timeout.
"""

from __future__ import annotations

import math
import re
import time

from sandbox.commands._quoting import quote
from sandbox.commands._subcommand import spawn
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.errors import LimitExceeded
from sandbox.limits import Budget

SPEC = OptionSpec("+k:s:v", {
    "kill-after": (REQUIRED, "k"),
    "signal": (REQUIRED, "s"),
    "verbose": (NO_ARG, "v"),
    "preserve-status": (NO_ARG, "preserve-status"),
    "foreground": (NO_ARG, "foreground"),
    "help": (NO_ARG, "help"),
    "version": (NO_ARG, "version"),
}, permute=False)

USAGE = """Usage: timeout [OPTION] DURATION COMMAND [ARG]...
  or:  timeout [OPTION]
Start COMMAND, and kill it if still running after DURATION.

Mandatory arguments to long options are mandatory for short options too.
      --preserve-status
                 exit with the same status as COMMAND, even when the
                   command times out
      --foreground
                 when not running timeout directly from a shell prompt,
                   allow COMMAND to read from the TTY and get TTY signals;
                   in this mode, children of COMMAND will not be timed out
  -k, --kill-after=DURATION
                 also send a KILL signal if COMMAND is still running
                   this long after the initial signal was sent
  -s, --signal=SIGNAL
                 specify the signal to be sent on timeout;
                   SIGNAL may be a name like 'HUP' or a number;
                   see 'kill -l' for a list of signals
  -v, --verbose  diagnose to stderr any signal sent upon timeout
      --help        display this help and exit
      --version     output version information and exit

DURATION is a floating point number with an optional suffix:
's' for seconds (the default), 'm' for minutes, 'h' for hours or 'd' for days.
A duration of 0 disables the associated timeout.

Upon timeout, send the TERM signal to COMMAND, if no other SIGNAL specified.
The TERM signal kills any process that does not block or catch that signal.
It may be necessary to use the KILL signal, since this signal can't be caught.

EXIT status:
  124  if COMMAND times out, and --preserve-status is not specified
  125  if the timeout command itself fails
  126  if COMMAND is found but cannot be invoked
  127  if COMMAND cannot be found
  137  if COMMAND (or timeout itself) is sent the KILL (9) signal (128+9)
  -    the exit status of COMMAND otherwise
"""

#: Linux signal numbers by name (without ``SIG``).
SIGNALS = {
    "HUP": 1, "INT": 2, "QUIT": 3, "ILL": 4, "TRAP": 5, "ABRT": 6, "IOT": 6, "BUS": 7, "FPE": 8,
    "KILL": 9, "USR1": 10, "SEGV": 11, "USR2": 12, "PIPE": 13, "ALRM": 14, "TERM": 15,
    "STKFLT": 16, "CHLD": 17, "CLD": 17, "CONT": 18, "STOP": 19, "TSTP": 20, "TTIN": 21,
    "TTOU": 22, "URG": 23, "XCPU": 24, "XFSZ": 25, "VTALRM": 26, "PROF": 27, "WINCH": 28,
    "IO": 29, "POLL": 29, "PWR": 30, "SYS": 31,
}
_NAMES = {v: k for k, v in reversed(SIGNALS.items())}
_DURATION = re.compile(r"\s*[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|(?i:inf(?:inity)?|nan))"
                       r"([smhd]?)\Z")
_MULT = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


class TimedOut(LimitExceeded):
    """The command ran past timeout's DURATION (not the sandbox's limit)."""


class _Deadline:
    """The run's budget with an earlier deadline; every other account is the run's own."""

    def __init__(self, inner: Budget, deadline: float):
        self._inner = inner
        self._deadline = deadline

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)

    def check_time(self) -> None:
        """The run's own check, then timeout's deadline."""
        self._inner.check_time()
        if time.monotonic() > self._deadline:
            raise TimedOut("seconds", "timeout")

    def remaining(self) -> float:
        """Seconds left before the earlier of the two deadlines."""
        return max(0.0, min(self._inner.remaining(), self._deadline - time.monotonic()))

    def count_command(self) -> None:
        """Count a command in the run's account, then check the deadline."""
        self._inner.count_command()
        self.check_time()


def parse_duration(text: str) -> float | None:
    """Seconds of a DURATION (``1.5``, ``2m``, ``inf``), or None if GNU would refuse it."""
    m = _DURATION.match(text)
    if m is None or text.lstrip().startswith("-") and not re.fullmatch(r"\s*-0*\.?0*[smhd]?", text):
        return None
    number = float(text.strip()[: len(text.strip()) - len(m.group(1))])
    if math.isnan(number):
        return None
    return number * _MULT[m.group(1)]


def parse_signal(text: str) -> int | None:
    """Signal number of a name (``TERM``, ``SIGTERM``) or number, or None."""
    if text.isdigit():
        n = int(text)
        return n if n <= 64 else None
    name = text.upper()
    name = name[3:] if name.startswith("SIG") else name
    return SIGNALS.get(name)


def _command_index(args: list[str]) -> int | None:
    """Index of COMMAND in timeout's arguments (after options and DURATION)."""
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-") or a == "-":
            break
        if a in ("-k", "-s", "--kill-after", "--signal") or (
                not a.startswith("--") and a[-1] in "ks" and "=" not in a):
            i += 1
        i += 1
    return i + 1 if i + 1 < len(args) else None


def runs(args: list[str]) -> list[list[str]]:
    """The command timeout would run."""
    i = _command_index(args)
    return [args[i:]] if i is not None else []


def run(ctx: CommandContext) -> int:
    """``timeout``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="timeout (GNU coreutils) 9.1",
                                usage_status=125)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    signal = 15
    verbose = preserve = False
    for key, value in opts:
        if key == "s":
            assert value is not None
            sig = parse_signal(value)
            if sig is None:
                ctx.error(f"{quote(value)}: invalid signal")
                return _try(ctx)
            signal = sig
        elif key == "k":
            assert value is not None
            if parse_duration(value) is None:
                ctx.error(f"invalid time interval {quote(value)}")
                return _try(ctx)
        elif key == "v":
            verbose = True
        elif key == "preserve-status":
            preserve = True
    if len(operands) < 2:
        return _try(ctx)
    seconds = parse_duration(operands[0])
    if seconds is None:
        ctx.error(f"invalid time interval {quote(operands[0])}")
        return _try(ctx)
    argv = operands[1:]
    budget = None
    if 0 < seconds < 1e9:
        budget = _Deadline(ctx.budget, time.monotonic() + seconds)
    try:
        return spawn(ctx, argv, lambda name, why: f"failed to run command {quote(name)}: {why}",
                     budget=budget)  # type: ignore[arg-type]
    except TimedOut:
        if verbose:
            ctx.error(f"sending signal {_NAMES.get(signal, str(signal))} to command "
                      f"{quote(argv[0])}")
        if signal == 9:
            return 137
        return 128 + signal if preserve else 124


def _try(ctx: CommandContext) -> int:
    ctx.stderr.write(f"Try '{ctx.prog} --help' for more information.\n".encode())
    return 125
