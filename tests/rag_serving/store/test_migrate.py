"""Migrations against the embedded server: the schema, applied once, never changed after the fact."""

import hashlib
import uuid

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo

from rag_assets.ingest.publish import ensure_vector_index, hnsw_index_name
from rag_assets.ingest.queries import sql_text as ingest_sql
from rag_serving.store import bootstrap as db
from rag_serving.store.migrate import MigrationError, migrate, migration_files
from rag_serving.store.sqlfiles import sql_text

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


def test_partitioning_chunks_keeps_each_chunk_its_vector_index_and_what_points_at_it(pg_server_url):
    # A database at 0017 with one chunk, its posting and a model's HNSW index, then migrated through 0018.
    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_server_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = make_conninfo(pg_server_url, dbname=name)
    try:
        with db.connect(url, autocommit=True) as conn:
            conn.execute(sql_text("create_migrations_table"))
            for version, text in migration_files():
                if version < "0018":
                    conn.execute(text)
                    conn.execute(sql_text("insert_applied"), (version, hashlib.sha256(text.encode()).hexdigest()))
            conn.execute("INSERT INTO documents (id, organization_id, rooftop_id, source_path, sha256, file_name, "
                         "media_type, title, pipeline_digest, status) VALUES ('d', 'acme', 'hq', 'a.md', %s, 'a.md', "
                         "'text/markdown', 'A', 'x', 'live')", ("1" * 64,))
            conn.execute("INSERT INTO chunks (id, organization_id, rooftop_id, document_id, ordinal, page_start, "
                         "page_end, page_label_start, page_label_end, body, token_count, char_start, char_end, sha256, "
                         "body_sha256, embedding, embedding_model) VALUES ('c', 'acme', 'hq', 'd', 0, 1, 1, '1', '1', "
                         "'Parental leave lasts sixteen weeks', 5, 0, 34, %s, 'b', '[1,0,0]', 'm')", ("1" * 64,))
            conn.execute(ingest_sql("insert_postings"), (["d"],))
            ensure_vector_index(conn, "m", 3)
        assert migrate(url)[0] == "0018_chunks_partitioned_by_organization"
        with db.connect(url, autocommit=True) as conn:
            assert [r["id"] for r in conn.execute("SELECT id FROM chunks")] == ["c"]
            leaves = conn.execute("SELECT count(*) AS n FROM pg_partition_tree(to_regclass(%s)) WHERE isleaf",
                                  (hnsw_index_name("m"),)).fetchone()["n"]
            assert leaves == 32
            assert conn.execute("SELECT count(*) AS n FROM chunk_terms").fetchone()["n"] == 5
            conn.execute("DELETE FROM documents")
            assert conn.execute("SELECT count(*) AS n FROM chunk_terms").fetchone()["n"] == 0
    finally:
        with psycopg.connect(pg_server_url, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
