"""Resource limits and the per-run budget that enforces them.

``Limits`` is the user-facing configuration. ``Budget`` is created for each ``Sandbox.run`` and
is shared by the interpreter and every command of that run (through ``CommandContext.budget``).
All checks are cooperative and thread-safe enough for our use: they compare against a deadline
taken with ``time.monotonic()``, so they hold in any thread, not only the main one (no signals).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sandbox.errors import LimitExceeded


@dataclass(frozen=True)
class Limits:
    """Configurable resource limits of one run. Every field has a safe default."""

    seconds: float = 10.0
    commands: int = 10_000
    loop_iterations: int = 10_000
    output_bytes: int = 1 << 20
    written_bytes: int = 64 << 20
    #: Bytes one run may read from ``/dev/zero``, ``/dev/random`` and ``/dev/urandom``.
    endless_read_bytes: int = 32 << 20
    string_length: int = 16 << 20
    brace_results: int = 10_000
    glob_results: int = 10_000
    recursion_depth: int = 100
    script_bytes: int = 100_000
    #: Pipeline stages (threads) of one run alive at the same time (stops ``f(){ f|f; }; f``).
    pipeline_stages: int = 256


class Budget:
    """The running account of one run against its ``Limits``.

    Long-running code (command loops, regex engines, jq evaluation) calls ``check_time()``
    regularly; it raises ``LimitExceeded('seconds', ...)`` once the deadline has passed.
    """

    __slots__ = ("limits", "deadline", "commands", "written", "endless_read")

    def __init__(self, limits: Limits):
        self.limits = limits
        self.deadline = time.monotonic() + limits.seconds
        self.commands = 0
        self.written = 0
        self.endless_read = 0

    def check_time(self) -> None:
        """Raise ``LimitExceeded`` if the run is past its wall-clock deadline."""
        if time.monotonic() > self.deadline:
            raise LimitExceeded(
                "seconds",
                f"time limit of {self.limits.seconds:g}s exceeded; make the command do less work",
            )

    def remaining(self) -> float:
        """Seconds left before the deadline (never negative)."""
        return max(0.0, self.deadline - time.monotonic())

    def count_command(self) -> None:
        """Count one executed command; raise ``LimitExceeded`` past ``Limits.commands``."""
        self.commands += 1
        if self.commands > self.limits.commands:
            raise LimitExceeded(
                "commands",
                f"command limit of {self.limits.commands} exceeded; run fewer commands",
            )
        self.check_time()

    def charge_write(self, nbytes: int) -> None:
        """Count bytes about to be written to files; raise before the limit is crossed."""
        if self.written + nbytes > self.limits.written_bytes:
            raise LimitExceeded(
                "written_bytes",
                f"write limit of {self.limits.written_bytes} bytes per run exceeded; write less",
            )
        self.written += nbytes

    def charge_endless_read(self, nbytes: int) -> int:
        """Count up to ``nbytes`` read from an endless device and return how many may be read
        (never 0: at the limit it raises ``LimitExceeded``). Checks the time limit too."""
        self.check_time()
        left = self.limits.endless_read_bytes - self.endless_read
        if left <= 0:
            raise LimitExceeded(
                "endless_read_bytes",
                f"read limit of {self.limits.endless_read_bytes} bytes from /dev/zero and "
                "/dev/urandom per run exceeded; read less (head -c N /dev/urandom)",
            )
        nbytes = min(nbytes, left)
        self.endless_read += nbytes
        return nbytes

    def check_string(self, length: int) -> None:
        """Raise ``LimitExceeded`` if a string or variable would exceed ``string_length``."""
        if length > self.limits.string_length:
            raise LimitExceeded(
                "string_length",
                f"string length limit of {self.limits.string_length} bytes exceeded",
            )
