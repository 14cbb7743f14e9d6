"""The Definitions object loads and wires the ingest graph the way the UI shows it."""

from dagster import AssetKey

from rag_assets.definitions import defs
from rag_assets.partitions import files_partitions

INGEST = {"source_documents", "pages", "sections", "chunks", "embeddings", "token_vectors", "sentence_vectors", "indexes",
          "published_documents"}


def test_ingest_graph_has_its_assets_in_order():
    graph = defs.resolve_asset_graph()
    keys = {k.path[0] for k in graph.get_all_asset_keys()}
    assert keys == INGEST | {"golden_eval_runs", "ablation_table", "threshold_sweep", "chunk_sweep"}
    assert graph.get(AssetKey("chunks")).parent_keys == {AssetKey("sections")}
    assert graph.get(AssetKey("embeddings")).parent_keys == {AssetKey("chunks")}
    assert graph.get(AssetKey("indexes")).parent_keys == {AssetKey("embeddings")}
    assert graph.get(AssetKey("token_vectors")).parent_keys == {AssetKey("embeddings")}
    assert graph.get(AssetKey("sentence_vectors")).parent_keys == {AssetKey("chunks")}
    # Publishing comes last: nothing is live before its vectors, token and sentence vectors and postings exist.
    assert graph.get(AssetKey("published_documents")).parent_keys == {AssetKey("indexes"), AssetKey("token_vectors"),
                                                                       AssetKey("sentence_vectors")}


def test_ingest_assets_are_partitioned_by_file_sha256():
    graph = defs.resolve_asset_graph()
    assert all(graph.get(AssetKey(k)).partitions_def == files_partitions for k in INGEST)


def test_golden_benchmark_is_scheduled_nightly():
    schedule = defs.resolve_schedule_def("nightly_golden_benchmark")
    assert schedule.cron_schedule == "0 3 * * *" and schedule.job_name == "golden_eval_job"


def test_a_files_ingest_steps_run_in_its_run_s_own_process():
    assert defs.resolve_job_def("ingest_job").executor_def.name == "in_process"


def test_sensor_and_job_are_registered():
    assert defs.resolve_job_def("ingest_job") is not None
    assert defs.resolve_sensor_def("inbox_sensor").job_name == "ingest_job"


def test_the_nightly_benchmark_runs_the_spec_that_rag_ask_and_the_api_serve(tmp_path):
    from rag_assets.definitions import build_resources
    from rag_assets.settings import load_settings

    synonyms = tmp_path / "synonyms.yaml"
    synonyms.write_text("- [PO, purchase order]\n")
    settings = load_settings({"RAG_HOME": str(tmp_path), "RAG_CANDIDATES": "70", "RAG_RERANK_DEPTH": "40",
                              "RAG_BM25_K1": "1.4", "RAG_BM25_B": "0.6", "RAG_EXPAND": "synonyms",
                              "RAG_SYNONYMS": str(synonyms), "RAG_ANSWER_THRESHOLD": "0.6"})
    assert build_resources(settings)["pipeline"].spec() == settings.pipeline()
    # And the Definitions object the UI and the schedule load is built from the process's own settings.
    assert defs.resources["pipeline"].spec() == load_settings().pipeline()


def test_ocr_settings_reach_the_ocr_resource(tmp_path):
    from rag_assets.definitions import build_resources
    from rag_assets.settings import load_settings

    ocr = build_resources(load_settings({"RAG_HOME": str(tmp_path), "RAG_OCR": "0", "RAG_OCR_JOBS": "3"}))["ocr"]
    assert (ocr.enabled, ocr.jobs) == (False, 3)


def test_the_pipeline_resource_has_exactly_the_spec_fields():
    import dataclasses

    from rag_assets.resources import PipelineResource
    from rag_serving.spec import PipelineSpec

    fields = set(PipelineResource.model_fields) - {"api_key"}
    assert fields == {f.name for f in dataclasses.fields(PipelineSpec)}


def test_the_run_queue_takes_one_evaluation_run_at_a_time(tmp_path, pg_server_url, monkeypatch):
    import shutil

    from dagster import DagsterInstance

    from rag_assets.evaluation.provenance import REPO_ROOT
    from rag_assets.instance import DAGSTER_DATABASE
    from rag_serving.store.bootstrap import ensure_database

    ensure_database(pg_server_url, DAGSTER_DATABASE)
    shutil.copy(REPO_ROOT / "dagster.yaml", tmp_path / "dagster.yaml")
    monkeypatch.setenv("RAG_HOME", str(tmp_path))
    monkeypatch.setenv("RAG_DATABASE_URL", pg_server_url)
    with DagsterInstance.from_config(str(tmp_path)) as instance:
        queue = instance.run_coordinator.get_run_queue_config()
    assert queue.max_concurrent_runs == 2
    assert [(l["key"], l["value"], l["limit"]) for l in queue.tag_concurrency_limits] == [("rag/run", "evaluation", 1)]
    assert defs.resolve_job_def("golden_eval_job").tags["rag/run"] == "evaluation"
    assert defs.resolve_job_def("chunk_sweep_job").tags["rag/run"] == "evaluation"
    assert defs.resolve_job_def("ingest_job").tags["rag/run"] == "ingest"


def test_quality_gates_are_registered_on_the_assets_they_guard():
    keys = {(k.asset_key.path[-1], k.name) for k in defs.resolve_asset_graph().asset_check_keys}
    assert keys == {("published_documents", "ingest_errors"), ("published_documents", "cross_tenant_probe"),
                    ("published_documents", "hnsw_recall"), ("golden_eval_runs", "false_answer_rate_within_limit"),
                    ("golden_eval_runs", "over_abstention_rate_within_limit")}


def test_the_eval_launchpad_offers_every_pipeline_spec_field_with_the_served_default():
    import dataclasses

    from rag_serving.spec import PipelineSpec

    schema = defs.resolve_job_def("golden_eval_job").run_config_schema.config_type
    pipeline = schema.fields["resources"].config_type.fields["pipeline"].config_type.fields["config"].config_type
    assert {f.name for f in dataclasses.fields(PipelineSpec)} <= set(pipeline.fields)
    served = defs.resources["pipeline"].spec()
    assert pipeline.fields["reranker"].default_value == served.reranker
    assert pipeline.fields["expand"].default_value == list(served.expand)
    ops = schema.fields["ops"].config_type.fields["golden_eval_runs"].config_type.fields["config"].config_type
    assert {"split", "rows", "max_false_answer_rate", "max_over_abstention_rate"} <= set(ops.fields)
