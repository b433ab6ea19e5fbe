"""``Memory.evaluate`` / ``memtool eval``: figures on a tiny fixture computed by hand, the
fixture format's refusals, and the shipped example fixture's shape."""

from __future__ import annotations

import json
import re

import pytest

from memtool import Memory
from memtool.eval import FixtureError, build_memory, evaluate, example_fixture, load_fixture
from memtool.recall import estimate_tokens, recall_block
from memtool.stores.memory import MemoryStore

TINY = {
    "name": "tiny",
    "turns": [
        {"role": "user", "content": "The deploy key lives in the vault.", "timestamp": "2026-01-01T10:00:00Z"},
        {"role": "user", "content": "The deploy script is deploy.sh in the tools folder.",
         "timestamp": "2026-01-02T10:00:00Z"},
    ],
    "notes": [{"date": "2026-01-03", "text": "Lunch is at noon."}],
    "questions": [
        # rank 1: only the note mentions lunch
        {"question": "Where is the lunch time?", "answer": "noon", "keywords": "lunch"},
        # rank 1: the first turn has both terms, the second only one
        {"question": "Which deploy key?", "answer": "vault"},
        # not found: "tools folder" is only in the second turn, the answer in the first
        {"question": "tools folder", "answer": "vault"},
        # rank 2: the same ranking as question 2, the answer in the second turn
        {"question": "deploy key", "answer": "deploy.sh"},
    ],
}


def test_tiny_fixture_by_hand():
    r = evaluate(TINY, embedder=None)
    s = r.asked
    assert s.ranks == [1, 1, 0, 2]
    assert (s.n, s.hit1, s.hit3, s.hit5) == (4, 0.5, 0.75, 0.75)
    assert s.mrr == pytest.approx((1 + 1 + 0 + 0.5) / 4)
    # the blocks hold every matching unit here: all answers but question 3's
    assert s.block_hit == 0.75
    mem = build_memory(load_fixture(TINY))
    tokens = [estimate_tokens(recall_block(mem.store, q["question"], 800)) for q in TINY["questions"]]
    assert s.block_tokens_mean == pytest.approx(sum(tokens) / 4) and s.block_tokens_max == max(tokens)
    assert r.keywords is not None and r.keywords.ranks == [1] and r.keywords.mrr == 1.0
    table = r.table()
    assert "hit@1" in table and re.search(r"as asked\s+4\s+0\.500\s+0\.750\s+0\.750\s+0\.625", table)


def test_fixture_is_loaded_as_given():
    mem = build_memory(load_fixture(TINY))
    assert mem.store.read_bytes("notes.md").decode().endswith("- 2026-01-03: Lunch is at noon.\n")
    assert [t["timestamp"] for t in mem.recent(5)] == ["2026-01-01T10:00:00Z", "2026-01-02T10:00:00Z"]
    with_files = dict(TINY, files={"topics/a/b.md": "Zebra facts"}, notes=[{"text": "undated"}])
    mem = build_memory(load_fixture(with_files))
    assert mem.store.read_bytes("topics/a/b.md") == b"Zebra facts"
    assert "- undated\n" in mem.store.read_bytes("notes.md").decode()


def test_memory_evaluate_leaves_the_memory_alone(snapshot):
    mem = Memory(MemoryStore(), versions=False, recall_budget=50, embedder=None)
    before = snapshot(mem.store)
    r = mem.evaluate(json.dumps(TINY))
    assert r.recall_budget == 50 and r.asked.ranks == [1, 1, 0, 2]
    assert r.asked.block_tokens_max <= 50
    assert snapshot(mem.store) == before


@pytest.mark.parametrize("bad, message", [
    ([], "must be a JSON object"),
    ({"questions": []}, "non-empty `questions`"),
    ({"questions": [{"question": "q"}]}, "questions[0] needs"),
    ({"questions": [{"question": "q", "answer": " "}]}, "questions[0] needs"),
    ({"questions": [{"question": "q", "answer": "a"}], "turns": [{"content": "x"}]}, "turns[0] needs"),
    ({"questions": [{"question": "q", "answer": "a"}], "notes": "x"}, "`notes` must be a list"),
    ({"questions": [{"question": "q", "answer": "a"}], "files": []}, "`files` must map"),
    ("{not json", "not valid JSON"),
])
def test_bad_fixtures(bad, message):
    with pytest.raises(FixtureError, match=re.escape(message)):
        load_fixture(bad if isinstance(bad, str) else json.dumps(bad) if isinstance(bad, list) else bad)


def test_missing_fixture_file(tmp_path):
    with pytest.raises(FixtureError, match="cannot read the fixture"):
        load_fixture(str(tmp_path / "nope.json"))


def test_example_fixture_shape():
    data = load_fixture(example_fixture())
    facts = len(data["turns"]) + len(data["notes"])
    questions = data["questions"]
    assert facts >= 40 and len(questions) >= 40
    paraphrased = [q for q in questions if q.get("paraphrased")]
    assert len(paraphrased) * 3 >= len(questions)
    for q in paraphrased:  # no word of the answer in the question
        assert not set(re.findall(r"\w+", q["answer"].casefold())) & set(re.findall(r"\w+", q["question"].casefold()))
    for q in questions:  # every answer is somewhere in the memory
        assert any(q["answer"].casefold() in str(t["content"]).casefold() for t in data["turns"]) or any(
            q["answer"].casefold() in n["text"].casefold() for n in data["notes"]), q


def test_cli_eval(tmp_path, capsys):
    from memtool.cli import main

    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(TINY))
    assert main(["eval", str(path)]) == 0
    out = capsys.readouterr().out
    default, bm25 = out.split("BM25 alone:")
    assert "default ranking" in default
    assert re.search(r"as asked\s+4\s+0\.500\s+0\.750\s+0\.750\s+0\.625\s+0\.750", bm25)
    assert re.search(r"keywords\s+1\s+1\.000", bm25)
    assert main(["eval", str(path), "--json", "--budget", "40"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["recall_budget"] == 40 and data["bm25"]["asked"]["ranks"] == [1, 1, 0, 2]
    # the default ranking finds at least what BM25 finds
    assert data["asked"]["ranks"][:2] == [1, 1] and data["asked"]["hit5"] >= data["bm25"]["asked"]["hit5"]
    assert data["asked"]["block_tokens_max"] <= 40
    assert main(["eval", str(tmp_path / "missing.json")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("memtool eval: cannot read the fixture ") and "Traceback" not in err
    path.write_text("[1]")
    assert main(["eval", str(path)]) == 1
    assert "must be a JSON object" in capsys.readouterr().err
    assert main(["eval", "example"]) == 0
    assert "45 questions" in capsys.readouterr().out
