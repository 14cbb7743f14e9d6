"""The chunk sweep job: each setting built beside the live index, scored on the golden cases, compared in a table."""

import shutil
from pathlib import Path

from dagster import DagsterInstance

from rag_assets.definitions import defs
from rag_assets.resources import (
    ChunkerResource,
    EmbedderResource,
    OcrResource,
    PipelineResource,
    PostgresResource,
    TokenizerResource,
)
from rag_serving.spec import DEFAULT_SPEC
from rag_serving.store import bootstrap as db

GOLDEN = Path(__file__).resolve().parents[3] / "golden"
LIVE = "SELECT id, pipeline_digest FROM documents WHERE status = 'live' ORDER BY id"


def test_the_sweep_job_builds_each_setting_beside_the_live_index_and_writes_the_comparison(corpus_db, tmp_path):
    shutil.copy(GOLDEN / "supplier-faq.yaml", tmp_path / "supplier-faq.yaml")
    with db.connect(corpus_db) as conn:
        live_before = conn.execute(LIVE).fetchall()
    job = defs.resolve_job_def("chunk_sweep_job")
    settings = [{"size": 120, "overlap": 12, "snap": 10}, {"size": 60, "overlap": 6, "snap": 5}]
    result = job.execute_in_process(
        instance=DagsterInstance.ephemeral(),
        resources={"database": PostgresResource(url=corpus_db), "tokenizer": TokenizerResource(),
                   "chunker": ChunkerResource(), "ocr": OcrResource(), "embedder": EmbedderResource(name="minilm"),
                   "pipeline": PipelineResource.of(DEFAULT_SPEC)},
        run_config={"ops": {"chunk_sweep": {"config": {"settings": settings, "sources": ["supplier-faq.md"],
                                                       "split": "all", "golden": str(tmp_path)}}}},
    )
    assert result.success
    metadata = result.asset_materializations_for_node("chunk_sweep")[0].metadata
    rows = [r.data for r in metadata["settings"].value.records]
    assert [r["configuration"] for r in rows] == ["chunks 120/12/10", "chunks 60/6/5"]
    assert all(r["files"] == 1 and r["failed"] == 0 for r in rows)
    assert rows[1]["chunks"] > rows[0]["chunks"] and rows[1]["mean_tokens"] < rows[0]["mean_tokens"]
    assert all(r["ndcg@10"] is not None for r in rows)
    assert {r.data["vs"] for r in metadata["comparisons"].value.records} == {"chunks 120/12/10"}
    assert metadata["chunks 60/6/5 ndcg@10"].value == rows[1]["ndcg@10"]  # a float series per setting
    with db.connect(corpus_db) as conn:
        assert conn.execute(LIVE).fetchall() == live_before  # the live index was never touched
        stored = conn.execute("SELECT config_name FROM eval_runs WHERE source = 'dagster-sweep' ORDER BY id").fetchall()
    assert [r["config_name"] for r in stored] == ["chunks 120/12/10", "chunks 60/6/5"]


def test_the_default_sweep_settings_reach_the_asset_as_settings_not_dicts():
    from rag_assets.assets.sweep import ChunkSetting, ChunkSweepConfig

    # Dagster builds the config from the default itself when the launchpad's value equals it.
    settings = ChunkSweepConfig().settings
    assert all(isinstance(s, ChunkSetting) for s in settings)
    assert [(s.size, s.overlap) for s in settings] == [(500, 50), (256, 25), (1000, 100)]
