"""Helpers for the adapter and CLI tests (imported as `adapters_support`; conftest puts this
directory on sys.path because the suite runs with --import-mode=importlib)."""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

import pytest

#: The repository root (subprocesses get it on PYTHONPATH so they run this checkout).
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def need(module: str, extra: str) -> ModuleType:
    """Import ``module``; skip (with the extra to install) when missing, but fail under CI,
    where the ``test`` extra installs every framework."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"{module} is not installed (pip install 'memtool[{extra}]'): {e}")


def subprocess_env() -> dict[str, str]:
    """Environment for a ``python -m memtool`` subprocess running this checkout."""
    env = dict(os.environ)
    env["PYTHONPATH"] = REPO + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONUNBUFFERED"] = "1"
    env.pop("MEMTOOL_PATH", None)
    return env


PYTHON = sys.executable
