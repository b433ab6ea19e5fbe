"""Ranked recall: search on a 100 MB history, system_prompt with and without a query, and the
example fixture's figures; writes ``bench/results/recall.md``.

    python bench/bench_recall.py [--mb 100] [--small-mb 10] [--runs 5]

The history is ``bench/gen_conversations.py``'s (generated into ``bench/data/`` if missing),
with one planted fact; it is used through a ``LocalStore`` over a temporary directory (in bench/data) holding
a copy of it, a small notes.md and a 4 KB core.md. Times are medians of warm runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from memtool import Memory  # noqa: E402
from memtool.eval import evaluate, example_fixture  # noqa: E402
from memtool.stores.local import LocalStore  # noqa: E402

RESULTS = HERE / "results" / "recall.md"
NEEDLE = ('{"role": "user", "content": "Our zeppelin charter to Friedrichshafen costs 4,200 EUR.", '
          '"timestamp": "2026-06-01T10:00:00Z"}\n')
QUERIES = [
    "zeppelin charter",
    "How much does the zeppelin charter cost?",
    "budget",
    "pricing meeting deadline",
    "what did the customer say about the Tokyo contract proposal",
]


def history(mb: float) -> Path:
    """A generated history of ``mb`` MB with the needle appended (cached in bench/data)."""
    data = HERE / "data"
    data.mkdir(exist_ok=True)
    path = data / f"recall_{mb:g}mb.jsonl"
    if not path.exists():
        subprocess.run([sys.executable, str(HERE / "gen_conversations.py"), str(path), "--mb", str(mb)],
                       check=True)
        with open(path, "a", encoding="utf-8") as f:
            f.write(NEEDLE)
    return path


def memory_over(log: Path, root: str, embedder: object = "static") -> Memory:
    """A Memory whose conversations.jsonl is ``log`` (a copy), with a 4 KB core; ``embedder``
    as ``Memory`` takes it (the default ranking; None: BM25 alone)."""
    os.makedirs(root, exist_ok=True)
    shutil.copyfile(log, os.path.join(root, "conversations.jsonl"))  # no links: the jail refuses them
    with open(os.path.join(root, "core.md"), "w") as f:
        f.write(("- The user prefers concise answers and metric units.\n" * 80)[:4000])
    with open(os.path.join(root, "notes.md"), "w") as f:
        f.write("# Notes\n\n- 2026-05-02: the zeppelin idea came from Dana.\n")
    return Memory(LocalStore(root), versions=False, gitignore=False, embedder=embedder)


def postgres_rows(log: Path, runs: int) -> list[tuple[str, float]]:
    """``system_prompt(query=)`` medians on a PostgreSQL store holding ``log``, and after one
    ``record()`` each (the tests' throw-away server, ``tests/memtool/postgres/pgserver.py``)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "pgserver", HERE.parent / "tests" / "memtool" / "postgres" / "pgserver.py")
    pgserver = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pgserver)
    pgserver.server_dsn()
    store = pgserver.fresh_store()
    store.write_bytes("conversations.jsonl", log.read_bytes())
    mem = Memory(store, versions=False)
    plain = Memory(store, versions=False, embedder=None)
    t = time.perf_counter()
    plain.system_prompt("Be brief.", query="warm up")
    rows = [("first call (the index built in the database)", (time.perf_counter() - t) * 1000)]
    t = time.perf_counter()
    mem.system_prompt("Be brief.", query="warm up")
    rows.append(("first call with the default vectors (every unit embedded, stored in the database)",
                 (time.perf_counter() - t) * 1000))
    for q in QUERIES:
        rows.append((f"`system_prompt(query={q!r})`, BM25 alone",
                     median_ms(lambda: plain.system_prompt("Be brief.", query=q), runs)))
        rows.append((f"`system_prompt(query={q!r})`, default ranking",
                     median_ms(lambda: mem.system_prompt("Be brief.", query=q), runs)))

        def after_a_turn() -> None:
            mem.record("user", "a new message about the charter and the budget")
            mem.system_prompt("Be brief.", query=q)

        rows.append((f"`record()`, then `system_prompt(query={q!r})`", median_ms(after_a_turn, runs)))
    return rows


def cpu_ms(fn, runs: int) -> float:
    """Median CPU time (user + system) of ``fn()`` in ms, after one warm-up call."""
    fn()
    times = []
    for _ in range(runs):
        t = time.process_time()
        fn()
        times.append((time.process_time() - t) * 1000)
    return statistics.median(times)


def median_ms(fn, runs: int) -> float:
    fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main(argv: list[str]) -> int:
    """Run the benchmark and write the results table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=100)
    ap.add_argument("--small-mb", type=float, default=10)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--postgres", action="store_true",
                    help="also time system_prompt(query=) on PostgreSQL (the tests' throw-away server)")
    args = ap.parse_args(argv)
    tmp = tempfile.mkdtemp(dir=HERE / "data")
    try:
        from memtool.recall import search as scan

        big_root = os.path.join(tmp, "big")
        big = memory_over(history(args.mb), big_root, embedder=None)
        small = memory_over(history(args.small_mb), os.path.join(tmp, "small"))
        small_plain = Memory(small.store, versions=False, embedder=None)
        t = time.perf_counter()
        big.search("warm up the index", k=10)
        build_s = time.perf_counter() - t
        t = time.perf_counter()
        fresh = Memory(LocalStore(big_root), versions=False, gitignore=False, embedder=None)
        fresh.search("zeppelin", k=10)
        load_s = time.perf_counter() - t
        hybrid = Memory(LocalStore(big_root), versions=False, gitignore=False)
        t = time.perf_counter()
        hybrid.search("warm up the vectors", k=10)
        vectors_s = time.perf_counter() - t
        rows = []
        for q in QUERIES:
            hits: list = []
            ms = median_ms(lambda: hits.__setitem__(slice(None), big.search(q, k=10)), args.runs)
            hms = median_ms(lambda: hybrid.search(q, k=10), args.runs)
            scan_ms = median_ms(lambda: scan(big.store, q, k=10), max(1, args.runs // 2))
            total = big.recall_index().search(q, k=1).total
            top = f"{hits[0].file}:{hits[0].line}" if hits else "-"
            rows.append((q, ms, hms, scan_ms, total, top))
        n = 20000
        big.system_prompt("Be brief.")
        t = time.perf_counter()
        for _ in range(n):
            big.system_prompt("Be brief.")
        no_query_us = (time.perf_counter() - t) / n * 1e6
        small.system_prompt("Be brief.", query="warm up")
        small_plain.system_prompt("Be brief.", query="warm up")
        prompt_rows = [(q, median_ms(lambda: small_plain.system_prompt("Be brief.", query=q), args.runs),
                        median_ms(lambda: small.system_prompt("Be brief.", query=q), args.runs),
                        cpu_ms(lambda: small_plain.system_prompt("Be brief.", query=q), args.runs),
                        cpu_ms(lambda: small.system_prompt("Be brief.", query=q), args.runs))
                       for q in QUERIES]
        turn = 0

        def after_a_turn(q: str) -> None:
            nonlocal turn
            turn += 1
            small.record("user", f"turn {turn}: a new message about the charter and the budget")
            small.system_prompt("Be brief.", query=q)

        append_rows = [(q, median_ms(lambda: after_a_turn(q), args.runs)) for q in QUERIES]
        pg_rows = postgres_rows(history(args.small_mb), args.runs) if args.postgres else []
        ev = evaluate(example_fixture())
        ev_plain = evaluate(example_fixture(), embedder=None)
        try:
            from memtool.recall.semantic import SentenceTransformerEmbedder

            ev_model = evaluate(example_fixture(), embedder=SentenceTransformerEmbedder.minilm())
        except ImportError:
            ev_model = None
    finally:
        shutil.rmtree(tmp)
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [
        "# Ranked recall",
        "",
        f"Command: `python3 bench/bench_recall.py --mb {args.mb:g} --small-mb {args.small_mb:g} "
        f"--runs {args.runs}` (Python {sys.version.split()[0]}, {stamp}; a shared 2-core machine). "
        "Median of warm runs; the history is `bench/gen_conversations.py`'s with one planted fact.",
        "",
        f"## `Memory.search(query, k=10)` on a {args.mb:g} MB history",
        "",
        f"Index: built on the first search in {build_s:.1f} s and saved in `.memtool/recall/`; "
        f"a new process's first search (loading the saved index) {load_s:.2f} s; the default "
        f"ranking's first search then embedded every unit with the shipped word vectors in "
        f"{vectors_s:.1f} s (saved beside the index). `BM25` is `Memory(embedder=None)`, "
        "`default` BM25 fused with the word vectors; the scan column is `memtool.recall.search` "
        "reading the files (no index), in the same run.",
        "",
        "| query | BM25 (ms) | default (ms) | scan (ms) | matching units | first hit (BM25) |",
        "|---|---:|---:|---:|---:|---|",
    ]
    out += [f"| `{q}` | {ms:.1f} | {hms:.1f} | {sms:.0f} | {total} | {top} |"
            for q, ms, hms, sms, total, top in rows]
    out += ["", f"## `system_prompt` (4 KB core; with a query: {args.small_mb:g} MB history, 800-token budget)",
            "", "Wall time and the process's CPU time (user + system), medians of warm runs.", "",
            "| call | BM25 wall | BM25 CPU | default wall | default CPU |", "|---|---:|---:|---:|---:|",
            f"| `system_prompt(instructions)` | {no_query_us:.1f} µs | | | |"]
    out += [f"| `system_prompt(instructions, query={q!r})` | {ms:.1f} ms | {cpu:.1f} ms | {hms:.1f} ms "
            f"| {hcpu:.1f} ms |" for q, ms, hms, cpu, hcpu in prompt_rows]
    out += [f"| `record()` of one turn, then `system_prompt(query={q!r})` | {ms:.1f} ms |"
            for q, ms in append_rows]
    if pg_rows:
        out += ["", f"## `system_prompt(query=)` on PostgreSQL ({args.small_mb:g} MB history, "
                "server on this machine)", "", "| call | time |", "|---|---:|"]
        out += [f"| {label} | {ms:.1f} ms |" for label, ms in pg_rows]
    out += ["", "## Example fixture (`memtool eval example`)", "", "Default ranking (BM25 fused with the "
            "shipped word vectors):", "", "```", ev.table(), "```", "", "BM25 alone:", "", "```",
            ev_plain.table(), "```", ""]
    if ev_model is not None:
        out += ["With all-MiniLM-L6-v2 (`--embedder minilm`, the local model):", "", "```",
                ev_model.table(), "```", ""]
    text = "\n".join(out)
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
