"""A throw-away PostgreSQL 15 server for the tests (or the one ``MEMTOOL_TEST_DSN`` names).

``server_dsn()`` starts one server per test process on first use (``initdb`` + ``pg_ctl`` in a
temporary directory, run as the ``postgres`` user through ``runuser`` when we are root, listening
on a free localhost port and a Unix socket in that directory) and stops it at exit. Without a
server, the tests skip with the reason, except when ``CI`` is set: there it is a failure.

``fresh_store(**kw)`` returns a ``PostgresStore`` on its own, never used namespace, so tests
never see each other's rows.
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import uuid

import pytest

PG_BIN = os.environ.get("MEMTOOL_PG_BIN", "/usr/lib/postgresql/15/bin")

_state: dict[str, object] = {}
_counter = itertools.count()


class PgServer:
    """A PostgreSQL cluster in a temporary directory, owned by this test process."""

    def __init__(self, fsync: bool = False) -> None:
        self.fsync = fsync
        self.tmp = tempfile.mkdtemp(prefix="memtool-pg-")
        self.data = os.path.join(self.tmp, "data")
        self.sock = os.path.join(self.tmp, "sock")
        os.makedirs(self.sock)
        self.port = _free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.tmp, "postgres", "postgres")
            shutil.chown(self.sock, "postgres", "postgres")
            os.chmod(self.tmp, 0o755)
        self.log = os.path.join(self.tmp, "server.log")

    def _cmd(self, *argv: str) -> list[str]:
        return (["runuser", "-u", "postgres", "--"] if self.as_root else []) + list(argv)

    def run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess:
        """Run a PostgreSQL binary as the server's owner."""
        return subprocess.run(self._cmd(*argv), capture_output=True, text=True, check=check, timeout=120)

    def init(self) -> None:
        """Create the cluster (trust authentication: it only listens on localhost and a
        private socket directory)."""
        self.run(f"{PG_BIN}/initdb", "-D", self.data, "-U", "postgres", "--auth=trust",
                 "-E", "UTF8", "--locale=C", "--no-sync")

    def options(self) -> str:
        # fsync off for the tests (they restart the server cleanly, never crash the machine);
        # on for the benchmarks, which must show durable commits.
        fsync = "on" if self.fsync else "off"
        return (f"-p {self.port} -k {self.sock} -c listen_addresses=127.0.0.1 -c fsync={fsync} "
                f"-c max_connections=300 -c shared_buffers=128MB")

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        self.run(f"{PG_BIN}/pg_ctl", "-D", self.data, "-l", self.log, "-o", self.options(),
                 "-w", "-t", "60", "start")

    def reap_with(self, pid: int) -> None:
        """Start a small detached process that stops the server (and deletes its directory)
        once process ``pid`` has gone, however it ended (even killed with SIGKILL)."""
        stop = self._cmd(f"{PG_BIN}/pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        script = (
            "import os, shutil, subprocess, time\n"
            "while True:\n"
            "    try:\n"
            f"        os.kill({pid}, 0)\n"
            "    except ProcessLookupError:\n"
            "        break\n"
            "    time.sleep(1)\n"
            f"subprocess.run({stop!r}, capture_output=True)\n"
            f"shutil.rmtree({self.tmp!r}, ignore_errors=True)\n"
        )
        subprocess.Popen([sys.executable, "-c", script], start_new_session=True,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)

    def restart(self) -> None:
        """``pg_ctl restart`` (fast shutdown: open connections are cut, transactions abort)."""
        self.run(f"{PG_BIN}/pg_ctl", "-D", self.data, "-l", self.log, "-o", self.options(),
                 "-m", "fast", "-w", "-t", "60", "restart")

    def stop(self) -> None:
        """Stop the server and delete its directory."""
        self.run(f"{PG_BIN}/pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop", check=False)
        shutil.rmtree(self.tmp, ignore_errors=True)

    @property
    def dsn(self) -> str:
        """Connection string over TCP on localhost."""
        return f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL is required in CI: {reason}", pytrace=False)
    pytest.skip(reason)


def server() -> PgServer | None:
    """The throw-away server of this process (None when ``MEMTOOL_TEST_DSN`` is used)."""
    server_dsn()
    return _state.get("server")  # type: ignore[return-value]


def server_dsn() -> str:
    """DSN of the test server, starting it on first use (skip or, under CI, fail if none)."""
    if "dsn" in _state:
        return _state["dsn"]  # type: ignore[return-value]
    if "error" in _state:
        _unavailable(str(_state["error"]))
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError as e:
        _state["error"] = f"psycopg is not installed ({e}); pip install 'memtool[postgres]'"
        _unavailable(str(_state["error"]))
    dsn = os.environ.get("MEMTOOL_TEST_DSN")
    if dsn:
        _state["dsn"] = dsn
        return dsn
    if not os.path.exists(f"{PG_BIN}/initdb"):
        _state["error"] = f"PostgreSQL binaries not found in {PG_BIN} (set MEMTOOL_TEST_DSN)"
        _unavailable(str(_state["error"]))
    # Up to three attempts, each on a new free port: the port is free when picked, but another
    # test process (or anything else) can take it before the server binds it.
    for attempt in range(3):
        srv = PgServer()
        try:
            srv.init()
            srv.start()
            break
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as e:
            detail = getattr(e, "stderr", "") or str(e)
            try:
                with open(srv.log) as f:
                    detail += " | server log: " + f.read()[-300:]
            except OSError:
                pass
            srv.stop()
            if attempt == 2:
                _state["error"] = f"could not start a PostgreSQL server: {detail.strip()[-600:]}"
                _unavailable(str(_state["error"]))
    atexit.register(srv.stop)
    srv.reap_with(os.getpid())  # no orphaned server even if this process is killed
    _state["server"] = srv
    _state["dsn"] = srv.dsn
    return srv.dsn


def fresh_schema() -> str:
    """A schema name no other test (or test process) uses."""
    return f"t_{os.getpid()}_{next(_counter)}_{uuid.uuid4().hex[:6]}"


def fresh_store(**kw):
    """A ``PostgresStore`` on an empty namespace of the test server (in this process's
    schema, unless ``schema=`` is given), so tests never see each other's rows."""
    from memtool.stores.postgres import PostgresStore

    kw.setdefault("schema", _state.setdefault("schema", fresh_schema()))
    kw.setdefault("namespace", f"test-{next(_counter)}-{uuid.uuid4().hex[:8]}")
    return PostgresStore(server_dsn(), **kw)
