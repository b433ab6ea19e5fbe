"""Words for ranking: case folding, a Snowball (Porter 2) English stemmer, stop words.

``terms(text)`` is the sequence of index terms of a text: ``\\w+`` words of the case-folded
text, stop words dropped, words of one letter dropped (digits kept), each stemmed
(``budgets`` -> ``budget``). The stemmer is PyStemmer (the Snowball project's C stemmers); its
results are cached per word.
"""

from __future__ import annotations

import re
from functools import lru_cache

import Stemmer

_WORD = re.compile(r"\w+")
_STEMMER = Stemmer.Stemmer("english")

#: Common English function words (and a few chat fillers), ignored in queries and documents.
STOP_WORDS: frozenset[str] = frozenset("""
a about above after again against all am an and any are aren as at be because been before
being below between both but by can cannot could couldn did didn do does doesn doing don down
during each few for from further had hadn has hasn have haven having he her here hers herself
him himself his how i if in into is isn it its itself just let me more most mustn my myself
no nor not now of off on once only or other ought our ours ourselves out over own same shan
she should shouldn so some such than that the their theirs them themselves then there these
they this those through to too under until up very was wasn we were weren what when where
which while who whom why will with won would wouldn you your yours yourself yourselves
ll re ve d s t m also again ever tell remind know please hey hi ok okay yes yeah
""".split())


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """The Snowball English stem of one case-folded word."""
    return _STEMMER.stemWord(word)


def counts(w: str) -> bool:
    """True when a case-folded word counts as a term (not a stop word, not one letter)."""
    return not (w in STOP_WORDS or (len(w) < 2 and not w.isdigit()))


def words(text: str) -> list[str]:
    """The case-folded words of ``text`` that count (no stop words, no single letters)."""
    return [w for w in _WORD.findall(text.casefold()) if counts(w)]


#: word -> its term ("" for a word that does not count); cleared when it grows too big.
_TERMS: dict[str, str] = {}
_TERMS_MAX = 200_000


def terms(text: str) -> list[str]:
    """The stemmed index terms of ``text``, in order."""
    cache = _TERMS
    found = _WORD.findall(text.casefold())
    ts = [cache.get(w) for w in found]
    if None in ts:
        if len(cache) >= _TERMS_MAX:
            cache.clear()
        for w in found:
            if w not in cache:
                cache[w] = stem(w) if counts(w) else ""
        ts = [cache[w] for w in found]
    return [t for t in ts if t]


def prefilter_key(term: str) -> str:
    """A case-folded substring that (nearly) every word stemming to ``term`` contains: the
    stem without its last letter when it is longer than three (``happ`` for happy/happiness,
    ``hop`` for hope/hoping). Snowball's few irregular forms (dying -> die) are missed."""
    return term[:-1] if len(term) > 3 else term
