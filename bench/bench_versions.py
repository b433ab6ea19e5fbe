"""Cost of versions on a local directory; writes ``bench/results/versions.md``.

    python bench/bench_versions.py [--quick]

Measured in one run, each next to its reference:
- a 2 KB file replaced through the versioned store (the path both tools write through) vs
  the same ``write_bytes`` on the plain store: the difference is the cost of one version
  (target: <= 1 ms per change);
- a 100-byte append (``echo x >> notes.md``) the same way;
- a whole bash tool call, ``sed -i`` on a 2 KB file through ``Memory.call`` (the overlay, the
  locked apply and the person-edit scan included), versions on vs off;
- ``record()`` per second with versions on vs off (the conversation log is not versioned per
  line, so the two must match);
- the person-edit scan before each tool call, on a memory of 3 files and of 200 files.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from memtool import Memory  # noqa: E402

RESULTS = HERE / "results" / "versions.md"


def median_us(fn, n: int) -> float:
    """Median wall time of ``fn()`` in microseconds over ``n`` calls (after a warm-up)."""
    for _ in range(min(20, n)):
        fn()
    times = []
    for _ in range(n):
        t0 = time.perf_counter_ns()
        fn()
        times.append(time.perf_counter_ns() - t0)
    return statistics.median(times) / 1000


def records_per_second(mem: Memory, n: int) -> float:
    """``record()`` calls per second from one process."""
    t0 = time.perf_counter()
    for i in range(n):
        mem.record("user", f"message {i} with a little text in it")
    return n / (time.perf_counter() - t0)


def main(argv: list[str]) -> int:
    """Run the measurements and write the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = ap.parse_args(argv)
    n = 300 if args.quick else 2000
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        on = Memory(os.path.join(tmp, "on"), gitignore=False)
        off = Memory(os.path.join(tmp, "off"), versions=False, gitignore=False)
        on.notice_edits()
        counter = [0]

        def body() -> bytes:
            counter[0] += 1
            return (f"{counter[0]:08d}\n" * 228).encode()  # ~2 KB, new content every time

        # Alternate the two sides in rounds, so load from other processes hits both alike.
        rounds = 6
        plain_r, versioned_r, plain_ar, versioned_ar, rec_off_r, rec_on_r = [], [], [], [], [], []
        sed_off_r, sed_on_r = [], []
        sed = {"command": "sed -i 's/^0/1/' notes.md"}
        on.tool_store.write_bytes("log.md", b"")
        for _ in range(rounds):
            plain_r.append(median_us(lambda: off.tool_store.write_bytes("notes.md", body()), n // rounds))
            versioned_r.append(median_us(lambda: on.tool_store.write_bytes("notes.md", body()), n // rounds))
            plain_ar.append(median_us(lambda: off.tool_store.append_bytes("log.md", b"x" * 99 + b"\n"), 100))
            versioned_ar.append(median_us(lambda: on.tool_store.append_bytes("log.md", b"x" * 99 + b"\n"), 100))
            sed_off_r.append(median_us(lambda: (off.tool_store.write_bytes("notes.md", body()), off.call("bash", sed)),
                                       max(10, n // 40)))
            sed_on_r.append(median_us(lambda: (on.tool_store.write_bytes("notes.md", body()), on.call("bash", sed)),
                                      max(10, n // 40)))
            if len(rec_on_r) % 2:  # which side goes first alternates too
                rec_off_r.append(records_per_second(off, 5 * n))
                rec_on_r.append(records_per_second(on, 5 * n))
            else:
                rec_on_r.append(records_per_second(on, 5 * n))
                rec_off_r.append(records_per_second(off, 5 * n))
        plain, versioned = statistics.median(plain_r), statistics.median(versioned_r)
        rows.append(("replace a 2 KB file", plain, versioned))
        rows.append(("append 100 bytes (to a file of up to 500 lines)", statistics.median(plain_ar),
                     statistics.median(versioned_ar)))
        rows.append(("bash call `sed -i` on a 2 KB file (after a replace), `Memory.call`",
                     statistics.median(sed_off_r), statistics.median(sed_on_r)))
        rec_off, rec_on = statistics.median(rec_off_r), statistics.median(rec_on_r)
        scan3 = median_us(on.notice_edits, n)
        big = Memory(os.path.join(tmp, "big"), gitignore=False)
        for i in range(200):
            big.tool_store.write_bytes(f"f{i:03d}.md", f"file {i}\n".encode())
        big.notice_edits()
        scan200 = median_us(big.notice_edits, max(50, n // 10))
        versions = len(on.versions.entries())
    lines = [
        "## Versions (local directory)",
        "",
        f"`python bench/bench_versions.py{' --quick' if args.quick else ''}` on {platform.machine()}, "
        f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}; the two sides "
        f"alternate in 6 rounds (median of the rounds' medians); {versions} versions written.",
        "",
        "| operation | versions off | versions on | cost of the version |",
        "|---|---:|---:|---:|",
    ]
    for name, a, b in rows:
        lines.append(f"| {name} | {a:.0f} µs | {b:.0f} µs | {b - a:.0f} µs (target <= 1,000) |")
    lines += [
        "",
        "| measurement | versions off | versions on |",
        "|---|---:|---:|",
        f"| `record()` per second | {rec_off:,.0f} | {rec_on:,.0f} |",
        f"| person-edit scan before a tool call, 3 files | - | {scan3:.0f} µs |",
        f"| person-edit scan before a tool call, 200 files | - | {scan200:.0f} µs |",
        "",
    ]
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text("\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
