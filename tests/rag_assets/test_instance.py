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
