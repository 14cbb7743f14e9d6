"""The Definitions object loads and wires the ingest graph the way the UI shows it."""

from dagster import AssetKey

from rag_assets.definitions import defs
from rag_assets.partitions import files_partitions


def test_ingest_graph_has_its_assets_in_order():
    graph = defs.resolve_asset_graph()
    keys = {k.path[0] for k in graph.get_all_asset_keys()}
    assert keys == {"source_documents", "pages", "sections", "chunks", "embeddings", "indexes", "published_documents"}
    assert graph.get(AssetKey("chunks")).parent_keys == {AssetKey("sections")}
    assert graph.get(AssetKey("embeddings")).parent_keys == {AssetKey("chunks")}
    assert graph.get(AssetKey("indexes")).parent_keys == {AssetKey("embeddings")}
    # Publishing comes last: nothing is live before its vectors and postings exist.
    assert graph.get(AssetKey("published_documents")).parent_keys == {AssetKey("indexes")}


def test_assets_are_partitioned_by_file_sha256():
    graph = defs.resolve_asset_graph()
    assert all(graph.get(k).partitions_def == files_partitions for k in graph.get_all_asset_keys())


def test_sensor_and_job_are_registered():
    assert defs.resolve_job_def("ingest_job") is not None
    assert defs.resolve_sensor_def("inbox_sensor").job_name == "ingest_job"
