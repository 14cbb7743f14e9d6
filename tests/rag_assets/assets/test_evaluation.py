"""Eval assets materialize against the ingested corpus and record their runs in PostgreSQL."""

import shutil
from pathlib import Path

from dagster import DagsterInstance, materialize

from rag_assets.assets.evaluation import ablation_table, golden_eval_runs
from rag_assets.resources import EmbedderResource, PostgresResource
from rag_serving import db

GOLDEN = Path(__file__).resolve().parents[3] / "golden"


def test_golden_ablation_materializes_and_stores_one_row_per_configuration(corpus_db, tmp_path):
    shutil.copy(GOLDEN / "x200-manual.yaml", tmp_path / "x200-manual.yaml")
    result = materialize(
        [golden_eval_runs, ablation_table],
        instance=DagsterInstance.ephemeral(),
        resources={"database": PostgresResource(url=corpus_db), "embedder": EmbedderResource(name="minilm")},
        run_config={"ops": {"golden_eval_runs": {"config": {"split": "all", "golden": str(tmp_path)}}}},
    )
    assert result.success
    table = result.asset_materializations_for_node("ablation_table")[0].metadata["table"].value
    assert "naive: dense top-5" in table and "+ BM25 hybrid (RRF)" in table and "95% CI" in table
    with db.connect(corpus_db) as conn:
        rows = conn.execute("SELECT config_name, source, jsonb_array_length(cases) AS n FROM eval_runs ORDER BY id").fetchall()
    assert [r["config_name"] for r in rows[-2:]] == ["naive: dense top-5", "+ BM25 hybrid (RRF)"]
    assert all(r["source"] == "dagster" and r["n"] == 16 for r in rows[-2:])
