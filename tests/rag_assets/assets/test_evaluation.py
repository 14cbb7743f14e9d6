"""Eval assets materialize against the ingested corpus and record their runs in PostgreSQL."""

import shutil
from pathlib import Path

from dagster import DagsterInstance, materialize

from rag_assets.assets.evaluation import ablation_table, golden_eval_runs, threshold_sweep
from rag_assets.resources import EmbedderResource, PipelineResource, PostgresResource
from rag_serving.spec import DEFAULT_SPEC
from rag_serving.store import bootstrap as db

GOLDEN = Path(__file__).resolve().parents[3] / "golden"


def test_golden_ablation_materializes_and_stores_one_row_per_configuration(corpus_db, tmp_path):
    shutil.copy(GOLDEN / "x200-manual.yaml", tmp_path / "x200-manual.yaml")
    result = materialize(
        [golden_eval_runs, ablation_table],
        instance=DagsterInstance.ephemeral(),
        resources={"database": PostgresResource(url=corpus_db), "embedder": EmbedderResource(name="minilm"),
                   "pipeline": PipelineResource.of(DEFAULT_SPEC.replace(threshold=0.6))},
        run_config={"ops": {"golden_eval_runs": {"config": {"split": "all", "golden": str(tmp_path), "rows": "shipped"}}}},
    )
    assert result.success
    metadata = result.asset_materializations_for_node("ablation_table")[0].metadata
    table = metadata["table"].value
    assert [r.data["configuration"] for r in table.records][:2] == ["naive: dense top-5", "+ BM25 hybrid (RRF)"]
    assert {"ndcg@10", "false_answer_rate", "over_abstention_rate low", "over_abstention_rate high"} <= {
        c.name for c in table.schema.columns}
    assert {r.data["metric"] for r in metadata["comparisons"].value.records} >= {"ndcg@10", "over_abstention"}
    with db.connect(corpus_db) as conn:
        rows = conn.execute("SELECT config_name, source, summary, jsonb_array_length(cases) AS n "
                            "FROM eval_runs ORDER BY id").fetchall()
    # The shipped rows (every row is covered by tests/rag_assets/test_ablation.py and `rag ablate`).
    assert [r["config_name"] for r in rows[-5:]] == [
        "naive: dense top-5", "+ BM25 hybrid (RRF)", "+ learned reranker (50 candidates)",
        f"learned + grounding check, {DEFAULT_SPEC.answerability} routing ≥ 0.6", "full pipeline as configured"]
    assert all(r["source"] == "dagster" and r["n"] == 16 for r in rows[-5:])
    # The x200 file has no no-answer cases: the false-answer rate is undefined there, over-abstention is not.
    # The last row is the pipeline resource's spec, and the asset says which one it ran.
    spec = DEFAULT_SPEC.replace(threshold=0.6)
    metadata = result.asset_materializations_for_node("golden_eval_runs")[0].metadata
    assert metadata["pipeline"].value == spec.digest
    with db.connect(corpus_db) as conn:
        assert conn.execute("SELECT config_digest FROM eval_runs ORDER BY id DESC LIMIT 1").fetchone()[
            "config_digest"] == spec.digest
    routing = rows[-2]["summary"]
    assert routing["false_answer_rate"] is None and 0.0 <= routing["over_abstention_rate"] <= 1.0


def test_threshold_sweep_materializes_a_table_and_a_chosen_threshold(corpus_db, tmp_path):
    shutil.copy(GOLDEN / "no-answer.yaml", tmp_path / "no-answer.yaml")
    shutil.copy(GOLDEN / "supplier-faq.yaml", tmp_path / "supplier-faq.yaml")
    result = materialize(
        [threshold_sweep],
        instance=DagsterInstance.ephemeral(),
        resources={"database": PostgresResource(url=corpus_db), "embedder": EmbedderResource(name="minilm"),
                   "pipeline": PipelineResource.of(DEFAULT_SPEC)},
        run_config={"ops": {"threshold_sweep": {"config": {"split": "all", "golden": str(tmp_path)}}}},
    )
    assert result.success
    metadata = result.asset_materializations_for_node("threshold_sweep")[0].metadata
    records = [r.data for r in metadata["table"].value.records]
    assert [r["threshold"] for r in records] == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
    (chosen,) = [r for r in records if r["chosen"]]
    assert metadata["chosen_threshold"].value == chosen["threshold"]
    assert 0.0 <= metadata["confidence_auc"].value <= 1.0


def test_the_nightly_checks_hold_the_full_pipeline_to_its_limits_and_the_run_logs_progress(corpus_db, tmp_path):
    from rag_assets.assets.evaluation_checks import evaluation_checks

    shutil.copy(GOLDEN / "no-answer.yaml", tmp_path / "no-answer.yaml")
    shutil.copy(GOLDEN / "supplier-faq.yaml", tmp_path / "supplier-faq.yaml")
    instance = DagsterInstance.ephemeral()
    # A threshold no confidence reaches: every question is refused, so none is answered falsely.
    result = materialize(
        [golden_eval_runs, *evaluation_checks], instance=instance,
        resources={"database": PostgresResource(url=corpus_db), "embedder": EmbedderResource(name="minilm"),
                   "pipeline": PipelineResource.of(DEFAULT_SPEC.replace(threshold=1.0))},
        run_config={"ops": {"golden_eval_runs": {"config": {"split": "all", "golden": str(tmp_path), "rows": "full",
                                                            "max_over_abstention_rate": 0.1}}}},
    )
    checks = {e.check_name: e for e in result.get_asset_check_evaluations()}
    assert checks["false_answer_rate_within_limit"].passed
    refused = checks["over_abstention_rate_within_limit"]
    assert not refused.passed and refused.metadata["over_abstention_rate"].value == 1.0
    metadata = result.asset_materializations_for_node("golden_eval_runs")[0].metadata
    assert metadata["full pipeline over_abstention_rate"].value == 1.0  # a float: the UI plots it run after run
    lines = [e.user_message for e in instance.all_logs(result.run_id) if "/25 questions" in e.user_message]
    assert lines[0].startswith("full pipeline as configured: 1/25 questions") and "25/25 questions" in lines[-1]
