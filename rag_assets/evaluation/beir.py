"""Any BEIR folder (corpus.jsonl, queries.jsonl, qrels/<split>.tsv) as a scratch database of one-page documents, for `rag eval --beir` and `rag ablate --beir`."""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path

import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql
from psycopg.conninfo import make_conninfo

from rag_assets.evaluation.public_sets import load_beir
from rag_assets.evaluation.queries import sql_text
from rag_assets.ingest.embedding_cache import embed_cached
from rag_assets.ingest.publish import bm25_index_deferred, ensure_vector_index
from rag_assets.ingest.queries import sql_text as ingest_sql
from rag_assets.ingest.vectors import backfill_token_vectors
from rag_serving.store.bootstrap import connect
from rag_serving.store.migrate import migrate

ORGANIZATION = "bench"


def rooftop_for(folder: Path) -> str:
    """The tenant a BEIR folder is loaded into: organization `bench`, rooftop from the folder's name."""
    name = re.sub(r"[^a-z0-9_-]+", "-", Path(folder).name.lower()).strip("-_") or "beir"
    return name[:63]


def scratch_database(server: str, name: str, *, fresh: bool = False) -> str:
    """URL of database `name` on the server behind `server` (created, or recreated when fresh), migrated."""
    with psycopg.connect(server, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if exists and fresh:
            conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
        if not exists or fresh:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = make_conninfo(server, dbname=name)
    migrate(url)
    return url


def load_corpus(url: str, folder: Path, embedder, *, split: str = "test", rooftop: str | None = None,
                say: Callable[[str], None] = print) -> None:
    """The folder's corpus as live documents of tenant bench/<rooftop>, embedded through the cache, with BM25
    postings, the HNSW index and token vectors; kept when every entry is already there for this embedder."""
    corpus, _, _ = load_beir(folder, split)
    rooftop = rooftop or rooftop_for(folder)
    with connect(url, autocommit=True) as conn:
        present = conn.execute("SELECT count(*) AS n FROM chunks WHERE embedding_model = %s AND rooftop_id = %s",
                               (embedder.model, rooftop)).fetchone()["n"]
        if present != len(corpus):
            # Postings first, in one statement: a cascade from documents would delete them chunk by chunk.
            conn.execute("DELETE FROM chunk_terms WHERE organization_id = %s AND rooftop_id = %s", (ORGANIZATION, rooftop))
            conn.execute("DELETE FROM documents WHERE organization_id = %s AND rooftop_id = %s", (ORGANIZATION, rooftop))
            entries = list(corpus.values())
            texts = [(d.get("title", "") + ". " + d["text"]).strip() for d in entries]
            started = time.perf_counter()
            vectors, stats = embed_cached(conn, embedder, texts)
            say(f"embedded {len(texts)} entries of {Path(folder).name} in {time.perf_counter() - started:.0f} s "
                f"({stats.misses} computed, {stats.hits} from cache)")
            insert_entries(conn, [(d["_id"], d.get("title") or d["_id"], text) for d, text in zip(entries, texts)],
                           vectors, rooftop, embedder)
        report = backfill_token_vectors(conn, embedder)
        if report.counts.get("encoded"):
            say(f"token vectors for {report.counts['encoded']} entries in {report.seconds:.0f} s")


def insert_entries(conn: psycopg.Connection, entries: list[tuple[str, str, str]], vectors, rooftop: str,
                   embedder, organization: str = ORGANIZATION, *, per_document: int = 1, indexes: bool = True) -> None:
    """(id, title, text) entries with their vectors as live documents of <organization>/<rooftop>, `per_document`
    consecutive entries each (one chunk and page per entry; the document takes its first entry's id and title), then
    the BM25 postings and lengths (the ingest's own SQL), the tenant's BM25 statistics and the HNSW index (the sparse
    one built again after the load when the load is most of the table). indexes=False leaves both graphs to the
    caller, who loads in slices and builds them once at the end."""
    register_vector(conn)
    deferred = bm25_index_deferred(conn, len(entries)) if indexes else nullcontext()
    # All or nothing: a build killed part-way must not leave chunks that look finished to the next run.
    with conn.transaction(), deferred:
        with conn.cursor() as cur:
            for i, ((ident, title, text), vector) in enumerate(zip(entries, vectors)):
                ordinal = i % per_document
                row = {"id": ident, "org": organization, "rooftop": rooftop, "title": title, "ordinal": ordinal,
                       "document": entries[i - ordinal][0], "sha": hashlib.sha256(text.encode()).hexdigest(),
                       "body": text, "vector": vector, "model": embedder.model}
                if ordinal == 0:
                    cur.execute(sql_text("beir_document"), row)
                cur.execute(sql_text("beir_chunk"), row)
        ids = [e[0] for e in entries]
        conn.execute(ingest_sql("insert_postings"), (ids,))
        conn.execute(ingest_sql("set_bm25_columns"), (ids,))
        conn.execute(ingest_sql("refresh_bm25_stats"), (organization, rooftop))
        if indexes:
            conn.execute("SET maintenance_work_mem = '1GB'")  # the 64 MB default is too small for 100k vectors
            ensure_vector_index(conn, embedder.model, embedder.dim)
    conn.execute("ANALYZE")
