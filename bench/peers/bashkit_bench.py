"""Bench worker for bashkit (PyPI), driven by bench/bench_peers.py over JSON lines.

    bench/.peers/venv/bin/python bench/peers/bashkit_bench.py

Runs in the bench-only venv that holds bashkit (never the project's). One JSON request per line
on stdin, one JSON answer per line on stdout, the same protocol as just_bash_bench.mjs:
``init`` (``files`` in bashkit's in-memory VFS, or ``mount`` a host directory read-only),
``run`` (one timed ``execute_sync``), ``bench`` (N timed runs after a warm-up), ``version``.
"""

from __future__ import annotations

import json
import sys
import time

import bashkit
from bashkit import Bash

_bash: Bash | None = None


def _init(req: dict) -> dict:
    """A fresh interpreter over the requested files or mount."""
    global _bash
    if req.get("mount"):
        m = req["mount"]
        if m.get("writable"):  # a .memory read and written in place
            _bash = Bash(mounts=[{"host_path": m["host"], "vfs_path": m["at"], "writable": True}],
                         cwd=req.get("cwd") or "/")
        else:  # the 100 MB rows: read-only, generous limits
            _bash = Bash(mounts=[{"host_path": m["host"], "vfs_path": m["at"]}], cwd=m["at"],
                         timeout_seconds=600, max_memory=4 << 30)
    else:
        _bash = Bash(files=req["files"], cwd=req.get("cwd") or "/")
    return {"ok": True}


def _run(script: str) -> dict:
    """One timed run with its output."""
    assert _bash is not None
    c0 = time.process_time()
    t0 = time.perf_counter()
    r = _bash.execute_sync(script)
    seconds = time.perf_counter() - t0
    return {"stdout": r.stdout, "stderr": r.stderr, "exit": r.exit_code, "seconds": seconds,
            "cpu": time.process_time() - c0, "error": r.error}


def _bench(script: str, runs: int) -> dict:
    """``runs`` timed runs after a short warm-up."""
    assert _bash is not None
    run = _bash.execute_sync
    for _ in range(min(20, runs)):
        run(script)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        run(script)
        times.append(time.perf_counter() - t0)
    return {"times": times}


def handle(req: dict) -> dict:
    """Dispatch one request."""
    op = req.get("op")
    if op == "version":
        return {"version": bashkit.__version__, "python": sys.version.split()[0]}
    if op == "init":
        return _init(req)
    if op == "run":
        return _run(req["script"])
    if op == "bench":
        return _bench(req["script"], int(req["runs"]))
    return {"error": f"unknown op {op!r}"}


def main() -> int:
    """Serve requests until stdin closes."""
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            answer = handle(json.loads(line))
        except Exception as exc:  # report, keep serving
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
