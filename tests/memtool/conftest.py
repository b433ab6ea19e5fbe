"""Fixtures shared by the memtool tests.

``store`` is parametrised over every store kind in ``STORE_KINDS``; a store-agnostic test
takes ``store`` (or ``mem``) and runs once per kind. Another store joins by adding its name to
``STORE_KINDS`` and a branch to ``make_store`` (e.g. "postgres" with a throw-away server).
"""

from __future__ import annotations

import os
from typing import Callable

import pytest

from memtool import Memory
from memtool.stores.local import LocalStore
from memtool.stores.memory import MemoryStore
from sandbox.fs.base import FileSystem

STORE_KINDS: list[str] = ["local", "memory", "postgres"]

#: Extra store factories registered by other modules' conftests: kind -> factory(tmp_path).
STORE_FACTORIES: dict[str, Callable[..., FileSystem]] = {}


def make_store(kind: str, tmp_path) -> FileSystem:
    """A fresh, empty store of ``kind``."""
    if kind == "local":
        return LocalStore(os.path.join(tmp_path, "mem"))
    if kind == "memory":
        return MemoryStore()
    if kind == "postgres":  # a throw-away server; skips (fails under CI) without PostgreSQL
        return _pgserver().fresh_store()
    if kind in STORE_FACTORIES:
        return STORE_FACTORIES[kind](tmp_path)
    raise ValueError(f"unknown store kind {kind!r}")


def _pgserver():
    """``postgres/pgserver.py``, loaded once per process (tests are not a package)."""
    import importlib.util
    import sys

    name = "memtool_tests_pgserver"
    if name not in sys.modules:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "postgres", "pgserver.py")
        spec = importlib.util.spec_from_file_location(name, path)
        sys.modules[name] = module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture(params=STORE_KINDS)
def store_kind(request) -> str:
    """The kind of store this test runs on."""
    return request.param


@pytest.fixture
def store(store_kind, tmp_path) -> FileSystem:
    """A fresh, empty store of each kind."""
    return make_store(store_kind, tmp_path)


@pytest.fixture
def mem(store) -> Memory:
    """A bootstrapped Memory over a fresh store."""
    return Memory(store)


def tree(fs: FileSystem, rel: str = "") -> dict[str, bytes | None]:
    """Every path below ``rel`` with its content (None for directories), for before/after checks."""
    out: dict[str, bytes | None] = {}
    for name in sorted(fs.listdir(rel)):
        child = f"{rel}/{name}" if rel else name
        st = fs.stat(child)
        if st.is_dir:
            out[child] = None
            out.update(tree(fs, child))
        else:
            out[child] = fs.read_bytes(child)
    return out


@pytest.fixture
def snapshot() -> Callable[[FileSystem], dict[str, bytes | None]]:
    """``snapshot(store)``: every path with its content, to prove nothing changed."""
    return tree
