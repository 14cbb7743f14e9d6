"""Retrieval metrics with graded relevance: hit@k, MRR@k, NDCG@k, Recall@k, Precision@k."""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence


def hit_at_k(ranked: Sequence[Hashable], relevant: Mapping[Hashable, int], k: int) -> float:
    return 1.0 if any(relevant.get(d, 0) > 0 for d in ranked[:k]) else 0.0


def mrr_at_k(ranked: Sequence[Hashable], relevant: Mapping[Hashable, int], k: int) -> float:
    for i, d in enumerate(ranked[:k], start=1):
        if relevant.get(d, 0) > 0:
            return 1.0 / i
    return 0.0


def dcg(gains: Sequence[int]) -> float:
    """Σ (2^rel − 1) / log2(i + 1), positions from 1."""
    return sum((2**g - 1) / math.log2(i + 1) for i, g in enumerate(gains, start=1))


def ndcg_at_k(ranked: Sequence[Hashable], relevant: Mapping[Hashable, int], k: int) -> float:
    ideal = dcg(sorted((g for g in relevant.values() if g > 0), reverse=True)[:k])
    if ideal == 0:
        return 0.0
    return dcg([relevant.get(d, 0) for d in ranked[:k]]) / ideal


def recall_at_k(ranked: Sequence[Hashable], relevant: Mapping[Hashable, int], k: int) -> float:
    wanted = {d for d, g in relevant.items() if g > 0}
    if not wanted:
        return 0.0
    return len(wanted & set(ranked[:k])) / len(wanted)


def precision_at_k(ranked: Sequence[Hashable], relevant: Mapping[Hashable, int], k: int) -> float:
    return sum(1 for d in ranked[:k] if relevant.get(d, 0) > 0) / k
