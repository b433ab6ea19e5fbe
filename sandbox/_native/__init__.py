"""Optional native accelerators (C extensions that setup.py builds when a compiler is there).

``linescan()`` returns the ``_linescan`` module (see its ``scan`` docstring), or None when it
is not built, is of another API version, or the environment variable ``SANDBOX_NATIVE`` is
``0``; callers then take their pure-Python path, which gives the same output.

The module is looked for beside this file, then in the other ``sandbox/_native`` directories
on ``sys.path``: a source checkout imported in place (tests run from the repository after
``pip install .``) uses the build that the install put into site-packages.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from types import ModuleType

#: The ``API`` constant the Python callers are written for (bumped when ``scan`` changes).
API = 1

_cache: list[ModuleType | None] = []


def linescan() -> ModuleType | None:
    """The ``_linescan`` module, or None (not built, another API, or ``SANDBOX_NATIVE=0``)."""
    if os.environ.get("SANDBOX_NATIVE", "1") == "0":
        return None
    if not _cache:
        _cache.append(_load())
    return _cache[0]


def _load() -> ModuleType | None:
    try:
        from sandbox._native import _linescan
    except ImportError:
        _linescan = _load_elsewhere()
    if _linescan is None or getattr(_linescan, "API", None) != API:
        return None
    return _linescan


def _load_elsewhere() -> ModuleType | None:
    """The extension from another ``sandbox/_native`` directory on sys.path, if one holds it."""
    name = "sandbox._native._linescan"
    here = os.path.dirname(os.path.abspath(__file__))
    for entry in sys.path:
        folder = os.path.join(entry or ".", "sandbox", "_native")
        try:
            if os.path.abspath(folder) == here or not os.path.isdir(folder):
                continue
        except (OSError, ValueError):
            continue
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(folder, "_linescan" + suffix)
            if not os.path.isfile(path):
                continue
            try:
                spec = importlib.util.spec_from_file_location(name, path)
                if spec is None or spec.loader is None:
                    continue
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
            except (ImportError, OSError):
                continue
            sys.modules[name] = module
            return module
    return None
