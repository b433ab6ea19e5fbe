"""The command registry: ``sandbox/commands/<name>.py`` (or ``<name>/``) is command ``name``.

Modules are imported lazily on first use, so an unused command costs nothing at start-up.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Callable

from sandbox.commands.base import CommandContext

_NOT_COMMANDS = {"base", "options", "testing"}
_cache: dict[str, "Command"] = {}
_names: frozenset[str] | None = None


@dataclass(frozen=True)
class Command:
    """A registered command: its ``run``; for commands that write, its ``writes``; for commands
    that run other commands, its ``runs`` (argv prefixes it may run; see ``sandbox.commands.base``)."""

    name: str
    run: Callable[[CommandContext], int]
    writes: Callable[[list[str]], list[str]] | None = None
    runs: Callable[[list[str]], list[list[str]]] | None = None


def names() -> frozenset[str]:
    """Every command the registry can load."""
    global _names
    if _names is None:
        found = {m.name for m in pkgutil.iter_modules(__path__)}
        _names = frozenset(n for n in found if n not in _NOT_COMMANDS and not n.startswith("_"))
    return _names


def get(name: str) -> Command | None:
    """The command called ``name``, or None if there is none."""
    cmd = _cache.get(name)
    if cmd is not None:
        return cmd
    if name not in names():
        return None
    module = importlib.import_module(f"{__name__}.{name}")
    cmd = Command(name, module.run, getattr(module, "writes", None), getattr(module, "runs", None))
    _cache[name] = cmd
    return cmd
