"""Fault injection: the server restarted mid-burst, connections killed with
``pg_terminate_backend``. No torn or half-applied write; the failed call reports one line that
says to retry; the next call succeeds.

Workers append self-checking lines (and overwrite 2.5 MB multi-chunk files) and report every
call's outcome. After the fault: every line in the file is whole and unique, every call that
reported success is there, a failed call is either wholly there (its commit reached the disk
before the connection broke) or wholly absent, every big file holds exactly one generation,
and every worker made successful calls after its failures.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
WORKER = os.path.join(HERE, "pg_worker.py")
WORKERS = 4


def _worker_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("memtool_tests_pg_worker", WORKER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _start(configs):
    env = dict(os.environ, MEMTOOL_REPO=REPO, PYTHONPATH=REPO)
    return [subprocess.Popen([sys.executable, WORKER, json.dumps(c)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env, cwd=REPO) for c in configs]


def _finish(procs, configs):
    results = []
    for p, c in zip(procs, configs):
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0 and b"Traceback" not in err, \
            f"python {WORKER} '{json.dumps(c)}' failed:\n{err.decode()[-3000:]}"
        results.append([json.loads(x) for x in out.decode().splitlines() if x.strip()])
    return results


def _wait_for_lines(store, n: int, procs, limit: float = 120) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            if store.stat("conversations.jsonl").size > n * 60:
                return
        except OSError:
            pass
        assert any(p.poll() is None for p in procs), "workers ended before the fault"
        time.sleep(0.05)
    raise AssertionError("workers made no progress")


def _check(store, results, worker_mod):
    data = store.read_bytes("conversations.jsonl")
    assert data.endswith(b"\n")
    present: dict[int, list[int]] = {w: [] for w in range(WORKERS)}
    for raw in data.split(b"\n")[:-1]:
        obj = worker_mod.check_line(raw)
        assert obj is not None, f"torn line: {raw[:120]!r}"
        present[obj["w"]].append(obj["i"])
    failures = 0
    for w, lines in enumerate(results):
        assert lines[-1] == {"done": True}
        ok = {x["ok"] for x in lines if "ok" in x and not x.get("big")}
        errors = [x for x in lines if "error" in x]
        failures += len(errors)
        got = present[w]
        assert len(got) == len(set(got)), f"worker {w}: a line was written twice"
        assert got == sorted(got), f"worker {w}: lines out of order"
        missing = ok - set(got)
        assert not missing, f"worker {w}: acknowledged appends lost: {sorted(missing)[:5]}"
        for e in errors:
            msg = e["error"]
            assert "retry" in msg and "\n" not in msg, msg
            assert not re.search(r"/tmp|/var|/usr|127\.0\.0\.1|postgres|port", msg), msg
            assert e["errno"] in (5, 11), e
        if errors:
            last_error = max(i for i, x in enumerate(lines) if "error" in x)
            assert any("ok" in x for x in lines[last_error:]), \
                f"worker {w}: no successful call after the failure"
    for w in range(WORKERS):
        try:
            blob = store.read_bytes(f"big-{w}")
        except OSError:
            continue
        m = re.match(rb"gen w(\d+) i(\d+) ", blob)
        assert m, blob[:40]
        want = (m.group(0) * 200_000)[:2_500_000]
        assert blob == want, f"big-{w} holds a mix of generations"
    return failures


def _configs(pg_dsn, schema, appends):
    return [{"task": "burst", "dsn": pg_dsn, "schema": schema, "namespace": "faults",
             "seed": 500 + w, "worker": w, "appends": appends, "max_len": 100,
             "overwrite": True} for w in range(WORKERS)]


def test_server_restart_in_the_middle_of_a_write_burst(pg_server, pgserver_module, pg_dsn):
    schema = pgserver_module.fresh_schema()
    store = pgserver_module.fresh_store(schema=schema, namespace="faults")
    store.init_schema()
    configs = _configs(pg_dsn, schema, 1000)
    procs = _start(configs)
    _wait_for_lines(store, 200, procs)
    pg_server.restart()
    results = _finish(procs, configs)
    failures = _check(store, results, _worker_module())
    assert failures > 0, "the restart did not hit the burst (test proved nothing)"
    store.append_bytes("conversations.jsonl", b"")  # the store in this process recovers too
    assert store.stat("conversations.jsonl").size > 0


def test_connections_killed_mid_burst(pg_server, pgserver_module, pg_dsn):
    import psycopg

    schema = pgserver_module.fresh_schema()
    store = pgserver_module.fresh_store(schema=schema, namespace="faults")
    store.init_schema()
    configs = _configs(pg_dsn, schema, 1000)
    procs = _start(configs)
    _wait_for_lines(store, 100, procs)
    killed = 0
    with psycopg.connect(pg_dsn, autocommit=True) as admin:
        for _ in range(6):
            if all(p.poll() is not None for p in procs):
                break
            killed += admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE "
                "pid <> pg_backend_pid() AND backend_type = 'client backend' AND "
                "datname = current_database()").fetchone()[0]
            time.sleep(0.4)
    results = _finish(procs, configs)
    assert killed > 0
    failures = _check(store, results, _worker_module())
    assert failures > 0, "no call was hit by the killed connections (test proved nothing)"


def test_read_modify_write_killed_mid_transaction_applies_nothing(pg_server, pg_store, pg_dsn):
    import psycopg

    pg_store.write_bytes("core.md", b"before\n")
    with pytest.raises(OSError) as info:
        with pg_store.lock("core.md"):
            pg_store.write_bytes("core.md", b"after\n")
            with psycopg.connect(pg_dsn, autocommit=True) as admin:
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                    "pid <> pg_backend_pid() AND state = 'idle in transaction'")
            time.sleep(0.2)
    assert "retry" in str(info.value)
    assert pg_store.read_bytes("core.md") == b"before\n"  # the next call succeeds, old content
    with pg_store.lock("core.md"):
        pg_store.write_bytes("core.md", b"after\n")
    assert pg_store.read_bytes("core.md") == b"after\n"


def test_tools_report_a_retryable_error_then_work(pg_server, pgserver_module, pg_dsn):
    pytest.importorskip("memtool.memory")
    import psycopg
    from memtool.memory import Memory

    store = pgserver_module.fresh_store()
    mem = Memory(store=store, scope="user:1", secrets=False)
    assert "MARKER" not in mem.bash("cat core.md")
    with psycopg.connect(pg_dsn, autocommit=True) as admin:  # kill every pooled connection
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                      "pid <> pg_backend_pid() AND backend_type = 'client backend'")
    time.sleep(0.2)
    # The pool notices dead connections before using them: this call may succeed at once.
    first = mem.bash("echo '- MARKER' >> core.md")
    if "retry" not in first:
        assert "rror" not in first, first
    pg_server.restart()
    result = mem.call("memory", {"command": "str_replace", "path": "/memories/core.md",
                                 "old_str": "- MARKER", "new_str": "- MARKER2"})
    # Either it worked (a fresh connection) or it says to retry; never a traceback or a path.
    assert "Traceback" not in result and "/tmp" not in result
    if "edited" not in result:
        assert "retry" in result.lower(), result
        result = mem.call("memory", {"command": "str_replace", "path": "/memories/core.md",
                                     "old_str": "- MARKER", "new_str": "- MARKER2"})
    assert "edited" in result, result
    assert "MARKER2" in mem.system_prompt("x")


def test_connections_lost_while_idle_are_replaced_before_use(pg_server, pgserver_module):
    """A restart or pg_terminate_backend while no call is running costs no error: every
    connection (the pool's and each thread's append connection) is checked for a
    server-side close before it is used, without a round trip."""
    import psycopg

    store = pgserver_module.fresh_store()
    store.append_line("log", b"1\n")
    store.write_bytes("core.md", b"x")
    pg_server.restart()
    time.sleep(0.2)
    store.append_line("log", b"2\n")  # the append fast path's own connection
    assert store.read_bytes("core.md") == b"x"  # a pooled connection
    with psycopg.connect(pg_server.dsn, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                      "pid <> pg_backend_pid() AND backend_type = 'client backend'")
    time.sleep(0.2)
    store.append_line("log", b"3\n")
    assert store.read_bytes("log") == b"1\n2\n3\n"
