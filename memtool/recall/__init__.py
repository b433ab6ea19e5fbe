"""Recall: ranked search over every memory file and the recalled block of the system prompt.

``search(store, query, k, paths)`` ranks the units of the memory (note entries, paragraphs,
conversation turns) with BM25 over Snowball stems; ``recall_block(store, query, budget)`` is
the ``<memory name="recalled">`` block ``Memory.system_prompt(query=...)`` adds after core's.
"""

from memtool.recall.block import DEFAULT_RECALL_BUDGET, estimate_tokens, recall_block
from memtool.recall.search import Hit, SearchResult, query_terms, search

__all__ = ["DEFAULT_RECALL_BUDGET", "Hit", "SearchResult", "estimate_tokens", "query_terms",
           "recall_block", "search"]
