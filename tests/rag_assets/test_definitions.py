"""The Definitions object loads and wires the ingest graph the way the UI shows it."""

from dagster import AssetKey

from rag_assets.definitions import defs
from rag_assets.partitions import files_partitions


INGEST = {"source_documents", "pages", "sections", "chunks", "embeddings", "token_vectors", "indexes",
          "published_documents"}


def test_ingest_graph_has_its_assets_in_order():
    graph = defs.resolve_asset_graph()
    keys = {k.path[0] for k in graph.get_all_asset_keys()}
    assert keys == INGEST | {"golden_eval_runs", "ablation_table", "threshold_sweep"}
    assert graph.get(AssetKey("chunks")).parent_keys == {AssetKey("sections")}
    assert graph.get(AssetKey("embeddings")).parent_keys == {AssetKey("chunks")}
    assert graph.get(AssetKey("indexes")).parent_keys == {AssetKey("embeddings")}
    assert graph.get(AssetKey("token_vectors")).parent_keys == {AssetKey("chunks")}
    # Publishing comes last: nothing is live before its vectors, token vectors and postings exist.
    assert graph.get(AssetKey("published_documents")).parent_keys == {AssetKey("indexes"), AssetKey("token_vectors")}


def test_ingest_assets_are_partitioned_by_file_sha256():
    graph = defs.resolve_asset_graph()
    assert all(graph.get(AssetKey(k)).partitions_def == files_partitions for k in INGEST)


def test_golden_benchmark_is_scheduled_nightly():
    schedule = defs.resolve_schedule_def("nightly_golden_benchmark")
    assert schedule.cron_schedule == "0 3 * * *" and schedule.job_name == "golden_eval_job"


def test_sensor_and_job_are_registered():
    assert defs.resolve_job_def("ingest_job") is not None
    assert defs.resolve_sensor_def("inbox_sensor").job_name == "ingest_job"
