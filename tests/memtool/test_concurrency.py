"""Many processes at once: record() appends, str_replace/update edits, and killed writers.

These run on the local directory store (the one several processes share on one machine).
"""

from __future__ import annotations

import json
import math
import multiprocessing as mp
import os
import random
import signal
import time

from memtool import Memory
from memtool.stores.local import LocalStore

PROCS = 8
RECORDS = 1000
MAX_LEN = 100_000


def _lengths(seed: int) -> list[int]:
    # Log-uniform over 1 .. 100,000 characters: every order of magnitude is well covered
    # (including lines far above PIPE_BUF and the 64 KiB block size) at a tenth of the disk
    # traffic of a uniform draw. Always includes the extremes.
    rng = random.Random(seed)
    out = [1, MAX_LEN] + [int(math.exp(rng.uniform(0, math.log(MAX_LEN)))) for _ in range(RECORDS - 2)]
    rng.shuffle(out)
    return out


def _recorder(path: str, proc: int, barrier) -> None:
    mem = Memory(path, gitignore=False)
    barrier.wait()
    for i, n in enumerate(_lengths(proc)):
        mem.record("user", f"{proc}:{i}:" + chr(97 + (proc + i) % 26) * n, proc=proc, i=i)


def test_8_processes_x_1000_records(tmp_path):
    path = str(tmp_path / "m")
    Memory(path, gitignore=False)
    ctx = mp.get_context("fork")
    barrier = ctx.Barrier(PROCS)
    procs = [ctx.Process(target=_recorder, args=(path, p, barrier)) for p in range(PROCS)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(300)
        assert p.exitcode == 0
    seen: dict[int, list[int]] = {p: [] for p in range(PROCS)}
    expected = {p: _lengths(p) for p in range(PROCS)}
    count = 0
    with open(os.path.join(path, "conversations.jsonl"), "rb") as f:
        for raw in f:
            assert raw.endswith(b"\n")
            obj = json.loads(raw)  # every line whole: a torn or interleaved line fails here
            proc, i = obj["proc"], obj["i"]
            body = obj["content"].split(":", 2)[2]
            assert body == chr(97 + (proc + i) % 26) * expected[proc][i], (proc, i)
            seen[proc].append(i)
            count += 1
    assert count == PROCS * RECORDS
    for proc in range(PROCS):
        assert seen[proc] == list(range(RECORDS))  # each process's lines in its own order


EDITORS = 6
EDITS = 60


def _editor(path: str, proc: int, barrier) -> None:
    mem = Memory(path, gitignore=False)
    barrier.wait()
    for k in range(EDITS):
        out = mem.call("memory", {"command": "str_replace", "path": "/memories/counters.md",
                                  "old_str": f"p{proc}={k};", "new_str": f"p{proc}={k + 1};"})
        assert out.startswith("The memory file has been edited."), out
        out = mem.call("memory", {"command": "update", "path": "/memories/log.md", "mode": "append",
                                  "content": f"p{proc} edit {k}"})
        assert out.startswith("Appended to") or out.startswith("Created"), out


def test_concurrent_str_replace_and_update_lose_nothing(tmp_path):
    path = str(tmp_path / "m")
    mem = Memory(path, gitignore=False)
    mem.store.write_bytes("counters.md", "".join(f"p{p}=0;\n" for p in range(EDITORS)).encode())
    ctx = mp.get_context("fork")
    barrier = ctx.Barrier(EDITORS)
    procs = [ctx.Process(target=_editor, args=(path, p, barrier)) for p in range(EDITORS)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(300)
        assert p.exitcode == 0
    assert mem.store.read_bytes("counters.md").decode() == "".join(f"p{p}={EDITS};\n" for p in range(EDITORS))
    log = mem.store.read_bytes("log.md").decode().splitlines()
    assert sorted(log) == sorted(f"p{p} edit {k}" for p in range(EDITORS) for k in range(EDITS))


def _rewriter(path: str, a: bytes, b: bytes) -> None:
    store = LocalStore(path)
    while True:
        store.write_bytes("core.md", a)
        store.write_bytes("core.md", b)


def test_writer_killed_mid_write_leaves_old_or_new(tmp_path):
    path = str(tmp_path / "m")
    Memory(path, gitignore=False)
    a = b"A" * (4 << 20)
    b = b"B" * (3 << 20) + b"\n"
    ctx = mp.get_context("fork")
    rng = random.Random(7)
    outcomes = set()
    for _ in range(12):
        p = ctx.Process(target=_rewriter, args=(path, a, b))
        p.start()
        time.sleep(rng.uniform(0.01, 0.15))
        os.kill(p.pid, signal.SIGKILL)
        p.join()
        data = open(os.path.join(path, "core.md"), "rb").read()
        assert data in (a, b) or data.startswith(b"# Core Memory"), len(data)
        outcomes.add(data[:1])
        mem = Memory(path, gitignore=False)
        assert mem.core.text().encode() == data
        listing = mem.call("memory", {"command": "view", "path": "/memories"})
        assert ".tmp" not in listing  # leftovers of killed writers stay hidden
    assert outcomes & {b"A", b"B"}
