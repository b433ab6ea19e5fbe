"""Benchmark: our sed against GNU sed on the 100 MB conversations.jsonl.

    python bench/bench_sed.py [--runs 3] [--data bench/data/conversations.jsonl]
                              [--out bench/results/sed.md]

Each row runs GNU sed and ours ``--runs`` times in the same session (alternating) and reports
the median wall time of each, their ratio and the peak resident memory of each process. Ours
runs in a fresh Python process per run (the file mounted read-only through ``LocalDir``,
output counted and discarded, like GNU's ``> /dev/null``); its time is the command's run
time inside that process (interpreter start-up excluded, as the sandbox is a long-lived
library), its memory the whole process's peak RSS (interpreter included).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ENV = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}

ROWS = [
    ("sed -n '/pricing/p'", ["-n", "/pricing/p"]),
    ("sed 's/pricing/X/g'", ["s/pricing/X/g"]),
    ("sed -E 's/(budget|deadline)/[\\1]/g'", ["-E", "s/(budget|deadline)/[\\1]/g"]),
    # Not in the list: a two-command script takes the general line-by-line path.
    ("sed -n '$=' (general path)", ["-n", "$="]),
]

_CHILD = r"""
import json, sys, time, resource
sys.path.insert(0, sys.argv[1])
from sandbox.commands.base import CommandContext
from sandbox.commands import get
from sandbox.fs.local import LocalDir
from sandbox.fs.vfs import VirtualFS
from sandbox.limits import Budget, Limits

class Sink:
    n = 0
    def write(self, data):
        self.n += len(data)
    def flush(self):
        pass

data_dir, name, args = sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
fs = VirtualFS({"/data": LocalDir(data_dir, read_only=True)})
out, err = Sink(), Sink()
ctx = CommandContext(argv=["sed", *args, "/data/" + name], stdin=open("/dev/null", "rb"),
                     stdout=out, stderr=err, fs=fs, cwd="/data",
                     budget=Budget(Limits(seconds=3600, output_bytes=1 << 40)))
run = get("sed").run
t = time.perf_counter()
code = run(ctx)
elapsed = time.perf_counter() - t
print(json.dumps({"code": code, "seconds": elapsed, "bytes": out.n,
                  "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def run_gnu(sed: str, args: list[str], path: str) -> tuple[float, int, int]:
    """(seconds, peak RSS in KB, output bytes) of one GNU sed run."""
    t = time.perf_counter()
    proc = subprocess.Popen([sed, *args, path], stdout=subprocess.PIPE, env=ENV)
    nbytes = 0
    assert proc.stdout is not None
    while True:
        chunk = proc.stdout.read(1 << 20)
        if not chunk:
            break
        nbytes += len(chunk)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    return elapsed, usage.ru_maxrss, nbytes


def run_ours(args: list[str], path: str) -> tuple[float, int, int]:
    """(seconds, peak RSS in KB, output bytes) of one run of our sed in a fresh process."""
    out = subprocess.run([sys.executable, "-c", _CHILD, ROOT, os.path.dirname(path),
                          os.path.basename(path), json.dumps(args)],
                         capture_output=True, env={**ENV, "PYTHONHASHSEED": "0"}, check=True)
    result = json.loads(out.stdout)
    return result["seconds"], result["maxrss_kb"], result["bytes"]


def main() -> int:
    """Run the benchmark and write the markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--data", default=os.path.join(HERE, "data", "conversations.jsonl"))
    parser.add_argument("--out", default=os.path.join(HERE, "results", "sed.md"))
    opts = parser.parse_args()
    sed = shutil.which("sed")
    if sed is None:
        print("GNU sed is not installed", file=sys.stderr)
        return 1
    if not os.path.exists(opts.data):
        subprocess.run([sys.executable, os.path.join(HERE, "gen_conversations.py"), opts.data],
                       check=True)
    size_mb = os.path.getsize(opts.data) / 1e6
    lines = []
    for label, args in ROWS:
        gnu_times, our_times, gnu_mem, our_mem = [], [], [], []
        for _ in range(opts.runs):
            t, mem, gnu_bytes = run_gnu(sed, args, opts.data)
            gnu_times.append(t)
            gnu_mem.append(mem)
            t, mem, our_bytes = run_ours(args, opts.data)
            our_times.append(t)
            our_mem.append(mem)
            if gnu_bytes != our_bytes:
                print(f"warning: {label}: output sizes differ ({gnu_bytes} vs {our_bytes})",
                      file=sys.stderr)
        g, o = statistics.median(gnu_times), statistics.median(our_times)
        ratio = o / g if g else float("inf")
        peak = max(our_mem) / 1024
        verdict = "ok" if ratio <= 5 and peak < 64 else "MISSES TARGET"
        lines.append(f"| `{label}` | {g:.2f} | {o:.2f} | {ratio:.1f}x | "
                     f"{max(gnu_mem) / 1024:.1f} | {peak:.1f} | {verdict} |")
        print(lines[-1], flush=True)
    command = "python bench/bench_sed.py --runs %d" % opts.runs
    table = "\n".join([
        "# sed benchmark",
        "",
        f"Input: `{os.path.relpath(opts.data, ROOT)}` ({size_mb:.0f} MB). Command: `{command}`.",
        f"Median of {opts.runs} runs each, GNU sed and ours alternating in the same session,"
        f" on {os.cpu_count()} CPUs (load average at the end: "
        f"{', '.join('%.1f' % x for x in os.getloadavg())}). Targets: ratio <= 5x,"
        " our peak RSS < 64 MB.",
        "",
        "| command | GNU sed s | ours s | ratio | GNU peak MB | our peak MB | target |",
        "|---|---|---|---|---|---|---|",
        *lines,
        "",
        "Our time is the command's run time in a fresh Python process (start-up excluded);"
        " our memory is that whole process's peak RSS, interpreter included.",
        "",
        "The first three rows take sed's block-scan fast path (`sandbox/commands/sed/"
        "fastpath.py`: one `s`, one `p`/`d` under a regex address, or `/re/{...}` whose body"
        " neither reads lines, uses the hold space nor tests `$`); the last row (a top-level"
        " `$` address) shows the general line-by-line executor, which misses the 5x target."
        " What would close it: a block scan keyed on line ends for scripts whose only"
        " top-level addresses are `$` or line numbers (count newlines with `bytes.count`,"
        " run the script only on the addressed lines), and compiling the script into"
        " per-command closures instead of the interpreted dispatch.",
        "",
    ])
    os.makedirs(os.path.dirname(opts.out), exist_ok=True)
    with open(opts.out, "w") as f:
        f.write(table)
    print(f"wrote {opts.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
