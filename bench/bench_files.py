"""Streaming file commands on a 1 GB file: ``tail -n 40``, ``head -n 1`` and ``cat | head -n 1``.

    python3 bench/bench_files.py [--runs 20] [--out bench/results/files.md]

Uses ``bench/data/conversations_1g.jsonl`` (generated with ``bench/gen_conversations.py --mb
1000`` when missing; ``bench/data`` is git-ignored). Each case runs in a fresh Python process
that imports the sandbox, warms up once, records its peak RSS (``ru_maxrss``), then runs the
command N times: the table shows the median wall time, the peak RSS growth over the warm
baseline, and the peak of Python allocations (``tracemalloc``, one extra run). The reference
is ``bash -c`` with GNU coreutils on the same file, timed in the same run. Targets from the
issue: under 50 ms and under 50 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data"
BIG = DATA / "conversations_1g.jsonl"

CASES = [
    ("tail -n 40 (run_command)", "run_command", ["tail", "-n", "40", "conversations_1g.jsonl"], "tail -n 40 conversations_1g.jsonl"),
    ("tail -n 40 (Sandbox.run)", "sandbox", "tail -n 40 conversations_1g.jsonl", "tail -n 40 conversations_1g.jsonl"),
    ("head -n 1 (run_command)", "run_command", ["head", "-n", "1", "conversations_1g.jsonl"], "head -n 1 conversations_1g.jsonl"),
    ("head -n 1 (Sandbox.run)", "sandbox", "head -n 1 conversations_1g.jsonl", "head -n 1 conversations_1g.jsonl"),
    ("cat FILE | head -n 1 (Sandbox.run)", "sandbox", "cat conversations_1g.jsonl | head -n 1",
     "cat conversations_1g.jsonl | head -n 1"),
    ("tail -c 1000 (run_command)", "run_command", ["tail", "-c", "1000", "conversations_1g.jsonl"], "tail -c 1000 conversations_1g.jsonl"),
]

CHILD = r"""
import json, resource, statistics, sys, time, tracemalloc
sys.path.insert(0, {root!r})
kind, command, runs = {kind!r}, {command!r}, {runs}
if kind == "sandbox":
    from sandbox.api import Sandbox
    sb = Sandbox(mounts={{"/d": {data!r}}}, cwd="/d")
    def once():
        r = sb.run(command)
        assert r.exit_code == 0, r
        return r.stdout
else:
    from sandbox.commands.testing import run_command
    from sandbox.fs.local import LocalDir
    from sandbox.fs.vfs import VirtualFS
    fs = VirtualFS({{"/d": LocalDir({data!r})}})
    def once():
        code, out, err = run_command(command, fs=fs, cwd="/d")
        assert code == 0, err
        return out
t0 = time.perf_counter()
out = once()  # first run: imports the command modules, fills the parse cache
first = time.perf_counter() - t0
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
times = []
for _ in range(runs):
    t = time.perf_counter()
    once()
    times.append(time.perf_counter() - t)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tracemalloc.start()
once()
traced = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
print(json.dumps({{"first_ms": first * 1e3, "median_ms": statistics.median(times) * 1e3, "rss_growth_kb": peak - base,
                  "traced_kb": traced / 1024, "out_bytes": len(out)}}))
"""


def ensure_big_file() -> None:
    """Generate the 1 GB input when it is missing."""
    if BIG.exists() and BIG.stat().st_size >= 1_000_000_000:
        return
    DATA.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, str(ROOT / "bench" / "gen_conversations.py"), str(BIG), "--mb", "1000"], check=True)


def ours(kind: str, command: object, runs: int) -> dict:
    """Measure one case in a fresh interpreter."""
    code = CHILD.format(root=str(ROOT), data=str(DATA), kind=kind, command=command, runs=runs)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def reference(script: str, runs: int) -> tuple[float, bytes]:
    """Median wall time (ms) of ``bash -c script`` with GNU tools, and its output."""
    env = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"}
    out = subprocess.run(["bash", "-c", script], cwd=DATA, capture_output=True, env=env).stdout
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(["bash", "-c", script], cwd=DATA, capture_output=True, env=env)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3, out


def main() -> None:
    """Run every case and write the markdown table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "files.md"))
    args = ap.parse_args()
    ensure_big_file()
    size_mb = BIG.stat().st_size / 1e6
    rows = []
    for label, kind, command, script in CASES:
        mine = ours(kind, command, args.runs)
        ref_ms, ref_out = reference(script, args.runs)
        ok = mine["out_bytes"] == len(ref_out)
        rows.append(
            f"| {label.replace('|', chr(92) + '|')} | {mine['median_ms']:.2f} | {mine['first_ms']:.1f} | {ref_ms:.2f} | {mine['median_ms'] / ref_ms:.2f}x "
            f"| {mine['rss_growth_kb'] / 1024:.1f} | {mine['traced_kb'] / 1024:.2f} | {'yes' if ok else 'NO'} |"
        )
        print(rows[-1], flush=True)
    text = "\n".join([
        "## Files: streaming on a 1 GB file",
        "",
        f"`python3 bench/bench_files.py --runs {args.runs}` on `bench/data/conversations_1g.jsonl` "
        f"({size_mb:.0f} MB, from `bench/gen_conversations.py --mb 1000`). Median wall time over "
        f"{args.runs} warm runs, each case in a fresh process; reference: `bash -c` with GNU "
        "coreutils 9.1 on the same file in the same run (its time includes starting bash). "
        "The first-run column is the run that imports the command modules (and, for Sandbox.run, "
        "parses the script). Peak RSS growth is `ru_maxrss` after the runs minus after one warm-up run; traced peak is "
        "tracemalloc's peak of Python allocations during one run. Targets: under 50 ms, under 50 MB.",
        "",
        "| case | ours median (ms) | ours first run (ms) | GNU via bash -c (ms) | ours / GNU | peak RSS growth (MB) | traced peak (MB) | same output size |",
        "|---|---:|---:|---:|---:|---:|---:|:---:|",
        *rows,
        "",
    ])
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
