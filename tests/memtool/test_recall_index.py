"""The recall index (memtool.recall.index): its answers are exact BM25 with the phrase bonus,
checked against a plain implementation over every unit on generated memories that change
between searches (appends, rewrites, truncations, unterminated lines, files added and
removed); saved indexes are reused, ignored when damaged, and invisible to both tools."""

from __future__ import annotations

import json
import math
import os
import random

import pytest

from memtool import Memory
from memtool.recall.index import RecallIndex
from memtool.recall.search import B, K1, PHRASE_WEIGHT, iter_files, query_terms
from memtool.recall.text import terms
from memtool.recall.units import text_units, turn_unit
from memtool.stores.memory import MemoryStore

WORDS = ("budget zeppelin charter meeting deadline pricing tokyo contract proposal dana "
         "lisbon trip hotel invoice garden piano the and of what is").split()


def reference(store, query: str, k: int, exclude=()) -> list[tuple[str, int, float]]:
    """Plain BM25 + phrase bonus over every unit of every visible file (what the index must
    give): (file, unit text, score) of the first k, ties to the newer date then the later unit."""
    units = []
    for rel in iter_files(store, ""):
        if rel in exclude:
            continue
        data = store.read_bytes(rel)
        if b"\0" in data[:8192]:
            continue
        if rel.endswith(".jsonl"):
            for n, raw in enumerate(data.split(b"\n"), 1):
                if raw.strip():
                    u = turn_unit(rel, n, raw.decode("utf-8", "replace").rstrip("\r"))
                    units.append((u, terms(u.text)))
        else:
            for u in text_units(rel, data.decode("utf-8", "replace")):
                units.append((u, terms(u.text) + (terms(u.context) if u.context else [])))
    q = query_terms(query)
    if not units or not q:
        return []
    n = len(units)
    avgdl = max(sum(len(t) for _u, t in units) / n, 1.0)
    df = {t: sum(1 for _u, ts in units if t in ts) for t in q}
    idf = {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in q}
    scored = []
    for seq, (u, ts) in enumerate(units):
        if not any(t in ts for t in q):
            continue
        norm = K1 * (1 - B + B * len(ts) / avgdl)
        s = sum(idf[t] * ts.count(t) * (K1 + 1) / (ts.count(t) + norm) for t in q if t in ts)
        adjacent = set(zip(ts, ts[1:]))
        s += sum(PHRASE_WEIGHT * (idf[a] + idf[b]) / 2 for a, b in zip(q, q[1:]) if (a, b) in adjacent)
        scored.append((round(s, 9), u.date, seq, u))
    scored.sort(key=lambda x: (x[0], x[1], x[2]), reverse=True)
    return [(u.file, u.text, s) for s, _d, _q, u in scored[:k]]


def sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))


def turn(rng: random.Random, day: int) -> str:
    return json.dumps({"role": rng.choice(["user", "assistant"]), "content": sentence(rng),
                       "timestamp": f"2026-{1 + day % 12:02d}-{1 + day % 28:02d}T10:00:00Z"}) + "\n"


def notes(rng: random.Random) -> str:
    out = ["# Notes\n"]
    for i in range(rng.randint(0, 12)):
        if rng.random() < 0.2:
            out.append(f"\n## 2026-0{1 + i % 9}-1{i % 9} {sentence(rng)}\n")
        out.append(f"- 2026-03-{1 + i:02d}: {sentence(rng)}\n")
        if rng.random() < 0.3:
            out.append(f"  {sentence(rng)}\n")
        if rng.random() < 0.2:
            out.append("\n")
    return "".join(out)


def check(index: RecallIndex, store, rng: random.Random) -> None:
    for _ in range(3):
        q = sentence(rng)
        k = rng.choice([1, 3, 10, 24])
        got = index.search(q, k=k, exclude=("core.md",))
        want = reference(store, q, k, exclude=("core.md",))
        assert [(h.file, h.text) for h in got.hits] == [(f, text) for f, text, _s in want], q
        assert [round(h.score, 6) for h in got.hits] == [round(s, 6) for _f, _l, s in want], q


@pytest.mark.parametrize("use_numpy", [True, False])
@pytest.mark.parametrize("seed", range(6))
def test_index_is_exact_bm25_as_files_change(tmp_path, seed, use_numpy, monkeypatch):
    """Exact with the postings added up by NumPy and by plain Python."""
    if use_numpy:
        pytest.importorskip("numpy", reason="the NumPy way needs numpy (memtool[semantic])")
    monkeypatch.setattr("memtool.recall.index.USE_NUMPY", use_numpy)
    rng = random.Random(seed)
    local = seed % 2 == 0
    mem = (Memory(str(tmp_path / "m"), versions=False, gitignore=False, embedder=None) if local
           else Memory(MemoryStore(), versions=False, embedder=None))
    change_and_check(mem, rng)


@pytest.mark.parametrize("store_kind", ["postgres"])
@pytest.mark.parametrize("seed", range(4))
def test_postgres_index_is_exact_bm25_as_files_change(store, seed):
    """The same on PostgreSQL, where the index lives in the database (PgRecallIndex); odd
    seeds search a scope's files."""
    scoped = {"scope": f"user:{seed}"} if seed % 2 else {}
    mem = Memory(store, versions=False, embedder=None, **scoped)
    assert type(mem.recall_index()).__name__ == "PgRecallIndex"
    change_and_check(mem, random.Random(100 + seed))


def change_and_check(mem: Memory, rng: random.Random) -> None:
    """Forty random changes of a memory's files, each followed by searches checked against
    the plain reference."""
    store = mem.store
    index = mem.recall_index()
    day = 0
    store.write_bytes("notes.md", notes(rng).encode())
    for step in range(40):
        op = rng.random()
        if op < 0.45:  # a few turns recorded
            with_partial = rng.random() < 0.1
            data = "".join(turn(rng, day + i) for i in range(rng.randint(1, 30)))
            day += 30
            store.append_bytes("conversations.jsonl",
                               (data.rstrip("\n") if with_partial else data).encode())
        elif op < 0.55:
            store.write_bytes("notes.md", notes(rng).encode())
        elif op < 0.62 and store.exists("conversations.jsonl"):  # truncated / rewritten
            data = store.read_bytes("conversations.jsonl")
            store.write_bytes("conversations.jsonl", data[:rng.randint(0, len(data))])
        elif op < 0.68 and store.exists("conversations.jsonl"):  # an edit of the same size
            data = bytearray(store.read_bytes("conversations.jsonl"))
            if data:
                i = rng.randrange(len(data))
                if chr(data[i]).isalpha():
                    data[i] = ord("q")
                store.write_bytes("conversations.jsonl", bytes(data))
        elif op < 0.76:
            if not store.exists("archive"):
                store.mkdir("archive")
            store.write_bytes(f"archive/conversations-2026-0{rng.randint(1, 3)}.jsonl",
                              "".join(turn(rng, i) for i in range(rng.randint(0, 20))).encode())
        elif op < 0.82 and store.exists("archive/conversations-2026-01.jsonl"):
            store.remove("archive/conversations-2026-01.jsonl")
        elif op < 0.9:
            store.write_bytes(f"topic-{rng.randint(1, 3)}.md", notes(rng).encode())
        check(index, store, rng)


def test_a_new_process_reuses_the_saved_index(tmp_path):
    rng = random.Random(7)
    root = str(tmp_path / "m")
    mem = Memory(root, versions=False, gitignore=False, embedder=None)
    for i in range(300):
        mem.record("user", sentence(rng))
    first = mem.search("budget zeppelin", k=5)
    saved = os.listdir(os.path.join(root, ".memtool", "recall"))
    assert len(saved) == 1 and saved[0].endswith(".idx")
    again = Memory(root, versions=False, gitignore=False, embedder=None)
    index = again.recall_index()
    fi = index._load("conversations.jsonl")
    assert fi is not None and fi.count == 300
    assert [(h.file, h.line) for h in again.search("budget zeppelin", k=5)] == \
        [(h.file, h.line) for h in first]
    # turns recorded by another process since the save are indexed on the next search
    mem.record("user", "the zeppelin budget doubled overnight")
    top = again.search("zeppelin budget doubled", k=1)[0]
    assert (top.file, top.line) == ("conversations.jsonl", 301)


@pytest.mark.parametrize("damage", [b"", b"garbage", b"\x00" * 64, None])
def test_a_damaged_saved_index_is_rebuilt(tmp_path, damage):
    rng = random.Random(3)
    root = str(tmp_path / "m")
    mem = Memory(root, versions=False, gitignore=False, embedder=None)
    for _ in range(50):
        mem.record("user", sentence(rng))
    mem.search("budget", k=3)
    d = os.path.join(root, ".memtool", "recall")
    (name,) = os.listdir(d)
    path = os.path.join(d, name)
    if damage is None:  # a valid index of other content: its log no longer matches
        mem2 = Memory(str(tmp_path / "other"), versions=False, gitignore=False, embedder=None)
        for _ in range(80):
            mem2.record("user", sentence(rng))
        mem2.search("budget", k=3)
        (other,) = os.listdir(os.path.join(str(tmp_path / "other"), ".memtool", "recall"))
        damage = open(os.path.join(str(tmp_path / "other"), ".memtool", "recall", other), "rb").read()
    with open(path, "wb") as f:
        f.write(damage)
    fresh = Memory(root, versions=False, gitignore=False, embedder=None)
    want = reference(fresh.store, "budget zeppelin", 5, exclude=())
    got = fresh.search("budget zeppelin", k=5)
    assert [(h.file, h.text) for h in got] == [(f, text) for f, text, _s in want]


def test_the_saved_index_is_invisible_to_both_tools(tmp_path):
    root = str(tmp_path / "m")
    mem = Memory(root, versions=False, gitignore=False, embedder=None)
    mem.record("user", "the zeppelin budget")
    mem.search("zeppelin", k=1)
    assert os.listdir(os.path.join(root, ".memtool", "recall"))
    for script in ("ls -a /.memory", "grep -r zeppelin /.memory", "find /.memory"):
        out = mem.call("bash", {"command": script})
        assert "recall" not in out and ".idx" not in out, script
    out = mem.call("bash", {"command": "cat /.memory/.memtool/recall/*"})
    assert "No such file or directory" in out and ".idx" not in out
    out = mem.call("memory", {"command": "view", "path": "/memories"})
    assert ".memtool" not in str(out)


def test_a_read_only_store_keeps_the_index_in_memory(tmp_path):
    from memtool.stores.local import LocalStore

    root = str(tmp_path / "m")
    Memory(root, versions=False, gitignore=False, embedder=None).record("user", "zeppelin charter")
    ro = Memory(LocalStore(root, read_only=True), versions=False, embedder=None)
    assert ro.search("zeppelin", k=1)[0].line == 1
    assert not os.path.exists(os.path.join(root, ".memtool", "recall"))


def test_every_store_kind_indexes_appends_by_others_exactly(store, monkeypatch):
    """On each store kind (PostgreSQL included: there the index lives in the process and a
    longer log is read from its old end), turns recorded through another Memory are found,
    with the scores of a plain BM25 over the files, and the log is indexed whole only once
    (a local store: once per process, as the saved index is used)."""
    builds = []
    real = RecallIndex._build
    monkeypatch.setattr(RecallIndex, "_build",
                        lambda self, rel, *a: builds.append(rel) or real(self, rel, *a))
    rng = random.Random(11)
    mine = Memory(store, versions=False, embedder=None)
    other = Memory(store, versions=False, embedder=None)
    for step in range(6):
        for _ in range(rng.randint(1, 15)):
            other.record(rng.choice(["user", "assistant"]), sentence(rng))
        q = sentence(rng)
        got = mine.search(q, k=10)
        want = reference(mine.store, q, 10)
        assert [(h.file, h.text) for h in got] == [(f, t) for f, t, _s in want], q
        assert [round(h.score, 6) for h in got] == [round(s, 6) for _f, _t, s in want], q
    assert mine.recall_index() is not None
    assert builds.count("conversations.jsonl") <= 1
