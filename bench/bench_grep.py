"""Benchmark our grep against GNU grep on the generated 100 MB conversations.jsonl.

    python bench/bench_grep.py [--runs 3] [--data bench/data/conversations.jsonl]
                               [--before DIR]

Each row runs GNU grep (output to a temporary file) and ours (in a fresh Python process,
through the command registry over a read-only ``LocalDir`` mount, output to a discarding
writer) ``--runs`` times, alternating, and reports the best CPU times, their ratio, and our
peak memory (``ru_maxrss`` of the child process, which includes the Python interpreter
itself). Ours runs twice per round: with the C accelerator (``sandbox._native._linescan``, when
built) and without it (``SANDBOX_NATIVE=0``, the pure-Python fallback). ``--before DIR`` adds a
column for another source tree (e.g. ``git archive <commit> | tar -x -C DIR``), run the same
way. Writes bench/results/grep.md.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WORD = "budget"
W1, W2 = "pricing", "deadline"
WORDS20 = ("project budget pricing meeting deadline report customer invoice schedule design "
           "review release feature bug deploy server database memory notes summary").split()

ROWS: list[tuple[str, list[str]]] = [
    (f"grep -c {WORD}", ["-c", WORD]),
    (f"grep -ci {WORD}", ["-ci", WORD]),
    (f"grep -ciE '{W1}|{W2}'", ["-ciE", f"{W1}|{W2}"]),
    (f"grep -n {WORD}", ["-n", WORD]),
    (f"grep -o {WORD}", ["-o", WORD]),
    (f"grep -vc {WORD}", ["-vc", WORD]),
    (f"grep -w {WORD}", ["-w", WORD]),
    ("grep -F -f words.txt (20 words)", ["-F", "-f", "@WORDS@"]),
    (f"grep -m 1 {WORD}", ["-m", "1", WORD]),
    (f"grep -q {WORD}", ["-q", WORD]),
    # Dense rows: a word on most lines, a role on half of them.
    ("grep the", ["the"]),
    ("grep -c the", ["-c", "the"]),
    ("grep -n user", ["-n", "user"]),
    ("grep -v the", ["-v", "the"]),
    ("grep -vc the", ["-vc", "the"]),
    ("grep -o the", ["-o", "the"]),
    ("grep -w day", ["-w", "day"]),
    ("grep -i the", ["-i", "the"]),
    ("grep -ci the", ["-ci", "the"]),
    ("grep -F the", ["-F", "the"]),
    ("grep -n '^{\"role\": \"user\"'", ["-n", '^{"role": "user"']),
    ("grep -E '\"role\": \"(user|assistant)\"'", ["-E", '"role": "(user|assistant)"']),
    ("grep -c '[0-9]T[0-9]'", ["-c", "[0-9]T[0-9]"]),
]
# Rows the issue asks for (the -m 1 and -q rows show that reading stops at the first match).

TARGET_RATIO = 2.0
TARGET_MB = 64.0


class _Discard:
    """A writer that counts and drops bytes."""

    def __init__(self) -> None:
        self.count = 0

    def write(self, data: bytes) -> int:
        self.count += len(data)
        return len(data)

    def flush(self) -> None:
        pass


def child(data_dir: str, words_dir: str, args: list[str], tree: str) -> None:
    """Run our grep once in this process; print JSON with seconds and peak RSS."""
    sys.path.insert(0, tree)
    from sandbox import commands
    from sandbox.commands.base import CommandContext
    from sandbox.fs.local import LocalDir
    from sandbox.fs.vfs import VirtualFS
    from sandbox.limits import Budget, Limits

    args = [a.replace("@WORDS@", "/words/words.txt") for a in args]
    cmd = commands.get("grep")
    assert cmd is not None
    fs = VirtualFS({"/data": LocalDir(data_dir, read_only=True),
                    "/words": LocalDir(words_dir, read_only=True)})
    out = _Discard()
    errors = io.BytesIO()
    ctx = CommandContext(argv=["grep"] + args + ["conversations.jsonl"], stdin=io.BytesIO(b""),
                         stdout=out, stderr=errors, fs=fs, cwd="/data",
                         budget=Budget(Limits(seconds=600)))
    start = time.perf_counter()
    cpu0 = time.process_time()
    status = cmd.run(ctx)
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu0
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "cpu": cpu, "rss_mb": rss_mb, "status": status,
                      "bytes": out.count, "stderr": errors.getvalue().decode(errors="replace")}))


def _ours(data_dir: str, words_dir: str, args: list[str], tree: str = str(ROOT),
          native: bool = True) -> dict:
    env = dict(os.environ)
    env["SANDBOX_NATIVE"] = "1" if native else "0"
    proc = subprocess.run([sys.executable, __file__, "--child", data_dir, words_dir,
                           json.dumps(args), tree],
                          capture_output=True, check=True, env=env)
    return json.loads(proc.stdout)


def _native_built() -> bool:
    proc = subprocess.run([sys.executable, "-c", "import sandbox._native._linescan"],
                          cwd=str(ROOT), capture_output=True)
    return proc.returncode == 0


def _gnu(grep: str, data_dir: str, words_dir: str, args: list[str]) -> tuple[float, float]:
    args = [a.replace("@WORDS@", os.path.join(words_dir, "words.txt")) for a in args]
    env = {"LC_ALL": "C.UTF-8", "PATH": os.environ.get("PATH", "")}
    # Not /dev/null: GNU grep notices it and stops at the first match, as -q does.
    with tempfile.TemporaryFile() as sink:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([grep] + args + ["conversations.jsonl"], cwd=data_dir, env=env,
                       stdout=sink, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--data", default=str(HERE / "data" / "conversations.jsonl"))
    parser.add_argument("--before", help="another source tree to time (a column of its own)")
    parser.add_argument("--before-name", help="what to call it in the table (default: DIR)")
    parser.add_argument("--child", nargs=4)
    opts = parser.parse_args()
    if opts.child:
        child(opts.child[0], opts.child[1], json.loads(opts.child[2]), opts.child[3])
        return 0
    before = str(Path(opts.before).resolve()) if opts.before else None
    native = _native_built()
    grep = shutil.which("grep")
    if grep is None:
        print("GNU grep is not installed", file=sys.stderr)
        return 1
    data = Path(opts.data)
    if not data.exists():
        data.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, str(HERE / "gen_conversations.py"), str(data)],
                       check=True)
    data_dir = str(data.resolve().parent)
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "words.txt").write_text("\n".join(WORDS20) + "\n")
        rows = []
        for label, args in ROWS:
            gnu_wall, gnu_cpu, ours_cpu, fall_cpu, before_cpu, rss = [], [], [], [], [], []
            for _ in range(opts.runs):
                wall, cpu = _gnu(grep, data_dir, tmp, args)
                gnu_wall.append(wall)
                gnu_cpu.append(cpu)
                runs = [(ours_cpu, str(ROOT), True), (fall_cpu, str(ROOT), False)]
                if before:
                    runs.append((before_cpu, before, True))
                for sink, tree, use_native in runs:
                    result = _ours(data_dir, tmp, args, tree, use_native)
                    if result["status"] not in (0, 1):
                        raise SystemExit(f"our grep failed on {label}: {result}")
                    sink.append(result["cpu"])
                    if sink is ours_cpu:
                        rss.append(result["rss_mb"])
            # The machine is shared: the best of the runs is the least disturbed one.
            gc, oc, fc = min(gnu_cpu), min(ours_cpu), min(fall_cpu)
            bc = min(before_cpu) if before_cpu else None
            ratio = oc / gc if gc > 0 else float("inf")
            peak = max(rss)
            ok = ratio <= TARGET_RATIO and peak < TARGET_MB
            rows.append((label, gc, bc, oc, fc, ratio, peak, ok))
            shown_before = f"before {bc:6.3f}s " if bc is not None else ""
            print(f"{label:40s} cpu gnu {gc:6.3f}s {shown_before}ours {oc:6.3f}s "
                  f"fallback {fc:6.3f}s x{ratio:5.2f} {peak:6.1f} MB", flush=True)
    size_mb = data.stat().st_size / 1e6
    load = os.getloadavg()
    lines = [
        "## grep",
        "",
        f"Input: `{data.name}`, {size_mb:.0f} MB (bench/gen_conversations.py). Best of "
        f"{opts.runs} runs each, GNU and ours alternating in the same run; ours runs in a "
        "fresh Python process through the command registry over a read-only LocalDir mount, "
        "output discarded (start-up excluded); GNU's output goes to a temporary file. Times "
        "are CPU seconds (user + system), which a loaded shared machine disturbs less than "
        "wall time. \"ours\" uses the C accelerator `sandbox._native._linescan`"
        + ("" if native else " (NOT BUILT in this run: both columns are the fallback)")
        + ", \"fallback\" the pure-Python paths (`SANDBOX_NATIVE=0`)"
        + (f", \"before\" {opts.before_name or '`' + opts.before + '`'}" if before else "")
        + ". Peak memory is the child process's ru_maxrss (Python interpreter included). "
        f"Targets: ours / GNU <= 2x, peak < 64 MB. Load average at the end: "
        f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f}.",
        "",
        f"Command: `python bench/bench_grep.py --runs {opts.runs}"
        + (" --before DIR" if before else "") + "`",
        "",
        "| command | GNU | " + ("before | " if before else "") + "ours | fallback | "
        + ("before / GNU | " if before else "") + "ours / GNU | fallback / GNU "
        "| peak MB | meets target |",
        "|---|---:|" + ("---:|" if before else "") + "---:|---:|"
        + ("---:|" if before else "") + "---:|---:|---:|:---:|",
    ]
    for label, gc, bc, oc, fc, ratio, peak, ok in rows:
        shown = label.replace("|", "\\|")
        cells = [f"`{shown}`", f"{gc:.3f}"]
        if before:
            cells.append(f"{bc:.3f}")
        cells += [f"{oc:.3f}", f"{fc:.3f}"]
        if before:
            cells.append(f"{bc / gc:.2f}x" if gc > 0 else "")
        cells += [f"{ratio:.2f}x", f"{fc / gc:.2f}x" if gc > 0 else "", f"{peak:.1f}",
                  "yes" if ok else "**no**"]
        lines.append("| " + " | ".join(cells) + " |")
    out = HERE / "results" / "grep.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
