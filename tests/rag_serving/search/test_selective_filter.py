"""A filter matching 1% of rows still fills the requested 50 results (filter inside the HNSW scan, not after)."""

import datetime as dt

from pgvector.psycopg import register_vector
from psycopg.conninfo import make_conninfo

from rag_assets.ingest.publish import bm25_index_deferred, ensure_vector_index
from rag_assets.ingest.queries import sql_text
from rag_serving.models.embedders import HashedTfidf
from rag_serving.search.hits import Filters
from rag_serving.store import bootstrap as db
from rag_serving.store.sessions import APP_ROLE, Database, Tenant
from tests.searching import legs

N_CHUNKS = 5_000
RARE_EVERY = 100  # 1% of the chunks are kind 'rare'


def test_one_percent_filter_returns_fifty_results(database_url):
    embedder = HashedTfidf(dim=256)
    words = ["gate", "leave", "invoice", "fan", "password", "forklift", "badge", "payroll", "audit", "dock"]
    texts = [f"note {i} about {words[i % 10]} and {words[(i // 10) % 10]} item {i % 37}" for i in range(N_CHUNKS)]
    vectors = embedder.embed(texts)
    with db.connect(database_url, autocommit=True) as conn:
        register_vector(conn)
        # One bulk load, the sparse graph built once after it: chunk by chunk it took ~5 ms each.
        with conn.transaction(), bm25_index_deferred(conn, N_CHUNKS):
            conn.execute("INSERT INTO documents (id, organization_id, rooftop_id, source_path, sha256, file_name, "
                         "media_type, title, pipeline_digest, status, embedding_model) VALUES ('doc', 'acme', 'hq', "
                         "'notes.md', %s, 'notes.md', 'text/markdown', 'Notes', 'd', 'live', %s)",
                         ("0" * 64, embedder.model))
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO chunks (id, organization_id, rooftop_id, document_id, ordinal, page_start, page_end, "
                    "page_label_start, page_label_end, kind, published_on, body, token_count, char_start, char_end, "
                    "sha256, body_sha256, embedding, embedding_model) VALUES (%s, 'acme', 'hq', 'doc', %s, 1, 1, '1', "
                    "'1', %s, %s, %s, 10, 0, 10, %s, 'b', %s, %s)",
                    [(f"c{i}", i, "rare" if i % RARE_EVERY == 0 else "common", dt.date(2025, 1, 1), t, "0" * 64, v,
                      embedder.model) for i, (t, v) in enumerate(zip(texts, vectors))],
                )
            conn.execute(sql_text("insert_postings"), (["doc"],))
            conn.execute(sql_text("set_bm25_columns"), (["doc"],))
            conn.execute(sql_text("refresh_bm25_stats"), ("acme", "hq"))
        ensure_vector_index(conn, embedder.model, embedder.dim)
    database = Database(make_conninfo(database_url, user=APP_ROLE), max_size=1)
    try:
        search = legs(database, embedder)
        rare = Filters(kinds=["rare"])
        for mode in ("dense", "sparse", "hybrid"):
            hits = search(Tenant("acme", ("hq",)), "gate leave note", k=50, mode=mode, filters=rare)
            assert len(hits) == 50, mode
            assert all(h.kind == "rare" for h in hits)
    finally:
        database.close()
