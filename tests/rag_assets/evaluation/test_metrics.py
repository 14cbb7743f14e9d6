"""Metrics from hand-worked examples."""

import pytest

from rag_assets.evaluation.metrics import hit_at_k, mrr_at_k, ndcg_at_k, precision_at_k, recall_at_k

RANKED = ["c7", "c2", "c9", "c4"]
RELEVANT = {"c2": 1, "c4": 1}


def test_seed_example_hit_at_1_and_2():
    assert hit_at_k(RANKED, RELEVANT, 1) == 0 and hit_at_k(RANKED, RELEVANT, 2) == 1


def test_seed_example_reciprocal_rank():
    assert mrr_at_k(RANKED, RELEVANT, 10) == 0.5


def test_seed_example_ndcg_at_4():
    # DCG = 1/log2(3) + 1/log2(5) = 0.63093 + 0.43068; ideal = 1 + 1/log2(3) = 1.63093
    assert ndcg_at_k(RANKED, RELEVANT, 4) == pytest.approx(0.65092, abs=1e-5)


def test_graded_relevance_uses_two_to_the_grade_minus_one():
    # one grade-2 hit at rank 2: (2^2-1)/log2(3) over ideal 3/1
    assert ndcg_at_k(["x", "a"], {"a": 2}, 2) == pytest.approx((3 / 1.5849625) / 3, abs=1e-6)


def test_recall_and_precision():
    assert recall_at_k(RANKED, RELEVANT, 2) == 0.5 and precision_at_k(RANKED, RELEVANT, 4) == 0.5


def test_no_relevant_documents_scores_zero_not_an_error():
    assert ndcg_at_k(RANKED, {}, 10) == 0.0 and recall_at_k(RANKED, {}, 10) == 0.0
