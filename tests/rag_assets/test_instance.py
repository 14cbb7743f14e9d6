"""Dagster's instance storage URL: the psycopg2 driver (Dagster's NOTIFY fails on psycopg 3) and its own database."""

from rag_assets.instance import dagster_storage_url
from rag_assets.settings import load_settings


def test_dagster_storage_url_uses_psycopg2_and_the_dagster_database():
    settings = load_settings({"RAG_HOME": "/tmp/x"})
    url = dagster_storage_url(settings, "host=/tmp/x/pgdata user=postgres dbname=rag")
    assert url == "postgresql+psycopg2://postgres@/dagster?host=%2Ftmp%2Fx%2Fpgdata"


def test_dagster_storage_url_for_an_external_tcp_server_keeps_host_port_and_password(pg_server_url):
    settings = load_settings({"RAG_HOME": "/tmp/x", "RAG_DATABASE_URL": pg_server_url})
    url = dagster_storage_url(settings, "postgresql://app:s3cret@db.internal:6543/rag")
    assert url == "postgresql+psycopg2://app:s3cret@db.internal:6543/dagster"


def test_the_repositorys_dagster_yaml_needs_no_environment_variable(tmp_path, pg_server_url, monkeypatch):
    from dagster import DagsterInstance
    from dagster._core.instance.ref import InstanceRef

    from rag_assets.evaluation.provenance import REPO_ROOT
    from rag_assets.instance import ProjectStorage

    for name in ("DAGSTER_HOME", "DAGSTER_PG_URL", "RAG_DAGSTER_ARTIFACTS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("RAG_HOME", str(tmp_path))
    monkeypatch.setenv("RAG_DATABASE_URL", pg_server_url)
    # What plain `dagster dev` does without DAGSTER_HOME: a temporary home, the instance read from the current folder.
    ref = InstanceRef.from_dir(str(tmp_path / "tmp_home"), config_dir=str(REPO_ROOT))
    with DagsterInstance.from_ref(ref) as instance:
        assert isinstance(instance.get_ref().storage, ProjectStorage)
        instance.add_dynamic_partitions("files", ["probe.pdf " + "0" * 64])  # written to PostgreSQL, read back
        assert instance.has_dynamic_partition("files", "probe.pdf " + "0" * 64)
        assert instance.storage_directory().startswith(str(tmp_path / "dagster" / "storage"))
        assert instance.compute_log_manager._base_dir.startswith(str(tmp_path / "dagster" / "storage"))
        instance.delete_dynamic_partition("files", "probe.pdf " + "0" * 64)
