"""The hybrid leg's final order, made in Python after the statement returns the rows tied at its cut."""

import dataclasses

from rag_serving.search.legs import fused_order
from tests.rag_serving.search.test_editions import hit

SCORE = 1 / 61 + 1 / 63  # ranks 1 and 3 under RRF k = 60


def fused(chunk_id: str, year: int, dense: int | None, sparse: int | None, score: float = SCORE):
    return dataclasses.replace(hit(chunk_id, f"Handbook {year}", year), score=score, dense_rank=dense,
                               sparse_rank=sparse)


def test_identical_chunks_of_two_editions_put_the_later_first_whatever_their_ids():
    old, new = fused("a-2024", 2024, 1, 3), fused("z-2025", 2025, 1, 3)
    assert [h.chunk_id for h in sorted([old, new], key=fused_order)] == ["z-2025", "a-2024"]


def test_a_mirrored_rank_pair_goes_to_the_better_dense_rank_before_any_date():
    dense_first, sparse_first = fused("b", 2024, 1, 3), fused("a", 2025, 3, 1)
    assert [h.chunk_id for h in sorted([sparse_first, dense_first], key=fused_order)] == ["b", "a"]


def test_the_fused_score_decides_first_and_a_missing_date_goes_last():
    best = fused("c", 2020, 2, 2, score=SCORE + 1e-9)
    undated = dataclasses.replace(fused("a", 2025, 1, 3), published_on=None)
    dated = fused("d", 2025, 1, 3)
    assert [h.chunk_id for h in sorted([undated, dated, best], key=fused_order)] == ["c", "d", "a"]


def test_at_one_rank_in_one_leg_the_dense_hit_comes_before_the_sparse_one():
    dense_only, sparse_only = fused("b", 2024, 1, None, 1 / 61), fused("a", 2025, None, 1, 1 / 61)
    assert [h.chunk_id for h in sorted([sparse_only, dense_only], key=fused_order)] == ["b", "a"]
