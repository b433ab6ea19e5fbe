"""Ranked recall answered by PostgreSQL (memtool.stores.postgres.recall): the history is not
pulled into the client, hostile units are stored and found, changes of every kind are seen,
concurrent searchers index each change once. (Exactness against a plain BM25 over random
changes: tests/memtool/test_recall_index.py::test_postgres_index_is_exact_bm25_as_files_change.)"""

from __future__ import annotations

import json
import threading

import pytest

from memtool import Memory
from memtool.stores.postgres.recall import PgRecallIndex


def turn(i: int, text: str) -> bytes:
    return (json.dumps({"role": "user" if i % 2 == 0 else "assistant", "content": text,
                        "timestamp": f"2026-03-{1 + i % 28:02d}T10:00:00Z"}) + "\n").encode()


@pytest.fixture
def mem(pg_store) -> Memory:
    return Memory(pg_store, versions=False, embedder=None)


def count_reads(store, monkeypatch) -> list[tuple[str, int]]:
    """Every (path, bytes) read through the store's open_read from now on."""
    reads: list[tuple[str, int]] = []
    real = type(store).open_read

    def spy(self, path):
        f = real(self, path)
        inner = f.read

        def read(*a):
            data = inner(*a)
            reads.append((path, len(data)))
            return data

        f.read = read
        return f

    monkeypatch.setattr(type(store), "open_read", spy)
    return reads


def test_search_reads_only_new_bytes(mem, pg_store, monkeypatch):
    log = b"".join(turn(i, f"filler message number {i} about nothing much") for i in range(3000))
    log += turn(3000, "the zeppelin charter was signed in Lisbon")
    pg_store.write_bytes("conversations.jsonl", log)
    assert isinstance(mem.recall_index(), PgRecallIndex)
    assert mem.search("zeppelin charter")[0].line == 3001
    reads = count_reads(pg_store, monkeypatch)
    assert mem.search("zeppelin charter")[0].line == 3001
    assert reads == []  # nothing changed: nothing read
    mem.record("user", "a new fact: the budget for Lisbon is 40k")
    hits = mem.search("budget lisbon")
    assert hits[0].text == "a new fact: the budget for Lisbon is 40k"
    log_reads = [n for p, n in reads if p == "conversations.jsonl"]
    assert sum(log_reads) < 400  # the appended line only, not the 190 KB log


def test_a_second_memory_shares_the_index(pg_store, pgserver_module):
    one = Memory(pg_store, versions=False, embedder=None)
    one.record("user", "my sister Dana lives in Porto")
    assert one.search("Dana Porto")[0].role == "user"
    # another process's store: its own pool, the same schema and namespace
    two = Memory(pgserver_module.fresh_store(schema=pg_store.schema, namespace=pg_store.namespace),
                 versions=False, embedder=None)
    two.record("assistant", "noted: Dana, Porto")
    hits = one.search("Dana Porto", k=5)
    assert {h.text for h in hits} >= {"my sister Dana lives in Porto", "noted: Dana, Porto"}


def test_hostile_units_are_stored_and_found(mem, pg_store):
    huge_word = "x" * 5000
    many = " ".join(f"w{i}" for i in range(120_000))  # one unit of 120,000 distinct terms
    pg_store.write_bytes("conversations.jsonl", b"".join([
        turn(0, f"nul \0 inside and a quote ' and backslash \\ zeppelin {huge_word}"),
        b'not json at all: zeppelin\n',
        b'{"role": "user", "content": "bad utf8 \xff\xfe zeppelin"}\n',
        turn(1, many + " zeppelin"),
        b"\n\n",
        b'{"role": "user", "content": "unterminated zeppelin"}',
    ]))
    pg_store.write_bytes("notes.md", "# Notes\n\n- 2026-01-01: zeppelin, l'été \\ here\n".encode())
    pg_store.write_bytes("nul.md", b"- a NUL byte \0 makes this a binary file: zeppelin\n")
    pg_store.write_bytes("blob.bin", b"\0\1\2 zeppelin")
    pg_store.mkdir(".hidden")
    pg_store.write_bytes(".hidden/secret.md", b"zeppelin hidden\n")
    hits = mem.search("zeppelin", k=20)
    files = sorted({h.file for h in hits})
    assert files == ["conversations.jsonl", "notes.md"]
    assert sorted((h.file, h.line) for h in hits) == [
        ("conversations.jsonl", 1), ("conversations.jsonl", 2), ("conversations.jsonl", 3),
        ("conversations.jsonl", 4), ("conversations.jsonl", 7), ("notes.md", 3)]
    assert mem.search("w17 w99")[0].line == 4
    assert mem.search(huge_word)[0].line == 1
    assert mem.search("unterminated")[0].line == 7


def test_every_kind_of_change_is_seen(mem, pg_store):
    pg_store.write_bytes("notes.md", b"- 2026-01-02: the piano teacher is Ms Ito\n")
    pg_store.write_bytes("conversations.jsonl", turn(0, "we talked about the piano recital"))
    assert {h.file for h in mem.search("piano", k=5)} == {"notes.md", "conversations.jsonl"}
    pg_store.write_bytes("notes.md", b"- 2026-01-03: the violin teacher is Mr Sato\n")
    assert [h.file for h in mem.search("piano", k=5)] == ["conversations.jsonl"]
    assert mem.search("violin")[0].file == "notes.md"
    pg_store.mkdir("archive")
    pg_store.rename("conversations.jsonl", "archive/conversations-2026-03.jsonl")
    assert [h.file for h in mem.search("piano", k=5)] == ["archive/conversations-2026-03.jsonl"]
    pg_store.write_bytes("archive/conversations-2026-03.jsonl", turn(0, "short"))  # truncated
    assert mem.search("piano", k=5) == []
    pg_store.remove("notes.md")
    assert mem.search("violin") == []
    s = pg_store.schema
    with pg_store._conn() as conn:
        fids = [r[0] for r in conn.execute(f"SELECT fid FROM {s}.recall_files WHERE ns = %s",
                                           [pg_store.namespace]).fetchall()]
    assert fids
    pg_store.drop_namespace()
    with pg_store._conn() as conn:
        assert conn.execute(f"SELECT count(*) FROM {s}.recall_files WHERE ns = %s",
                            [pg_store.namespace]).fetchone()[0] == 0
        for table in ("recall_units", "recall_postings", "recall_terms"):
            assert conn.execute(f"SELECT count(*) FROM {s}.{table} WHERE fid = ANY(%s)",
                                [fids]).fetchone()[0] == 0


def test_concurrent_searchers_index_each_change_once(mem, pg_store):
    errors: list[BaseException] = []
    stop = threading.Event()

    def searcher() -> None:
        m = Memory(pg_store, versions=False, embedder=None)
        try:
            while not stop.is_set():
                m.search("orchid greenhouse", k=3)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=searcher) for _ in range(3)]
    for t in threads:
        t.start()
    try:
        for i in range(60):
            mem.record("user", f"orchid {i} goes in the greenhouse")
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert not errors
    hits = mem.search("orchid greenhouse", k=100)
    assert len(hits) == 60
    s = pg_store.schema
    with pg_store._conn() as conn:
        units, lines = conn.execute(
            f"SELECT count(*), count(DISTINCT uid) FROM {s}.recall_units WHERE fid = (SELECT fid "
            f"FROM {s}.recall_files WHERE ns = %s AND path = %s)",
            [pg_store.namespace, b"conversations.jsonl"]).fetchone()
    assert units == lines == 60
