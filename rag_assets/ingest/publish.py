"""The last steps: BM25 postings and the HNSW index, then the atomic switch that makes a version live."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg import pq

from rag_assets.ingest.queries import INDEX_LOCK_KEY, sql_text
from rag_assets.ingest.registration import sha256_hex
from rag_assets.ingest.steps import StepReport, building_documents


def hnsw_index_name(model: str) -> str:
    return "chunks_hnsw_" + sha256_hex(model)[:12]


def ensure_vector_index(conn: psycopg.Connection, model: str, dim: int) -> bool:
    """HNSW (cosine) over this model's vectors; partial, so vectors of another model never enter it."""
    from psycopg import sql

    name = hnsw_index_name(model)
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (INDEX_LOCK_KEY,))
        if conn.execute("SELECT 1 FROM pg_indexes WHERE indexname = %s", (name,)).fetchone():
            return False
        conn.execute(
            sql.SQL(
                "CREATE INDEX {name} ON chunks USING hnsw ((embedding::vector({dim})) vector_cosine_ops) "
                "WHERE embedding_model = {model}"
            ).format(name=sql.Identifier(name), dim=sql.Literal(dim), model=sql.Literal(model))
        )
    return True


@contextmanager
def bm25_index_deferred(conn: psycopg.Connection, rows: int) -> Iterator[None]:
    """Inside a transaction, before a bulk load of `rows` chunks at least as many as the table holds: drop the BM25
    candidates' HNSW index and build it again from its own definition after. pgvector builds the graph over 100k
    chunks in minutes and took 100k updates one at a time in 90 minutes (docs/decisions.md, "BM25's candidates")."""
    # Outside a transaction the DROP would commit alone, and a failed load would leave the table without its index.
    if conn.info.transaction_status != pq.TransactionStatus.INTRANS:
        raise RuntimeError("bm25_index_deferred needs an open transaction")
    index = conn.execute(sql_text("bm25_index_definition")).fetchone()
    if index is None or rows < index["chunks"]:
        yield
        return
    conn.execute("DROP INDEX chunks_bm25_hnsw")
    yield
    conn.execute("SET LOCAL maintenance_work_mem = '1GB'")  # the 64 MB default is too small for a 100k-chunk graph
    conn.execute(index["ddl"])


def indexes_step(conn: psycopg.Connection, sha: str, model: str, dim: int, run_id: str | None = None) -> StepReport:
    """BM25 postings, lengths and candidate vectors for the built documents; the vector index for the model if missing."""
    started = time.perf_counter()
    docs = building_documents(conn, sha)
    report = StepReport(documents=len(docs))
    for doc in docs:
        with conn.transaction():
            conn.execute(sql_text("delete_postings"), (doc["id"],))
            conn.execute(sql_text("insert_postings"), ([doc["id"]],))
            conn.execute(sql_text("set_bm25_columns"), ([doc["id"]],))
        report.add("postings", conn.execute(sql_text("count_postings"), (doc["id"],)).fetchone()["n"])
    if docs:
        report.add("vector_index_created", int(ensure_vector_index(conn, model, dim)))
    report.seconds = time.perf_counter() - started
    return report


def publish_step(conn: psycopg.Connection, sha: str, run_id: str | None = None) -> StepReport:
    """Make each built version live and retire the version it replaces, in one transaction per source."""
    started = time.perf_counter()
    docs = building_documents(conn, sha)
    report = StepReport(documents=len(docs))
    for doc in docs:
        with conn.transaction():
            conn.execute(sql_text("lock_rooftop"), (doc["organization_id"], doc["rooftop_id"]))
            old = conn.execute(
                sql_text("supersede_live"), (doc["organization_id"], doc["rooftop_id"], doc["source_path"], doc["id"])
            ).fetchall()
            old_ids = [r["id"] for r in old]
            if old_ids:
                conn.execute(sql_text("delete_superseded_postings"), (old_ids,))
                conn.execute(sql_text("delete_superseded_chunks"), (old_ids,))
                conn.execute(sql_text("delete_superseded_sections"), (old_ids,))
                conn.execute(sql_text("delete_superseded_pages"), (old_ids,))
            conn.execute(sql_text("mark_live"), (doc["id"],))
            conn.execute(sql_text("mark_postings_live"), (doc["id"],))
            conn.execute(sql_text("refresh_bm25_stats"), (doc["organization_id"], doc["rooftop_id"]))
        report.add("replaced", len(old_ids))
        report.add("published", 1)
    report.seconds = time.perf_counter() - started
    return report
