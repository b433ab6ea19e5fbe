"""Many processes on one scope of a ``PostgresStore`` at once: nothing lost, nothing torn.

16 processes x 500 appends, and 200 ``str_replace``-style edits spread over them, on one
scope, all at once; once through the store directly and once through ``Memory``'s tools
(``record``, the ``memory`` tool's view + ``str_replace``, the bash tool's ``>>``). Checks:
every appended line present exactly once and whole (CRC), each process's lines in its own
order, every edit applied (the final notes.md equals a serial replay of the same edits and
appends), no stray bytes.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
WORKER = os.path.join(HERE, "pg_worker.py")
PROCS = 16
APPENDS = 500
EDITS = 200
SLOTS = 20


def _load_worker_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("memtool_tests_pg_worker", WORKER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_workers(configs: list[dict], timeout: float = 240) -> list[list[dict]]:
    """Start one worker process per config at once; return each one's JSON lines."""
    env = dict(os.environ, MEMTOOL_REPO=REPO, PYTHONPATH=REPO)
    procs = [
        subprocess.Popen([sys.executable, WORKER, json.dumps(c)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env, cwd=REPO)
        for c in configs
    ]
    results = []
    for p, c in zip(procs, configs):
        out, err = p.communicate(timeout=timeout)
        cmd = f"python {WORKER} '{json.dumps(c)}'"
        assert p.returncode == 0, f"worker failed ({cmd}):\n{err.decode()[-3000:]}"
        assert b"Traceback" not in err, f"worker printed a traceback ({cmd}):\n{err.decode()[-3000:]}"
        results.append([json.loads(line) for line in out.decode().splitlines() if line.strip()])
    return results


def edit_plan(seed: int) -> tuple[list[list[int]], Counter]:
    """Which slot each of the 200 edits increments, dealt to the 16 workers."""
    rng = random.Random(seed)
    edits = [rng.randrange(SLOTS) for _ in range(EDITS)]
    per_worker = [edits[w::PROCS] for w in range(PROCS)]
    return per_worker, Counter(edits)


def initial_notes() -> str:
    return "# Notes\n" + "".join(f"slot-{s}: 0\n" for s in range(SLOTS))


def check_outcome(conversations: bytes, notes: str, counts: Counter, worker_mod, *,
                  turn_wrapped: bool) -> None:
    lines = conversations.split(b"\n")
    assert lines[-1] == b"", "the history does not end with a newline"
    seen: dict[int, list[int]] = {w: [] for w in range(PROCS)}
    for raw in lines[:-1]:
        if turn_wrapped:
            turn = json.loads(raw)
            raw = turn["content"].encode()
        obj = worker_mod.check_line(raw)
        assert obj is not None, f"torn or corrupt line: {raw[:200]!r}"
        seen[obj["w"]].append(obj["i"])
    for w in range(PROCS):
        assert seen[w] == list(range(APPENDS)), f"worker {w}: lines lost, doubled or reordered"

    # Serial replay: the same edits and appends applied one after another.
    header_len = 1 + SLOTS
    got_lines = notes.split("\n")
    replay = "# Notes\n" + "".join(f"slot-{s}: {counts[s]}\n" for s in range(SLOTS))
    assert "\n".join(got_lines[:header_len]) + "\n" == replay, "an edit was lost"
    appended = got_lines[header_len:-1]
    assert got_lines[-1] == ""
    want_notes = sorted(f"note w{w} i{i}" for w in range(PROCS) for i in range(0, APPENDS, 10))
    assert sorted(appended) == want_notes, "an append to notes.md was lost or torn"
    for w in range(PROCS):
        mine = [line for line in appended if line.startswith(f"note w{w} ")]
        assert mine == [f"note w{w} i{i}" for i in range(0, APPENDS, 10)]


def test_16_processes_append_and_edit_one_scope_through_the_store(pgserver_module, pg_dsn):
    schema = pgserver_module.fresh_schema()
    store = pgserver_module.fresh_store(schema=schema, namespace="shared")
    store.write_bytes("notes.md", initial_notes().encode())
    plan, counts = edit_plan(1)
    configs = [
        {"task": "mixed", "dsn": pg_dsn, "schema": schema, "namespace": "shared", "seed": 100 + w,
         "worker": w, "appends": APPENDS, "edits": plan[w], "max_len": 300}
        for w in range(PROCS)
    ]
    results = run_workers(configs)
    for r in results:
        assert r[-1] == {"done": True} and not any("error" in x for x in r), r[-3:]
    check_outcome(store.read_bytes("conversations.jsonl"), store.read_bytes("notes.md").decode(),
                  counts, _load_worker_module(), turn_wrapped=False)


def test_16_processes_through_memory_tools(pgserver_module, pg_dsn):
    pytest.importorskip("memtool.memory")
    from memtool.memory import Memory

    schema = pgserver_module.fresh_schema()
    store = pgserver_module.fresh_store(schema=schema, namespace="tools")
    mem = Memory(store=store, scope="user:42", secrets=False)
    mem.store.write_bytes("notes.md", initial_notes().encode())
    mem.store.write_bytes("conversations.jsonl", b"")
    plan, counts = edit_plan(2)
    configs = [
        {"task": "mixed", "via": "memory", "scope": "user:42", "dsn": pg_dsn, "schema": schema,
         "namespace": "tools", "seed": 200 + w, "worker": w, "appends": APPENDS,
         "edits": plan[w], "max_len": 200}
        for w in range(PROCS)
    ]
    results = run_workers(configs)
    for r in results:
        assert r[-1] == {"done": True} and not any("error" in x for x in r), \
            [x for x in r if "error" in x][:3]
    check_outcome(mem.store.read_bytes("conversations.jsonl"),
                  mem.store.read_bytes("notes.md").decode(), counts, _load_worker_module(),
                  turn_wrapped=True)
    assert len(mem.recent(40)) == 40
