"""Benchmarks of memtool itself; writes ``bench/results/memtool.md``.

    python bench/bench_memtool.py [--data bench/data/conversations_1g.jsonl] [--quick]

Measured in one run, each next to its reference:
- ``system_prompt()`` with a 4 KB core.md (target: median <= 50 µs) vs reading the file raw;
- ``record()`` appends per second from one process (target >= 20,000/s), with and without
  ``fsync=True``, vs raw ``O_APPEND`` writes of the same bytes;
- ``recent(40)`` on a 1 GB conversations.jsonl (target < 5 ms) vs GNU ``tail -n 40``
  (the file is made by ``bench/gen_conversations.py --mb 1000`` if missing);
- each tool call's overhead over the raw store operation it performs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from memtool import Memory  # noqa: E402
from memtool.stores.memory import MemoryStore  # noqa: E402

RESULTS = HERE / "results" / "memtool.md"


def median_us(fn, n: int) -> float:
    """Median wall time of ``fn()`` in microseconds over ``n`` calls (after a warm-up)."""
    for _ in range(min(50, n)):
        fn()
    times = []
    clock = time.perf_counter_ns
    for _ in range(n):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return statistics.median(times) / 1000


def pair_us(ours, raw, n: int) -> tuple[float, float]:
    """Medians (µs) of ``ours()`` and ``raw()`` called alternately, so both see the same load."""
    for _ in range(min(20, n)):
        ours()
        raw()
    a, b = [], []
    clock = time.perf_counter_ns
    for _ in range(n):
        t0 = clock()
        ours()
        t1 = clock()
        raw()
        t2 = clock()
        a.append(t1 - t0)
        b.append(t2 - t1)
    return statistics.median(a) / 1000, statistics.median(b) / 1000


def core_text(size: int = 4096) -> str:
    """A realistic core.md of ``size`` characters."""
    line = "- Prefers concise answers with bullet points; timezone Europe/Berlin; drinks tea.\n"
    text = "# Core Memory\n\n"
    while len(text) < size:
        text += line
    return text[:size - 1] + "\n"


def bench_system_prompt(work: Path, n: int) -> list[tuple]:
    mem = Memory(str(work / "sp"), gitignore=False)
    path = work / "sp" / "core.md"
    path.write_text(core_text())
    old = time.time() - 60
    os.utime(path, (old, old))
    def raw() -> str:
        with open(path, encoding="utf-8") as f:
            return "You are a helpful assistant.\n\n<memory name=\"core\">\n" + f.read() + "</memory>"

    ours, ref = pair_us(lambda: mem.system_prompt("You are a helpful assistant."), raw, n)
    mstore = Memory(MemoryStore())
    mstore.store.write_bytes("core.md", core_text().encode())
    in_mem = median_us(lambda: mstore.system_prompt("You are a helpful assistant."), n)
    return [
        ("`system_prompt()`, 4 KB core.md, local store (median)", f"{ours:.1f} µs", "<= 50 µs",
         f"raw open+read+concat: {ref:.1f} µs", f"{ours / ref:.2f}x"),
        ("`system_prompt()`, 4 KB core.md, memory store (median)", f"{in_mem:.1f} µs", "<= 50 µs", "", ""),
    ]


def bench_record(work: Path, n: int, n_fsync: int) -> list[tuple]:
    rows = []
    content = "What was the budget for the Atlas launch again? " * 4
    for fsync, count in ((False, n), (True, n_fsync)):
        d = work / f"rec{int(fsync)}"
        mem = Memory(str(d), gitignore=False, fsync=fsync)
        t0, c0 = time.perf_counter(), time.process_time()
        for i in range(count):
            mem.record("user", content, i=i)
        ours = count / (time.perf_counter() - t0)
        ours_cpu = count / (time.process_time() - c0)
        line = (json.dumps({"role": "user", "content": content, "timestamp": "2026-01-01T00:00:00.000Z",
                            "i": 0}) + "\n").encode()
        raw_path = d / "raw.jsonl"
        t0 = time.perf_counter()
        for _ in range(count):
            fd = os.open(raw_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            os.write(fd, line)
            if fsync:
                os.fsync(fd)
            os.close(fd)
        ref = count / (time.perf_counter() - t0)
        rows.append((f"`record()` appends/s, one process{', fsync=True' if fsync else ''} ({count} turns)",
                     f"{ours:,.0f}/s wall ({ours_cpu:,.0f}/s of CPU time)", ">= 20,000/s" if not fsync else "",
                     f"raw O_APPEND open+write{'+fsync' if fsync else ''}+close: {ref:,.0f}/s",
                     f"{ref / ours:.2f}x slower"))
    return rows


def bench_recent(data: Path, n: int) -> list[tuple]:
    if not data.exists():
        subprocess.run([sys.executable, str(HERE / "gen_conversations.py"), str(data), "--mb", "1000"], check=True)
    size_mb = data.stat().st_size / 1e6
    from memtool.conversations import Conversations
    from sandbox.fs.local import LocalDir

    conv = Conversations(LocalDir(str(data.parent)), path=data.name)
    assert len(conv.recent(40)) == 40
    ours = median_us(lambda: conv.recent(40), n) / 1000
    rows = [(f"`recent(40)`, {size_mb:,.0f} MB conversations.jsonl (median)", f"{ours:.2f} ms", "< 5 ms")]
    tail = shutil.which("tail")
    if tail:
        env = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": os.environ.get("PATH", "")}
        ref = median_us(lambda: subprocess.run([tail, "-n", "40", str(data)], stdout=subprocess.DEVNULL, env=env),
                        max(5, n // 4)) / 1000
        rows[0] += (f"GNU `tail -n 40` (process incl.): {ref:.2f} ms", f"{ours / ref:.2f}x")
    else:
        rows[0] += ("GNU tail missing", "")
    return rows


def bench_tools(work: Path, n: int) -> list[tuple]:
    d = work / "tools"
    shutil.copytree(HERE.parent / ".memory.example", d)
    mem = Memory(str(d), gitignore=False)
    store = mem.store
    core = store.read_bytes("core.md").decode()
    rows = []

    def row(name: str, ours_fn, raw_name: str, raw_fn, count: int) -> None:
        ours, raw = pair_us(ours_fn, raw_fn, count)
        rows.append((name, f"{ours:.1f} µs", "", f"{raw_name}: {raw:.1f} µs", f"{ours - raw:+.1f} µs"))

    store.write_bytes("scratch2.md", b"")
    row("`memory view core.md`", lambda: mem.call("memory", {"command": "view", "path": "/memories/core.md"}),
        "store.read_bytes", lambda: store.read_bytes("core.md").decode(), n)
    toggle = {"v": 0}

    def sr():
        a, b = ("tea", "TEA") if toggle["v"] % 2 == 0 else ("TEA", "tea")
        toggle["v"] += 1
        out = mem.call("memory", {"command": "str_replace", "path": "core.md", "old_str": f"Drinks {a}",
                                  "new_str": f"Drinks {b}"})
        assert out.startswith("The memory file"), out

    def raw_sr():
        text = store.read_bytes("core.md").decode()
        store.write_bytes("core.md", text.replace("Drinks tea", "Drinks tea", 1).encode())

    row("`memory str_replace` on core.md", sr, "read+replace+write_bytes", raw_sr, n // 4)
    row("`memory update` append to notes.md",
        lambda: mem.call("memory", {"command": "update", "path": "scratch.md", "mode": "append",
                                    "content": "- a note"}),
        "read_bytes+append_bytes", lambda: (store.read_bytes("scratch2.md"),
                                            store.append_bytes("scratch2.md", b"- a note\n")), n // 4)

    def raw_search():
        hits = []
        for name in ("conversations.jsonl", "core.md", "notes.md"):
            for i, line in enumerate(store.read_bytes(name).decode().splitlines(), 1):
                if any(t in line.casefold() for t in ("pricing", "budget")):
                    hits.append(f"{name}:{i}:{line}")
        return hits

    row("`memory search pricing budget` (example memory)",
        lambda: mem.call("memory", {"command": "search", "query": "pricing budget"}),
        "Python loop over the 3 files", raw_search, n // 4)
    from memtool.tools.bash_tool import sandbox_available

    if sandbox_available():
        row("`bash cat core.md`", lambda: mem.bash("cat core.md"), "store.read_bytes",
            lambda: store.read_bytes("core.md"), n // 4)
        bash = shutil.which("bash")
        if bash:
            env = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": os.environ.get("PATH", "")}
            ref = median_us(lambda: subprocess.run([bash, "-c", "cat core.md"], cwd=d, stdout=subprocess.DEVNULL,
                                                   env=env), 50)
            ours = median_us(lambda: mem.bash("cat core.md"), n // 4)
            rows.append(("`bash cat core.md` vs a real bash process", f"{ours:.1f} µs", "",
                         f"GNU bash 5.2 `bash -c 'cat core.md'` (process incl.): {ref:.1f} µs", f"{ours / ref:.2f}x"))
            ours = median_us(lambda: mem.bash("grep -c budget conversations.jsonl"), n // 4)
            ref = median_us(lambda: subprocess.run([bash, "-c", "grep -c budget conversations.jsonl"], cwd=d,
                                                   stdout=subprocess.DEVNULL, env=env), 50)
            rows.append(("`bash grep -c budget conversations.jsonl` (51 turns)", f"{ours:.1f} µs", "",
                         f"GNU bash+grep process: {ref:.1f} µs", f"{ours / ref:.2f}x"))
    return rows


def main() -> None:
    """Run every measurement and write the results table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(HERE / "data" / "conversations_1g.jsonl"))
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (noisier)")
    a = ap.parse_args()
    n = 2000 if a.quick else 20000
    load_start = os.getloadavg()[0]
    work = Path(tempfile.mkdtemp(prefix="memtool-bench-"))
    try:
        rows = []
        rows += bench_system_prompt(work, n)
        rows += bench_record(work, 5000 if a.quick else 50000, 200 if a.quick else 1000)
        rows += bench_recent(Path(a.data), 50 if a.quick else 200)
        rows += bench_tools(work, 400 if a.quick else 2000)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    cmd = "python bench/bench_memtool.py" + (" --quick" if a.quick else "") + (
        f" --data {a.data}" if a.data != str(HERE / "data" / "conversations_1g.jsonl") else "")
    out = ["## memtool", "",
           f"Command: `{cmd}` (Python {platform.python_version()}, {platform.machine()}, "
           f"{os.cpu_count()} CPUs, shared with other jobs; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}).",
           "", "| measurement | memtool | target | reference (same run) | ratio / overhead |",
           "|---|---|---|---|---|"]
    for r in rows:
        r = tuple(r) + ("",) * (5 - len(r))
        out.append("| " + " | ".join(r) + " |")
    out += ["", f"Load average during the run: {load_start:.1f} at the start, {os.getloadavg()[0]:.1f} at the end "
            f"({os.cpu_count()} CPUs). Wall-clock figures of I/O-bound rows are inflated by that load; the "
            "`record()` row therefore also gives the rate per second of CPU time the process used. "
            "In the system_prompt and tool rows memtool and reference calls alternate, so both see the same load."]
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text("\n".join(out) + "\n")
    print("\n".join(out))


if __name__ == "__main__":
    main()
