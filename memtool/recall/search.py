"""Ranked search over every file of a memory: BM25 with stemming, stop words, a phrase
bonus, and recency as the tie-breaker.

This is the scan: each search reads the files once (``memtool.recall.index`` keeps an index
instead; ``Memory`` uses it for local and in-memory stores). A JSONL log (the big file) is
prefiltered on its bytes: one case-insensitive RE2 pass for the query terms' stem keys (C
speed) names the few lines worth decoding; only those are parsed, tokenised and
scored. BM25's corpus figures come from the same pass: N is the number of units (lines of a
log, entries and paragraphs of other files), a term's document frequency is the number of
candidate units that contain it (exact: a unit without the key cannot contain the term), and
the average unit length is the candidates' tokens per byte times the corpus's bytes.

A term whose key is on most lines of a log (``user``, ``content``: the JSON keys and roles)
is not used to find candidates when rarer terms are there; its frequency is estimated from
the log's first megabyte. Hidden files and directories (names starting with ``.``) and
``node_modules`` are never searched, so a cache kept beside the files is not either.
"""

from __future__ import annotations

import json
import math
import re

import re2
from dataclasses import dataclass
from typing import Iterable, Iterator

from sandbox.fs.base import FileStat, FileSystem, FSError

from memtool.recall.text import counts, prefilter_key, stem, terms, words
from memtool.recall.units import Unit, text_units, turn_unit

K1 = 1.2
B = 0.75
#: Bonus for each adjacent pair of query terms found adjacent in a unit, times their mean idf.
PHRASE_WEIGHT = 0.5
#: A key found on more than this share of a log's lines is not used to find candidates.
COMMON_SHARE = 0.3
#: ... and on more lines than this (a small log is scanned for every term).
COMMON_MIN_LINES = 50
SNIPPET_CHARS = 240
HIDDEN_DIRS = ("node_modules",)
_WORD_AT = re.compile(r"\w+")
#: A log of more lines than this finds candidates through its rarest query terms only.
BIG_LOG_LINES = 20_000
BIG_LOG_SHARE = 0.01
#: A big log's candidates are ranked by a cheap score first; this many are scored exactly.
SHORTLIST = 300
#: Bytes of a log sampled to tell a key on most lines (JSON keys, roles) from a rare one.
SAMPLE_BYTES = 1 << 20


@dataclass
class Hit:
    """One ranked result: the unit's file and line (its best-matching line), its date and
    role (turns), a snippet, its score; ``text`` is the unit's whole text and ``raw`` the
    file's line at ``line``."""

    file: str
    line: int
    date: str
    role: str
    snippet: str
    score: float
    text: str
    raw: str


@dataclass
class SearchResult:
    """The best ``hits`` (ranked) and the number of units that matched at all."""

    hits: list[Hit]
    total: int


def query_terms(query: str) -> list[str]:
    """The distinct stemmed terms of a query, in order."""
    out: list[str] = []
    for t in terms(query):
        if t not in out:
            out.append(t)
    return out


def iter_files(store: FileSystem, rel: str = "") -> Iterator[str]:
    """Every visible file below ``rel`` (sorted; hidden names and node_modules skipped)."""
    for path, _st in iter_file_stats(store, rel):
        yield path


def iter_file_stats(store: FileSystem, rel: str = "") -> Iterator[tuple[str, FileStat]]:
    """``iter_files`` with each file's stat (one ``stat`` a file: a round trip on a shared
    store)."""
    try:
        st = store.stat(rel)
    except FSError:
        return
    if not st.is_dir:
        yield rel, st
        return
    try:
        names = sorted(store.listdir(rel))
    except FSError:
        return
    for name in names:
        if name.startswith(".") or name in HIDDEN_DIRS:
            continue
        yield from iter_file_stats(store, f"{rel}/{name}" if rel else name)


class _Corpus:
    """Candidate units and corpus figures gathered in one pass."""

    def __init__(self, qterms: list[str]):
        self.qterms = qterms
        self.keys = [prefilter_key(t) for t in qterms]
        self.units = 0
        self.bytes = 0
        self.cand_bytes = 0
        self.cand_tokens = 0
        #: (unit, its term list, recency sequence)
        self.candidates: list[tuple[Unit, list[str], int]] = []
        #: estimated document frequency of terms not used for candidates
        self.df_estimate: dict[str, int] = {}
        self.seq = 0
        #: candidates of a big log that matched but were not scored exactly (see _shortlist)
        self.unscored = 0
        #: how many of a big log's candidates are scored exactly
        self.shortlist = SHORTLIST

    def consider(self, unit: Unit, size: int, seq: int) -> None:
        """Score-relevant figures of a unit already known to hold a key (``seq``: its place
        in reading order, for recency)."""
        uterms = terms(unit.text)
        self.cand_bytes += size
        self.cand_tokens += len(uterms)
        if unit.context:
            uterms = uterms + terms(unit.context)
        if any(t in uterms for t in self.qterms):
            self.candidates.append((unit, uterms, seq))

    def add_text_file(self, rel: str, text: str) -> None:
        """Entries and paragraphs of a text file."""
        self.bytes += len(text)
        for unit in text_units(rel, text):
            self.units += 1
            self.seq += 1
            fold = unit.text.casefold()
            if unit.context:
                fold += "\n" + unit.context.casefold()
            if any(k in fold for k in self.keys):
                self.consider(unit, len(unit.text), self.seq)

    def add_log(self, rel: str, data: bytes) -> None:
        """Lines of a JSONL log, found by one case-insensitive RE2 pass over its bytes."""
        n_lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
        base = self.seq
        self.units += n_lines
        self.bytes += len(data)
        cut = data.find(b"\n", min(len(data), SAMPLE_BYTES))
        sample = data[:cut if cut != -1 else len(data)]
        sample_lines = max(1, sample.count(b"\n"))
        alternatives: list[tuple[str, bytes, float]] = []
        for term, key in zip(self.qterms, self.keys):
            pattern = _key_pattern(key)
            share = len(re2.compile(b"(?i)" + pattern).findall(sample)) / sample_lines
            alternatives.append((term, pattern, share))
        if n_lines > BIG_LOG_LINES:
            # A big log: candidates come from the rarest terms only (at least one, more while
            # their shares add up to BIG_LOG_SHARE), as WAND-style engines skip documents
            # that hold only frequent terms; their frequencies are estimated from the sample.
            used, total = [], 0.0
            for a in sorted(alternatives, key=lambda a: a[2]):
                if used and total + a[2] > BIG_LOG_SHARE:
                    break
                used.append(a)
                total += a[2]
        else:
            used = [a for a in alternatives
                    if a[2] <= COMMON_SHARE or a[2] * n_lines <= COMMON_MIN_LINES] or alternatives
        for term, pattern, share in alternatives:
            if (term, pattern, share) not in used:
                self.df_estimate[term] = self.df_estimate.get(term, 0) + min(int(share * n_lines), n_lines)
        rx = re2.compile(b"(?i)(?:" + b"|".join(p for _t, p, _s in used) + b")")
        big = n_lines > BIG_LOG_LINES
        pending: list[tuple[int, bytes, dict[str, int]]] = []
        size = len(data)
        lineno = 1
        prev = 0
        m = rx.search(data, 0)
        while m is not None:
            pos = m.start()
            start = data.rfind(b"\n", 0, pos) + 1
            end = data.find(b"\n", pos)
            if end == -1:
                end = size
            lineno += data.count(b"\n", prev, start)
            prev = start
            raw = data[start:end]
            if raw.strip():
                if big:
                    tf = self._cheap_tf(raw)
                    if tf:
                        pending.append((lineno, raw, tf))
                else:
                    unit = turn_unit(rel, lineno, raw.decode("utf-8", "replace").rstrip("\r"))
                    self.consider(unit, len(raw), base + lineno)
            m = rx.search(data, end + 1) if end < size else None
        if big:
            self._shortlist(rel, pending, base)
        self.seq = base + n_lines

    def _cheap_tf(self, raw: bytes) -> dict[str, int]:
        """Query-term frequencies of a log line from the words holding a key (no parse)."""
        fold = raw.decode("utf-8", "replace").casefold()
        tf: dict[str, int] = {}
        seen: set[int] = set()
        for key in self.keys:
            i = fold.find(key)
            while i != -1:
                j = i
                while j > 0 and (fold[j - 1].isalnum() or fold[j - 1] == "_"):
                    j -= 1
                m = _WORD_AT.match(fold, j)
                end = m.end() if m else i + len(key)
                if m and j not in seen:
                    seen.add(j)
                    for t in terms(m.group()):
                        if t in self.qterms:
                            tf[t] = tf.get(t, 0) + 1
                i = fold.find(key, end)
        return tf

    def _shortlist(self, rel: str, pending: list[tuple[int, bytes, dict[str, int]]], base: int) -> None:
        """Of a big log's candidates, parse and score exactly only the best ``self.shortlist``
        by a cheap BM25 (lengths estimated from bytes); the rest count in the document
        frequencies and the total."""
        n = max(self.units, 1)
        df = dict.fromkeys(self.qterms, 0)
        for _l, _r, tf in pending:
            for t in tf:
                df[t] += 1
        for t, extra in self.df_estimate.items():
            df[t] = df.get(t, 0) + extra
        idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}
        avg = max(self.bytes / n, 1.0)

        def cheap(item: tuple[int, bytes, dict[str, int]]) -> tuple[float, int]:
            lineno, raw, tf = item
            norm = K1 * (1 - B + B * len(raw) / avg)
            return sum(idf[t] * f * (K1 + 1) / (f + norm) for t, f in tf.items()), lineno

        pending.sort(key=cheap, reverse=True)
        keep, rest = pending[:self.shortlist], pending[self.shortlist:]
        for lineno, raw, _tf in keep:
            unit = turn_unit(rel, lineno, raw.decode("utf-8", "replace").rstrip("\r"))
            self.consider(unit, len(raw), base + lineno)
        for _l, _r, tf in rest:
            for t in tf:
                self.df_estimate[t] = self.df_estimate.get(t, 0) + 1
        self.unscored += len(rest)


def _key_pattern(key: str) -> bytes:
    """The RE2 alternation that finds ``key`` in a log's bytes: as written (RE2's case
    folding also matches ``ſ`` for ``s`` and the Kelvin sign for ``k``), with ``ß`` for
    ``ss``, and as JSON ``\\u`` escapes when the key is not ASCII."""
    forms = {key, key.replace("ss", "\u00df")}
    if key.endswith("s"):  # the key may end inside "ss" (strasse -> key "stras")
        forms.add(key[:-1].replace("ss", "\u00df") + "\u00df")
    if not key.isascii():
        forms |= {json.dumps(v)[1:-1] for v in (key, key.upper())}
    return b"|".join(re2.escape(f.encode("utf-8")) for f in sorted(forms))


def _is_binary(data: bytes) -> bool:
    return b"\0" in data[:8192]


def search(store: FileSystem, query: str, k: int = 10, paths: Iterable[str] | None = None,
           exclude: Iterable[str] = ()) -> SearchResult:
    """The ``k`` best units for ``query`` in the files under ``paths`` (relative to the
    store; default: the whole memory), minus ``exclude``. Units matching no query term
    (after stemming and stop words) never appear."""
    qterms = query_terms(query)
    if not qterms or k <= 0:
        return SearchResult([], 0)
    corpus = _Corpus(qterms)
    corpus.shortlist = max(SHORTLIST, 10 * k)
    skip = set(exclude)
    seen: set[str] = set()
    for root in (list(paths) if paths is not None else [""]):
        for rel in iter_files(store, root):
            if rel in skip or rel in seen:
                continue
            seen.add(rel)
            try:
                data = store.read_bytes(rel)
            except FSError:
                continue
            if _is_binary(data):
                continue
            if rel.endswith(".jsonl"):
                corpus.add_log(rel, data)
            else:
                corpus.add_text_file(rel, data.decode("utf-8", "replace"))
    return _rank(corpus, query, k)


def _rank(corpus: _Corpus, query: str, k: int) -> SearchResult:
    qterms = corpus.qterms
    n = max(corpus.units, 1)
    ratio = corpus.cand_tokens / corpus.cand_bytes if corpus.cand_bytes else 0.15
    avgdl = max(corpus.bytes * ratio / n, 1.0)
    df = {t: corpus.df_estimate.get(t, 0) for t in qterms}
    for _unit, uterms, _seq in corpus.candidates:
        for t in set(uterms).intersection(qterms):
            df[t] += 1
    idf = {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in qterms}
    total = len(corpus.candidates) + corpus.unscored
    return score_candidates(corpus.candidates, qterms, idf, avgdl, k, total)


def score_candidates(candidates: list[tuple[Unit, list[str], int]], qterms: list[str],
                     idf: dict[str, float], avgdl: float, k: int, total: int) -> SearchResult:
    """The ``k`` best of ``candidates`` (unit, its terms, its place in reading order) by BM25
    with the phrase bonus; ties go to the newer date, then the later unit."""
    return rank_scored([(unit_score(uterms, qterms, idf, avgdl), unit, seq)
                        for unit, uterms, seq in candidates], qterms, k, total)


def rank_scored(scored: list[tuple[float, Unit, int]], qterms: list[str], k: int,
                total: int) -> SearchResult:
    """The ``k`` best of units already scored (score, unit, its place in reading order) as
    hits; ties go to the newer date, then the later unit."""
    scored.sort(key=lambda s: (s[0], s[1].date, s[2]), reverse=True)
    return SearchResult([_hit(unit, score, qterms) for score, unit, _s in scored[:k]], total)


def unit_score(uterms: list[str], qterms: list[str], idf: dict[str, float], avgdl: float) -> float:
    """A unit's score for a query: BM25 of its terms plus the phrase bonus of each adjacent
    pair of query terms found adjacent in it (rounded to 9 places, so ties are ties)."""
    norm = K1 * (1 - B + B * len(uterms) / avgdl)
    score = 0.0
    for t in qterms:
        tf = uterms.count(t)
        if tf:
            score += idf[t] * tf * (K1 + 1) / (tf + norm)
    if len(qterms) > 1:
        adjacent = set(zip(uterms, uterms[1:]))
        for a, b in zip(qterms, qterms[1:]):
            if (a, b) in adjacent:
                score += PHRASE_WEIGHT * (idf[a] + idf[b]) / 2
    return round(score, 9)


def _hit(unit: Unit, score: float, qterms: list[str]) -> Hit:
    """A ranked unit as a hit: its best line and a snippet around the first match."""
    line, raw = best_line(unit, qterms)
    return Hit(unit.file, line, unit.date, unit.role, snippet(unit.text, qterms), score,
               unit.text, raw)


def best_line(unit: Unit, qterms: list[str]) -> tuple[int, str]:
    """The line of a unit that a hit shows (the first with the most query terms), and its
    text."""
    line, raw = unit.line, unit.lines[0] if unit.lines else unit.text
    if len(unit.lines) > 1:
        best = -1
        for i, text in enumerate(unit.lines):
            found = len(set(terms(text)).intersection(qterms))
            if found > best:
                best, line, raw = found, unit.line + i, text
    return line, raw


def snippet(text: str, qterms: list[str], width: int = SNIPPET_CHARS) -> str:
    """``text`` on one line, cut to ``width`` characters around its first query term."""
    flat = " ".join(text.split())
    if len(flat) <= width:
        return flat
    at = 0
    fold = flat.casefold()
    for m in _WORD_AT.finditer(fold):  # words() of the text, up to the first query term
        w = m.group()
        if counts(w) and stem(w) in qterms:
            at = max(fold.find(w), 0)
            break
    start = max(0, min(at - width // 4, len(flat) - width))
    out = flat[start:start + width]
    return ("…" if start else "") + out + ("…" if start + width < len(flat) else "")
