"""The passages an answer reads: an equal share for each side of a comparison or part of a question, the rest by rank."""

from __future__ import annotations

from collections.abc import Sequence

from rag_serving.search.hits import Hit


def balanced(ranked: Sequence[Hit], groups: Sequence[Sequence[Hit]], k: int) -> list[Hit]:
    """k hits: each group's best k // len(groups) (one side's or one part's own passages), then the best of ranked
    left, so one group's near-duplicates cannot crowd another out. In ranked order; a group's hit that ranked lacks
    comes after those."""
    share = k // max(1, len(groups))
    chosen: dict[str, Hit] = {}
    for group in groups:
        for h in [h for h in group if h.chunk_id not in chosen][:share]:
            chosen[h.chunk_id] = h
    for h in ranked:
        if len(chosen) >= k:
            break
        chosen.setdefault(h.chunk_id, h)
    order = {h.chunk_id: i for i, h in enumerate(ranked)}
    return sorted(list(chosen.values())[:k], key=lambda h: order.get(h.chunk_id, len(ranked)))
