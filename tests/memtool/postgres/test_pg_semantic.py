"""Semantic recall on PostgreSQL (memtool.stores.postgres.vectors): hybrid ranking over the
units the database indexes, vectors stored in the database (embedded once per unit for all
processes, appended turns only, again for a file indexed again or another embedder), scopes,
and a failing embedder never failing the prompt."""

from __future__ import annotations

import importlib.util
import os
import sys

import pytest

pytest.importorskip("numpy", reason="semantic recall needs the memtool[semantic] extra (numpy)")

from memtool import Memory  # noqa: E402
from memtool.stores.postgres.vectors import PgSemanticIndex  # noqa: E402


def _semantic_tests():
    """``tests/memtool/test_semantic.py`` (its ConceptEmbedder and seed), loaded once."""
    name = "memtool_tests_semantic"
    if name not in sys.modules:
        path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "test_semantic.py")
        spec = importlib.util.spec_from_file_location(name, path)
        sys.modules[name] = module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return sys.modules[name]


ConceptEmbedder = _semantic_tests().ConceptEmbedder
seed = _semantic_tests().seed


def test_hybrid_on_postgres_finds_what_bm25_cannot(pg_store):
    mem = Memory(pg_store, versions=False, embedder=ConceptEmbedder())
    seed(mem)
    assert isinstance(mem._ranker(), PgSemanticIndex)
    assert Memory(pg_store, versions=False, embedder=None).search("automobile", k=3) == []
    (top,) = mem.search("automobile", k=1)
    assert "car" in top.text and top.line == 1 and top.file == "conversations.jsonl"
    assert "physician" in mem.search("which doctor did I see", k=1)[0].text
    assert "physician said to rest" in mem.system_prompt("x", query="what did the dentist say")


def test_vectors_are_shared_and_embedded_once(pg_store, pgserver_module):
    emb = ConceptEmbedder()
    mem = Memory(pg_store, versions=False, embedder=emb)
    seed(mem)
    mem.search("car", k=3)
    first = sum(emb.calls)
    assert first > 33
    mem.search("doctor", k=3)
    assert sum(emb.calls) == first + 1  # only the query
    mem.record("user", "bought a new vehicle")
    emb.calls.clear()
    mem.search("automobile", k=2)
    assert sorted(emb.calls) == [1, 1]  # the query and the one new turn
    # another process (its own store object and pool): only its query is embedded
    emb2 = ConceptEmbedder()
    other = Memory(pgserver_module.fresh_store(schema=pg_store.schema, namespace=pg_store.namespace),
                   versions=False, embedder=emb2)
    assert {"car", "vehicle"} & set(other.search("automobile", k=1)[0].text.split())
    assert emb2.calls == [1]
    # another embedder id embeds everything for itself
    emb3 = ConceptEmbedder(version=3)
    third = Memory(pg_store, versions=False, embedder=emb3)
    third.search("car", k=1)
    assert sum(emb3.calls) == first + 1  # the query and every unit, one more turn than before
    # a file indexed again gets new vectors (only its units)
    pg_store.write_bytes("notes.md", b"- 2026-02-02: the dentist moved to Porto\n")
    emb.calls.clear()
    hits = mem.search("doctor", k=3)
    assert any("dentist moved" in h.text for h in hits)
    assert sorted(emb.calls) == [1, 1]  # the query and the rewritten file's one unit


def test_scoped_semantic_search(pg_store):
    a = Memory(pg_store, versions=False, embedder=ConceptEmbedder(), scope="user:a")
    b = Memory(pg_store, versions=False, embedder=ConceptEmbedder(), scope="user:b")
    a.record("user", "I sold my old car")
    b.record("user", "my physician is great")
    hits = a.search("automobile doctor", k=10)
    assert hits[0].text == "I sold my old car" and hits[0].file == "conversations.jsonl"
    assert not any("physician" in h.text for h in hits)  # the other scope's turn


def test_a_failing_embedder_never_fails_the_prompt(pg_store):
    class Broken(ConceptEmbedder):
        def embed(self, texts):
            raise RuntimeError("model server down")

    mem = Memory(pg_store, versions=False, embedder=Broken())
    seed(mem)
    prompt = mem.system_prompt("Be brief.", query="car")
    assert prompt.startswith("Be brief.") and "recalled" not in prompt
