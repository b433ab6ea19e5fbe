"""Exceptions raised by memtool's Python API (the tools never raise: they return text)."""

from __future__ import annotations


class MemtoolError(Exception):
    """Base class of every error memtool raises on purpose; the message is one line."""


class ScopeError(MemtoolError, ValueError):
    """A scope key was refused (empty, ``None``, ``"undefined"``, a path separator...)."""


class CoreBudgetExceeded(MemtoolError):
    """A write would take ``core.md`` over its character budget; nothing was written."""

    def __init__(self, new_chars: int, current_chars: int, budget: int):
        self.new_chars = new_chars
        self.current_chars = current_chars
        self.budget = budget
        super().__init__(
            f"core.md would grow to {new_chars} characters, over its budget of {budget} "
            f"(currently {current_chars}); move detail to notes.md and keep core.md to the "
            f"essentials"
        )


class SecretRefused(MemtoolError):
    """A write contained a secret (``kind`` names it; the secret itself is never repeated)."""

    def __init__(self, kind: str):
        self.kind = kind
        super().__init__(
            f"refused to store a secret ({kind}); remove it, or note where the secret is "
            f"kept instead of the secret itself"
        )
