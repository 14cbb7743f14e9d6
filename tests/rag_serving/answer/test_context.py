"""The context an answer reads: each group (a comparison's side, a question's part) keeps an equal share."""

import dataclasses

from rag_serving.answer.context import balanced
from tests.rag_serving.answer.test_evidence import hit

NEW = [hit(f"2025 passage {i}", chunk_id=f"n{i}") for i in range(4)]
OLD = [hit(f"2024 passage {i}", chunk_id=f"o{i}") for i in range(2)]
RANKED = [*NEW, *OLD]  # the newer edition's four passages outrank the older edition's two


def test_each_group_keeps_an_equal_share_in_rank_order():
    # k = 4, two groups: two of each, the older edition's no longer crowded out by the newer one's third and fourth.
    assert balanced(RANKED, [NEW, OLD], 4) == [NEW[0], NEW[1], OLD[0], OLD[1]]


def test_places_left_after_the_shares_go_to_the_best_ranked():
    assert balanced(RANKED, [NEW, OLD], 5) == [NEW[0], NEW[1], NEW[2], OLD[0], OLD[1]]


def test_a_groups_hit_the_ranking_lacks_comes_after_the_ranked_ones():
    own = hit("sick leave passage", chunk_id="s")
    assert balanced(NEW, [NEW, [own]], 4) == [NEW[0], NEW[1], NEW[2], own]


def test_the_same_chunk_from_two_searches_is_counted_once():
    again = dataclasses.replace(NEW[0], score=0.5)  # the part's own search scored it differently
    assert balanced(NEW, [[again], NEW[:1]], 3) == [again, NEW[1], NEW[2]]
