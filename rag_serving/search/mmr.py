"""Maximal marginal relevance: reorder hits to trade relevance against redundancy, with relevance min-max normalized
so that lambda means the same whatever scale the incoming scores have (RRF, BM25, cosine, reranker)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def normalize(scores: Sequence[float]) -> np.ndarray:
    """Min-max to [0, 1]; all-equal scores become 1 (no preference between them)."""
    s = np.asarray(scores, dtype=np.float64)
    if s.size == 0:
        return s
    low, high = float(s.min()), float(s.max())
    return np.ones_like(s) if high == low else (s - low) / (high - low)


def mmr(scores: Sequence[float], vectors: np.ndarray, k: int, lam: float = 0.7) -> list[int]:
    """Indices of k items chosen greedily by lam · relevance − (1 − lam) · max cosine to those already chosen.

    vectors are the items' embeddings (any norm; cosine is taken). lam = 1 keeps the incoming order.
    """
    if not 0.0 <= lam <= 1.0:
        raise ValueError(f"MMR lambda must be within [0, 1], got {lam}")
    relevance = normalize(scores)
    n = len(relevance)
    if n == 0 or k <= 0:
        return []
    v = np.asarray(vectors, dtype=np.float64)
    v = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    similarity = v @ v.T
    chosen: list[int] = []
    redundancy = np.zeros(n)  # max similarity of each item to the chosen set
    available = np.ones(n, dtype=bool)
    while len(chosen) < min(k, n):
        value = lam * relevance - (1.0 - lam) * redundancy
        value[~available] = -np.inf
        best = int(np.argmax(value))  # ties go to the earlier (higher-ranked) item
        chosen.append(best)
        available[best] = False
        redundancy = np.maximum(redundancy, similarity[best])
    return chosen
