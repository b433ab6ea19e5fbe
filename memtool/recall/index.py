"""An inverted index of a memory's units, kept per file and brought up to date on each search.

``RecallIndex(store)`` answers the same question as ``search.search`` (BM25 over Snowball
stems, a phrase bonus, recency as the tie-breaker) without reading the files again: each file
has its postings (term -> the units holding it, with the term's count) and each unit its
length in terms. Before a search every file is statted; a file whose ``FileStat.version`` is
unchanged is used as it is.

* A JSONL log (``conversations.jsonl``, archives) only ever grows by appends: when it is
  longer than what was indexed, the same file (the same inode: local stores replace a file
  they rewrite, and append in place) and the bytes just before the indexed end unchanged, only
  the new complete lines are read and indexed (a turn recorded since the last search costs
  one line's work). Anything else (a rewrite, a truncation) re-indexes the file. A store
  without inodes re-indexes on every change, unless it is made with ``trust_appends``
  (PostgreSQL, whose log neither tool can rewrite): there a longer log whose bytes just
  before the indexed end are unchanged counts as appended to.
* Any other text file (notes.md, topic files) is re-indexed whole when it changes.

Scores are exact: N is the number of units of the searched files, a term's document frequency
the number of units holding it and the average length the mean of the units' lengths. Units
are ranked by BM25 from the postings; only those that could still reach the first ``k`` with
the largest phrase bonus possible are read back and scored with the bonus.

With ``cache_dir`` (a local memory: ``.memtool/recall/`` inside it, which neither tool can see)
the postings of logs are saved there (atomically, 0600) after a build and after every MiB
indexed, so a new process starts from them instead of from the whole log. A saved index that
does not match its log, or cannot be read, is rebuilt; it is never the source of truth.
"""

from __future__ import annotations

import hashlib
import heapq
from bisect import bisect_left
import marshal
import math
import os
import struct
import threading
from array import array
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from sandbox.fs.base import FileStat, FileSystem, FSError

from memtool.recall.search import (
    B, K1, PHRASE_WEIGHT, SearchResult, iter_file_stats, query_terms, rank_scored, score_candidates,
)
from memtool.recall.text import terms
from memtool.recall.units import Unit, text_units, turn_unit, unit_terms

#: Bytes before a log's indexed end compared to tell an append from a rewrite.
TAIL_BYTES = 256
#: A log's saved index is rewritten after this many newly indexed bytes.
SAVE_EVERY = 1 << 20
#: At most this many units are read back to add the phrase bonus.
MAX_RESCORED = 2000
FORMAT = 2
#: Cached BM25 parts are recomputed when the average unit length moves by more than this
#: share; candidates are chosen with twice this margin, then scored exactly.
IMPACT_DRIFT = 0.005
#: Add postings up with NumPy when it is installed (``memtool[semantic]``); tests turn it off
#: to check that both ways choose the same units.
USE_NUMPY = True
#: On a store without inodes (PostgreSQL), logs up to this size are also kept in memory, so a
#: search reads its units back without a round trip each.
BUFFER_MAX = 256 << 20


@dataclass
class FileIndex:
    """The postings of one file and where each unit is."""

    rel: str
    log: bool
    version: object = None
    #: bytes of the file indexed (a log: up to the end of its last complete line)
    end: int = 0
    tail: bytes = b""
    #: lines of a log indexed so far
    lines: int = 0
    #: per unit: its first line, its length in terms; a log's units also their byte span
    line_of: array = field(default_factory=lambda: array("I"))
    length: array = field(default_factory=lambda: array("I"))
    start: array = field(default_factory=lambda: array("Q"))
    size: array = field(default_factory=lambda: array("I"))
    #: term -> (unit numbers, counts)
    postings: dict[str, tuple[array, array]] = field(default_factory=dict)
    #: term -> its number (the order its postings were made in)
    term_ids: dict[str, int] = field(default_factory=dict)
    #: every unit's terms as term numbers, one unit after another, and where each unit's
    #: start: the phrase bonus is found here instead of in the unit's text read back
    seq: array = field(default_factory=lambda: array("I"))
    seq_start: array = field(default_factory=lambda: array("Q"))
    #: a text file's units (read back from memory, not from the file)
    units: list[Unit] = field(default_factory=list)
    total_length: int = 0
    saved_end: int = 0
    #: a log's last line has no newline (it is indexed; any change re-indexes the file)
    partial: bool = False
    #: a log's bytes, kept on stores where reading a unit back is a round trip (PostgreSQL)
    buffer: bytearray | None = None
    #: term -> (the average length they were computed for, BM25 parts per posting)
    impacts: dict[str, tuple[float, array]] = field(default_factory=dict)

    @property
    def count(self) -> int:
        """Number of units."""
        return len(self.length)

    def add(self, uterms: list[str], line: int, start: int = 0, size: int = 0) -> None:
        """Index one unit's terms."""
        uid = len(self.length)
        self.line_of.append(line)
        self.length.append(len(uterms))
        if self.log:
            self.start.append(start)
            self.size.append(size)
        self.total_length += len(uterms)
        counts: dict[str, int] = {}
        for t in uterms:
            counts[t] = counts.get(t, 0) + 1
        postings, term_ids = self.postings, self.term_ids
        for t, c in counts.items():
            entry = postings.get(t)
            if entry is None:
                entry = postings[t] = (array("I"), array("I"))
                term_ids[t] = len(term_ids)
            entry[0].append(uid)
            entry[1].append(c)
        self.seq_start.append(len(self.seq))
        self.seq.extend(map(term_ids.__getitem__, uterms))

    def plus_pair_bonus(self, uid: int, score: float, pairs: list[tuple[bytes, float]]) -> float:
        """``score`` plus, one after another as ``unit_score`` adds them, the bonus of each
        pair (two term numbers packed as ``seq`` holds them) found adjacent in the terms of
        unit ``uid``."""
        start = self.seq_start[uid]
        blob = self.seq[start:start + self.length[uid]].tobytes()
        for pattern, bonus in pairs:
            at = blob.find(pattern)
            while at > 0 and at % 4:
                at = blob.find(pattern, at + 1)
            if at >= 0:
                score += bonus
        return score

    def impact(self, term: str, avgdl: float) -> array:
        """Per posting of ``term``, its BM25 part without the idf, ``tf (k1 + 1) / (tf +
        k1 (1 - b + b len / avgdl))``: cached, extended for units added since, recomputed
        when the average length has moved by more than ``IMPACT_DRIFT``."""
        ids, counts = self.postings[term]
        cached = self.impacts.get(term)
        if cached is not None and abs(cached[0] / avgdl - 1) > IMPACT_DRIFT:
            cached = None
        if cached is None:
            cached = self.impacts[term] = (avgdl, array("d"))
        at, parts = cached[0], cached[1]
        if len(parts) < len(ids):
            c1, c2, k1p, lengths = K1 * (1 - B), K1 * B / at, K1 + 1, self.length
            parts.extend(tf * k1p / (tf + c1 + c2 * lengths[uid])
                         for uid, tf in zip(ids[len(parts):], counts[len(parts):]))
        return parts

    def add_log_lines(self, data: bytes, offset: int, check_time=None) -> None:
        """Index the complete lines of ``data`` (the log's bytes from ``offset``)."""
        pos = 0
        last = data.rfind(b"\n") + 1
        n = 0
        while pos < last:
            nl = data.find(b"\n", pos)
            raw = data[pos:nl]
            self.lines += 1
            if raw.strip():
                unit = turn_unit(self.rel, self.lines, raw.decode("utf-8", "replace").rstrip("\r"))
                self.add(terms(unit.text), self.lines, offset + pos, len(raw))
            pos = nl + 1
            n += 1
            if check_time is not None and n % 4096 == 0:
                check_time()
        self.end = offset + last
        rest = data[last:]
        self.partial = bool(rest.strip())
        if self.partial:  # an unterminated last line: indexed, and the file re-indexed on change
            unit = turn_unit(self.rel, self.lines + 1, rest.decode("utf-8", "replace").rstrip("\r"))
            self.add(terms(unit.text), self.lines + 1, offset + last, len(rest))

    def to_bytes(self) -> bytes:
        """The saved form (a log's index)."""
        return marshal.dumps({
            "format": FORMAT, "rel": self.rel, "version": _plain(self.version), "end": self.end,
            "tail": self.tail, "lines": self.lines, "line_of": self.line_of.tobytes(),
            "length": self.length.tobytes(), "start": self.start.tobytes(),
            "size": self.size.tobytes(), "total": self.total_length, "partial": self.partial,
            "postings": {t: (ids.tobytes(), cs.tobytes()) for t, (ids, cs) in self.postings.items()},
            "seq": self.seq.tobytes(),
        })

    @classmethod
    def from_bytes(cls, rel: str, blob: bytes) -> "FileIndex | None":
        """A saved log index, or None when it is not one (any damage: rebuilt)."""
        try:
            d = marshal.loads(blob)
            if not isinstance(d, dict) or d.get("format") != FORMAT or d.get("rel") != rel:
                return None
            fi = cls(rel, True, d["version"], int(d["end"]), bytes(d["tail"]), int(d["lines"]))
            for name in ("line_of", "length", "start", "size"):
                getattr(fi, name).frombytes(d[name])
            n = len(fi.length)
            if not (len(fi.line_of) == len(fi.start) == len(fi.size) == n):
                return None
            fi.total_length = int(d["total"])
            fi.partial = bool(d["partial"])
            postings = {}
            for t, (ids_b, cs_b) in d["postings"].items():
                ids, cs = array("I"), array("I")
                ids.frombytes(ids_b)
                cs.frombytes(cs_b)
                if len(ids) != len(cs) or (ids and ids[-1] >= n) or not isinstance(t, str):
                    return None
                postings[t] = (ids, cs)
            fi.postings = postings
            fi.term_ids = {t: i for i, t in enumerate(postings)}
            fi.seq.frombytes(d["seq"])
            at = 0
            for size in fi.length:
                fi.seq_start.append(at)
                at += size
            if at != len(fi.seq) or (fi.seq and max(fi.seq) >= len(postings)):
                return None
            fi.saved_end = fi.end
            return fi
        except Exception:  # a damaged or foreign file is only a cache: rebuild
            return None


def _offsets(chosen: list[FileIndex]) -> list[int]:
    """Each chosen file's first unit number in reading order (recency ties)."""
    offsets, acc = [], 0
    for fi in chosen:
        offsets.append(acc)
        acc += fi.count
    return offsets


def _postings_score(fi: FileIndex, uid: int, qterms: list[str], idf: dict[str, float],
                    avgdl: float, pairs: list[tuple[bytes, float]] | None = None) -> float:
    """``unit_score`` of a unit from the postings (the same arithmetic in the same order, so
    the same float), with the phrase bonus of ``pairs`` (``FileIndex.plus_pair_bonus``)."""
    norm = K1 * (1 - B + B * fi.length[uid] / avgdl)
    score = 0.0
    for t in qterms:
        entry = fi.postings.get(t)
        if entry is None:
            continue
        ids = entry[0]
        i = bisect_left(ids, uid)
        if i < len(ids) and ids[i] == uid:
            tf = entry[1][i]
            score += idf[t] * tf * (K1 + 1) / (tf + norm)
    if pairs:
        score = fi.plus_pair_bonus(uid, score, pairs)
    return round(score, 9)


def _query_pairs(fi: FileIndex, qterms: list[str], idf: dict[str, float]) -> list[tuple[bytes, float]]:
    """The adjacent pairs of query terms that ``fi`` holds both of, as ``plus_pair_bonus``
    takes them (in the query's order, each with ``unit_score``'s bonus)."""
    ids = fi.term_ids
    return [(struct.pack("=II", ids[a], ids[b]), PHRASE_WEIGHT * (idf[a] + idf[b]) / 2)
            for a, b in zip(qterms, qterms[1:]) if a in ids and b in ids]


def _numpy():  # type: ignore[no-untyped-def]
    """NumPy, or None when it is not installed."""
    global _NP
    if _NP is False:
        try:
            import numpy
        except ImportError:
            numpy = None
        _NP = numpy
    return _NP


_NP: object = False


def _plain(version: object) -> object:
    """``version`` as marshal can store it (tuples of numbers, numbers, strings)."""
    if isinstance(version, (int, float, str, bytes)) or version is None:
        return version
    if isinstance(version, tuple):
        return tuple(_plain(v) for v in version)
    return repr(version)


def _same_file(old: object, new: object) -> bool:
    """True when two versions are of the same file on a local store (same inode: it was
    appended to or edited in place, never replaced). Other stores' versions say only that
    something changed, so a change there re-indexes the file."""
    if isinstance(old, tuple) and isinstance(new, tuple) and len(old) == len(new) == 4:
        return old[2] == new[2]
    return False


class RecallIndex:
    """The index of a store's units (see the module docstring); thread-safe."""

    def __init__(self, store: FileSystem, cache_dir: str | None = None, key: str = "",
                 trust_appends: bool = False):
        self.store = store
        #: A store without inodes whose logs only grow by appends (PostgreSQL: both tools
        #: refuse to change the log): a longer log whose bytes before the indexed end are
        #: unchanged is taken as appended to.
        self.trust_appends = trust_appends
        self.cache_dir = cache_dir
        self.key = key
        self.files: dict[str, FileIndex] = {}
        self._lock = threading.Lock()

    # -- keeping it current --------------------------------------------------------------

    def _cache_path(self, rel: str) -> str | None:
        if self.cache_dir is None:
            return None
        name = hashlib.sha256(f"{self.key}\0{rel}".encode("utf-8", "surrogateescape")).hexdigest()
        return os.path.join(self.cache_dir, name[:40] + ".idx")

    def make_cache_dir(self) -> None:
        """Create ``.memtool/recall`` (0700) if missing (OSError when it can't be)."""
        for d in (os.path.dirname(self.cache_dir or ""), self.cache_dir):
            if d and not os.path.isdir(d):
                os.mkdir(d, 0o700)

    def _load(self, rel: str) -> FileIndex | None:
        path = self._cache_path(rel)
        if path is None:
            return None
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return None
        try:
            with os.fdopen(fd, "rb") as f:
                return FileIndex.from_bytes(rel, f.read())
        except OSError:
            return None

    def _save(self, fi: FileIndex) -> None:
        path = self._cache_path(fi.rel)
        if path is None:
            return
        if self.write_cache(path, fi.to_bytes()):
            fi.saved_end = fi.end

    def write_cache(self, path: str, data: bytes) -> bool:
        """Write a cache file atomically (temporary file, 0600, renamed over); False when it
        can't be written (a cache that can't be written is only slower next time)."""
        try:
            self.make_cache_dir()
            tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
            return True
        except OSError:
            return False

    def _read_from(self, rel: str, offset: int, size: int) -> bytes:
        with self.store.open_read(rel) as f:
            if offset:
                f.seek(offset)
            return f.read(size - offset)

    def refresh(self, rel: str, check_time=None, st: FileStat | None = None) -> FileIndex | None:
        """The current index of ``rel`` (None: not a searchable file); ``st``: its stat, when
        the caller has it."""
        if st is None:
            try:
                st = self.store.stat(rel)
            except FSError:
                self.files.pop(rel, None)
                return None
        if st.is_dir:
            return None
        fi = self.files.get(rel)
        if fi is None and rel.endswith(".jsonl"):
            fi = self._load(rel)
        if fi is not None and fi.version == _plain(st.version) and st.version is not None:
            self.files[rel] = fi
            return fi
        if (fi is not None and fi.log and not fi.partial and st.size >= fi.end
                and (_same_file(fi.version, st.version)
                     or self.trust_appends and st.size > fi.end)):
            # an append? the bytes before the indexed end must be the ones indexed
            start = max(0, fi.end - TAIL_BYTES)
            data = self._read_from(rel, start, st.size)
            if data[:fi.end - start] == fi.tail:
                old_end = fi.end
                fi.add_log_lines(data[fi.end - start:], fi.end, check_time)
                if fi.buffer is not None:
                    fi.buffer += data[old_end - start:]
                    if len(fi.buffer) > BUFFER_MAX:
                        fi.buffer = None
                fi.tail = data[max(0, fi.end - start - TAIL_BYTES):fi.end - start]
                fi.version = _plain(st.version)
                self.files[rel] = fi
                if fi.end - fi.saved_end >= SAVE_EVERY:
                    self._save(fi)
                return fi
        fi = self._build(rel, st.version, check_time)
        self.files[rel] = fi
        return fi

    def _build(self, rel: str, version: object, check_time=None) -> FileIndex:
        data = self.store.read_bytes(rel)
        log = rel.endswith(".jsonl")
        fi = FileIndex(rel, log, _plain(version))
        if b"\0" in data[:8192]:
            fi.log = False  # a binary file: no units
            return fi
        if log:
            fi.add_log_lines(data, 0, check_time)
            fi.tail = data[max(0, fi.end - TAIL_BYTES):fi.end]
            if self.trust_appends and len(data) <= BUFFER_MAX:
                fi.buffer = bytearray(data)
            if fi.end >= SAVE_EVERY or self.cache_dir is not None and fi.end:
                self._save(fi)
            return fi
        for n, unit in enumerate(text_units(rel, data.decode("utf-8", "replace"))):
            fi.add(unit_terms(unit), unit.line)
            fi.units.append(unit)
            if check_time is not None and n % 4096 == 4095:
                check_time()
        fi.end = len(data)
        return fi

    def units(self, chosen: list[FileIndex], keys: list[tuple[int, int]]
              ) -> Iterator[tuple[int, int, Unit]]:
        """The units ``keys`` (file number, unit number) of ``chosen``, read back: a text
        file's from memory, a log's lines from the file (opened once per file)."""
        by_file: dict[int, list[int]] = {}
        for f, uid in keys:
            by_file.setdefault(f, []).append(uid)
        for f, uids in by_file.items():
            fi = chosen[f]
            if not fi.log:
                for uid in uids:
                    yield f, uid, fi.units[uid]
                continue
            uids.sort()
            if fi.buffer is not None:
                buf = fi.buffer
                for uid in uids:
                    start = fi.start[uid]
                    raw = bytes(buf[start:start + fi.size[uid]]).decode("utf-8", "replace")
                    yield f, uid, turn_unit(fi.rel, fi.line_of[uid], raw.rstrip("\r"))
                continue
            with self.store.open_read(fi.rel) as fh:
                for uid in uids:
                    fh.seek(fi.start[uid])
                    raw = fh.read(fi.size[uid]).decode("utf-8", "replace").rstrip("\r")
                    yield f, uid, turn_unit(fi.rel, fi.line_of[uid], raw)

    # -- searching -----------------------------------------------------------------------

    def search(self, query: str, k: int = 10, paths: Iterable[str] | None = None,
               exclude: Iterable[str] = ()) -> SearchResult:
        """``search.search``'s answer, from the index (see the module docstring)."""
        qterms = query_terms(query)
        if not qterms or k <= 0:
            return SearchResult([], 0)
        with self._lock:
            return self._search(qterms, k, paths, set(exclude))

    def _search(self, qterms: list[str], k: int, paths: Iterable[str] | None,
                skip: set[str]) -> SearchResult:
        chosen: list[FileIndex] = []
        seen: set[str] = set()
        for root in (list(paths) if paths is not None else [""]):
            for rel, st in iter_file_stats(self.store, root):
                if rel in skip or rel in seen:
                    continue
                seen.add(rel)
                try:
                    fi = self.refresh(rel, st=st)
                except FSError:
                    continue
                if fi is not None:
                    chosen.append(fi)
        if paths is None:  # forget files that are gone
            for rel in [r for r in self.files if r not in seen and r not in skip]:
                del self.files[rel]
        n_units = sum(fi.count for fi in chosen)
        if not n_units:
            return SearchResult([], 0)
        n = max(n_units, 1)
        avgdl = max(sum(fi.total_length for fi in chosen) / n, 1.0)
        df = {t: sum(len(fi.postings[t][0]) for fi in chosen if t in fi.postings) for t in qterms}
        idf = {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in qterms}
        pair_bonus = [(1 << i | 1 << (i + 1), PHRASE_WEIGHT * (idf[a] + idf[b]) / 2)
                      for i, (a, b) in enumerate(zip(qterms, qterms[1:]))]
        # BM25 from cached per-posting parts (within IMPACT_DRIFT of the exact ones): every
        # unit that can reach the first k once rescored exactly, phrase bonus included, is kept
        np = _numpy()
        if np is not None and USE_NUMPY:
            return self._search_np(np, chosen, qterms, k, idf, avgdl, pair_bonus)
        found: list[tuple[int, array, set[int], list[set[int]]]] = []
        best: list[float] = []
        for f, fi in enumerate(chosen):
            acc = array("d", bytes(8 * fi.count))
            holding = []
            for t in qterms:
                entry = fi.postings.get(t)
                if entry is None:
                    holding.append(set())
                    continue
                w = idf[t]
                for uid, part in zip(entry[0], fi.impact(t, avgdl)):
                    acc[uid] += w * part
                holding.append(set(entry[0]))
            touched = set().union(*holding)
            if touched:
                found.append((f, acc, touched, holding))
                best += heapq.nlargest(k, map(acc.__getitem__, touched))
        if not found:
            return SearchResult([], 0)
        total = sum(len(touched) for _f, _a, touched, _h in found)
        eps = 2 * IMPACT_DRIFT
        floor = heapq.nlargest(k, best)[-1] * (1 - eps) - 1e-9
        bonus_of: dict[int, float] = {}
        keep: list[tuple[float, tuple[int, int]]] = []
        for f, acc, touched, holding in found:
            # units that reach the floor on BM25 alone, in score order
            for uid in sorted(touched, key=acc.__getitem__, reverse=True):
                score = acc[uid] * (1 + eps)
                if score < floor:
                    break
                keep.append((score, (f, uid)))
            # units below it that hold an adjacent pair of query terms: their phrase bonus
            # may lift them
            paired = set().union(*(holding[i] & holding[i + 1] for i in range(len(holding) - 1)))
            for uid in paired:
                score = acc[uid] * (1 + eps)
                if score >= floor:
                    continue  # kept above
                mask = 0
                for i, ids in enumerate(holding):
                    if uid in ids:
                        mask |= 1 << i
                extra = bonus_of.get(mask)
                if extra is None:
                    extra = bonus_of[mask] = sum(b for m, b in pair_bonus if mask & m == m)
                if score + extra >= floor:
                    keep.append((score + extra, (f, uid)))
        return self._rescore(chosen, keep, qterms, idf, avgdl, k, total)

    def _search_np(self, np, chosen: list[FileIndex], qterms: list[str], k: int,  # type: ignore[no-untyped-def]
                   idf: dict[str, float], avgdl: float, pair_bonus: list[tuple[int, float]]
                   ) -> SearchResult:
        """``_search``'s candidate choice with NumPy (the same units, the same floor): the
        postings are added up per unit in C instead of one Python step per posting."""
        found = []
        best: list[float] = []
        for f, fi in enumerate(chosen):
            acc = np.zeros(fi.count)
            holding = []
            for t in qterms:
                entry = fi.postings.get(t)
                has = np.zeros(fi.count, dtype=bool)
                if entry is not None:
                    ids = np.frombuffer(entry[0], dtype=np.uint32)
                    acc[ids] += idf[t] * np.frombuffer(fi.impact(t, avgdl), dtype=np.float64)
                    has[ids] = True
                holding.append(has)
            touched = np.flatnonzero(np.logical_or.reduce(holding)) if holding else np.zeros(0, int)
            if len(touched):
                found.append((f, acc, touched, holding))
                scores = acc[touched]
                best += (np.partition(scores, len(scores) - k)[-k:] if len(scores) > k
                         else scores).tolist()
        if not found:
            return SearchResult([], 0)
        total = sum(len(touched) for _f, _a, touched, _h in found)
        eps = 2 * IMPACT_DRIFT
        floor = heapq.nlargest(k, best)[-1] * (1 - eps) - 1e-9
        keep: list[tuple[float, tuple[int, int]]] = []
        for f, acc, touched, holding in found:
            # each touched unit's bound: its BM25 from the cached parts, with the margin, plus
            # the bonus of every pair of query terms it holds both of
            bound = acc[touched] * (1 + eps)
            paired = np.zeros(len(touched), dtype=bool)
            if len(holding) > 1:
                has = [h[touched] for h in holding]
                bonus = np.zeros(len(touched))
                for i, (_mask, b) in enumerate(pair_bonus):  # added in order, as _search does
                    both = has[i] & has[i + 1]
                    bonus += b * both
                    paired |= both
                bound = bound + bonus
            above = bound >= floor
            keep += [(float(sc), (f, int(uid)), bool(pr)) for sc, uid, pr
                     in zip(bound[above], touched[above], paired[above])]
        return self._rescore_bounded(chosen, keep, qterms, idf, avgdl, k, total)

    def _rescore_bounded(self, chosen: list[FileIndex], keep: list[tuple[float, tuple[int, int], bool]],
                         qterms: list[str], idf: dict[str, float], avgdl: float, k: int,
                         total: int) -> SearchResult:
        """``_rescore`` for kept units whose score is a bound of their exact one (and that
        say whether they hold both terms of an adjacent pair of the query): in bound order,
        until no unit left can enter the first ``k``, each gets its exact score, from the
        postings (its BM25 needs only its term counts and length), or, when its phrase bonus
        depends on word order, from its text read back. Then the first ``k`` (and any unit
        tied with the k-th, whose date breaks the tie) are read back and ranked as
        ``score_candidates`` ranks them."""
        keep.sort(key=lambda x: -x[0])
        exact: dict[tuple[int, int], float] = {}
        pairs_of: dict[int, list[tuple[bytes, float]]] = {}
        kth: list[float] = []
        for i in range(0, len(keep), max(k, 8)):
            batch = keep[i:i + max(k, 8)]
            if len(kth) >= k and batch[0][0] < kth[0] - 1e-9:
                break
            for _b, (f, uid), paired in batch:
                pairs = None
                if paired:
                    pairs = pairs_of.get(f)
                    if pairs is None:
                        pairs = pairs_of[f] = _query_pairs(chosen[f], qterms, idf)
                sc = exact[(f, uid)] = _postings_score(chosen[f], uid, qterms, idf, avgdl, pairs)
                if len(kth) < k:
                    heapq.heappush(kth, sc)
                elif sc > kth[0]:
                    heapq.heapreplace(kth, sc)
        if not exact:
            return SearchResult([], total)
        last = kth[0] if len(kth) >= k else -math.inf
        final = [key for key, sc in exact.items() if sc >= last]
        offsets = _offsets(chosen)
        scored = [(exact[(f, uid)], unit, offsets[f] + uid) for f, uid, unit in self.units(chosen, final)]
        return rank_scored(scored, qterms, k, total)

    def _rescore(self, chosen: list[FileIndex], keep: list[tuple[float, tuple[int, int]]],
                 qterms: list[str], idf: dict[str, float], avgdl: float, k: int, total: int
                 ) -> SearchResult:
        """Read the kept units back and score them exactly (phrase bonus included)."""
        if len(keep) > MAX_RESCORED:
            keep = heapq.nlargest(MAX_RESCORED, keep)
        offsets = _offsets(chosen)
        candidates = [(unit, unit_terms(unit), offsets[f] + uid)
                      for f, uid, unit in self.units(chosen, [key for _s, key in keep])]
        return score_candidates(candidates, qterms, idf, avgdl, k, total)
