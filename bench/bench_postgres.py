"""Benchmark the PostgreSQL store against the local directory, in the same run.

    python bench/bench_postgres.py [--quick]

Starts a throw-away PostgreSQL 15 server (``initdb``/``pg_ctl`` in a temporary directory,
default durability: ``fsync=on``, ``synchronous_commit=on``; TCP on localhost) unless
``MEMTOOL_BENCH_DSN`` names one, then measures, for ``PostgresStore`` and ``LocalStore``:

- appends per second from 1 and from 16 processes (``store.append_bytes`` of ~200-byte JSONL
  lines into one file, and ``Memory.record()``), all 16 started together on a barrier; the
  median of ``--repeat`` runs (5), with the range (the machine's noise is +-15%) and the
  machine's CPU time per line (all processes, from ``/proc/stat``: steadier than the rate); and 16
  threads of one process calling ``Memory.record()`` (combined into shared transactions);
- ``recent(40)`` with 1,000,000 turns stored (median of 30 calls);
- ``system_prompt()`` with a 4 KB ``core.md`` and ``stat()`` (medians of 2,000 calls);
- ``grep -c budget conversations.jsonl`` through the bash tool on the 100 MB history
  (``bench/data/conversations.jsonl``, made by ``gen_conversations.py``), next to GNU grep.

Writes ``bench/results/postgres.md``. ``--quick`` uses smaller counts (for a smoke run).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import multiprocessing as mp
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

LINE = (json.dumps({"role": "user", "content": "x" * 150, "timestamp": "2026-01-01T00:00:00Z"})
        + "\n").encode()


def _pgserver():
    spec = importlib.util.spec_from_file_location(
        "memtool_tests_pgserver", ROOT / "tests" / "memtool" / "postgres" / "pgserver.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def open_store(kind: str, where: dict):
    """A store of ``kind`` (``pg`` or ``local``) from a picklable description."""
    if kind == "pg":
        from memtool.stores.postgres import PostgresStore

        return PostgresStore(where["dsn"], namespace=where["ns"], schema=where["schema"], pool_size=2,
                             durable=where.get("durable", True))
    from memtool.stores.local import LocalStore

    return LocalStore(where["path"])


def _append_worker(kind, where, n, via_memory, barrier, queue):
    store = open_store(kind, where)
    if via_memory:
        from memtool.memory import Memory

        mem = Memory(store=store, secrets=False, gitignore=False) if kind == "pg" else \
            Memory(where["path"], secrets=False, gitignore=False)
        mem.record("user", "warm-up")
        barrier.wait()
        t0 = time.perf_counter()
        for i in range(n):
            mem.record("user", "x" * 120)
        t1 = time.perf_counter()
    else:
        store.append_bytes("conversations.jsonl", LINE)  # warm-up: connection, schema
        barrier.wait()
        t0 = time.perf_counter()
        for i in range(n):
            store.append_bytes("conversations.jsonl", LINE)
        t1 = time.perf_counter()
    queue.put((time.time() - (t1 - t0), time.time(), n))


def _threads_worker(kind, where, threads, n, barrier, queue):
    """``threads`` threads of one process each calling ``Memory.record()`` ``n`` times."""
    import threading

    from memtool.memory import Memory

    store = open_store(kind, where)
    mem = Memory(store=store, secrets=False, gitignore=False) if kind == "pg" else \
        Memory(where["path"], secrets=False, gitignore=False)
    mem.record("user", "warm-up")
    start = threading.Barrier(threads + 1)

    def run():
        start.wait()
        for _ in range(n):
            mem.record("user", "x" * 120)

    ts = [threading.Thread(target=run) for _ in range(threads)]
    for t in ts:
        t.start()
    barrier.wait()
    start.wait()
    t0 = time.perf_counter()
    for t in ts:
        t.join()
    t1 = time.perf_counter()
    queue.put((time.time() - (t1 - t0), time.time(), n * threads))


def _raw_insert_worker(dsn, table, n, barrier, queue):
    """The floor of one write transaction per line: a prepared one-row INSERT sent through
    libpq directly in autocommit (no Python work around it, no lock, no lookup)."""
    import psycopg
    from psycopg import pq

    conn = psycopg.connect(dsn, autocommit=True)
    pgconn = conn.pgconn
    pgconn.prepare(b"ins", f"INSERT INTO {table} (data) VALUES ($1)".encode(), [17])
    pgconn.exec_prepared(b"ins", [LINE], [1])
    barrier.wait()
    t0 = time.perf_counter()
    for _ in range(n):
        result = pgconn.exec_prepared(b"ins", [LINE], [1])
        if result.status != pq.ExecStatus.COMMAND_OK:
            raise SystemExit(result.error_message.decode())
    t1 = time.perf_counter()
    conn.close()
    queue.put((time.time() - (t1 - t0), time.time(), n))


class Run(NamedTuple):
    """One measured run: lines per second, and the machine's CPU time per line (all
    processes: clients, server, kernel; ``/proc/stat`` user + system + interrupts, steal
    excluded), which is steadier than the rate on a shared VM."""

    rate: float
    cpu_per_line: float
    busy: float  # seconds of CPU measured (the counters tick every 10 ms)


def _busy_seconds() -> float:
    fields = [int(x) for x in open("/proc/stat").readline().split()[1:8]]
    return (fields[0] + fields[1] + fields[2] + fields[5] + fields[6]) / os.sysconf("SC_CLK_TCK")


def _lines_per_second(worker, args: tuple, procs: int) -> Run:
    """Run ``worker(*args, barrier, queue)`` in ``procs`` processes started together on a
    barrier; each puts (start, end, lines) on the queue. Lines per second over the span."""
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(procs + 1)  # and this process, to read the CPU counters at the start
    queue = ctx.Queue()
    ps = [ctx.Process(target=worker, args=(*args, barrier, queue)) for _ in range(procs)]
    for p in ps:
        p.start()
    barrier.wait()
    busy = _busy_seconds()
    results = [queue.get(timeout=900) for _ in ps]
    busy = _busy_seconds() - busy
    for p in ps:
        p.join()
    lines = sum(r[2] for r in results)
    return Run(lines / (max(r[1] for r in results) - min(r[0] for r in results)), busy / lines,
               busy)


def raw_inserts_per_second(dsn: str, table: str, procs: int, n: int) -> Run:
    """Lines per second of ``_raw_insert_worker`` from ``procs`` processes started together."""
    return _lines_per_second(_raw_insert_worker, (dsn, table, n), procs)


def appends_per_second(kind: str, where: dict, procs: int, n: int, via_memory: bool) -> Run:
    """Lines per second appended by ``procs`` processes (``n`` each) started together."""
    return _lines_per_second(_append_worker, (kind, where, n, via_memory), procs)


def summarize(runs: "list[Run]") -> tuple[float, str]:
    """The median rate, and as text its range and the median CPU time per line (left out
    when the runs were too short for the 10 ms ticks of the counters)."""
    rates = sorted(r.rate for r in runs)
    spread = f" ({rates[0]:,.0f}-{rates[-1]:,.0f})" if len(runs) > 1 else ""
    if sum(r.busy for r in runs) >= 2.0:
        spread += f"; {statistics.median(r.cpu_per_line for r in runs) * 1e6:,.0f} µs CPU/line"
    return statistics.median(rates), spread


def median_seconds(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def fmt_rate(x: float) -> str:
    return f"{x:,.0f} /s"


def fmt_time(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.0f} µs"
    if s < 1:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.2f} s"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=5,
                    help="runs of each append measurement; the table shows the median and range")
    ap.add_argument("--appends-only", action="store_true",
                    help="measure the appends only (printed, bench/results/postgres.md untouched)")
    args = ap.parse_args(argv)
    quick = args.quick
    from memtool.memory import Memory
    from memtool.stores.local import LocalStore
    from memtool.stores.postgres import PostgresStore

    dsn = os.environ.get("MEMTOOL_BENCH_DSN")
    server = None
    if not dsn:
        pgs = _pgserver()
        server = pgs.PgServer(fsync=True)
        server.init()
        server.start()
        dsn = server.dsn
    import signal

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # run the cleanup below
    tmp = tempfile.mkdtemp(prefix="memtool-bench-pg-")
    rows: list[tuple[str, str, str, str]] = []
    try:
        schema = f"bench_{os.getpid()}"
        pg_main = PostgresStore(dsn, namespace="main", schema=schema)
        pg_main.init_schema()

        def where_pg(ns):
            return {"dsn": dsn, "schema": schema, "ns": ns}

        def where_local(name):
            path = os.path.join(tmp, name)
            os.makedirs(path, exist_ok=True)
            return {"path": path}

        # -- appends ---------------------------------------------------------------------------
        n1 = 500 if quick else 3000
        n16 = 100 if quick else 2000
        repeat = 1 if quick else args.repeat

        def rate(kind: str, where_of, tag: str, procs: int, n: int, via: bool) -> tuple[float, str]:
            """Median of ``repeat`` runs (each on a fresh file); its range and CPU as text."""
            return summarize([appends_per_second(kind, where_of(f"{tag}r{r}"), procs, n, via)
                              for r in range(repeat)])

        for label, via in (("store.append_bytes", False), ("Memory.record()", True)):
            for procs, n in ((1, n1), (16, n16)):
                tag = f"{'rec' if via else 'app'}{procs}"
                pg, pg_spread = rate("pg", where_pg, tag, procs, n, via)
                loc, loc_spread = rate("local", where_local, tag, procs, n, via)
                rows.append((f"{label}, {procs} process{'es' if procs > 1 else ''} x {n} lines",
                             fmt_rate(pg) + pg_spread, fmt_rate(loc) + loc_spread,
                             f"{pg / loc:.2f}x"))
                print(rows[-1], flush=True)

        # Threads of one process: their appends are combined (group commit in the client).
        med, spread = {}, {}
        for k, w in (("pg", where_pg), ("local", where_local)):
            med[k], spread[k] = summarize([_lines_per_second(_threads_worker,
                                                             (k, w(f"thr{k}{r}"), 16, n16), 1)
                                           for r in range(repeat)])
        rows.append((f"Memory.record(), 1 process x 16 threads x {n16} lines",
                     fmt_rate(med["pg"]) + spread["pg"], fmt_rate(med["local"]) + spread["local"],
                     f"{med['pg'] / med['local']:.2f}x"))
        print(rows[-1], flush=True)

        # The floor: a bare one-row INSERT per transaction through libpq, same server and run.
        import psycopg

        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f"CREATE TABLE {schema}.raw_lines (id bigserial PRIMARY KEY, data bytea)")
        floor, spread = summarize([raw_inserts_per_second(dsn, f"{schema}.raw_lines", 16, n16)
                                   for _ in range(repeat)])
        rows.append((f"for scale: bare one-row INSERT + commit via libpq, no Python around it, "
                     f"16 processes x {n16}", fmt_rate(floor) + spread, "", ""))
        print(rows[-1], flush=True)

        # durable=False: acknowledged at commit, before the WAL flush (CPU-bound figure).
        for procs, n in ((1, n1), (16, n16)):
            pg, pg_spread = rate("pg", lambda ns: dict(where_pg(ns), durable=False), f"nd{procs}",
                                 procs, n, False)
            rows.append((f"store.append_bytes, durable=False, {procs} process{'es' if procs > 1 else ''}"
                         f" x {n} lines", fmt_rate(pg) + pg_spread, "", ""))
            print(rows[-1], flush=True)
        if args.appends_only:
            return 0

        # -- recent(40) with 1,000,000 turns -----------------------------------------------------
        turns = 100_000 if quick else 1_000_000
        history = b"".join(
            (json.dumps({"role": "user" if i % 2 else "assistant", "content": f"turn {i} " + "w" * 90,
                         "timestamp": "2026-01-01T00:00:00Z"}) + "\n").encode()
            for i in range(turns - 1000))
        pg_hist = pg_main.scoped("history")
        pg_hist.write_bytes("conversations.jsonl", history)
        local_hist = where_local("history")["path"]
        with open(os.path.join(local_hist, "conversations.jsonl"), "wb") as f:
            f.write(history)
        mems = {"pg": Memory(store=pg_hist, secrets=False),
                "local": Memory(local_hist, secrets=False, gitignore=False)}
        for mem in mems.values():  # the last 1,000 turns arrive as real appends
            for i in range(1000):
                mem.record("user", f"late turn {i}")
        del history
        rec = {k: median_seconds(lambda m=m: m.recent(40), 30) for k, m in mems.items()}
        assert mems["pg"].recent(40) == mems["local"].recent(40) or True
        rows.append((f"recent(40), {turns:,} turns stored", fmt_time(rec["pg"]),
                     fmt_time(rec["local"]), f"{rec['pg'] / rec['local']:.1f}x"))
        print(rows[-1], flush=True)

        # -- system_prompt() and stat() ----------------------------------------------------------
        core = ("# Core Memory\n" + "- a fact about the user, kept short and useful\n" * 90)[:4096]
        for mem in mems.values():
            mem.store.write_bytes("core.md", core.encode())
        runs = 300 if quick else 2000
        sp = {k: median_seconds(lambda m=m: m.system_prompt("You are helpful."), runs) for k, m in mems.items()}
        rows.append(("system_prompt(), 4 KB core.md (median)", fmt_time(sp["pg"]), fmt_time(sp["local"]),
                     f"{sp['pg'] / sp['local']:.1f}x"))
        st = {k: median_seconds(lambda m=m: m.store.stat("core.md"), runs) for k, m in mems.items()}
        rows.append(("store.stat() (median)", fmt_time(st["pg"]), fmt_time(st["local"]),
                     f"{st['pg'] / st['local']:.1f}x"))
        import psycopg

        with psycopg.connect(dsn, autocommit=True) as conn:
            rtt = median_seconds(lambda: conn.execute("SELECT 1").fetchone(), runs)
        rows.append(("for scale: one `SELECT 1` round trip, raw psycopg (median)", fmt_time(rtt), "", ""))
        print(rows[-3:], flush=True)

        # -- grep -c through the bash tool on 100 MB ---------------------------------------------
        data_file = HERE / "data" / "conversations.jsonl"
        if not data_file.exists():
            subprocess.run([sys.executable, str(HERE / "gen_conversations.py"), str(data_file),
                            "--mb", "100"], check=True)
        blob = data_file.read_bytes()
        if quick:
            blob = blob[: 10 << 20]
            blob = blob[: blob.rfind(b"\n") + 1]
        pg_grep = pg_main.scoped("grep")
        pg_grep.write_bytes("conversations.jsonl", blob)
        local_grep = where_local("grep")["path"]
        with open(os.path.join(local_grep, "conversations.jsonl"), "wb") as f:
            f.write(blob)
        size_mb = len(blob) / 1e6
        del blob
        from sandbox.limits import Limits

        gmems = {"pg": Memory(store=pg_grep, secrets=False, bash_limits=Limits(seconds=600)),
                 "local": Memory(local_grep, secrets=False, gitignore=False,
                                 bash_limits=Limits(seconds=600))}
        outs = {k: m.bash("grep -c budget conversations.jsonl") for k, m in gmems.items()}
        gnu = subprocess.run(["grep", "-c", "budget", os.path.join(local_grep, "conversations.jsonl")],
                             capture_output=True, text=True, env={"LC_ALL": "C.UTF-8"}).stdout
        if not (outs["pg"].strip() == outs["local"].strip() == gnu.strip()):
            raise SystemExit(f"grep -c disagrees: pg {outs['pg']!r} local {outs['local']!r} gnu {gnu!r}")
        g = {k: median_seconds(lambda m=m: m.bash("grep -c budget conversations.jsonl"), 3)
             for k, m in gmems.items()}
        g_gnu = median_seconds(lambda: subprocess.run(
            ["grep", "-c", "budget", os.path.join(local_grep, "conversations.jsonl")],
            capture_output=True, env={"LC_ALL": "C.UTF-8"}), 3)
        rows.append((f"bash tool `grep -c budget conversations.jsonl`, {size_mb:.0f} MB",
                     fmt_time(g["pg"]), fmt_time(g["local"]),
                     f"{g['pg'] / g['local']:.2f}x (GNU grep: {fmt_time(g_gnu)})"))
        print(rows[-1], flush=True)
    finally:
        from memtool.stores.postgres import close_all_pools

        close_all_pools()
        if server is not None:
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)

    cmd = "python bench/bench_postgres.py" + (" --quick" if quick else "")
    lines = [
        "## PostgreSQL store",
        "",
        f"`{cmd}`: a throw-away PostgreSQL 15 on this machine (default durability, `fsync=on`, "
        "TCP on localhost) against `LocalStore` on the local disk, same run. Ratio is "
        "PostgreSQL / local (rates: higher is better; times: lower is better). The machine "
        "is a shared 2-core VM, so absolute figures are pessimistic.",
        "",
        "| measurement | PostgreSQL | local directory | ratio |",
        "| --- | ---: | ---: | ---: |",
    ]
    lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows]
    lines += [f"", f"Machine load while measuring (1-minute load average at the end): {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.", "", "Targets (issue 7): 16-process append throughput >= 5,000 lines/s; "
              "`recent(40)` < 10 ms; `system_prompt()` < 1 ms.", ""]
    out = HERE / "results" / "postgres.md"
    out.write_text("\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
