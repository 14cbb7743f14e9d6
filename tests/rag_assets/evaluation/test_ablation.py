"""Paired comparisons: counts and bootstrap intervals from hand-made per-question scores."""

from rag_assets.evaluation.ablation import ablation_rows, compare, naive, shipped_rows
from rag_assets.evaluation.report import markdown
from rag_assets.evaluation.runs import Row, RowRun
from rag_serving.spec import DEFAULT_SPEC, PipelineSpec


def run(name, scores, expect=None):
    rows = [{"id": f"q{i}", "expect": (expect or {}).get(i, "answer"), "ndcg@10": s} for i, s in enumerate(scores)]
    return RowRun(Row(name, DEFAULT_SPEC), rows, [1.0] * len(rows))


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
    return RowRun(Row(name, DEFAULT_SPEC), rows, [1.0] * len(rows))


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
    rows = ablation_rows(DEFAULT_SPEC, synonyms="synonyms.yaml", helper=True)
    names = [r.name for r in rows]
    for i, row in enumerate(rows):
        if row.compare_to:
            assert row.compare_to in names[:i], row.name
    # Alternatives are measured against the pipeline without them, not stacked on each other.
    learned = "+ learned reranker (50 candidates)"
    assert {r.name for r in rows if r.compare_to == learned} == {
        "learned + MMR λ 0.7", "learned + current editions first", "learned + contents pages last",
        "learned + synonyms (YAML)",
        "learned + multi-query", "learned + HyDE", "learned + query rewriting", "learned + parent sections",
        "learned + grounding check, learned routing ≥ 0.5", "learned + grounding check, formula routing ≥ 0.8"}
    # The learned answer selector is measured on top of routing, where what is shown depends on the quote.
    assert next(r.compare_to for r in rows if r.name == "learned routing + learned answer selection") == \
        "learned + grounding check, learned routing ≥ 0.5"


def test_every_row_is_a_variant_of_the_shipped_spec_and_the_last_is_the_shipped_spec():
    shipped = PipelineSpec(k=7, candidates=80, bm25_k1=1.5, generator="openai", helper_url="http://h/v1")
    rows = ablation_rows(shipped, synonyms="synonyms.yaml", helper=True)
    assert rows[-1].name == "full pipeline as configured" and rows[-1].spec == shipped
    assert rows[0].spec == naive(shipped) and (rows[0].spec.mode, rows[0].spec.reranker) == ("dense", "none")
    # What a row does not ablate it keeps from the shipped spec: k, candidates, BM25, the generator.
    for row in rows:
        assert (row.spec.k, row.spec.candidates, row.spec.bm25_k1, row.spec.generator) == (7, 80, 1.5, "openai")
    by_name = {r.name: r.spec for r in rows}
    assert by_name["+ late interaction MaxSim (100 candidates)"] == by_name["+ BM25 hybrid (RRF)"].replace(
        reranker="maxsim", rerank_depth=100)
    assert by_name["learned + MMR λ 0.7"] == by_name["+ learned reranker (50 candidates)"].replace(mmr_lambda=0.7)


def test_public_sets_get_retrieval_rows_only_and_no_model_rows_without_a_helper():
    rows = ablation_rows(DEFAULT_SPEC.replace(k=10), answer=False)
    assert [r.name for r in rows] == ["naive: dense top-10", "+ BM25 hybrid (RRF)",
                                      "+ late interaction MaxSim (100 candidates)", "+ learned reranker (50 candidates)",
                                      "learned + MMR λ 0.7", "learned + current editions first",
                                      "learned + contents pages last", "full pipeline as configured"]
    assert not any(r.answer for r in rows)


def test_shipped_rows_keep_the_path_to_the_shipped_pipeline_each_against_the_one_before():
    rows = shipped_rows(ablation_rows(DEFAULT_SPEC, synonyms="synonyms.yaml", helper=True))
    assert [(r.name, r.compare_to) for r in rows] == [
        ("naive: dense top-5", None),
        ("+ BM25 hybrid (RRF)", "naive: dense top-5"),
        ("+ learned reranker (50 candidates)", "+ BM25 hybrid (RRF)"),
        ("learned + grounding check, learned routing ≥ 0.5", "+ learned reranker (50 candidates)"),
        ("full pipeline as configured", "naive: dense top-5"),
    ]


def test_a_local_model_gets_a_generative_row_behind_the_same_routing():
    rows = ablation_rows(DEFAULT_SPEC, llm="http://127.0.0.1:8081/v1", llm_model="smollm2")
    row = next(r for r in rows if r.spec.generator == "openai")
    assert row.name == "learned routing + generative answer (smollm2, OpenAI-compatible)"
    assert (row.spec.generator_url, row.spec.model, row.spec.routing) == ("http://127.0.0.1:8081/v1", "smollm2", True)
    assert row.compare_to == "learned + grounding check, learned routing ≥ 0.5"
