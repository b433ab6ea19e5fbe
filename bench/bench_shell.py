"""End-to-end latency of the sandboxed shell (parse + guard + run) next to ``bash -c``.

    python3 bench/bench_shell.py [--runs 1000] [--out bench/results/shell.md]
    python3 bench/bench_shell.py --compare /tmp/before [--rounds 16 --block 300]

Builds a .memory of a few KB in a temporary directory, then for each command measures the
median over N runs of: ``Sandbox.run`` (parse cache warm, the normal case), ``Sandbox.run``
with the parse and guard caches bypassed (uncached), the parser alone, and
``subprocess.run(["bash", "-c", ...])`` of the same command over the same directory (the
reference), all in the same process and run. Writes a markdown table. ``--compare TREE``
times ``Sandbox.run`` of the same commands with another checkout (``git worktree add
/tmp/before COMMIT``) and this one, alternating blocks in two worker processes, and prints
the before/after table.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sandbox import commands as registry  # noqa: E402
from sandbox import guard  # noqa: E402
from sandbox.api import Sandbox  # noqa: E402
from sandbox.interpreter.pipes import RunBudget  # noqa: E402
from sandbox.parse import parse_uncached  # noqa: E402
from sandbox.parse.bashlex_frontend import parse_with_bashlex  # noqa: E402

COMMANDS = [
    ("cat", "cat /.memory/core.md"),
    ("echo >>", 'echo "- User prefers concise answers" >> /.memory/core.md'),
    ("grep", "grep -n project /.memory/notes.md"),
    ("tail", "tail -n 40 /.memory/conversations.jsonl"),
]


def make_memory(root: Path) -> None:
    """A realistic .memory of a few KB."""
    (root / "core.md").write_text("# Core memory\n" + "".join(
        f"- fact {i}: the user likes item {i}\n" for i in range(60)))
    (root / "notes.md").write_text("".join(
        f"2026-01-{i % 28 + 1:02d} note {i} about project {i % 5}\n" for i in range(80)))
    (root / "conversations.jsonl").write_text("".join(json.dumps({
        "role": "user" if i % 2 == 0 else "assistant", "content": f"message {i}",
        "timestamp": "2026-01-01T00:00:00Z"}) + "\n" for i in range(100)))


def median_us(fn, runs: int) -> float:  # type: ignore[no-untyped-def]
    """Median wall time of ``fn()`` in microseconds (after a short warm-up)."""
    for _ in range(min(20, runs)):
        fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6


def big_file_rows() -> list[str]:
    """``cat big | head -n 1`` and ``tail -n 40 big`` on a 1 GiB (sparse) file: time and the
    peak of Python allocations during the run (tracemalloc)."""
    import tracemalloc
    out = ["## Streaming on a 1 GiB file", "",
           "The file is sparse (a first line, then zeros, then 100 lines at the end), so the "
           "disk holds almost nothing; the sandbox still sees 1 GiB. `peak` is the largest "
           "amount of memory Python allocated during the run (tracemalloc).", "",
           "| script | time (ms) | peak allocated (MiB) | bash -c (ms) |", "|---|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as d:
        big = Path(d) / "big.jsonl"
        with open(big, "wb") as f:
            f.write(b'{"first": 1}\n')
            f.truncate(1 << 30)
            f.seek(0, 2)
            f.write(b"".join(b'{"n": %d}\n' % i for i in range(100)))
        sb = Sandbox({"/": Path(d)})
        for script in ("cat big.jsonl | head -n 1", "tail -n 40 big.jsonl"):
            name = script.split()[0]
            if registry.get(name) is None or registry.get("head") is None:
                out.append(f"| `{script.replace('|', chr(92) + '|')}` | n/a (command not registered) | | |")
                continue
            tracemalloc.start()
            t = time.perf_counter()
            r = sb.run(script)
            elapsed = (time.perf_counter() - t) * 1e3
            peak = tracemalloc.get_traced_memory()[1] / (1 << 20)
            tracemalloc.stop()
            t = time.perf_counter()
            subprocess.run(["bash", "-c", script], cwd=d, capture_output=True)
            ref = (time.perf_counter() - t) * 1e3
            status = "" if r.exit_code == 0 else f" (exit {r.exit_code})"
            cell = script.replace("|", "\\|")  # a pipe inside a table cell must be escaped
            out.append(f"| `{cell}`{status} | {elapsed:.1f} | {peak:.1f} | {ref:.1f} |")
    return out


#: A worker of ``--compare``: runs blocks of one command with the sandbox of one tree.
_WORKER = """
import json, sys, time
tree, mem = sys.argv[1], sys.argv[2]
sys.path.insert(0, tree)
from pathlib import Path
from sandbox.api import Sandbox
sb = Sandbox({"/.memory": mem}, cwd="/.memory")
core = Path(mem) / "core.md"
original = core.read_bytes()
clock = time.perf_counter
for line in sys.stdin:
    script, n = line.rstrip("\\n").rsplit("\\t", 1)
    for _ in range(10):
        sb.run(script)
    times = []
    for _ in range(int(n)):
        t = clock()
        sb.run(script)
        times.append(clock() - t)
    core.write_bytes(original)
    print(json.dumps(times), flush=True)
"""


def compare(other: str, rounds: int, block: int) -> str:
    """``Sandbox.run`` of each command with the tree at ``other`` (e.g. a ``git worktree`` of
    an older commit) and with this one, in two worker processes alternating ``block`` runs
    ``rounds`` times over the same .memory: median and 10th percentile per tree (µs)."""
    trees = [str(Path(other).resolve()), str(Path(__file__).resolve().parents[1])]
    with tempfile.TemporaryDirectory() as d:
        mem = Path(d) / ".memory"
        mem.mkdir()
        make_memory(mem)
        workers = [subprocess.Popen([sys.executable, "-c", _WORKER, t, str(mem)], text=True,
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE)
                   for t in trees]
        times: dict[tuple[int, str], list[float]] = {}
        for r in range(rounds):
            for _, script in COMMANDS:
                for i in (0, 1) if r % 2 == 0 else (1, 0):
                    workers[i].stdin.write(f"{script}\t{block}\n")  # type: ignore[union-attr]
                    workers[i].stdin.flush()  # type: ignore[union-attr]
                    got = json.loads(workers[i].stdout.readline())  # type: ignore[union-attr]
                    times.setdefault((i, script), []).extend(got)
        for w in workers:
            w.stdin.close()  # type: ignore[union-attr]
            w.wait()
    lines = [f"| command | {trees[0]} (µs) | this tree (µs) |", "|---|---:|---:|"]
    for _, script in COMMANDS:
        cells = []
        for i in (0, 1):
            ts = sorted(times[(i, script)])
            cells.append(f"{statistics.median(ts) * 1e6:.1f} (p10 {ts[len(ts) // 10] * 1e6:.1f})")
        lines.append(f"| `{script}` | {cells[0]} | {cells[1]} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    """Run the benchmark and write the table (``--compare TREE``: print the before/after
    table of this tree and the one at TREE instead)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "shell.md"))
    ap.add_argument("--compare", metavar="TREE", help="another checkout to compare with")
    ap.add_argument("--rounds", type=int, default=16)
    ap.add_argument("--block", type=int, default=300)
    args = ap.parse_args()
    if args.compare:
        print(compare(args.compare, args.rounds, args.block))
        return 0
    rows = []
    with tempfile.TemporaryDirectory() as d:
        mem = Path(d) / ".memory"
        mem.mkdir()
        make_memory(mem)
        sb = Sandbox({"/.memory": mem}, cwd="/.memory")
        bash_dir = Path(d) / "bashroot"
        bash_dir.mkdir()
        os.symlink(mem, bash_dir / ".memory")
        for label, script in COMMANDS:
            name = script.split()[0]
            if name != "echo" and registry.get(name) is None:
                rows.append((label, script, None, None, None, None, None))
                continue
            # the append grows core.md: restore it between phases so sizes stay comparable
            original = (mem / "core.md").read_bytes()
            r = sb.run(script)
            if r.exit_code != 0:
                raise SystemExit(f"{script!r} failed in the sandbox: {r.text()}")
            cached = median_us(lambda: sb.run(script), args.runs)
            (mem / "core.md").write_bytes(original)

            def uncached() -> None:
                tree = parse_uncached(script)
                violations, _ = guard.check(script, tree, sb.policy, sb.cwd)
                assert not violations
                sb._execute(tree, b"", RunBudget(sb.limits))

            nocache = median_us(uncached, args.runs)
            (mem / "core.md").write_bytes(original)
            parse_only = median_us(lambda: parse_uncached(script), args.runs)
            bashlex_only = median_us(lambda: parse_with_bashlex(script), args.runs)
            bash_script = script.replace("/.memory", str(bash_dir / ".memory"))
            env = {"LC_ALL": "C.UTF-8", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
            ref = median_us(lambda: subprocess.run(["bash", "-c", bash_script], env=env,
                                                   capture_output=True), args.runs)
            (mem / "core.md").write_bytes(original)
            rows.append((label, script, cached, nocache, parse_only, bashlex_only, ref))
    lines = [
        "# Shell latency: parse + guard + run, median over "
        f"{args.runs} runs",
        "",
        f"Command: `python3 bench/bench_shell.py --runs {args.runs}` "
        f"(Python {sys.version.split()[0]}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
        "a shared 2-core machine, so absolute figures are pessimistic).",
        "",
        "`sandbox` = `Sandbox.run` as an application calls it (parsed-script and guard caches "
        "warm after the first call); `uncached` = parser + guard + interpreter with both caches "
        "bypassed; `parse` = the hand-written parser alone (the primary path); `bashlex` = the "
        "bashlex front end alone (bashlex + conversion to our AST; the fallback path); "
        "`bash -c` = `subprocess.run([\"bash\", \"-c\", ...])` of the same command, same run.",
        "",
        "| command | sandbox (µs) | uncached (µs) | parse (µs) | bashlex (µs) | bash -c (µs) "
        "| bash / sandbox | bash / uncached |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for label, script, cached, nocache, parse_only, bashlex_only, ref in rows:
        if cached is None:
            lines.append(f"| `{script}` | n/a (command not registered) | | | | | | |")
            continue
        lines.append(f"| `{script}` | {cached:.0f} | {nocache:.0f} | {parse_only:.1f} "
                     f"| {bashlex_only:.0f} | {ref:.0f} "
                     f"| {ref / cached:.1f}x | {ref / nocache:.1f}x |")
    lines += ["", *big_file_rows()]
    text = "\n".join(lines) + "\n"
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
