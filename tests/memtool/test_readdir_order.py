"""memtool's bash tool lists a directory in the host's readdir order, as GNU find, du,
grep -r and ls -U do: through the versioned store and the dry-run overlay every bash call
runs on (``FileSystem.readdir_order``), not sorted. Each command runs under real GNU tools in
the memory directory and through ``Memory.shell``; stdout and status must be identical."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from memtool import Memory

NAMES = ["notes.md", "core.md", "conversations.jsonl", "a.txt", "zeta.txt", "b c.md",
         "sub/x.md", "sub/b.md", "sub/deep/q.txt", "old/2026-01.md", ".hidden.md", "Ä.md"]
COMMANDS = ["grep -r hit .", "grep -rl hit", "find . -name '*.md'", "find sub old -type f",
            "du -a . | cut -f2", "ls -U", "ls -aU1 sub"]


@pytest.mark.skipif(shutil.which("find") is None, reason="GNU findutils not installed")
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("command", COMMANDS)
def test_walks_follow_the_hosts_order(tmp_path: Path, seed: int, command: str) -> None:
    rng = random.Random(seed)
    mem = tmp_path / "mem"
    mem.mkdir()
    for name in ["core.md", "sub/x.md", *rng.sample(NAMES, rng.randint(4, len(NAMES)))]:
        p = mem / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(f"hit {name}\n" * rng.randint(1, 3) + "miss\n")
    m = Memory(mem)
    m.shell("true")  # the first call may create memtool's own hidden entry: list after it
    ref = subprocess.run(["bash", "-c", command], cwd=mem, capture_output=True,
                         env={"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"})
    out, err, status = m.shell(command)
    # GNU sees memtool's own hidden entry, which the tool never shows: leave its lines out
    want = "".join(l for l in ref.stdout.decode().splitlines(True) if ".memtool" not in l)
    if command in ("ls -aU1 sub",):  # `.` and `..` have no readdir place we can read
        out = "".join(l for l in out.splitlines(True) if l not in (".\n", "..\n"))
        want = "".join(l for l in want.splitlines(True) if l not in (".\n", "..\n"))
    assert (status, out) == (ref.returncode, want), (command, err)
