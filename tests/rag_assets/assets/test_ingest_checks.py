"""The ingest quality gates run with each file's graph: the run's error rows, a cross-tenant probe, HNSW recall."""

from dagster import DagsterInstance

from rag_assets.ingest.runner import ingest_targets
from rag_assets.ingest.targets import Target
from rag_assets.resources import OcrResource
from tests.pdfs import pdf_with_image_page
from tests.rag_assets.assets.test_ingest import HANDBOOK_V1, HANDBOOK_V2, resources_for, write


def checks_of(url, targets, **overrides) -> dict[str, dict]:
    """Each check's outcome for the last file, as `rag ingest` records it in Dagster."""
    instance = DagsterInstance.ephemeral()
    batch = ingest_targets(targets, url=url, resources=resources_for(url, **overrides), instance=instance)
    assert batch.count("failed") == 0
    return {e.check_name: {"passed": e.passed, "severity": e.severity.value,
                           **{k: v.value for k, v in e.metadata.items()}}
            for e in _evaluations(instance)}


def _evaluations(instance):
    from dagster import DagsterEventType, EventRecordsFilter

    records = instance.get_event_records(EventRecordsFilter(DagsterEventType.ASSET_CHECK_EVALUATION))
    latest = {}
    for r in sorted(records, key=lambda r: r.storage_id):
        evaluation = r.event_log_entry.dagster_event.event_specific_data
        latest[evaluation.check_name] = evaluation
    return latest.values()


def test_a_clean_file_beside_another_tenants_file_passes_every_ingest_check(database_url, tmp_path):
    first = write(tmp_path, "handbook.pdf", HANDBOOK_V1)
    second = write(tmp_path, "globex.pdf", HANDBOOK_V2)
    checks = checks_of(database_url, [Target(second, "globex", "main", "handbook.pdf"),
                                      Target(first, "acme", "hq", "handbook.pdf")])
    assert checks["ingest_errors"]["passed"] and checks["ingest_errors"]["errors"] == 0
    probe = checks["cross_tenant_probe"]
    assert probe["passed"] and probe["other_tenants_rows"] == 0 and probe["rows_seen"] > 0
    assert checks["hnsw_recall"]["passed"] and checks["hnsw_recall"]["recall@10"] == 1.0


def test_unreadable_pages_fail_the_ingest_errors_check_as_a_warning(database_url, tmp_path):
    memo = write(tmp_path, "memo.pdf", pdf_with_image_page("Yard memo", ["GATE CODE 4417"]))
    checks = checks_of(database_url, [Target(memo, "acme", "hq", "memo.pdf")], ocr=OcrResource(enabled=False))
    assert not checks["ingest_errors"]["passed"] and checks["ingest_errors"]["severity"] == "WARN"
    assert checks["ingest_errors"]["warnings"] == 1 and "UnreadablePage" in checks["ingest_errors"]["rows"]


def test_a_policy_that_lets_other_tenants_through_fails_the_cross_tenant_probe(database_url, conn, tmp_path):
    other = write(tmp_path, "globex.pdf", HANDBOOK_V2)
    checks_of(database_url, [Target(other, "globex", "main", "handbook.pdf")])
    # The mistake the probe is for: a migration that rewrites a policy and forgets the tenant.
    conn.execute("DROP POLICY tenant_isolation ON pages")
    conn.execute("CREATE POLICY tenant_isolation ON pages USING (true)")
    probe = checks_of(database_url, [Target(write(tmp_path, "handbook.pdf", HANDBOOK_V1), "acme", "hq",
                                            "handbook.pdf")])["cross_tenant_probe"]
    assert not probe["passed"] and probe["leaks"] == {"acme/hq pages": 3}


def test_a_tenant_indexed_by_two_models_fails_the_hnsw_check_without_failing_the_file(database_url, tmp_path):
    from rag_assets.resources import EmbedderResource

    checks_of(database_url, [Target(write(tmp_path, "a.pdf", HANDBOOK_V1), "acme", "hq", "a.pdf")],
              embedder=EmbedderResource(name="minilm"))
    # Another embedder for the next file: dense search refuses the tenant's mixed index (queries get 409).
    recall = checks_of(database_url, [Target(write(tmp_path, "b.pdf", HANDBOOK_V2), "acme", "hq", "b.pdf")])["hnsw_recall"]
    assert not recall["passed"] and "model" in recall["error"]


def test_a_check_that_cannot_run_is_reported_under_a_file_that_went_live(database_url, conn, tmp_path):
    from psycopg.conninfo import make_conninfo

    from rag_assets.resources import PostgresResource

    # The serving role's URL names a role that does not exist: the probe and the recall check cannot connect.
    database = PostgresResource(url=database_url, app_url=make_conninfo(database_url, user="no_such_role"))
    lines = []
    batch = ingest_targets([Target(write(tmp_path, "handbook.pdf", HANDBOOK_V1), "acme", "hq", "handbook.pdf")],
                           url=database_url, resources=resources_for(database_url, database=database),
                           instance=DagsterInstance.ephemeral(), say=lines.append)
    assert batch.outcomes[0].state == "new"
    assert conn.execute("SELECT status FROM documents").fetchone()["status"] == "live"
    assert any(line.strip().startswith("check cross_tenant_probe could not run") for line in lines)
