"""Paired comparisons: counts and bootstrap intervals from hand-made per-question scores."""

from rag_assets.ablation import ConfigRun, compare, markdown
from rag_assets.evaluation import EvalConfig


def run(name, scores, expect=None):
    rows = [{"id": f"q{i}", "expect": (expect or {}).get(i, "answer"), "ndcg@10": s} for i, s in enumerate(scores)]
    return ConfigRun(EvalConfig(name=name), rows, [1.0] * len(rows))


def test_better_worse_same_are_counted_per_question():
    c = compare(run("new", [1, 0.5, 0, 0.2]), run("old", [0, 0.5, 1, 0.1]), "ndcg@10")
    assert (c.better, c.worse, c.same) == (2, 1, 1)
    assert c.mean_diff == (1 + 0 - 1 + 0.1) / 4


def test_consistent_gain_has_an_interval_above_zero():
    new = run("new", [0.9] * 30 + [0.8] * 30)
    old = run("old", [0.5] * 30 + [0.6] * 30)
    c = compare(new, old, "ndcg@10")
    assert c.low > 0 and c.significant


def test_mixed_changes_cross_zero_and_are_not_significant():
    new = run("new", [1, 0, 1, 0, 1, 0, 1, 0])
    old = run("old", [0, 1, 0, 1, 0, 1, 0, 1])
    c = compare(new, old, "ndcg@10")
    assert c.low < 0 < c.high and not c.significant


def test_no_answer_cases_are_left_out_of_the_comparison():
    c = compare(run("new", [1, 1], {1: "abstain"}), run("old", [0, 0], {1: "abstain"}), "ndcg@10")
    assert (c.better, c.worse, c.same) == (1, 0, 0)


def test_bootstrap_is_reproducible():
    new, old = run("new", [0.3, 0.9, 0.4, 0.7, 0.2]), run("old", [0.1, 0.5, 0.6, 0.2, 0.2])
    assert compare(new, old, "ndcg@10") == compare(new, old, "ndcg@10")


def test_markdown_marks_significance():
    result = {"rows": [{"config": "naive", "hit@10": 0.5, "mrr@10": 0.4, "ndcg@10": 0.3, "p50_ms": 1, "p95_ms": 2,
                        "comparisons": [{"against": "x", "metric": "ndcg@10", "better": 1, "worse": 0, "same": 0,
                                         "mean_diff": 0.1, "low": -0.1, "high": 0.2, "significant": False}]}]}
    assert "not significant" in markdown(result)


def answer_run(name, shown, expect):
    rows = [{"id": f"q{i}", "expect": e, "shown": s, "abstained": not s} for i, (s, e) in enumerate(zip(shown, expect))]
    return ConfigRun(EvalConfig(name=name), rows, [1.0] * len(rows))


def test_fewer_false_answers_count_as_better():
    expect = ["abstain", "abstain", "abstain", "answer"]
    new = answer_run("new", [False, False, True, True], expect)
    old = answer_run("old", [True, True, True, True], expect)
    c = compare(new, old, "false_answer")
    # Only the three no-answer cases count: two stopped answering (better), one unchanged.
    assert (c.better, c.worse, c.same) == (2, 0, 1) and c.mean_diff == -2 / 3


def test_more_abstentions_on_answerable_questions_count_as_worse():
    expect = ["abstain", "answer", "answer"]
    new = answer_run("new", [False, False, True], expect)
    old = answer_run("old", [True, True, True], expect)
    c = compare(new, old, "over_abstention")
    assert (c.better, c.worse, c.same) == (0, 1, 1)


def test_each_row_is_measured_against_an_earlier_row_it_names():
    from rag_assets.ablation import ablation_configs

    rows = ablation_configs(5, 50, helper=True)
    names = [r.name for r in rows]
    for i, row in enumerate(rows):
        if row.compare_to:
            assert row.compare_to in names[:i], row.name
    # Alternatives are measured against the pipeline without them, not stacked on each other.
    learned = "+ learned reranker (50 candidates)"
    assert {r.name for r in rows if r.compare_to == learned} == {
        "learned + MMR λ 0.7", "learned + synonyms (YAML)", "learned + multi-query", "learned + HyDE",
        "learned + query rewriting", "learned + parent sections", "learned + grounding check, confidence routing ≥ 0.8"}


def test_public_sets_get_retrieval_rows_only_and_no_model_rows_without_a_helper():
    from rag_assets.ablation import ablation_configs

    rows = ablation_configs(10, 50, answer=False, synonyms=False)
    assert [r.name for r in rows] == ["naive: dense top-10", "+ BM25 hybrid (RRF)",
                                      "+ late interaction MaxSim (100 candidates)", "+ learned reranker (50 candidates)",
                                      "learned + MMR λ 0.7"]
    assert not any(r.answer for r in rows)


def test_shipped_rows_keep_the_path_to_the_shipped_pipeline_each_against_the_one_before():
    from rag_assets.ablation import ablation_configs, shipped_rows
    from rag_assets.evaluation import EvalConfig

    full = EvalConfig(name="full pipeline as configured", rerank="learned", abstain=True)
    rows = shipped_rows(ablation_configs(5, 50, helper=True, full=full))
    assert [(r.name, r.compare_to) for r in rows] == [
        ("naive: dense top-5", None),
        ("+ BM25 hybrid (RRF)", "naive: dense top-5"),
        ("+ learned reranker (50 candidates)", "+ BM25 hybrid (RRF)"),
        ("learned + grounding check, confidence routing ≥ 0.8", "+ learned reranker (50 candidates)"),
        ("full pipeline as configured", "naive: dense top-5"),
    ]
