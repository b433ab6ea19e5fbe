"""``--totals``: GNU's ``print_total_stats`` lines on stderr, the byte counts in gnulib
``human_readable`` (autoscale, base 1024, SI, ``B``, rounding up) and a rate per second."""

from __future__ import annotations

import time

from sandbox.commands.ls.layout import autoscale

_PREFIXES = "KMGTPEZY"


def human(amount: int) -> str:
    """gnulib ``human_readable(amount, human_autoscale | human_base_1024 | human_SI |
    human_B, 1, 1)``: ``512B``, ``10KiB``, ``1.5MiB`` (rounded up, one decimal below 10)."""
    digits, exponent = autoscale(amount, 1024)
    return digits + (_PREFIXES[exponent - 1] + "i" if exponent else "") + "B"


def _rate(amount: int, seconds: float) -> str:
    if seconds <= 0:
        return "?"
    return human(int(amount / seconds))


class Totals:
    """Byte counts of one run and when it started."""

    def __init__(self) -> None:
        self.start = time.monotonic()

    def line(self, text: str, amount: int) -> str:
        """``TEXT: N (HUMAN, RATE/s)``."""
        elapsed = time.monotonic() - self.start
        return f"{text}: {amount} ({human(amount)}, {_rate(amount, elapsed)}/s)"
