"""nl, tac, rev, paste and fold on a 100 MB text file, against GNU coreutils / util-linux.

    python3 bench/bench_text_cmds.py [--mb 100] [--runs 3] [--out bench/results/text_cmds.md]

The input (``bench/data/text_<MB>m.txt``, generated when missing; ``bench/data`` is git-ignored)
holds lines of 0-120 bytes of words, with some UTF-8 and tabs. Each command runs through
``run_command`` over a ``LocalDir`` in this process (its output hashed as it streams, never kept),
and the reference tool on the same file in the same run with its output read from a pipe and
hashed the same way; the runs of the two alternate. The table shows the best of ``--runs`` wall
times and their ratio, the best CPU times (user + system: the reference's from the child's
rusage, ours from ``time.process_time`` less the time spent hashing our output, which the
reference side spends in the parent) and their ratio (the steadier figure on a loaded, shared
machine), and whether the two outputs are identical (SHA-256). Target from the issue: at most
3x GNU.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT / "bench" / "data"

CASES = [
    ["nl"],
    ["nl", "-ba"],
    ["tac"],
    ["rev"],
    ["paste", "-d,", "FILE", "FILE"],
    ["paste", "-s", "-d,"],
    ["fold"],
    ["fold", "-w", "40", "-s"],
]

WORDS = ["memory", "note", "user", "prefers", "tea", "budget", "pricing", "2026-11-29", "ok", "a", "the",
         "caf\u00e9", "na\u00efve", "\u4e2d\u6587", "\t", "x" * 30, "project", "deadline", "-", "42"]


def ensure_input(mb: int) -> Path:
    """Generate the input file when missing."""
    path = DATA / f"text_{mb}m.txt"
    if path.exists() and path.stat().st_size >= mb * 1_000_000:
        return path
    DATA.mkdir(parents=True, exist_ok=True)
    rng = random.Random(1)
    target = mb * 1_000_000
    written = 0
    with open(path, "w", encoding="utf-8") as f:
        while written < target:
            lines = []
            for _ in range(10000):
                n = rng.randint(0, 18)
                lines.append(" ".join(rng.choice(WORDS) for _ in range(n))[:120])
            block = "\n".join(lines) + "\n"
            f.write(block)
            written += len(block.encode())
    return path


class HashSink:
    """A stdout that hashes what it is given."""

    def __init__(self) -> None:
        self.h = hashlib.sha256()
        self.n = 0
        #: CPU seconds spent hashing (not the command's own work).
        self.cpu = 0.0

    def write(self, data: bytes) -> int:
        t = time.process_time()
        self.h.update(data)
        self.n += len(data)
        self.cpu += time.process_time() - t
        return len(data)

    def flush(self) -> None:
        pass


def ours(argv: list[str], name: str) -> tuple[float, str, float]:
    """Wall time, output hash and CPU time of our command over the file."""
    import io

    from sandbox import commands
    from sandbox.commands.base import CommandContext
    from sandbox.fs.local import LocalDir
    from sandbox.fs.vfs import VirtualFS
    from sandbox.limits import Budget, Limits

    fs = VirtualFS({"/d": LocalDir(str(DATA))})
    args = [name if a == "FILE" else a for a in argv[1:]]
    if "FILE" not in argv:
        args.append(name)
    sink = HashSink()
    ctx = CommandContext(argv=[argv[0], *args], stdin=io.BytesIO(b""), stdout=sink, stderr=io.BytesIO(),
                         fs=fs, cwd="/d", budget=Budget(Limits(seconds=3600)))
    c = time.process_time()
    t = time.perf_counter()
    code = commands.get(argv[0]).run(ctx)
    elapsed = time.perf_counter() - t
    cpu = time.process_time() - c - sink.cpu
    assert code == 0, ctx.stderr.getvalue()
    return elapsed, sink.h.hexdigest(), cpu


def reference(argv: list[str], name: str) -> tuple[float, str, float]:
    """Wall time, output hash and CPU time of the real tool, its output read from a pipe."""
    args = [name if a == "FILE" else a for a in argv[1:]]
    if "FILE" not in argv:
        args.append(name)
    env = {"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"}
    h = hashlib.sha256()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.Popen([argv[0], *args], cwd=DATA, stdout=subprocess.PIPE, env=env)
    assert proc.stdout is not None
    while True:
        block = proc.stdout.read(1 << 20)
        if not block:
            break
        h.update(block)
    proc.wait()
    elapsed = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
    return elapsed, h.hexdigest(), cpu


def main() -> None:
    """Run every case and write the markdown table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, default=100)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "text_cmds.md"))
    args = ap.parse_args()
    path = ensure_input(args.mb)
    name = path.name
    rows = []
    for argv in CASES:
        mine_runs, ref_runs = [], []
        for _ in range(args.runs):  # interleaved, so both see the same load on a shared machine
            mine_runs.append(ours(argv, name))
            ref_runs.append(reference(argv, name))
        mine, ref = min(mine_runs), min(ref_runs)
        mine_cpu, ref_cpu = min(r[2] for r in mine_runs), min(r[2] for r in ref_runs)
        shown = " ".join("FILE" if a == "FILE" else a for a in argv) + ("" if "FILE" in argv else " FILE")
        rows.append(f"| `{shown}` | {mine[0]:.2f} | {ref[0]:.2f} | {mine[0] / ref[0]:.2f}x | "
                    f"{mine_cpu:.2f} | {ref_cpu:.2f} | {mine_cpu / max(ref_cpu, 1e-6):.2f}x | "
                    f"{'yes' if mine[1] == ref[1] else 'NO'} |")
        print(rows[-1], flush=True)
    size = path.stat().st_size / 1e6
    text = "\n".join([
        f"## Text commands on a {size:.0f} MB file",
        "",
        f"`python3 bench/bench_text_cmds.py --mb {args.mb} --runs {args.runs}`: best of {args.runs} interleaved runs; "
        "ours through `run_command` over a `LocalDir`, output hashed as it streams; the reference "
        "(GNU coreutils 9.1, util-linux 2.38 for rev) on the same file in the same run, output read "
        "from a pipe and hashed. CPU is user + system (the reference's from its rusage, ours less "
        "the hashing of its output). Target: at most 3x.",
        "",
        "| command | ours wall (s) | reference wall (s) | wall ratio | ours CPU (s) | "
        "reference CPU (s) | CPU ratio | identical output |",
        "|---|---:|---:|---:|---:|---:|---:|:---:|",
        *rows,
        "",
    ])
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
