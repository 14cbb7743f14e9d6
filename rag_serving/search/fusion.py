"""Reciprocal Rank Fusion of several ranked lists (the SQL statement fuses the two legs the same way)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

RRF_K = 60


def rrf(rankings: Sequence[Sequence[Hashable]], k: int = RRF_K,
        ranks: Sequence[Sequence[int]] | None = None) -> list[tuple[Hashable, float]]:
    """Fuse ranked lists: score(d) = Σ 1 / (k + rank of d in each list), ranks from 1 (or as `ranks` gives them, where
    tied items share one, as the SQL legs rank identical chunks).

    Ties are broken by the best rank a document reached in any list, then by its rank in the first list
    (absent counts as last), then by its id.
    """
    scores: dict[Hashable, float] = {}
    best: dict[Hashable, int] = {}
    first: dict[Hashable, int] = {}
    for i, ranking in enumerate(rankings):
        for rank, item in zip(ranks[i] if ranks else range(1, len(ranking) + 1), ranking):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
            best[item] = min(best.get(item, rank), rank)
            if i == 0:
                first[item] = rank
    return sorted(scores.items(), key=lambda kv: (-kv[1], best[kv[0]], first.get(kv[0], float("inf")), str(kv[0])))
