"""Isolation on PostgreSQL: 50 scopes written at once, none visible through another's tools.

Five processes write ten scopes each (a thread per scope) through ``Memory``'s tools: a
recorded turn, a file created by the memory tool, ``>>`` and ``>`` through the bash tool, an
append through ``update``. Then every scope looks for every other scope's marker through
its own tools, including the bash tool's globbing, ``grep -r`` from the root and ``..``
tricks, and through the store namespaces directly: nothing of another scope is ever found.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
WORKER = os.path.join(HERE, "pg_worker.py")
SCOPES = [f"user:{i}" for i in range(50)]
MARKERS = [f"MARK{i:03d}Q" for i in range(50)]


def _run(configs):
    env = dict(os.environ, MEMTOOL_REPO=REPO, PYTHONPATH=REPO)
    procs = [subprocess.Popen([sys.executable, WORKER, json.dumps(c)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=env, cwd=REPO) for c in configs]
    for p, c in zip(procs, configs):
        out, err = p.communicate(timeout=240)
        assert p.returncode == 0 and b"Traceback" not in err, \
            f"python {WORKER} '{json.dumps(c)}' failed:\n{err.decode()[-2000:]}"
        lines = [json.loads(x) for x in out.decode().splitlines() if x.strip()]
        assert lines[-1] == {"done": True} and len(lines) == 1, lines[:5]


@pytest.fixture(scope="module")
def written_scopes(pgserver_module, pg_dsn):
    pytest.importorskip("memtool.memory")
    schema = pgserver_module.fresh_schema()
    configs = [
        {"task": "scopes", "dsn": pg_dsn, "schema": schema, "namespace": "fleet", "seed": k,
         "worker": k, "scopes": SCOPES[k::5], "markers": MARKERS[k::5]}
        for k in range(5)
    ]
    _run(configs)
    return pgserver_module.fresh_store(schema=schema, namespace="fleet")


PROBES = [
    "grep -r MARK .",
    "grep -r MARK /",
    "grep -rl Q /.memory",
    "cat * */* 2>&1",
    "cat /.memory/*/* /.memory/* 2>&1",
    "ls -R / 2>&1",
    "ls -a .. ../.. 2>&1",
    "cat ../*/core.md ../../scopes/*/core.md 2>&1",
    "cat /.memory/../scopes/*/core.md 2>&1",
    "grep -h MARK ../* ../../* 2>&1",
    "tail -n 5 conversations.jsonl",
]


def test_fifty_scopes_see_only_their_own_rows(written_scopes):
    from memtool.memory import Memory

    store = written_scopes
    for idx in range(0, 50, 7):  # a spread of scopes; each probe is several commands
        mem = Memory(store=store, scope=SCOPES[idx], secrets=False)
        own = MARKERS[idx]
        seen = ""
        for probe in PROBES:
            seen += mem.bash(probe) + "\n"
        seen += mem.call("memory", {"command": "view", "path": "/memories"})
        seen += mem.call("memory", {"command": "search", "query": "MARK"})
        seen += mem.call("memory", {"command": "view", "path": "/memories/../scopes"})
        seen += mem.system_prompt("x")
        seen += json.dumps(mem.recent(50))
        others = [m for m in MARKERS if m != own and m in seen]
        assert not others, f"scope {SCOPES[idx]} saw {others[:3]}"
        assert own in mem.bash("grep -r MARK .")
        assert own in mem.bash("cat topic/private.md topic/b.txt")
        assert mem.bash("grep -c MARK core.md").strip() == "1"


def test_every_scope_got_all_its_writes_whole(written_scopes):
    from memtool.memory import Memory

    for scope, marker in zip(SCOPES, MARKERS):
        mem = Memory(store=written_scopes, scope=scope, secrets=False)
        s = mem.store
        assert s.read_bytes("topic/private.md") == f"{marker}\n".encode()
        assert s.read_bytes("topic/b.txt") == f"{marker}\n".encode()
        assert f"- {marker}\n".encode() in s.read_bytes("core.md")
        assert f"{marker} note\n".encode() in s.read_bytes("notes.md")
        turns = mem.recent(10)
        assert [t["content"] for t in turns] == [f"my marker is {marker}"]


def test_namespaces_are_walls(written_scopes):
    other = written_scopes.scoped("another-tenant")
    assert other.listdir("") == []
    for path in ["scopes", "../fleet", "scopes/user%3A1/core.md"]:
        with pytest.raises(OSError):
            other.stat(path)
