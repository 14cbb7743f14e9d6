import numpy as np
import pytest

from rag_serving.search.mmr import mmr, normalize

# Three hits: a and b are near-duplicates, c is different.
VECTORS = np.array([[1.0, 0.0], [0.96, 0.28], [0.0, 1.0]])  # cos(a, b) = 0.96, cos(a, c) = 0, cos(b, c) = 0.28


def test_normalize_is_min_max_and_equal_scores_become_one():
    assert normalize([0.5, 0.3, 0.1]).round(6).tolist() == [1.0, 0.5, 0.0]
    assert normalize([2.0, 2.0]).tolist() == [1.0, 1.0]


def test_a_near_duplicate_gives_way_to_a_different_hit():
    # relevance after normalizing [0.9, 0.8, 0.5]: a 1, b 0.75, c 0.
    # step 1: a (0.7 · 1). step 2, lam 0.7: b = 0.7·0.75 − 0.3·0.96 = 0.237; c = 0.7·0 − 0.3·0 = 0 → b.
    assert mmr([0.9, 0.8, 0.5], VECTORS, k=3, lam=0.7) == [0, 1, 2]
    # lam 0.5: b = 0.375 − 0.48 = −0.105; c = 0 − 0 = 0 → c comes second.
    assert mmr([0.9, 0.8, 0.5], VECTORS, k=3, lam=0.5) == [0, 2, 1]


def test_lambda_means_the_same_at_any_score_scale():
    assert mmr([90, 80, 50], VECTORS, k=3, lam=0.5) == mmr([0.009, 0.008, 0.005], VECTORS, k=3, lam=0.5)


def test_lambda_one_keeps_the_incoming_order():
    assert mmr([0.9, 0.8, 0.5], VECTORS, k=2, lam=1.0) == [0, 1]


def test_lambda_outside_zero_one_is_refused():
    with pytest.raises(ValueError, match="within \\[0, 1\\]"):
        mmr([1.0], VECTORS[:1], k=1, lam=1.5)
