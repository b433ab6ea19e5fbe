"""Semantic recall on PostgreSQL: ``PgSemanticIndex``, unit vectors kept in the database.

The units are ``PgRecallIndex``'s (``recall_units``). Their vectors live in
``recall_vectors`` (embedder id, file index ``fid``, unit, float32 vector), and
``recall_vector_files`` says up to which unit each indexed file has vectors for an embedder:
a log's appended turns are embedded once, by whichever process searches first, and shared
with every other process; a file indexed again (a new ``fid``) gets new vectors, and its old
ones are deleted with its units; another embedder id never mixes with these. Nothing here is
the source of truth.

PostgreSQL has no vector type without an extension (pgvector is not assumed), so the cosine
ranking runs in the client: each process keeps the vectors of the files it searched (loaded
once, then only the rows added since) and multiplies them by the query's vector. The fusion
with BM25 is reciprocal rank (``memtool.recall.semantic.rrf``) over the first
``LEXICAL_DEPTH`` BM25 hits and ``DEPTH`` nearest units, as on a local memory.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Iterable

from memtool.recall.search import SearchResult, _hit, best_line, query_terms
from memtool.recall.semantic import (
    BATCH, DEPTH, EMBED_CHARS, LEXICAL_DEPTH, Embedder, _numpy, fused_result, rrf, similarities,
)
from memtool.stores.postgres.common import _key
from memtool.stores.postgres.recall import PgRecallIndex, unit_of

if TYPE_CHECKING:  # pragma: no cover
    import psycopg


class PgSemanticIndex:
    """Hybrid (BM25 + cosine) search of a PostgreSQL namespace; see the module docstring."""

    def __init__(self, index: PgRecallIndex, embedder: Embedder):
        if not isinstance(embedder, Embedder):
            raise TypeError("embedder must have id, dimension and embed(texts)")
        self.index = index
        self.embedder = embedder
        #: fid -> (last uid loaded, uids, matrix of unit vectors)
        self._cache: dict[int, tuple[int, Any, Any]] = {}
        self._lock = threading.Lock()
        store = index.store
        self._key = _key(b"memtool vectors", store.schema.encode(), store.namespace.encode(),
                         embedder.id.encode())

    def _embed_missing(self, conn: "psycopg.Connection", fids: list[int]) -> None:
        """Embed the units of ``fids`` that have no vector for this embedder yet (one query
        finds them in every file)."""
        np = _numpy()
        s, eid = self.index.store.schema, self.embedder.id
        rows = conn.execute(
            f"SELECT x.f, u.uid, u.line, u.date, u.role, u.raw, u.body, u.context "
            f"FROM unnest(%s::bigint[]) AS x(f) LEFT JOIN {s}.recall_vector_files v "
            f"ON v.embedder = %s AND v.fid = x.f CROSS JOIN LATERAL (SELECT * FROM "
            f"{s}.recall_units r WHERE r.fid = x.f AND r.uid > coalesce(v.upto, 0) "
            f"ORDER BY r.uid) u", [fids, eid]).fetchall()
        by_file: dict[int, list[tuple]] = {}
        for row in rows:
            by_file.setdefault(row[0], []).append(row[1:])
        for fid, units in by_file.items():
            texts = []
            for _uid, line, date, role, raw, body, context in units:
                unit = unit_of("", line, date, role, raw, body, context)
                texts.append((unit.text + ("\n" + unit.context if unit.context else ""))[:EMBED_CHARS])
            vectors = []
            for i in range(0, len(texts), BATCH):
                vectors.extend(self.embedder.embed(texts[i:i + BATCH]))
            mat = np.asarray(vectors, dtype=np.float32).reshape(len(units), self.embedder.dimension)
            norms = np.linalg.norm(mat, axis=1, keepdims=True)
            mat = mat / np.where(norms == 0, 1, norms)
            uids = [r[0] for r in units]
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", [self._key])
                # the file may have been indexed again meanwhile: only its current units
                conn.execute(
                    f"INSERT INTO {s}.recall_vectors (embedder, fid, uid, vec) SELECT %s, %s, u, v "
                    f"FROM unnest(%s::integer[], %s::bytea[]) AS x(u, v) WHERE EXISTS (SELECT 1 "
                    f"FROM {s}.recall_units r WHERE r.fid = %s AND r.uid = x.u) "
                    f"ON CONFLICT DO NOTHING",
                    [eid, fid, uids, [row.tobytes() for row in mat], fid])
                conn.execute(
                    f"INSERT INTO {s}.recall_vector_files (embedder, fid, upto) SELECT %s, %s, %s "
                    f"WHERE EXISTS (SELECT 1 FROM {s}.recall_files WHERE fid = %s) "
                    f"ON CONFLICT (embedder, fid) DO UPDATE SET upto = greatest("
                    f"{s}.recall_vector_files.upto, EXCLUDED.upto)", [eid, fid, uids[-1], fid])

    def _matrices(self, conn: "psycopg.Connection", fids: list[int]) -> dict[int, tuple[Any, Any]]:
        """fid -> (uids, vectors) of each indexed file, from this process's cache and the rows
        added since (one query for every file)."""
        np = _numpy()
        empty = (0, np.zeros(0, dtype=np.int64), np.zeros((0, self.embedder.dimension), dtype=np.float32))
        lasts = [self._cache.get(fid, empty)[0] for fid in fids]
        rows = conn.execute(
            f"SELECT x.f, v.uid, v.vec FROM unnest(%s::bigint[], %s::integer[]) AS x(f, last) "
            f"CROSS JOIN LATERAL (SELECT uid, vec FROM {self.index.store.schema}.recall_vectors "
            f"WHERE embedder = %s AND fid = x.f AND uid > x.last ORDER BY uid) v",
            [fids, lasts, self.embedder.id]).fetchall()
        new: dict[int, list[tuple]] = {}
        for fid, uid, vec in rows:
            new.setdefault(fid, []).append((uid, vec))
        out = {}
        for fid in fids:
            last, uids, mat = self._cache.get(fid, empty)
            added = new.get(fid)
            if added:
                more = np.frombuffer(b"".join(bytes(v) for _u, v in added), dtype=np.float32)
                mat = np.vstack([mat, more.reshape(len(added), self.embedder.dimension)])
                uids = np.concatenate([uids, np.asarray([u for u, _v in added], dtype=np.int64)])
                last = int(uids[-1])
            self._cache[fid] = (last, uids, mat)
            out[fid] = (uids, mat)
        return out

    def search(self, query: str, k: int = 10, paths: Iterable[str] | None = None,
               exclude: Iterable[str] = ()) -> SearchResult:
        """The hybrid ranking: BM25 (answered by the database) and cosine, fused by rank."""
        np = _numpy()
        if not query or not query.strip() or k <= 0:
            return SearchResult([], 0)
        depth = max(DEPTH, k)
        lexical = self.index.search(query, k=max(LEXICAL_DEPTH, k), paths=paths, exclude=exclude)
        roots, skip = self.index.roots(paths, exclude)
        qterms = query_terms(query)
        qv = np.asarray(self.embedder.embed([query])[0], dtype=np.float32)
        qv = qv / (float(np.linalg.norm(qv)) or 1.0)

        def go(conn: "psycopg.Connection") -> list:
            chosen = self.index.chosen(self.index.refresh(conn), roots, skip)
            live = {f.fid for f in chosen}
            for fid in [f for f in self._cache if f not in live]:
                del self._cache[fid]  # indexed again, or not searched: forget
            self._embed_missing(conn, [f.fid for f in chosen])
            floor = float(getattr(self.embedder, "min_similarity", -2.0))
            scored: list[tuple[float, int, int]] = []
            matrices = self._matrices(conn, [f.fid for f in chosen])
            for f in chosen:
                uids, mat = matrices[f.fid]
                if not len(uids):
                    continue
                sims = similarities(mat, qv)
                top = (np.argpartition(-sims, depth - 1)[:depth] if len(sims) > depth
                       else np.arange(len(sims)))
                top = top[sims[top] >= floor]
                scored += zip(sims[top].tolist(), [f.fid] * len(top), uids[top].tolist())
            scored.sort(key=lambda x: (-x[0], x[1], x[2]))
            scored = scored[:depth]
            if not scored:
                return []
            names = {f.fid: f.rel for f in chosen}
            rows = conn.execute(
                f"SELECT fid, uid, line, date, role, raw, body, context FROM "
                f"{self.index.store.schema}.recall_units WHERE (fid, uid) IN (SELECT * FROM "
                f"unnest(%s::bigint[], %s::integer[]))",
                [[x[1] for x in scored], [x[2] for x in scored]]).fetchall()
            units = {(fid, uid): unit_of(names[fid], line, date, role, raw, body, context)
                     for fid, uid, line, date, role, raw, body, context in rows}
            return [(sim, units[(fid, uid)]) for sim, fid, uid in scored if (fid, uid) in units]

        with self._lock:
            semantic = self.index.store._run("", go, retry=True)
        # fused on (file, line) first, as the local ranking does: only the semantic units
        # that make the first k become hits
        pre = len(self.index.prefix)
        keys = [(unit.file[pre:], best_line(unit, qterms)[0]) for _sim, unit in semantic]
        order = rrf([[(h.file, h.line) for h in lexical.hits], keys], k)
        have = {(h.file, h.line): h for h in lexical.hits}
        for (sim, unit), key in zip(semantic, keys):
            if key in order and key not in have:
                hit = have[key] = _hit(unit, sim, qterms)
                hit.file = key[0]
        return fused_result(order, have, keys)
