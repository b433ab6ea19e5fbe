"""Checksums of a 100 MB file: ``sha256sum``, ``md5sum``, ``b2sum``, ``cksum`` and ``base64``,
ours (``Sandbox.run`` over a ``LocalDir`` mount) against GNU coreutils in the same run.

    python3 bench/bench_bytes_cmds.py [--mb 100] [--runs 5] [--out bench/results/bytes_cmds.md]

The file is random bytes in ``bench/data`` (git-ignored), made once. Each figure is the median
wall time of N runs; the table gives the ratio ours / GNU (target from the issue: sha256sum and
md5sum within 1.5x). ``base64`` output is sent to /dev/null on both sides.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT / "bench" / "data"

from sandbox import Limits, Policy, Sandbox  # noqa: E402

CASES = ["sha256sum big.bin", "md5sum big.bin", "b2sum big.bin", "sha1sum big.bin", "cksum big.bin",
         "base64 big.bin > /dev/null"]


def _data(mb: int) -> Path:
    path = DATA / f"random_{mb}mb.bin"
    if not path.exists() or path.stat().st_size != mb << 20:
        DATA.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as f:
            for _ in range(mb):
                f.write(os.urandom(1 << 20))
    return path


def _median(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    """Run the cases and print (and optionally write) the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, default=100)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    path = _data(args.mb)
    workdir = path.parent
    cases = [c.replace("big.bin", path.name) for c in CASES]
    sb = Sandbox(mounts={"/d": workdir}, cwd="/d",
                     policy=Policy(allow={"sha256sum", "md5sum", "b2sum", "sha1sum", "cksum", "base64"}),
                 limits=Limits(seconds=120, written_bytes=1 << 30))
    rows = []
    for case in cases:
        ours_result = sb.run(case)
        gnu_result = subprocess.run(["bash", "-c", case], cwd=workdir, capture_output=True,
                                    env={"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"})
        same = ours_result.stdout == gnu_result.stdout and ours_result.exit_code == gnu_result.returncode
        gnu = _median(lambda: subprocess.run(["bash", "-c", case], cwd=workdir, capture_output=True), args.runs)
        ours = _median(lambda: sb.run(case), args.runs)
        rows.append((case, gnu, ours, same))
    lines = [f"| command ({args.mb} MB) | GNU (s) | ours (s) | ours / GNU | same output |",
             "|---|---:|---:|---:|:---:|"]
    for case, gnu, ours, same in rows:
        lines.append(f"| `{case.replace(path.name, 'FILE')}` | {gnu:.3f} | {ours:.3f} | {ours / gnu:.2f}x | {'yes' if same else 'NO'} |")
    table = "\n".join(lines) + "\n"
    print(table)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(table)


if __name__ == "__main__":
    main()
