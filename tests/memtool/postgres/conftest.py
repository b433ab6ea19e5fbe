"""Fixtures of the PostgreSQL store's tests: a throw-away server (see ``pgserver.py``)."""

from __future__ import annotations

import importlib.util
import os
import sys

import pytest


def load_pgserver():
    """Import ``pgserver.py`` beside this file (tests are not a package)."""
    name = "memtool_tests_pgserver"
    if name not in sys.modules:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pgserver.py")
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture(scope="session")
def pgserver_module():
    """The ``pgserver`` helper module."""
    return load_pgserver()


@pytest.fixture(scope="session")
def pg_dsn(pgserver_module) -> str:
    """DSN of the test server (started on first use)."""
    return pgserver_module.server_dsn()


@pytest.fixture
def pg_server(pgserver_module, pg_dsn):
    """The throw-away server object (skips when MEMTOOL_TEST_DSN names an outside server)."""
    srv = pgserver_module.server()
    if srv is None:
        pytest.skip("needs the throw-away server (MEMTOOL_TEST_DSN names an outside one)")
    return srv


@pytest.fixture
def pg_store(pgserver_module, pg_dsn):
    """A ``PostgresStore`` on a fresh schema."""
    return pgserver_module.fresh_store()
