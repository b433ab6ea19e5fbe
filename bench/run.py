"""Run every benchmark in bench/ and write their tables into bench/README.md.

    python bench/run.py            # all benchmarks (needs GNU tools, jq, and PostgreSQL 15)
    python bench/run.py grep sed   # only some (matches bench_<name>.py)
    python bench/run.py --collect  # no running: rebuild README.md from bench/results/*.md

Each ``bench_<name>.py`` measures ours against the reference tool in the same run and writes
``bench/results/<name>.md``; this script stitches those files together.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ORDER = ["shell", "files", "grep", "sed", "sort", "awk", "jq", "text_cmds", "bytes_cmds", "find_diff",
         "memtool", "recall", "versions", "postgres", "peers"]

HEADER = """# Benchmarks

Every figure below was measured on this project's 2-core machine by the command named in its
section, ours next to the reference tool in the same run. Regenerate everything with
`python bench/run.py` (the 100 MB and 1 GB inputs are generated into `bench/data/`, which is not
committed). No test asserts on timing.

"""


def collect() -> str:
    """Concatenate the result files in a stable order."""
    parts = [HEADER]
    results = HERE / "results"
    files = sorted(results.glob("*.md"), key=lambda p: (ORDER.index(p.stem) if p.stem in ORDER else 99, p.stem))
    for f in files:
        parts.append(f.read_text().rstrip() + "\n\n")
    return "".join(parts)


def main(argv: list[str]) -> int:
    """Run the selected benchmarks, then rebuild bench/README.md."""
    if "--collect" not in argv:
        wanted = [a for a in argv if not a.startswith("-")]
        for script in sorted(HERE.glob("bench_*.py")):
            name = script.stem[len("bench_") :]
            if wanted and name not in wanted:
                continue
            print(f"== {name}", flush=True)
            subprocess.run([sys.executable, str(script)], check=False, cwd=HERE.parent)
    (HERE / "README.md").write_text(collect())
    print(f"wrote {HERE / 'README.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
