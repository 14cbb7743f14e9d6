"""SciFact test (BEIR): nDCG@10 and Recall@100 for dense, BM25, ts_rank_cd and hybrid, and our BM25 against bm25s with the same tokens."""

from __future__ import annotations

import argparse
import time

import numpy as np

from rag_assets.evaluation.beir import load_corpus
from rag_assets.evaluation.metrics import ndcg_at_k, recall_at_k
from rag_assets.evaluation.provenance import git_commit
from rag_assets.evaluation.public_sets import load_beir
from rag_assets.settings import load_settings
from rag_serving.models.embedders import get_embedder
from rag_serving.store import bootstrap as db
from rag_serving.store.sessions import Tenant

from .common import BENCH_DATA, bench_database, pipeline, recorded

TENANT = Tenant("bench", ("scifact",))
ANCHORS = {"bm25 (bm25s, k1 1.5, b 0.75)": (0.686, 0.913), "dense all-MiniLM-L6-v2 exact": (0.645, 0.925),
           "RRF of the two": (0.717, 0.948)}

CHUNK_TOKENS = """
SELECT c.id, array_agg(t.lexeme ORDER BY t.lexeme) AS lexemes, array_agg(coalesce(array_length(t.positions, 1), 1) ORDER BY t.lexeme) AS tfs
FROM chunks c, unnest(c.tsv) AS t GROUP BY c.id"""
# Each lexeme as often as the query says it: bm25s sums a repeated query token once per occurrence, as our leg does.
QUERY_TOKENS = ("SELECT array(SELECT t.lexeme FROM unnest(to_tsvector('english', %s)) AS t, "
                "generate_series(1, coalesce(array_length(t.positions, 1), 1))) AS lexemes")


def build(url: str, embedder, split: str = "test") -> None:
    """The SciFact corpus as one-page documents of bench/scifact (the loader `rag eval --beir` uses)."""
    load_corpus(url, BENCH_DATA / "scifact", embedder, split=split, rooftop="scifact")


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
    build(url, embedder)
    # The legs of the shipped spec with this run's BM25 parameters and 100 candidates per leg.
    spec = load_settings().pipeline().replace(bm25_k1=args.k1, bm25_b=args.b, candidates=100)
    results = {}
    with pipeline(url, embedder, spec) as p:
        for label, mode, sparse in [("dense (HNSW)", "dense", "bm25"), ("bm25 (ours, in PostgreSQL)", "sparse", "bm25"),
                                    ("ts_rank_cd", "sparse", "tsrank"), ("hybrid RRF (dense + bm25)", "hybrid", "bm25")]:
            t0 = time.perf_counter()
            runs = {qid: [h.chunk_id for h in p.search(TENANT, text, k=100, rerank=False, mode=mode, sparse=sparse)]
                    for qid, text in test_queries.items()}
            results[label] = (*score(runs, qrels), (time.perf_counter() - t0) / len(test_queries) * 1000)
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
    with recorded("scifact"):
        main()
