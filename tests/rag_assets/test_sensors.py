"""The inbox sensor: new and changed files become runs for their SHA-256 partition, unchanged ones do not."""

from dagster import DagsterInstance, SensorResult, build_sensor_context

from rag_assets.resources import ChunkerResource, InboxResource, PostgresResource, TokenizerResource
from rag_assets.sensors import inbox_sensor


def evaluate(database_url, instance, inbox, cursor=None):
    context = build_sensor_context(
        instance=instance,
        cursor=cursor,
        resources={
            "database": PostgresResource(url=database_url),
            "tokenizer": TokenizerResource(),
            "chunker": ChunkerResource(),
            "inbox": InboxResource(folder=str(inbox)),
        },
    )
    return inbox_sensor(context)


def test_new_files_in_tenant_folders_become_runs(database_url, tmp_path):
    inbox = tmp_path / "inbox"
    (inbox / "acme" / "hq").mkdir(parents=True)
    (inbox / "acme" / "hq" / "faq.md").write_text("# FAQ\n\nInvoices are paid in 45 days.\n")
    (inbox / "globex" / "main").mkdir(parents=True)
    (inbox / "globex" / "main" / "notes.txt").write_text("NOTES\n\nGlobex only.\n")
    result = evaluate(database_url, DagsterInstance.ephemeral(), inbox)
    assert isinstance(result, SensorResult)
    tags = sorted((r.tags["rag/organization"], r.tags["rag/rooftop"], r.tags["rag/source"]) for r in result.run_requests)
    assert tags == [("acme", "hq", "faq.md"), ("globex", "main", "notes.txt")]
    assert sorted(result.dynamic_partitions_requests[0].partition_keys) == sorted(r.partition_key for r in result.run_requests)


def test_untouched_files_are_not_requested_again(database_url, tmp_path):
    inbox = tmp_path / "inbox"
    (inbox / "acme" / "hq").mkdir(parents=True)
    (inbox / "acme" / "hq" / "faq.md").write_text("# FAQ\n\nv1\n")
    instance = DagsterInstance.ephemeral()
    first = evaluate(database_url, instance, inbox)
    second = evaluate(database_url, instance, inbox, cursor=first.cursor)
    assert len(first.run_requests) == 1 and second.run_requests == []


def test_changed_file_is_requested_under_its_new_sha(database_url, tmp_path):
    inbox = tmp_path / "inbox"
    (inbox / "acme" / "hq").mkdir(parents=True)
    path = inbox / "acme" / "hq" / "faq.md"
    path.write_text("# FAQ\n\nv1\n")
    instance = DagsterInstance.ephemeral()
    first = evaluate(database_url, instance, inbox)
    path.write_text("# FAQ\n\nversion two\n")
    second = evaluate(database_url, instance, inbox, cursor=first.cursor)
    assert len(second.run_requests) == 1
    assert second.run_requests[0].partition_key != first.run_requests[0].partition_key


def test_folder_names_that_are_not_valid_tenant_ids_are_skipped(database_url, tmp_path):
    inbox = tmp_path / "inbox"
    (inbox / "Bad Org" / "hq").mkdir(parents=True)
    (inbox / "Bad Org" / "hq" / "faq.md").write_text("# FAQ\n")
    assert evaluate(database_url, DagsterInstance.ephemeral(), inbox).run_requests == []


def test_a_sensor_run_builds_the_version_it_registered_and_rebuilds_nothing_else(database_url, tmp_path):
    inbox = tmp_path / "inbox"
    (inbox / "acme" / "hq").mkdir(parents=True)
    (inbox / "acme" / "hq" / "faq.md").write_text("# FAQ\n\nv1\n")
    (request,) = evaluate(database_url, DagsterInstance.ephemeral(), inbox).run_requests
    assert request.run_config == {"ops": {"source_documents": {"config": {"rebuild": False}}}}
    assert request.partition_key.startswith("faq.md ")  # the file's name beside its SHA-256
