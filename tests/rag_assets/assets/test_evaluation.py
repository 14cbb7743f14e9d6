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
    table = result.asset_materializations_for_node("ablation_table")[0].metadata["table"].value
    assert "naive: dense top-5" in table and "+ BM25 hybrid (RRF)" in table and "95% CI" in table
    assert "false-answer rate" in table and "over-abstention rate" in table
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
    assert [r["threshold"] for r in metadata["sweep"].value] == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
    assert "← chosen" in metadata["table"].value
    assert 0.0 <= metadata["confidence_auc"].value <= 1.0
