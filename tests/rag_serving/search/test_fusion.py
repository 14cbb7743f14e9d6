"""Reciprocal Rank Fusion, worked by hand."""

import pytest

from rag_serving.search.fusion import rrf


def test_seed_example_dense_abc_sparse_cad_fuses_to_acbd():
    fused = rrf([["a", "b", "c"], ["c", "a", "d"]], k=60)
    assert [d for d, _ in fused] == ["a", "c", "b", "d"]
    scores = dict(fused)
    assert scores["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert scores["c"] == pytest.approx(1 / 63 + 1 / 61)
    assert scores["b"] == pytest.approx(1 / 62)
    assert scores["d"] == pytest.approx(1 / 63)


def test_three_lists_add_up():
    fused = dict(rrf([["x"], ["x"], ["y", "x"]], k=60))
    assert fused["x"] == pytest.approx(2 / 61 + 1 / 62)
    assert fused["y"] == pytest.approx(1 / 61)


def test_equal_scores_break_ties_by_best_rank_then_id():
    # b and c both score 1/61 + 1/62; b reached rank 1, and so did c: the id decides.
    fused = rrf([["b", "c"], ["c", "b"]], k=60)
    assert [d for d, _ in fused] == ["b", "c"]


def test_mirrored_ranks_tie_and_the_first_lists_order_decides_not_the_id():
    # "z" is 1st in the first list and 3rd in the second; "a" the reverse: 1/61 + 1/63 both.
    fused = rrf([["z", "m", "a"], ["a", "m", "z"]])
    assert [item for item, _ in fused] == ["z", "a", "m"]
    assert fused[0][1] == fused[1][1]


def test_items_a_list_ranks_tied_share_its_rank():
    # "a" and "b" tie at rank 1 of the first list: each gets 1/61 from it, and "b" leads on the second list.
    fused = dict(rrf([["a", "b"], ["b", "a"]], k=60, ranks=[[1, 1], [1, 2]]))
    assert fused["a"] == 1 / 61 + 1 / 62 and fused["b"] == 2 / 61
