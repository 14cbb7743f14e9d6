"""Backfilling token and sentence vectors: due only when a live chunk lacks those of its own model."""

from rag_assets.ingest.targets import Target
from rag_assets.ingest.vectors import backfill_sentence_vectors, vectors_missing
from rag_assets.resources import EmbedderResource
from tests.rag_assets.assets.test_ingest import HANDBOOK_V1, run_batch, write


def test_a_backfill_is_due_only_when_a_live_chunk_lacks_its_vectors(database_url, conn, tmp_path, minilm):
    assert not vectors_missing(conn)  # nothing ingested, nothing due
    run_batch(database_url, [Target(write(tmp_path, "handbook.pdf", HANDBOOK_V1), "acme", "hq", "handbook.pdf")],
              embedder=EmbedderResource(name="minilm"))
    assert not vectors_missing(conn)  # ingest stored both kinds: an unchanged re-ingest needs no encoder
    chunk = conn.execute("SELECT chunk_id FROM chunk_sentence_vectors LIMIT 1").fetchone()["chunk_id"]
    conn.execute("DELETE FROM chunk_sentence_vectors WHERE chunk_id = %s", (chunk,))
    assert vectors_missing(conn)
    assert backfill_sentence_vectors(conn, minilm).counts.get("chunks") == 1
    assert not vectors_missing(conn)


def test_token_vectors_are_not_due_from_an_embedder_that_never_makes_them(database_url, conn, tmp_path):
    run_batch(database_url, [Target(write(tmp_path, "handbook.pdf", HANDBOOK_V1), "acme", "hq", "handbook.pdf")])
    assert conn.execute("SELECT count(*) AS n FROM chunk_token_vectors").fetchone()["n"] == 0  # hashed-tfidf
    assert vectors_missing(conn)  # as a token-vector embedder would see this corpus
    assert not vectors_missing(conn, tokens=False)  # its sentence vectors are all there
