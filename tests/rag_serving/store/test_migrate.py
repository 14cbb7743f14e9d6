"""Migrations against the embedded server: the schema, applied once, never changed after the fact."""

import pytest

from rag_serving.store.migrate import MigrationError, migrate

EXPECTED_TABLES = {"documents", "pages", "sections", "chunks", "ingest_errors", "files", "schema_migrations"}


def test_migrations_create_the_schema_with_pgvector(conn):
    tables = {r["tablename"] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
    assert EXPECTED_TABLES <= tables
    assert conn.execute("SELECT 1 AS ok FROM pg_extension WHERE extname = 'vector'").fetchone()["ok"] == 1


def test_migrating_twice_applies_nothing_the_second_time(database_url):
    assert migrate(database_url) == []


def test_a_changed_applied_migration_is_refused(database_url, conn):
    conn.execute("UPDATE schema_migrations SET checksum = 'tampered' WHERE version = '0001_initial'")
    with pytest.raises(MigrationError, match="0001_initial changed after it was applied"):
        migrate(database_url)


def test_only_one_live_version_per_tenant_and_source(conn):
    row = dict(organization_id="acme", rooftop_id="hq", source_path="a.pdf", sha256="0" * 64, file_name="a.pdf",
               media_type="application/pdf", title="A", pipeline_digest="d")
    insert = ("INSERT INTO documents (id, organization_id, rooftop_id, source_path, sha256, file_name, media_type, title, "
              "pipeline_digest, status) VALUES (%(id)s, %(organization_id)s, %(rooftop_id)s, %(source_path)s, %(sha256)s, "
              "%(file_name)s, %(media_type)s, %(title)s, %(pipeline_digest)s, 'live')")
    conn.execute(insert, {**row, "id": "one"})
    conn.execute(insert, {**row, "id": "other-rooftop", "rooftop_id": "north-yard"})
    with pytest.raises(Exception, match="documents_one_live_per_source"):
        conn.execute(insert, {**row, "id": "two"})


def test_generated_tsvector_indexes_chunk_body(conn):
    conn.execute("INSERT INTO documents (id, organization_id, rooftop_id, source_path, sha256, file_name, media_type, "
                 "title, pipeline_digest) VALUES ('d', 'acme', 'hq', 'a.md', %s, 'a.md', 'text/markdown', 'A', 'x')", ("1" * 64,))
    conn.execute("INSERT INTO chunks (id, organization_id, rooftop_id, document_id, ordinal, page_start, page_end, "
                 "page_label_start, page_label_end, body, token_count, char_start, char_end, sha256, body_sha256) "
                 "VALUES ('c', 'acme', 'hq', 'd', 0, 1, 1, '1', '1', 'Parental leave lasts sixteen weeks', 5, 0, 34, %s, 'b')",
                 ("1" * 64,))
    hit = conn.execute("SELECT tsv @@ to_tsquery('english', 'week & parent') AS hit FROM chunks").fetchone()["hit"]
    assert hit is True
