"""Exceptions of the jq engine.

``JQError`` is a catchable jq runtime error (``try``/``catch`` and ``?`` see it); its ``value``
is the error value (usually a message string). ``JQSyntaxError`` is a compile error (exit 3).
``Break`` implements ``label $x | ... break $x``. ``Halt`` is ``halt``/``halt_error``.
Sandbox limit errors (``LimitExceeded``) are never caught by jq code.
"""

from __future__ import annotations

from typing import Any


class JQError(Exception):
    """A jq runtime error carrying the error value."""

    def __init__(self, value: Any):
        super().__init__(value)
        self.value = value


class JQSyntaxError(Exception):
    """A jq compile error; ``str()`` is the message jq prints after ``jq: error: ``."""


class Break(Exception):
    """``break $label``: unwinds to the label with the same identity."""

    def __init__(self, label: object):
        super().__init__()
        self.label = label


class Halt(Exception):
    """``halt`` / ``halt_error``: stop with ``status``; ``message`` goes to stderr as-is."""

    def __init__(self, status: int, message: bytes | None):
        super().__init__(status)
        self.status = status
        self.message = message
