"""Exceptions shared by every part of the sandbox.

Every exception here carries a one-line, model-facing message that names what was refused and,
where it helps, what to do instead. None of them may contain a host path.
"""

from __future__ import annotations


class SandboxError(Exception):
    """Base class of every error the sandbox raises on purpose."""


class UnsupportedSyntax(SandboxError):
    """The script uses shell syntax the front end does not support (exit status 2).

    For one of bash's own syntax errors the parser sets ``bash_syntax`` (the message is
    ``line N: ...``, as bash words it) and, where bash prints a second line, ``echo_line``:
    what follows its ``line N: `` (`` `LINE' `` after an unexpected token; see
    ``sandbox.parse.syntax_error_text``)."""

    bash_syntax: bool = False
    echo_line: "str | None" = None


class GuardViolation(SandboxError):
    """The guard refused the script; ``violations`` lists every reason (exit status 126)."""

    def __init__(self, violations: list[str]):
        super().__init__("; ".join(violations))
        self.violations = violations


class LimitExceeded(SandboxError):
    """A resource limit ended the run.

    ``limit`` is the name of the limit (``seconds``, ``commands``, ``output_bytes``...);
    ``exit_code`` is 124 for the time limit and 125 for every other limit.
    """

    def __init__(self, limit: str, message: str):
        super().__init__(message)
        self.limit = limit
        self.exit_code = 124 if limit == "seconds" else 125


class BrokenPipe(SandboxError):
    """Raised by a pipe's ``write`` when its reader has gone (the command's SIGPIPE).

    Commands let it propagate; the interpreter turns it into exit status 141 as bash does.
    """
