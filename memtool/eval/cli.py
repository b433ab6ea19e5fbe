"""``memtool eval FIXTURE``: print the recall figures of a fixture (see ``memtool.eval``)."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict


def add_cli(subparsers: argparse._SubParsersAction) -> None:
    """Register ``memtool eval``."""
    from memtool.cli import _handled

    p = subparsers.add_parser(
        "eval", help="recall figures (hit@1/3/5, MRR, block tokens) on a fixture",
        description="Load FIXTURE (JSON: turns, notes, files and questions with their expected "
        "answer; format in memtool.eval) into a scratch in-memory memory and print hit@1/3/5, "
        "MRR and the recalled block's size in tokens. FIXTURE 'example' is the fixture shipped "
        "with memtool. Nothing on disk is read or written besides FIXTURE.")
    p.add_argument("fixture", metavar="FIXTURE", help="a fixture file, or 'example'")
    p.add_argument("--budget", type=int, default=None, metavar="TOKENS",
                   help="token budget of the recalled block (default 800)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--embedder", default=None, metavar="SPEC",
                   help="also score semantic recall with another embedder: minilm (local "
                   "all-MiniLM-L6-v2, memtool[semantic-model]), hash[:DIM], st:MODEL "
                   "(sentence-transformers) or openai:MODEL:DIM")
    p.set_defaults(func=_handled("eval", cmd_eval))


def cmd_eval(args: argparse.Namespace) -> int:
    """Print the figures; exit 1 on a malformed or unreadable fixture."""
    from memtool.cli import CliError
    from memtool.eval import FixtureError, evaluate, example_fixture
    from memtool.recall.block import DEFAULT_RECALL_BUDGET

    if args.budget is not None and args.budget < 0:
        raise CliError(f"--budget must be 0 or more, not {args.budget}")
    path = example_fixture() if args.fixture == "example" else args.fixture
    budget = DEFAULT_RECALL_BUDGET if args.budget is None else args.budget
    embedder = None
    if args.embedder:
        from memtool.recall.semantic import make_embedder

        try:
            embedder = make_embedder(args.embedder)
        except (ValueError, ImportError) as e:
            raise CliError(str(e)) from None
    try:
        result = evaluate(path, recall_budget=budget)
        plain = evaluate(path, recall_budget=budget, embedder=None)
        hybrid = evaluate(path, recall_budget=budget, embedder=embedder) if embedder else None
    except FixtureError as e:
        raise CliError(str(e)) from None
    if args.json:
        data = {"name": result.name, "recall_budget": result.recall_budget,
                "asked": asdict(result.asked),
                "keywords": asdict(result.keywords) if result.keywords is not None else None,
                "bm25": {"asked": asdict(plain.asked),
                         "keywords": asdict(plain.keywords) if plain.keywords else None}}
        if hybrid is not None:
            data["semantic"] = {"embedder": embedder.id, "asked": asdict(hybrid.asked),
                                "keywords": asdict(hybrid.keywords) if hybrid.keywords else None}
        print(json.dumps(data, indent=1))
    else:
        print(result.table().replace("\n", " (default ranking: BM25 and the shipped word "
                                     "vectors fused by rank)\n", 1))
        print("\nBM25 alone:")
        print(plain.table().split("\n", 1)[1])
        if hybrid is not None:
            print(f"\nwith semantic recall ({embedder.id}, BM25 and cosine fused by rank):")
            print(hybrid.table().split("\n", 1)[1])
    return 0
