"""SciFact test (BEIR): nDCG@10 and Recall@100 for dense, BM25, ts_rank_cd and hybrid, and our BM25 against bm25s with the same tokens."""

from __future__ import annotations

import argparse
import time

import numpy as np
from pgvector.psycopg import register_vector
from psycopg.conninfo import make_conninfo

from rag_assets import queries as q
from rag_assets.embedding_cache import embed_cached
from rag_assets.metrics import ndcg_at_k, recall_at_k
from rag_assets.pipeline import ensure_vector_index
from rag_assets.public_sets import load_beir
from rag_assets.provenance import git_commit
from rag_serving import db
from rag_serving.database import APP_ROLE, Database, Tenant
from rag_serving.embedders import get_embedder
from rag_serving.retrieval import Retriever

from .common import BENCH_DATA, bench_database

TENANT = Tenant("bench", ("scifact",))
ANCHORS = {"bm25 (bm25s, k1 1.5, b 0.75)": (0.686, 0.913), "dense all-MiniLM-L6-v2 exact": (0.645, 0.925),
           "RRF of the two": (0.717, 0.948)}

INSERT_DOC = """
INSERT INTO documents (id, organization_id, rooftop_id, source_path, sha256, file_name, media_type, title, kind,
                       pipeline_digest, status, embedding_model)
VALUES (%s, 'bench', 'scifact', %s, %s, %s, 'text/plain', %s, 'abstract', 'scifact', 'live', %s)"""
INSERT_CHUNK = """
INSERT INTO chunks (id, organization_id, rooftop_id, document_id, ordinal, page_start, page_end, page_label_start,
                    page_label_end, kind, body, token_count, char_start, char_end, sha256, body_sha256, embedding,
                    embedding_model)
VALUES (%s, 'bench', 'scifact', %s, 0, 1, 1, '1', '1', 'abstract', %s, 0, 0, 0, %s, %s, %s, %s)"""
CHUNK_TOKENS = """
SELECT c.id, array_agg(t.lexeme ORDER BY t.lexeme) AS lexemes, array_agg(coalesce(array_length(t.positions, 1), 1) ORDER BY t.lexeme) AS tfs
FROM chunks c, unnest(c.tsv) AS t GROUP BY c.id"""
QUERY_TOKENS = "SELECT array(SELECT DISTINCT lexeme FROM unnest(to_tsvector('english', %s))) AS lexemes"


def index_sparse(conn, document_ids: list[str]) -> None:
    """The ingest's own postings and lengths SQL, for documents a benchmark inserted directly."""
    with conn.transaction():
        conn.execute(q.INSERT_POSTINGS, (document_ids,))
        conn.execute(q.SET_BM25_LENGTHS, (document_ids,))
        conn.execute(q.REFRESH_BM25_STATS, ("bench", "scifact"))


def build(url: str, embedder, corpus: list[dict]) -> None:
    import hashlib

    with db.connect(url, autocommit=True) as conn:
        if conn.execute("SELECT count(*) AS n FROM chunks WHERE embedding_model = %s", (embedder.model,)).fetchone()["n"] == len(corpus):
            print(f"index present for {embedder.model}; reusing it")
            return
        conn.execute("TRUNCATE documents CASCADE")
        texts = [(d["title"] + ". " + d["text"]).strip() for d in corpus]
        t0 = time.perf_counter()
        vectors, stats = embed_cached(conn, embedder, texts)
        print(f"embedded {len(texts)} abstracts in {time.perf_counter() - t0:.0f} s "
              f"({stats.misses} computed, {stats.hits} from cache)")
        register_vector(conn)
        with conn.transaction(), conn.cursor() as cur:
            for d, text, vec in zip(corpus, texts, vectors):
                sha = hashlib.sha256(text.encode()).hexdigest()
                cur.execute(INSERT_DOC, (d["_id"], d["_id"], sha, d["_id"], d["title"] or d["_id"], embedder.model))
                cur.execute(INSERT_CHUNK, (d["_id"], d["_id"], text, sha, sha, vec, embedder.model))
        index_sparse(conn, [d["_id"] for d in corpus])
        ensure_vector_index(conn, embedder.model, embedder.dim)
        conn.execute("ANALYZE")


def bm25s_run(url: str, queries: dict[str, str], k1: float, b: float, k: int) -> dict[str, list[str]]:
    """bm25s over exactly the lexemes PostgreSQL produced, so only the scoring code differs."""
    import bm25s

    with db.connect(url) as conn:
        rows = conn.execute(CHUNK_TOKENS).fetchall()
        ids = [r["id"] for r in rows]
        docs = [[lex for lex, tf in zip(r["lexemes"], r["tfs"]) for _ in range(tf)] for r in rows]
        qtok = {qid: conn.execute(QUERY_TOKENS, (text,)).fetchone()["lexemes"] for qid, text in queries.items()}
    retriever = bm25s.BM25(k1=k1, b=b, method="lucene")
    retriever.index(docs, show_progress=False)
    out = {}
    vocab = set(lex for d in docs for lex in d)
    for qid, toks in qtok.items():
        toks = [t for t in toks if t in vocab]
        if not toks:
            out[qid] = []
            continue
        res, _ = retriever.retrieve([toks], k=k, show_progress=False)
        out[qid] = [ids[i] for i in res[0]]
    return out


def score(runs: dict[str, list[str]], qrels: dict[str, dict[str, int]]) -> tuple[float, float]:
    nd = [ndcg_at_k(runs.get(qid, []), rel, 10) for qid, rel in qrels.items()]
    rc = [recall_at_k(runs.get(qid, []), rel, 100) for qid, rel in qrels.items()]
    return float(np.mean(nd)), float(np.mean(rc))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--k1", type=float, default=1.5)
    parser.add_argument("--b", type=float, default=0.75)
    args = parser.parse_args()

    corpus_by_id, queries, qrels = load_beir(BENCH_DATA / "scifact", "test")
    corpus = list(corpus_by_id.values())
    test_queries = {qid: queries[qid] for qid in qrels}

    embedder = get_embedder("minilm")
    url = bench_database("bench_scifact", fresh=args.rebuild)
    build(url, embedder, corpus)
    database = Database(make_conninfo(url, user=APP_ROLE), max_size=1)
    retriever = Retriever(database, embedder, k1=args.k1, b=args.b, candidates=100)
    results = {}
    for label, mode, sparse in [("dense (HNSW)", "dense", "bm25"), ("bm25 (ours, in PostgreSQL)", "sparse", "bm25"),
                                ("ts_rank_cd", "sparse", "tsrank"), ("hybrid RRF (dense + bm25)", "hybrid", "bm25")]:
        t0 = time.perf_counter()
        runs = {qid: [h.chunk_id for h in retriever.search(TENANT, text, k=100, mode=mode, sparse=sparse)]
                for qid, text in test_queries.items()}
        results[label] = (*score(runs, qrels), (time.perf_counter() - t0) / len(test_queries) * 1000)
    database.close()
    ref = bm25s_run(url, test_queries, args.k1, args.b, 100)
    results["bm25s, same lexemes"] = (*score(ref, qrels), float("nan"))

    print(f"\nSciFact test, {len(test_queries)} queries, {len(corpus)} abstracts; commit {git_commit()}; "
          f"k1 {args.k1}, b {args.b}; model {embedder.model}")
    print(f"{'run':<30} {'nDCG@10':>8} {'R@100':>7} {'ms/query':>9}")
    for label, (nd, rc, ms) in results.items():
        print(f"{label:<30} {nd:>8.3f} {rc:>7.3f} {ms:>9.1f}")
    print("published/measured anchors (../shared/bench/README.md):")
    for label, (nd, rc) in ANCHORS.items():
        print(f"  {label:<28} {nd:>8.3f} {rc:>7.3f}")
    gap = abs(results["bm25 (ours, in PostgreSQL)"][0] - results["bm25s, same lexemes"][0])
    print(f"|our BM25 − bm25s| nDCG@10 = {gap:.4f} (must be ≤ 0.01)")


if __name__ == "__main__":
    main()
