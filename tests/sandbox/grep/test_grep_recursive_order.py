"""grep -r over a host directory visits entries in the host's readdir order, as GNU grep's fts
walk does (not sorted): the same directory gives the same lines in the same order."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from sandbox import Policy, Sandbox

GREP = shutil.which("grep")
NAMES = ["notes.md", "core.md", "conversations.jsonl", "a.txt", "zeta.txt", "Ä.md", "b c.md",
         "sub/x.md", "sub/b.md", "sub/deep/q.txt", "old/2026-01.md", ".hidden.md"]


@pytest.mark.skipif(GREP is None, reason="GNU grep not installed")
@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("args", [["-r", "hit", "."], ["-rl", "hit"], ["-rn", "hit", "sub", "."],
                                  ["-rc", "hit"], ["-rh", "--include=*.md", "hit"]])
def test_recursive_order_is_the_hosts(tmp_path: Path, seed: int, args: list[str]) -> None:
    rng = random.Random(seed)
    for name in rng.sample(NAMES, rng.randint(3, len(NAMES))):
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(f"hit {name}\n" * rng.randint(1, 3) + "miss\n")
    ref = subprocess.run(["grep", *args], executable=GREP, cwd=tmp_path, capture_output=True,
                         env={"LC_ALL": "C.UTF-8"})
    sb = Sandbox({"/w": tmp_path}, cwd="/w", policy=Policy(allow=frozenset({"grep"})))
    r = sb.run(" ".join(f"'{a}'" for a in ["grep", *args]))
    assert (r.exit_code, r.stdout, r.stderr) == (ref.returncode, ref.stdout, ref.stderr), args
