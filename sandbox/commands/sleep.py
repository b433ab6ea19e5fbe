"""``sleep``: pause for the sum of its operands (``NUMBER[smhd]``, a floating-point number as
strtod reads it: ``1.5``, ``.5``, ``1e-3``, ``0x1p-2``, ``inf``), as coreutils 9.1's sleep.

The pause really waits, in short steps that check the run's budget: a pause that reaches the
run's deadline (or a run cancelled by a limit elsewhere) ends the run with the time-limit
message, so ``sleep`` can never outlive the run.
"""

from __future__ import annotations

import math
import re
import time

from sandbox.commands._quoting import quote
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OptionSpec, parse_command_line

SPEC = OptionSpec("", {"help": (NO_ARG, "help"), "version": (NO_ARG, "version")})
USAGE = """Usage: sleep NUMBER[SUFFIX]...
  or:  sleep OPTION
Pause for NUMBER seconds.  SUFFIX may be 's' for seconds (the default),
'm' for minutes, 'h' for hours or 'd' for days.  NUMBER need not be an
integer.  Given two or more arguments, pause for the amount of time
specified by the sum of their values.

      --help        display this help and exit
      --version     output version information and exit
"""
MULTIPLIERS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}
_DECIMAL = re.compile(r"[ \t\n\v\f\r]*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_HEX = re.compile(r"[ \t\n\v\f\r]*[-+]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][-+]?\d+)?")
_SPECIAL = re.compile(r"[ \t\n\v\f\r]*[-+]?(?:inf(?:inity)?|nan(?:\([0-9A-Za-z_]*\))?)", re.I)
STEP = 0.05


def duration(text: str) -> float | None:
    """Seconds one operand asks for, or None if GNU sleep refuses it (negative, junk)."""
    for pattern in (_HEX, _DECIMAL, _SPECIAL):
        m = pattern.match(text)
        if m:
            break
    else:
        return None
    number, suffix = m.group(), text[m.end():]
    if suffix not in MULTIPLIERS:
        return None
    body = number.strip(" \t\n\v\f\r")
    sign = -1.0 if body[:1] == "-" else 1.0
    body = body.lstrip("+-")
    if body[:1] in "nN":
        return None
    if body[:2].lower() == "0x":
        value = sign * _hex_value(body[2:])
    else:
        value = sign * float(body)
    if math.isnan(value) or value < 0:
        return None
    return value * MULTIPLIERS[suffix]


def _hex_value(body: str) -> float:
    mantissa, _, exponent = body.lower().partition("p")
    whole, _, frac = mantissa.partition(".")
    value = int(whole or "0", 16) + (int(frac, 16) / 16 ** len(frac) if frac else 0)
    try:
        return value * 2.0 ** int(exponent or "0")
    except OverflowError:
        return math.inf


def run(ctx: CommandContext) -> int:
    """Run ``sleep``."""
    parsed = parse_command_line(ctx, SPEC, USAGE, version="sleep (GNU coreutils) 9.1")
    if isinstance(parsed, int):
        return parsed
    _, operands = parsed
    if not ctx.args:  # GNU tests argc: ``sleep --`` is a pause of 0
        return ctx.usage_error("missing operand")
    total = 0.0
    ok = True
    for operand in operands:
        seconds = duration(operand)
        if seconds is None:
            ctx.error(f"invalid time interval {quote(operand)}")
            ok = False
        else:
            total += seconds
    if not ok:
        ctx.stderr.write(f"Try '{ctx.prog} --help' for more information.\n".encode())
        return 1
    pause(ctx, total)
    return 0


def pause(ctx: CommandContext, seconds: float) -> None:
    """Wait ``seconds`` in short steps; past the run's deadline the budget raises."""
    end = time.monotonic() + seconds if math.isfinite(seconds) else math.inf
    while True:
        ctx.budget.check_time()
        left = end - time.monotonic()
        if left <= 0:
            return
        time.sleep(min(STEP, left, ctx.budget.remaining() + 0.001))
