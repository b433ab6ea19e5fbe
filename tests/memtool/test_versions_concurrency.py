"""8 processes change one memory through both tools at once: every change is a version, the
ids are consecutive, each file's versions chain (before = the previous after), and every
content a version names is stored intact."""

from __future__ import annotations

import multiprocessing as mp
import os

from memtool import Memory
from memtool.history import LocalVersionLog
from sandbox.policy import DEFAULT_ALLOW

PROCS = 8
ROUNDS = int(os.environ.get("MEMTOOL_VERSION_ROUNDS", "12"))


def _worker(path: str, proc: int, barrier) -> None:
    mem = Memory(path, allow=DEFAULT_ALLOW | {"tee"}, gitignore=False)
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
        assert "exit code" not in out, out


def test_8_processes_both_tools_every_version_in_order(tmp_path):
    path = str(tmp_path / "mem")
    Memory(path, gitignore=False).notice_edits()
    ctx = mp.get_context("fork")
    barrier = ctx.Barrier(PROCS)
    procs = [ctx.Process(target=_worker, args=(path, p, barrier)) for p in range(PROCS)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    log = LocalVersionLog(path)  # a fresh reader of what the processes wrote
    entries = log.entries()
    assert [v.id for v in entries] == list(range(1, len(entries) + 1))
    last: dict[str, str | None] = {}
    for v in entries:
        assert last.get(v.path) == v.before, v  # nothing lost, nothing out of order
        last[v.path] = v.after
        for h in (v.before, v.after):
            if h is not None:
                log.get_blob(h)  # stored, and its hash checks
    shared = open(os.path.join(path, "shared.md"), "rb").read()
    assert last["shared.md"] and log.get_blob(last["shared.md"]) == shared
    tags = {f"p{p}-{i}" for p in range(PROCS) for i in range(ROUNDS) if i % 3 != 2}
    # `sed -i` reads, then replaces the file, without the store's lock, so a line appended in
    # between can vanish from the file; it never vanishes from the history:
    seen = set()
    for v in entries:
        if v.path == "shared.md" and v.after:
            seen |= {line.split()[0] for line in log.get_blob(v.after).decode().splitlines()}
    assert seen == tags
    # every change is there: one version per append and per created file
    own = [v for v in entries if v.path.startswith("own/")]
    assert len(own) == PROCS * sum(1 for i in range(ROUNDS) if i % 3 == 2)
    appends = [v for v in entries if v.path == "shared.md" and not v.detail.startswith("sed -i")]
    assert len(appends) == len(tags)  # one version per append, by either tool
    seds = [v for v in entries if v.detail.startswith("sed -i")]
    assert 0 < len(seds) <= PROCS * ROUNDS  # a sed that finds its line already gone changes nothing
    assert not [v for v in entries if v.actor == "person"][3:]  # only the bootstrap files
    assert open(log.log_path, "rb").read().endswith(b"\n")
