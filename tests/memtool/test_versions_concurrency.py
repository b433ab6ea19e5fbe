"""8 processes change one memory through both tools at once, on a local directory and on
PostgreSQL (its versions table): every change is a version, the ids are consecutive, each
file's versions chain (before = the previous after), and every content a version names is
stored intact."""

from __future__ import annotations

import multiprocessing as mp
import os

import pytest

from memtool import Memory
from memtool.history import LocalVersionLog
from memtool.stores.local import LocalStore
from sandbox.policy import DEFAULT_ALLOW

PROCS = 8
ROUNDS = int(os.environ.get("MEMTOOL_VERSION_ROUNDS", "12"))


def _worker(store, proc: int, barrier) -> None:
    mem = Memory(store, allow=DEFAULT_ALLOW | {"tee"})
    barrier.wait()
    for i in range(ROUNDS):
        tag = f"p{proc}-{i}"
        if i % 3 == 0:
            out = mem.call("memory", {"command": "update", "path": "/memories/shared.md", "mode": "append",
                                      "content": f"{tag}\n"})
        elif i % 3 == 1:
            out = mem.call("bash", {"command": f"echo {tag} >> shared.md"})
        else:
            out = mem.call("memory", {"command": "create", "path": f"/memories/own/{tag}.md",
                                      "file_text": f"{tag}\n"})
        assert "Error" not in out, out
        out = mem.call("bash", {"command": f"sed -i 's/^{tag}$/{tag} done/' shared.md"})
        assert "exit code" not in out and "Error" not in out, out


@pytest.mark.parametrize("store_kind", ["local", "postgres"])
def test_8_processes_both_tools_every_version_in_order(store):
    Memory(store).notice_edits()
    ctx = mp.get_context("fork")
    barrier = ctx.Barrier(PROCS)
    procs = [ctx.Process(target=_worker, args=(store, p, barrier)) for p in range(PROCS)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    if isinstance(store, LocalStore):
        log = LocalVersionLog(store.path)  # a fresh reader of what the processes wrote
    else:
        from memtool.stores.postgres.versions import PostgresVersionLog

        log = PostgresVersionLog(store)
    entries = log.entries()
    assert [v.id for v in entries] == list(range(1, len(entries) + 1))
    last: dict[str, str | None] = {}
    for v in entries:
        assert last.get(v.path) == v.before, v  # nothing lost, nothing out of order
        last[v.path] = v.after
        for h in (v.before, v.after):
            if h is not None:
                log.get_blob(h)  # stored, and its hash checks
    shared = store.read_bytes("shared.md")
    assert last["shared.md"] and log.get_blob(last["shared.md"]) == shared
    tags = {f"p{p}-{i}" for p in range(PROCS) for i in range(ROUNDS) if i % 3 != 2}
    # A bash call's writes are applied under the file's lock only if nobody changed it since
    # the call read it (else the call runs again), so a `sed -i` racing an append never drops
    # the appended line: every line is in the file, each marked done by its own sed.
    lines = shared.decode().splitlines()
    assert sorted(line.split()[0] for line in lines) == sorted(tags)
    assert all(line.endswith(" done") for line in lines), [x for x in lines if not x.endswith(" done")]
    # every change is there: one version per append and per created file
    own = [v for v in entries if v.path.startswith("own/")]
    assert len(own) == PROCS * sum(1 for i in range(ROUNDS) if i % 3 == 2)
    appends = [v for v in entries if v.path == "shared.md" and not v.detail.startswith("sed -i")]
    assert len(appends) == len(tags)  # one version per append, by either tool
    seds = [v for v in entries if v.detail.startswith("sed -i") and v.path == "shared.md"]
    assert len(seds) == len(tags)  # each sed found its line: one version each
    assert not [v for v in entries if v.actor == "person"][3:]  # only the bootstrap files
    if isinstance(store, LocalStore):
        assert open(log.log_path, "rb").read().endswith(b"\n")
