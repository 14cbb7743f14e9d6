"""Runs launched from the UI: new chunk settings build and publish a new version; the same settings rebuild it."""

from dagster import DagsterInstance, materialize

from rag_assets.assets.ingest import ingest_assets
from rag_assets.ingest.registration import register_file
from rag_assets.ingest.targets import Target
from rag_assets.ingest.versions import rebuild_id
from rag_assets.partitions import file_partition_key, files_partitions, partition_sha256
from rag_assets.resources import ChunkerResource, TokenizerResource
from tests.rag_assets.assets.test_ingest import HANDBOOK_V1, live_bodies, resources_for, run_batch, write

SMALL = ChunkerResource(size=24, overlap=4, snap=4)


def launchpad_run(url: str, sha: str, **overrides):
    """What the UI's Materialize does for one partition: the job's default config, resources as the run sets them."""
    key = file_partition_key("handbook.pdf", sha)
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions(files_partitions.name, [key])
    return materialize(ingest_assets, partition_key=key, instance=instance, resources=resources_for(url, **overrides))


def ingested(url, conn, tmp_path):
    path = write(tmp_path, "handbook.pdf", HANDBOOK_V1)
    outcome = run_batch(url, [Target(path, "acme", "hq", "handbook.pdf")]).outcomes[0]
    return path, outcome.sha256, conn.execute("SELECT * FROM documents WHERE status = 'live'").fetchone()


def test_ingest_job_with_chunk_settings_in_the_launchpad_builds_and_publishes_a_new_version(database_url, conn,
                                                                                            tmp_path):
    from dagster import Definitions

    from rag_assets.definitions import build_resources
    from rag_assets.jobs import ingest_job
    from rag_assets.settings import load_settings

    path, sha, old = ingested(database_url, conn, tmp_path)
    # The UI's job as definitions.py builds it from the settings, chunk settings given as the launchpad gives them.
    settings = load_settings({"RAG_HOME": str(tmp_path / "home"), "RAG_DATABASE_URL": database_url,
                              "RAG_EMBEDDER": "hashed-tfidf"})
    job = Definitions(jobs=[ingest_job], assets=ingest_assets, resources=build_resources(settings)).resolve_job_def(
        "ingest_job")
    key = file_partition_key("handbook.pdf", sha)
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions(files_partitions.name, [key])
    result = job.execute_in_process(instance=instance, partition_key=key, run_config={
        "resources": {"chunker": {"config": {"size": 24, "overlap": 4, "snap": 4}}}})
    assert result.success
    assert result.asset_materializations_for_node("chunks")[0].metadata["documents"].value == 1
    live = conn.execute("SELECT * FROM documents WHERE status = 'live'").fetchone()
    digest = SMALL.digest(TokenizerResource().load())
    assert live["pipeline_digest"] == digest and live["id"] != old["id"]
    assert conn.execute("SELECT status FROM documents WHERE id = %s", (old["id"],)).fetchone()["status"] == "superseded"
    assert conn.execute("SELECT max(token_count) AS n FROM chunks WHERE document_id = %s",
                        (live["id"],)).fetchone()["n"] <= 24 + 4
    # `rag ingest` with the same settings now finds the file current.
    reg = register_file(conn, path, organization_id="acme", rooftop_id="hq", source_path="handbook.pdf", digest=digest)
    assert reg.state == "unchanged"


def test_rematerializing_a_partition_rebuilds_it_and_publishes_the_rebuild(database_url, conn, tmp_path):
    path, sha, old = ingested(database_url, conn, tmp_path)
    before = live_bodies(conn)
    assert launchpad_run(database_url, sha).success
    live = conn.execute("SELECT * FROM documents WHERE status = 'live'").fetchone()
    assert live["id"] == rebuild_id(old["id"]) and live["pipeline_digest"] == old["pipeline_digest"]
    assert live_bodies(conn) == before
    assert run_batch(database_url, [Target(path, "acme", "hq", "handbook.pdf")]).outcomes[0].state == "unchanged"


def test_a_version_left_building_under_other_settings_is_failed_not_built_with_these(database_url, conn, tmp_path):
    path, sha, _ = ingested(database_url, conn, tmp_path)
    other = ChunkerResource(size=100, overlap=10, snap=10).digest(TokenizerResource().load())
    stale = register_file(conn, path, organization_id="acme", rooftop_id="hq", source_path="handbook.pdf", digest=other)
    assert launchpad_run(database_url, sha, chunker=SMALL).success
    row = conn.execute("SELECT status, error FROM documents WHERE id = %s", (stale.document_id,)).fetchone()
    assert row["status"] == "failed" and "chunk settings" in row["error"]


def test_partitions_are_labelled_with_the_file_name_beside_its_sha256(database_url, tmp_path):
    instance = DagsterInstance.ephemeral()
    path = write(tmp_path, "handbook.pdf", HANDBOOK_V1)
    from rag_assets.ingest.runner import ingest_targets

    batch = ingest_targets([Target(path, "acme", "hq", "handbook.pdf")], url=database_url,
                           resources=resources_for(database_url), instance=instance)
    sha = batch.outcomes[0].sha256
    assert instance.get_dynamic_partitions(files_partitions.name) == [f"handbook.pdf {sha}"]
    assert partition_sha256(f"handbook.pdf {sha}") == partition_sha256(sha) == sha
    assert file_partition_key("a...b\tc.pdf", sha) == f"a…b?c.pdf {sha}"  # Dagster refuses '...' and tabs in keys


def test_materializing_chunks_alone_says_it_built_nothing(database_url, conn, tmp_path):
    from rag_assets.assets.ingest import chunks

    _, sha, _ = ingested(database_url, conn, tmp_path)
    key = file_partition_key("handbook.pdf", sha)
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions(files_partitions.name, [key])
    result = materialize([chunks], partition_key=key, instance=instance,
                         resources=resources_for(database_url, chunker=SMALL))
    assert result.asset_materializations_for_node("chunks")[0].metadata["documents"].value == 0
    warnings = [e.user_message for e in instance.all_logs(result.run_id) if e.level >= 30]
    assert any("materialize the whole ingest_job" in w for w in warnings)
