"""The vector steps: a dense vector per chunk through the embedding cache, per-token vectors for late interaction, and
the unit vectors of each chunk's quotable sentences for the answer step."""

from __future__ import annotations

import time

import numpy as np
import psycopg

from rag_assets.ingest.queries import sql_text
from rag_assets.ingest.steps import StepReport, building_documents


def embeddings_step(conn: psycopg.Connection, sha: str, embedder, run_id: str | None = None) -> StepReport:
    """Vectors for every chunk of the built documents, through the cache."""
    from pgvector.psycopg import register_vector

    from rag_assets.ingest.embedding_cache import embed_cached

    from rag_serving.search.late_interaction import JointEncoder

    started = time.perf_counter()
    docs = building_documents(conn, sha)
    report = StepReport(documents=len(docs))
    register_vector(conn)
    for doc in docs:
        rows = conn.execute(sql_text("select_chunk_bodies"), (doc["id"],)).fetchall()
        # Token vectors come out of the same forward pass as the vectors the cache lacks: kept, they spare the
        # token_vectors step a second pass over those chunks.
        states: dict[str, np.ndarray] = {}

        def encode(texts):
            vectors, tokens = embedder.encode(texts)
            states.update(zip(texts, tokens))
            return vectors

        joint = isinstance(embedder, JointEncoder)
        vectors, stats = embed_cached(conn, embedder, [r["body"] for r in rows], encode=encode if joint else None)
        with conn.transaction(), conn.cursor() as cur:
            cur.executemany(sql_text("set_chunk_embedding"), [(v, embedder.model, r["organization_id"], r["id"])
                                                                for r, v in zip(rows, vectors)])
            cur.execute(sql_text("set_document_embedding_model"), (embedder.model, doc["id"]))
        fresh = [r for r in rows if r["body"] in states]
        insert_token_vectors(conn, embedder.model, fresh, [states[r["body"]] for r in fresh], report)
        report.add("vectors", len(rows))
        report.add("cache_hits", stats.hits)
        report.add("cache_misses", stats.misses)
        report.counts["embed_ms"] = report.counts.get("embed_ms", 0) + int(stats.embed_seconds * 1000)
    report.seconds = time.perf_counter() - started
    return report


def insert_token_vectors(conn: psycopg.Connection, model: str, rows: list[dict], vectors: list[np.ndarray],
                         report: StepReport) -> None:
    """Store token vectors (int8-packed) of chunk rows (id, body_sha256, organization_id, rooftop_id)."""
    from rag_serving.search.late_interaction import pack

    encoded = [pack(v) for v in vectors]
    with conn.transaction(), conn.cursor() as cur:
        cur.executemany(sql_text("insert_token_vectors"), [
            (r["id"], model, r["organization_id"], r["rooftop_id"], r["body_sha256"], p.tokens, p.dim,
             p.vectors, p.scales) for r, p in zip(rows, encoded)])
    report.add("token_vectors", len(rows))
    report.add("tokens", sum(p.tokens for p in encoded))
    report.add("bytes", sum(p.nbytes for p in encoded))


def store_token_vectors(conn: psycopg.Connection, encoder, rows: list[dict], report: StepReport, batch: int = 64) -> None:
    """Encode and store the token vectors of chunk rows (id, body, body_sha256, organization_id, rooftop_id)."""
    for offset in range(0, len(rows), batch):
        part = rows[offset : offset + batch]
        insert_token_vectors(conn, encoder.model, part, encoder.token_vectors([r["body"] for r in part]), report)
        report.add("encoded", len(part))


def token_vectors_step(conn: psycopg.Connection, sha: str, encoder, run_id: str | None = None) -> StepReport:
    """Per-token vectors for late interaction, int8-packed, for the file's chunks that lack them: the version being
    built, and the live one (so re-materializing this asset backfills a database ingested before it existed).
    Unchanged bodies reuse stored vectors. An embedder without token vectors (hashed TF-IDF, TEI) stores none."""
    from rag_serving.search.late_interaction import TokenEncoder

    started = time.perf_counter()
    docs = conn.execute(sql_text("select_building_or_live_for_file"), (sha,)).fetchall()
    report = StepReport(documents=len(docs))
    if not isinstance(encoder, TokenEncoder):
        report.warnings.append(f"{encoder.model} has no token vectors; late interaction encodes candidates at query time")
        report.seconds = time.perf_counter() - started
        return report
    for doc in docs:
        args = {"document": doc["id"], "model": encoder.model}
        with conn.transaction():
            report.add("reused", conn.execute(sql_text("copy_token_vectors"), args).rowcount)
        store_token_vectors(conn, encoder, conn.execute(sql_text("select_chunks_for_token_vectors"), args).fetchall(), report)
    report.seconds = time.perf_counter() - started
    return report


def vectors_missing(conn: psycopg.Connection, *, tokens: bool = True) -> bool:
    """Whether any live chunk lacks the sentence vectors of its own embedding model, or its token vectors when the
    embedder makes them (`tokens`): a backfill is due."""
    return bool(conn.execute(sql_text("live_chunks_lack_vectors"), {"tokens": tokens}).fetchone()["lacking"])


def backfill_token_vectors(conn: psycopg.Connection, encoder) -> StepReport:
    """Token vectors for every live chunk that lacks them (a database ingested before late interaction existed,
    or rows a benchmark inserted directly)."""
    from rag_serving.search.late_interaction import TokenEncoder

    started = time.perf_counter()
    report = StepReport()
    if not isinstance(encoder, TokenEncoder):
        return report
    store_token_vectors(conn, encoder, conn.execute(sql_text("select_live_chunks_without_token_vectors"),
                                                    {"model": encoder.model}).fetchall(), report)
    report.seconds = time.perf_counter() - started
    return report


def store_sentence_vectors(conn: psycopg.Connection, embedder, rows: list[dict], report: StepReport, batch: int = 64) -> None:
    """Embed and store the quotable sentences of chunk rows (id, body, body_sha256, organization_id, rooftop_id)."""
    from rag_serving.answer.edges import cut, edge_texts, widened
    from rag_serving.answer.evidence import quotable
    from rag_serving.answer.vectors import pack, unit_vectors

    for offset in range(0, len(rows), batch):
        part = rows[offset : offset + batch]
        # The sentences the answer step reads: those the chunk window cut are finished from the page (answer/edges.py).
        edges = edge_texts(conn.execute, [r["id"] for r in part if cut(r["body"])])
        bodies = [widened(r["body"], *edges[r["id"]]) if r["id"] in edges else r["body"] for r in part]
        sentences = [list(dict.fromkeys(text for _, _, text in quotable(body))) for body in bodies]
        distinct = list(dict.fromkeys(t for texts in sentences for t in texts))
        vectors = dict(zip(distinct, unit_vectors(embedder, distinct))) if distinct else {}
        with conn.transaction(), conn.cursor() as cur:
            cur.executemany(sql_text("insert_sentence_vectors"), [
                (r["id"], embedder.model, r["organization_id"], r["rooftop_id"], r["body_sha256"], texts, embedder.dim,
                 pack(np.stack([vectors[t] for t in texts]) if texts else np.zeros((0, embedder.dim))))
                for r, texts in zip(part, sentences)])
        report.add("chunks", len(part))
        report.add("sentences", sum(len(t) for t in sentences))


def sentence_vectors_step(conn: psycopg.Connection, sha: str, embedder, run_id: str | None = None) -> StepReport:
    """Unit vectors of each chunk's quotable sentences, for the file's chunks that lack them: the version being built,
    and the live one (re-materializing backfills an older database). Unchanged bodies reuse stored vectors."""
    started = time.perf_counter()
    docs = conn.execute(sql_text("select_building_or_live_for_file"), (sha,)).fetchall()
    report = StepReport(documents=len(docs))
    for doc in docs:
        args = {"document": doc["id"], "model": embedder.model}
        with conn.transaction():
            report.add("reused", conn.execute(sql_text("copy_sentence_vectors"), args).rowcount)
        store_sentence_vectors(conn, embedder, conn.execute(sql_text("select_chunks_for_sentence_vectors"), args).fetchall(),
                               report)
    report.seconds = time.perf_counter() - started
    return report


def backfill_sentence_vectors(conn: psycopg.Connection, embedder) -> StepReport:
    """Sentence vectors for every live chunk that lacks them (a database ingested before they were stored)."""
    started = time.perf_counter()
    report = StepReport()
    store_sentence_vectors(conn, embedder, conn.execute(sql_text("select_live_chunks_without_sentence_vectors"),
                                                        {"model": embedder.model}).fetchall(), report)
    report.seconds = time.perf_counter() - started
    return report
