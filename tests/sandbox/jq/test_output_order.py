"""Where jq's messages fall among its results under ``2>&1``, against the jq binary on this
machine. jq writes results through stdio, fully buffered in 4096-byte blocks to a pipe or a
file, and its messages (runtime errors, ``debug``, ``stderr``, ``halt_error``, inputs that
can't be opened) unbuffered, so a message comes before every result that fills no whole block
yet; ``--unbuffered`` writes each result as it comes. The binary here is jq 1.6, whose
buffering and whose wording of these particular messages are jq 1.8's; programs are generated
(seeded) around block boundaries. A failure prints the script that reproduces it.
"""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "shell"))
import shell_difftools as dt  # noqa: E402

needs_jq = pytest.mark.skipif(shutil.which("jq") is None or dt.BASH is None,
                              reason="reference jq or bash not installed")

FILES = {"a.json": b'{"a":1}\n', "b.json": b"[1,2,3]\n", "n.jsonl": b"1\n2\n3\n"}

HAND = [
    'jq -n "1, error(\\"x\\"), 2" 2>&1; echo $?',
    'jq -n "1, (\\"x\\"|debug), 2" 2>&1',
    'jq -n "1, (\\"x\\"|stderr), 2" 2>&1',
    'jq -n "1, (\\"bye\\n\\"|halt_error)" 2>&1; echo $?',
    'jq . a.json missing b.json 2>&1; echo $?',
    'jq -c --unbuffered ".[]|(.,debug)" b.json 2>&1',
    'jq -c --unbuffered ".[] | if . == 2 then error(\\"two\\") else . end" b.json 2>&1',
    'jq ".+1" n.jsonl a.json n.jsonl 2>&1; echo $?',
    'jq -c "debug" n.jsonl 2>&1 >/dev/null | head -2',
]


def _generated(n: int) -> list[str]:
    rng = random.Random(15)
    out = []
    for _ in range(n):
        count = rng.choice([10, 500, 900, 1200, 2000, 3000, 5000])
        every = rng.randint(50, 1500)
        message = rng.choice(['error("e")', '("m"|debug)', '("s\\n"|stderr)'])
        flags = rng.choice(["-n", "-nc", "-n --unbuffered"])
        tail = rng.choice(["", ', ("bye\\n"|halt_error)'])
        program = f"(range({count}) | if . % {every} == 0 then {message} else . end){tail}"
        out.append(f"jq {flags} '{program}' 2>&1 | md5sum; echo ${{PIPESTATUS[0]}}")
    return out


@needs_jq
@pytest.mark.parametrize("script", HAND + _generated(30))
def test_messages_fall_where_jq_writes_them(script: str) -> None:
    ref = dt.run_bash(script, files=FILES)
    ours = dt.run_ours(script, files=FILES)
    assert (ours.stdout, ours.status) == (ref.stdout, ref.status), (
        f"\nscript: {script}\nbash: {ref.stdout!r}\nours: {ours.stdout!r}\n"
        f"ours stderr: {ours.stderr!r}")

