"""Benchmark: find over a 10,000-file tree and diff of two 10 MB files (1% of lines changed),
ours against GNU findutils / diffutils in the same run.

    python bench/bench_find_diff.py [--runs 3] [--out bench/results/find_diff.md]

Data is generated in a temp directory (seeded). GNU runs as a subprocess (output to
/dev/null); ours runs in this process through ``run_command`` over a ``LocalDir`` mount (the
sandbox is a long-lived library, so interpreter start-up is not counted), output counted and
discarded. Each row reports the median wall time of each side and its ratio, and the median
CPU time (user + system; GNU's from the child's rusage, ours from ``time.process_time``) and
its ratio: on a shared, loaded machine the CPU ratio is the steadier figure.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.fs.local import LocalDir  # noqa: E402
from sandbox.fs.vfs import VirtualFS  # noqa: E402
from sandbox.limits import Limits  # noqa: E402

ENV = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"}


def make_tree(root: str, files: int = 10_000) -> None:
    rng = random.Random(10)
    dirs = [""]
    for i in range(files // 20):
        parent = rng.choice(dirs)
        d = os.path.join(parent, f"dir{i}")
        os.makedirs(os.path.join(root, d))
        dirs.append(d)
    for i in range(files):
        d = rng.choice(dirs)
        ext = rng.choice([".md", ".txt", ".jsonl", ".log"])
        with open(os.path.join(root, d, f"note{i}{ext}"), "wb") as f:
            f.write(b"x" * rng.randint(0, 3000))


def make_diff_pair(root: str, size: int = 10 << 20) -> None:
    rng = random.Random(11)
    words = [f"w{i}" for i in range(5000)]
    lines = []
    total = 0
    while total < size:
        line = " ".join(rng.choice(words) for _ in range(rng.randint(3, 14))) + "\n"
        lines.append(line)
        total += len(line)
    other = list(lines)
    for i in rng.sample(range(len(other)), len(other) // 100):
        other[i] = "changed " + other[i]
    with open(os.path.join(root, "a.txt"), "w") as f:
        f.writelines(lines)
    with open(os.path.join(root, "b.txt"), "w") as f:
        f.writelines(other)


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def gnu(argv: list[str], cwd: str) -> tuple[float, float]:
    """(wall, CPU) seconds of the GNU tool."""
    c = _children_cpu()
    t = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t, _children_cpu() - c


def ours(argv: list[str], cwd: str) -> tuple[float, float]:
    """(wall, CPU) seconds of our command."""
    vfs = VirtualFS({"/w": LocalDir(cwd)})
    c = time.process_time()
    t = time.perf_counter()
    code, out, err = run_command(argv, fs=vfs, cwd="/w", limits=Limits(seconds=600))
    elapsed = time.perf_counter() - t
    cpu = time.process_time() - c
    assert code in (0, 1), (argv, code, err[:300])
    return elapsed, cpu


_BEFORE = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
from sandbox.commands.testing import run_command
from sandbox.fs.local import LocalDir
from sandbox.fs.vfs import VirtualFS
from sandbox.limits import Limits
vfs = VirtualFS({"/w": LocalDir(sys.argv[2])})
c = time.process_time()
t = time.perf_counter()
run_command(sys.argv[3:], fs=vfs, cwd="/w", limits=Limits(seconds=600))
print(time.perf_counter() - t, time.process_time() - c)
"""


def older(argv: list[str], cwd: str, tree: str) -> tuple[float, float]:
    """(wall, CPU) seconds of the command from an older tree, in a child process (its
    start-up not counted)."""
    out = subprocess.run([sys.executable, "-c", _BEFORE, tree, cwd, *argv], capture_output=True,
                         text=True, check=True).stdout.split()
    return float(out[0]), float(out[1])


ROWS = [
    ("tree", ["find", "."]),
    ("tree", ["find", ".", "-name", "*.md"]),
    ("tree", ["find", ".", "-type", "f", "-size", "+1k", "-printf", "%p %s\\n"]),
    ("pair", ["diff", "a.txt", "b.txt"]),
    ("pair", ["diff", "-u", "a.txt", "b.txt"]),
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out")
    ap.add_argument("--before", default=None, help="an older tree (holding sandbox/) to measure too")
    ap.add_argument("--only", default="", help="only the rows whose command line holds this")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tree, tempfile.TemporaryDirectory() as pair:
        make_tree(tree)
        make_diff_pair(pair)
        where = {"tree": tree, "pair": pair}
        extra = (" before CPU (s) | before ratio |", "---:|---:|") if args.before else ("", "")
        lines = ["| command | GNU wall (s) | ours wall (s) | wall ratio | GNU CPU (s) | "
                 "ours CPU (s) | CPU ratio |" + extra[0], "|---|---:|---:|---:|---:|---:|---:|" + extra[1]]
        for kind, argv in ROWS:
            if args.only not in " ".join(argv):
                continue
            g, o, b = [], [], []
            for _ in range(args.runs):
                g.append(gnu(argv, where[kind]))
                o.append(ours(argv, where[kind]))
                if args.before:
                    b.append(older(argv, where[kind], args.before))
            gm, om = (statistics.median(x[0] for x in g), statistics.median(x[0] for x in o))
            gc, oc = (statistics.median(x[1] for x in g), statistics.median(x[1] for x in o))
            tail = ""
            if b:
                bc = statistics.median(x[1] for x in b)
                tail = f" {bc:.3f} | {bc / max(gc, 1e-6):.1f}x |"
            lines.append(f"| `{' '.join(argv)}` | {gm:.3f} | {om:.3f} | {om / gm:.1f}x | "
                         f"{gc:.3f} | {oc:.3f} | {oc / max(gc, 1e-6):.1f}x |" + tail)
            print(lines[-1], flush=True)
    text = "\n".join(lines) + "\n"
    if args.out:
        os.makedirs(os.path.dirname(args.out), exist_ok=True)
        with open(args.out, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
