"""A recall score anyone can run: ``memtool eval FIXTURE`` / ``Memory.evaluate(fixture)``.

Fixture format (JSON, one object)::

    {
      "name": "short name",
      "core": "optional text of core.md",
      "turns": [{"role": "user", "content": "...", "timestamp": "2026-09-01T09:00:00Z"}, ...],
      "notes": [{"date": "2026-09-01", "text": "..."}, ...],
      "files": {"topics/atlas.md": "any other memory file, as text"},
      "questions": [{"question": "...", "answer": "expected substring",
                     "keywords": "optional short keyword query", "paraphrased": false}, ...]
    }

``turns`` become conversations.jsonl (in order, with their timestamps), ``notes`` become
``- DATE: TEXT`` entries of notes.md, ``files`` are written as given; all in a scratch
in-memory store. A question is answered at rank r when the r-th hit of ``Memory.search``
holds ``answer`` (case-insensitive). Figures: hit@1/3/5 (share answered within rank 1/3/5),
MRR (mean of 1/r over the first 10 hits, 0 if not there), and for the recalled block of
``system_prompt(query=question)``: the share of questions whose answer it holds and its size
in tokens (characters / 4, rounded up). Questions with ``keywords`` are scored a second time
with those as the query.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from memtool.conversations import encode_turn
from memtool.recall.block import DEFAULT_RECALL_BUDGET, estimate_tokens

MRR_DEPTH = 10


class FixtureError(ValueError):
    """The fixture is not in the documented format (the message says what is wrong)."""


@dataclass
class Scores:
    """Figures for one way of asking (as asked, or keyword queries)."""

    n: int = 0
    hit1: float = 0.0
    hit3: float = 0.0
    hit5: float = 0.0
    mrr: float = 0.0
    block_hit: float = 0.0
    block_tokens_mean: float = 0.0
    block_tokens_max: int = 0
    ranks: list[int] = field(default_factory=list)


@dataclass
class EvalResult:
    """The scores of a fixture: ``asked`` (questions as asked), ``keywords`` (keyword
    queries, None when the fixture has none), and the questions' texts with their ranks."""

    name: str
    asked: Scores
    keywords: Scores | None
    questions: list[str]
    recall_budget: int

    def table(self) -> str:
        """The figures as a small text table."""
        rows = [("as asked", self.asked)]
        if self.keywords is not None:
            rows.append(("keywords", self.keywords))
        out = [f"fixture: {self.name} ({len(self.questions)} questions, recall budget "
               f"{self.recall_budget} tokens)",
               f"{'queries':<10} {'n':>3} {'hit@1':>6} {'hit@3':>6} {'hit@5':>6} {'MRR':>6} "
               f"{'block':>6} {'tokens':>7} {'max':>5}"]
        for label, s in rows:
            out.append(f"{label:<10} {s.n:>3} {s.hit1:>6.3f} {s.hit3:>6.3f} {s.hit5:>6.3f} "
                       f"{s.mrr:>6.3f} {s.block_hit:>6.3f} {s.block_tokens_mean:>7.1f} "
                       f"{s.block_tokens_max:>5}")
        return "\n".join(out)


def load_fixture(fixture: Any) -> dict[str, Any]:
    """A fixture from a dict, JSON text or a path; ``FixtureError`` if it is malformed."""
    if isinstance(fixture, dict):
        data = fixture
    elif isinstance(fixture, (str, os.PathLike)) and not str(fixture).lstrip().startswith(("{", "[")):
        try:
            with open(fixture, encoding="utf-8") as f:
                data = json.load(f)
        except OSError as e:
            raise FixtureError(f"cannot read the fixture {os.fspath(fixture)}: {e.strerror}") from None
        except ValueError as e:
            raise FixtureError(f"the fixture is not valid JSON: {e}") from None
    else:
        try:
            data = json.loads(fixture)
        except (TypeError, ValueError) as e:
            raise FixtureError(f"the fixture is not valid JSON: {e}") from None
    if not isinstance(data, dict):
        raise FixtureError("the fixture must be a JSON object with `turns`, `notes` and `questions`")
    questions = data.get("questions")
    if not isinstance(questions, list) or not questions:
        raise FixtureError("the fixture needs a non-empty `questions` list")
    for i, q in enumerate(questions):
        if not (isinstance(q, dict) and isinstance(q.get("question"), str)
                and isinstance(q.get("answer"), str) and q["answer"].strip()):
            raise FixtureError(f"questions[{i}] needs a `question` and a non-empty `answer` (strings)")
    for key in ("turns", "notes"):
        if not isinstance(data.get(key, []), list):
            raise FixtureError(f"`{key}` must be a list")
    for i, t in enumerate(data.get("turns", [])):
        if not (isinstance(t, dict) and isinstance(t.get("role"), str) and "content" in t):
            raise FixtureError(f"turns[{i}] needs `role` and `content`")
    for i, n in enumerate(data.get("notes", [])):
        if not (isinstance(n, dict) and isinstance(n.get("text"), str)):
            raise FixtureError(f"notes[{i}] needs `text` (and a `date`)")
    if not isinstance(data.get("files", {}), dict):
        raise FixtureError("`files` must map paths to text")
    return data


def build_memory(data: dict[str, Any], recall_budget: int = DEFAULT_RECALL_BUDGET) -> Any:
    """A scratch in-memory ``Memory`` holding the fixture's turns, notes and files."""
    from memtool.memory import Memory
    from memtool.stores.memory import MemoryStore

    store = MemoryStore()
    store.write_bytes("core.md", str(data.get("core", "")).encode("utf-8"))
    log = b"".join(encode_turn({"role": t["role"], "content": t["content"],
                                "timestamp": str(t.get("timestamp", ""))})
                   for t in data.get("turns", []))
    store.write_bytes("conversations.jsonl", log)
    entries = [f"- {n['date']}: {n['text']}" if n.get("date") else f"- {n['text']}"
               for n in data.get("notes", [])]
    store.write_bytes("notes.md", ("# Notes\n\n" + "\n".join(entries) + "\n").encode("utf-8"))
    for path, text in data.get("files", {}).items():
        parts = str(path).strip("/").split("/")
        for i in range(1, len(parts)):
            d = "/".join(parts[:i])
            if not store.exists(d):
                store.mkdir(d)
        store.write_bytes("/".join(parts), str(text).encode("utf-8"))
    return Memory(store, versions=False, secrets=False, recall_budget=recall_budget)


def _score(mem: Any, queries: list[tuple[str, str]], budget: int) -> Scores:
    """Scores of (query, answer) pairs on ``mem``."""
    from memtool.recall import recall_block

    s = Scores(n=len(queries))
    if not queries:
        return s
    tokens: list[int] = []
    found = 0
    for query, answer in queries:
        want = answer.casefold()
        rank = 0
        for i, hit in enumerate(mem.search(query, k=MRR_DEPTH), 1):
            if want in hit.text.casefold():
                rank = i
                break
        s.ranks.append(rank)
        block = recall_block(mem.store, query, budget, index=mem._ranker())
        tokens.append(estimate_tokens(block))
        found += want in block.casefold()
    n = len(queries)
    s.hit1 = sum(1 for r in s.ranks if 0 < r <= 1) / n
    s.hit3 = sum(1 for r in s.ranks if 0 < r <= 3) / n
    s.hit5 = sum(1 for r in s.ranks if 0 < r <= 5) / n
    s.mrr = sum(1 / r for r in s.ranks if r) / n
    s.block_hit = found / n
    s.block_tokens_mean = sum(tokens) / n
    s.block_tokens_max = max(tokens)
    return s


def evaluate(fixture: Any, recall_budget: int = DEFAULT_RECALL_BUDGET,
             embedder: Any = "static") -> EvalResult:
    """Score a ranking on ``fixture`` (a path, JSON text or dict): ``embedder`` as
    ``Memory(embedder=...)`` takes it (default: memtool's default ranking, BM25 fused with the
    shipped word vectors; None: BM25 alone)."""
    data = load_fixture(fixture)
    mem = build_memory(data, recall_budget)
    mem.embedder = embedder
    questions = data["questions"]
    asked = _score(mem, [(q["question"], q["answer"]) for q in questions], recall_budget)
    kw = [(q["keywords"], q["answer"]) for q in questions if isinstance(q.get("keywords"), str)]
    keywords = _score(mem, kw, recall_budget) if kw else None
    return EvalResult(str(data.get("name", "fixture")), asked, keywords,
                      [q["question"] for q in questions], recall_budget)


def example_fixture() -> str:
    """The path of the fixture shipped with memtool (``example_fixture.json``)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "example_fixture.json")
