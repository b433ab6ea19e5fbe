"""Ranked recall on PostgreSQL, answered by the database: ``PgRecallIndex``.

The same ranking as ``memtool.recall`` (BM25 over Snowball stems, the phrase bonus, the newer
date then the later unit on ties), with an inverted index kept in the database beside the
files, so a search sends a few kilobytes each way instead of pulling the history into the
client. Tables (schema version 10; derived data, never the source of truth):

* ``recall_files``: per file, what is indexed: its ``fid`` (numbers one indexing of it), the
  content id and version indexed, the bytes and lines indexed, its units and their length;
* ``recall_units``: per unit (a turn of a JSONL log, an entry or paragraph of any other text
  file), its line, date, role, the file's line (``raw``), its terms in order (``seq``,
  separated by ``SEP``) and, for text files, its text and heading;
* ``recall_postings``: per (file, term, unit), the term's count and the unit's length in
  terms (primary key ``(fid, term, uid)``: the postings of a query term in the searched files
  are one index range each);
* ``recall_terms``: per file, each term's document frequency.

Keeping it current needs no change on the write path: before a search, one query compares
every file's content id and version with ``recall_files``. A log (``*.jsonl``) whose content
id is unchanged and that is longer has only been appended to (the store gives a rewritten
file a new content id), so only its new complete lines are read and indexed; any other
change indexes the file again under a new ``fid``; files gone, hidden or binary lose their
rows. The catch-up runs in one transaction under an advisory lock per namespace, so
concurrent searchers index each change once and never see half of one; the index is shared by
every process and machine on the database.

A search asks the database for the query terms' postings in the searched files, each list
packed into three arrays (units, counts, lengths; a few bytes a posting: the history itself
never leaves the database), adds BM25 up per unit with NumPy, bounds each unit's score by its
BM25 plus the phrase bonus of every adjacent pair of query terms it holds both of, and scores
units exactly best bound first (a batch of the units' term sequences per round trip, for the
units holding a pair: the bonus needs word order), until no unit left can enter the first
``k``; only those are read back whole. The scores are ``unit_score``'s, float for float (the
same operations in the same order), so the answer is the local index's; the one difference:
terms are kept to ``MAX_TERM`` characters, so two terms longer than that and alike in their
first ``MAX_TERM`` count as one.

Why not ``ts_rank`` over a ``tsvector``: it is not BM25 (no document frequencies); BM25
computed in SQL from each candidate's ``tsvector`` measured 40-400 ms a query on a 10 MB
history, summed in SQL from the postings 10-35 ms, from the packed postings here 2-15 ms.
"""

from __future__ import annotations

import heapq
import math
import threading
from collections import Counter
from typing import TYPE_CHECKING, Iterable

from memtool.recall.search import (
    B, HIDDEN_DIRS, K1, PHRASE_WEIGHT, SearchResult, query_terms, rank_scored,
)
from memtool.recall.text import terms
from memtool.recall.units import Unit, text_units, turn_unit, unit_terms
from memtool.recall.index import _numpy
from memtool.stores.postgres.common import _decode, _encode_path, _key

if TYPE_CHECKING:  # pragma: no cover
    import psycopg

    from memtool.stores.postgres.store import PostgresStore

#: Characters of a term kept in the database (a B-tree entry must stay under 2.7 KB).
MAX_TERM = 400
#: Separates the terms of ``recall_units.seq`` (never in a term: terms are ``\\w+`` words).
SEP = "\x1f"
#: Units read back per round trip: max(this, 4 k).
SQL_DEPTH = 100
#: Rows sent per COPY while indexing.
BATCH_ROWS = 20000


def _clean(text: str) -> str:
    """Text as PostgreSQL's ``text`` can hold it (no NUL)."""
    return text.replace("\0", "\ufffd") if "\0" in text else text


def _visible(rel: str) -> bool:
    """A file search covers: no component hidden (``.name``) or ``node_modules``."""
    return not any(p.startswith(".") or p in HIDDEN_DIRS for p in rel.split("/"))


def _under(rel: str, root: str) -> bool:
    return not root or rel == root or rel.startswith(root.rstrip("/") + "/")


def unit_of(rel: str, line: int, date: str, role: str, raw: str, body: str | None,
            context: str | None) -> Unit:
    """The ``Unit`` of a ``recall_units`` row (a log's turn is parsed again from its line)."""
    if body is None:
        return turn_unit(rel, line, raw)
    return Unit(rel, line, body, body.split("\n"), date=date, role=role, context=context or "")


class _File:
    """One file's row of the state query: the store's side and the index's side."""

    __slots__ = ("rel", "cid", "size", "version", "fid", "icid", "iversion", "end", "partial",
                 "units", "total")

    def __init__(self, rel: str, row: tuple):
        self.rel = rel
        (self.cid, self.size, self.version, self.fid, self.icid, self.iversion, self.end,
         self.partial, self.units, self.total) = row

    def action(self) -> str | None:
        """None (current), "drop", "build" or "append"."""
        if self.size is None:
            return "drop"
        if self.fid is None:
            return "build"
        if self.icid == self.cid and self.iversion == self.version:
            return None
        if (self.rel.endswith(".jsonl") and self.icid == self.cid and not self.partial
                and self.size > self.end):
            return "append"
        return "build"


class PgRecallIndex:
    """Ranked search of one PostgreSQL namespace, kept and answered in the database (see the
    module docstring). The same ``search`` as ``memtool.recall.index.RecallIndex``."""

    def __init__(self, store: "PostgresStore", prefix: str = ""):
        self.store = store
        #: A scope's directory (``scopes/NAME/``): only its files are searched, and hits are
        #: named relative to it.
        self.prefix = prefix.strip("/") + "/" if prefix.strip("/") else ""
        self._lock = threading.Lock()
        self._ns_key = _key(b"memtool recall", store.schema.encode(), store.namespace.encode())

    # -- keeping it current --------------------------------------------------------------

    def _state(self, conn: "psycopg.Connection") -> dict[str, _File]:
        """Every visible file of the namespace and every indexed one, in one query."""
        s = self.store.schema
        rows = conn.execute(
            f"SELECT n.path, n.cid, n.size + coalesce(p.bytes, 0), greatest(n.version, p.seq), "
            f"r.fid, r.cid, r.version, r.indexed_end, r.partial, r.units, r.total_len "
            f"FROM {s}.nodes n LEFT JOIN LATERAL (SELECT sum(octet_length(data)) AS bytes, "
            f"max(seq) AS seq FROM {s}.pending WHERE cid = n.cid) p ON true "
            f"LEFT JOIN {s}.recall_files r ON r.ns = n.ns AND r.path = n.path "
            f"WHERE n.ns = %(ns)s AND n.kind = 'f' "
            f"UNION ALL SELECT r.path, NULL, NULL, NULL, r.fid, r.cid, r.version, r.indexed_end, "
            f"r.partial, r.units, r.total_len FROM {s}.recall_files r WHERE r.ns = %(ns)s "
            f"AND NOT EXISTS (SELECT 1 FROM {s}.nodes n WHERE n.ns = r.ns AND n.path = r.path "
            f"AND n.kind = 'f')", {"ns": self.store.namespace}).fetchall()
        files = {}
        for row in rows:
            rel = _decode(bytes(row[0]))
            f = _File(rel, row[1:])
            if not _visible(rel) and f.size is not None:  # hidden: never searched, in any scope
                if f.fid is None:
                    continue
                f.size = None
            files[rel] = f
        return files

    def refresh(self, conn: "psycopg.Connection") -> dict[str, _File]:
        """Bring the namespace's index up to date; the current visible files."""
        files = self._state(conn)
        if any(f.action() for f in files.values()):
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", [self._ns_key])
                files = self._state(conn)  # again, under the lock
                for f in files.values():
                    action = f.action()
                    if action == "drop" or action == "build":
                        self._forget(conn, f)
                    if action == "build" or action == "append":
                        self._index(conn, f, append=action == "append")
        return {rel: f for rel, f in files.items() if f.size is not None}

    def _forget(self, conn: "psycopg.Connection", f: _File) -> None:
        s = self.store.schema
        if f.fid is not None:
            for table in ("recall_units", "recall_postings", "recall_terms", "recall_vectors",
                          "recall_vector_files"):
                conn.execute(f"DELETE FROM {s}.{table} WHERE fid = %s", [f.fid])
        conn.execute(f"DELETE FROM {s}.recall_files WHERE ns = %s AND path = %s",
                     [self.store.namespace, _encode_path(f.rel)])

    def _read(self, rel: str, start: int) -> bytes:
        from sandbox.fs.base import FSError

        try:
            with self.store.open_read(rel) as fh:
                if start:
                    fh.seek(start)
                return fh.read()
        except FSError:
            return b""

    def _index(self, conn: "psycopg.Connection", f: _File, append: bool) -> None:
        """Index ``f`` whole, or (``append``) the log's lines after its indexed end."""
        s, ns = self.store.schema, self.store.namespace
        if append:
            fid, start = f.fid, f.end
            lines, units_n, total = conn.execute(
                f"SELECT lines, units, total_len FROM {s}.recall_files WHERE ns = %s AND path = %s",
                [ns, _encode_path(f.rel)]).fetchone()
        else:
            fid = conn.execute(f"SELECT nextval('{s}.recall_fid_seq')").fetchone()[0]
            start = lines = units_n = total = 0
        data = self._read(f.rel, start)
        if start == 0 and b"\0" in data[:8192]:
            data = b""  # a binary file: no units
        units: list[tuple] = []
        postings: list[tuple] = []
        df: Counter[str] = Counter()
        partial = False

        def add(uid: int, line: int, uterms: list[str], row: tuple) -> None:
            nonlocal total
            units.append((fid, uid, line) + row + (SEP.join(uterms),))
            counts = Counter(t[:MAX_TERM] for t in uterms)
            n = len(uterms)
            postings.extend((fid, t, uid, c, n) for t, c in counts.items())
            df.update(counts.keys())
            total += n

        if f.rel.endswith(".jsonl"):
            cut = data.rfind(b"\n") + 1
            if data[cut:].strip():
                cut, partial = len(data), True  # an unterminated last line: any change rebuilds
            end = start + cut
            pieces = data[:cut].split(b"\n")
            for piece in pieces if partial else pieces[:-1]:
                lines += 1
                if not piece.strip():
                    continue
                unit = turn_unit(f.rel, lines, piece.decode("utf-8", "replace").rstrip("\r"))
                add(lines, lines, terms(unit.text),
                    (_clean(unit.date), _clean(unit.role), _clean(unit.lines[0]), None, None))
        else:
            end = len(data)
            for n, unit in enumerate(text_units(f.rel, data.decode("utf-8", "replace")), 1):
                uterms = unit_terms(unit)
                add(n, unit.line, uterms,
                    (_clean(unit.date), "", _clean(unit.lines[0] if unit.lines else unit.text),
                     _clean(unit.text), _clean(unit.context)))
        units_n += len(units)
        self._copy(conn, f"{s}.recall_units (fid, uid, line, date, role, raw, body, context, seq)",
                   units)
        # in term order, so a term's postings share heap pages (a search reads a few pages,
        # not one per posting)
        postings.sort(key=lambda r: r[1])
        self._copy(conn, f"{s}.recall_postings (fid, term, uid, tf, len)", postings)
        if df:
            conn.execute(
                f"INSERT INTO {s}.recall_terms (fid, term, df) SELECT %s, t, d "
                f"FROM unnest(%s::text[], %s::integer[]) AS x(t, d) ON CONFLICT (fid, term) "
                f"DO UPDATE SET df = {s}.recall_terms.df + EXCLUDED.df",
                [fid, list(df), list(df.values())])
        conn.execute(
            f"INSERT INTO {s}.recall_files (ns, path, fid, cid, version, indexed_end, partial, "
            f"lines, units, total_len) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
            f"ON CONFLICT (ns, path) DO UPDATE SET cid = EXCLUDED.cid, version = EXCLUDED.version, "
            f"indexed_end = EXCLUDED.indexed_end, partial = EXCLUDED.partial, lines = EXCLUDED.lines, "
            f"units = EXCLUDED.units, total_len = EXCLUDED.total_len",
            [ns, _encode_path(f.rel), fid, f.cid, f.version, end, partial, lines, units_n, total])
        f.fid, f.icid, f.iversion, f.end, f.partial, f.units, f.total = (
            fid, f.cid, f.version, end, partial, units_n, total)

    @staticmethod
    def _copy(conn: "psycopg.Connection", target: str, rows: list[tuple]) -> None:
        for i in range(0, len(rows), BATCH_ROWS):
            with conn.cursor().copy(f"COPY {target} FROM STDIN") as copy:
                for r in rows[i:i + BATCH_ROWS]:
                    copy.write_row(r)

    # -- searching -----------------------------------------------------------------------

    def search(self, query: str, k: int = 10, paths: Iterable[str] | None = None,
               exclude: Iterable[str] = ()) -> SearchResult:
        """The ``k`` best units for ``query`` under ``paths`` (default: the whole memory),
        minus ``exclude``; the answer ``memtool.recall.search.search`` gives."""
        qterms = query_terms(query)
        if not qterms or k <= 0:
            return SearchResult([], 0)
        pre = self.prefix
        roots, skip = self.roots(paths, exclude)
        with self._lock:
            result = self.store._run("", lambda conn: self._search(conn, qterms, k, roots, skip),
                                     retry=True)
        for hit in result.hits:
            hit.file = hit.file[len(pre):]
        return result

    def roots(self, paths: Iterable[str] | None, exclude: Iterable[str]) -> tuple[list[str], set[str]]:
        """Search roots and excluded files as namespace paths (inside the scope)."""
        pre = self.prefix
        roots = [pre + r.strip("/") for r in paths] if paths is not None else [pre.rstrip("/")]
        return roots, {pre + e for e in exclude}

    def chosen(self, files: dict[str, _File], roots: list[str], skip: set[str]) -> list[_File]:
        """The indexed files a search covers, in reading order (recency ties)."""
        pre = self.prefix
        return sorted((f for rel, f in files.items() if rel not in skip and f.units
                       and any(_under(rel, r) for r in roots)
                       and _visible(rel[len(pre):] if rel.startswith(pre) else rel)),
                      key=lambda f: f.rel.split("/"))

    def _search(self, conn: "psycopg.Connection", qterms: list[str], k: int, roots: list[str],
                skip: set[str]) -> SearchResult:
        np = _numpy()
        s = self.store.schema
        chosen = self.chosen(self.refresh(conn), roots, skip)
        n = sum(f.units for f in chosen)
        if not n:
            return SearchResult([], 0)
        avgdl = max(sum(f.total for f in chosen) / n, 1.0)
        keys = list(dict.fromkeys(t[:MAX_TERM] for t in qterms))
        # the query terms' postings in the searched files, each list as three packed arrays
        # (one aggregate call sees the rows in one order, so the three stay aligned)
        rows = conn.execute(
            f"SELECT term, fid, string_agg(int4send(uid), ''::bytea), "
            f"string_agg(int4send(tf), ''::bytea), "
            f"string_agg(int4send(len), ''::bytea) FROM {s}.recall_postings "
            f"WHERE fid = ANY(%s) AND term = ANY(%s) GROUP BY term, fid",
            [[f.fid for f in chosen], keys]).fetchall()
        postings: dict[int, dict[str, tuple]] = {}
        df = dict.fromkeys(keys, 0)
        for term, fid, uids, tfs, lens in rows:
            arrays = tuple(np.frombuffer(bytes(b), dtype=">i4").astype(np.int64) for b in (uids, tfs, lens))
            postings.setdefault(fid, {})[term] = arrays
            df[term] += len(arrays[0])
        idf = {t: math.log(1 + (n - df[t[:MAX_TERM]] + 0.5) / (df[t[:MAX_TERM]] + 0.5)) for t in qterms}
        pairs = [(i, PHRASE_WEIGHT * (idf[a] + idf[b]) / 2, f"{SEP}{a}{SEP}{b}{SEP}")
                 for i, (a, b) in enumerate(zip(qterms, qterms[1:]))]
        # each unit's BM25 (computed here as unit_score computes it) and a bound of its score:
        # plus the phrase bonus of every adjacent pair of query terms it holds both of (word
        # order is in its term sequence only)
        parts, total = [], 0
        for fid, terms_of in postings.items():
            top = max(int(a[0].max()) for a in terms_of.values()) + 1
            acc = np.zeros(top)
            held = []
            for t in qterms:
                arrays = terms_of.get(t[:MAX_TERM])
                has = np.zeros(top, dtype=bool)
                if arrays is not None:
                    uids, tf, ln = arrays
                    acc[uids] += idf[t] * tf * (K1 + 1) / (tf + K1 * (1 - B + B * ln / avgdl))
                    has[uids] = True
                held.append(has)
            touched = np.flatnonzero(np.logical_or.reduce(held))
            total += len(touched)
            bm25 = acc[touched]
            bound = bm25 * (1 + 1e-9) + 1e-9
            paired = np.zeros(len(touched), dtype=bool)
            for i, b, _p in pairs:
                both = held[i][touched] & held[i + 1][touched]
                bound += b * both
                paired |= both
            parts.append((bound, np.full(len(touched), fid), touched, bm25, paired))
        if not parts:
            return SearchResult([], 0)
        bound, fids, uids, bm25, paired = (np.concatenate([p[j] for p in parts]) for j in range(5))
        order = np.argsort(-bound, kind="stable")
        names = {f.fid: f.rel for f in chosen}
        rank = {f.fid: i for i, f in enumerate(chosen)}
        # exact scores best bound first, a batch at a time (one round trip for the term
        # sequences of the batch's units that hold a pair), until no unit left can enter the
        # first k; then only the units that make it are read back
        step = max(SQL_DEPTH, 4 * k)
        kth: list[float] = []
        exact: dict[tuple[int, int], float] = {}
        for at in range(0, len(order), step):
            batch = order[at:at + step]
            if len(kth) >= k and bound[batch[0]] < kth[0] - 1e-9:
                break
            need = batch[paired[batch]]
            seqs: dict[tuple[int, int], str] = {}
            if len(need):
                seqs = {(fid, uid): seq for fid, uid, seq in conn.execute(
                    f"SELECT u.fid, u.uid, u.seq FROM {s}.recall_units u "
                    f"JOIN unnest(%s::bigint[], %s::integer[]) AS x(f, i) "
                    f"ON u.fid = x.f AND u.uid = x.i",
                    [fids[need].tolist(), uids[need].tolist()]).fetchall()}
            for j in batch.tolist():
                key = (int(fids[j]), int(uids[j]))
                score = float(bm25[j])
                if paired[j]:
                    seq = f"{SEP}{seqs.get(key, '')}{SEP}"
                    for _i, b, pattern in pairs:
                        if pattern in seq:
                            score += b
                score = exact[key] = round(score, 9)
                if len(kth) < k:
                    heapq.heappush(kth, score)
                elif score > kth[0]:
                    heapq.heapreplace(kth, score)
        last = kth[0] if len(kth) >= k else -math.inf
        final = [key for key, sc in exact.items() if sc >= last]
        got = conn.execute(
            f"SELECT u.fid, u.uid, u.line, u.date, u.role, u.raw, u.body, u.context "
            f"FROM {s}.recall_units u JOIN unnest(%s::bigint[], %s::integer[]) AS x(f, i) "
            f"ON u.fid = x.f AND u.uid = x.i",
            [[f for f, _u in final], [u for _f, u in final]]).fetchall()
        scored = [(exact[(fid, uid)], unit_of(names[fid], line, date, role, raw, body, context),
                   (rank[fid] << 32) + uid)
                  for fid, uid, line, date, role, raw, body, context in got]
        return rank_scored(scored, qterms, k, total)
