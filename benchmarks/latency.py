"""Query latency p50/p95 per mode at 10k and 100k chunks, HNSW against exact search, and HNSW's recall@50 against exact;
mode `retrieve` times `POST /retrieve` (the shipped pipeline, learned reranker included) on a real server; mode
`bm25_bounds` counts the postings MaxScore reads against what a known final score would let it skip."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from psycopg import sql

from rag_assets.evaluation.provenance import git_commit
from rag_assets.evaluation.public_sets import load_beir
from rag_serving.models.embedders import get_embedder
from rag_serving.search.legs import Retriever
from rag_serving.search.query import Query
from rag_serving.store import bootstrap as db
from rag_serving.store.sessions import Tenant
from rag_serving.store.sqlfiles import sql_text

from .common import BENCH_DATA, bench_database, recorded, serving
from .synthetic import CORPORA, PER_DOCUMENT, TENANT, build, copy_token_vectors, tenant_of


def fresh(query: Query) -> Query:
    """The question as a new request sees it: its vector already computed (timed apart, once), its terms not yet
    read. Reusing one Query would time every search after the first without its terms' statement."""
    return Query(query.text, query.embedder, _vector=query._vector, _tokens=query._tokens)


# The modes a request runs, timed in turns per question; the exact scan is the recall reference, timed on its own
# before them: interleaved, its reads of the whole table would evict the graphs the others walk.
SEARCHES = {"dense_hnsw": {"mode": "dense"}, "bm25": {"mode": "sparse"},
            "ts_rank_cd": {"mode": "sparse", "sparse": "tsrank"}, "hybrid": {"mode": "hybrid"}}
REFERENCE = {"dense_exact": {"mode": "dense", "exact": True}}


def time_searches(database, retriever: Retriever, queries: list[Query], tenant: Tenant,
                  modes: list[str]) -> tuple[dict[str, list[float]], dict[str, list[list[str]]]]:
    """Milliseconds and top-50 chunk ids per mode and question, after one untimed pass (so the first mode does not pay
    for reading the indexes from disk). The served modes run in turns, question by question, each question starting at
    the next mode: drift in the host's speed within a run then falls on every mode alike, not on whichever ran last."""

    def timed(query: Query, kwargs: dict) -> tuple[float, list[str]]:
        t0 = time.perf_counter()
        with database.session(tenant) as session:
            hits = retriever.search(session, fresh(query), k=50, **kwargs)
        return (time.perf_counter() - t0) * 1000, [h.chunk_id for h in hits]

    timings: dict[str, list[float]] = {}
    lists: dict[str, list[list[str]]] = {}
    for group in (REFERENCE, SEARCHES):
        labels = [label for label in group if label in modes]
        if not labels:
            continue
        for query in queries:
            for label in labels:
                timed(query, group[label])
        for i, query in enumerate(queries):
            for label in labels[i % len(labels):] + labels[:i % len(labels)]:
                ms, ids = timed(query, group[label])
                timings.setdefault(label, []).append(ms)
                lists.setdefault(label, []).append(ids)
    return timings, lists


def time_retrieve(url: str, questions: list[str], tenant: Tenant = TENANT, port: int = 8766) -> dict:
    """p50/p95 of `POST /retrieve` on `rag serve` over this database, one request at a time after an untimed pass."""
    import httpx

    from rag_serving.store import apikeys

    from .load import start_server

    with db.connect(url, autocommit=True) as conn:
        key = apikeys.create_key(conn, tenant.organization_id, list(tenant.rooftop_ids), "benchmarks.latency")
    server = start_server(url, port, None)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120,
                          headers={"Authorization": f"Bearer {key}"}) as client:
            for q in questions:
                client.post("/retrieve", json={"question": q}).raise_for_status()
            timings = []
            for q in questions:
                t0 = time.perf_counter()
                client.post("/retrieve", json={"question": q}).raise_for_status()
                timings.append((time.perf_counter() - t0) * 1000)
    finally:
        server.terminate()
        server.wait(30)
    return {"p50_ms": round(percentile(timings, 50), 1), "p95_ms": round(percentile(timings, 95), 1)}


def bm25_bounds(database, retriever: Retriever, questions: list[str], tenant: Tenant = TENANT) -> dict:
    """Why MaxScore reads what it reads: the postings of the words it could not skip, against what it would read
    knowing the final LIMIT-th score in advance (the best any θ could do with these bounds); and how close each word's
    real largest tf part comes to the bound (k1 + 1) it is skipped by."""
    from rag_serving.search import bm25
    from rag_serving.search.hits import Filters

    top_sql = (Path(__file__).parent / "sql" / "bm25_term_max.sql").read_text()
    read, oracle, ratios = [], [], []
    for question in questions:
        query = Query(question, retriever.embedder)
        with database.session(tenant) as session:
            found = query.terms(session)
            ordered = bm25.ordered_terms(found, retriever.k1)
            ranked = bm25.top(session, query, Filters(), k1=retriever.k1, b=retriever.b, limit=50)
            tops = session.execute(top_sql, {"avgdl": found.avgdl, "k1": retriever.k1, "b": retriever.b,
                                             "terms": [t.term for t in ordered]}).fetchall()
        if not ranked.rows:
            continue
        # The most words a split could skip with θ at the final LIMIT-th score (the retry rule, with nothing skipped yet).
        fits = bm25.next_split(ordered, retriever.k1, len(ordered) + 1, float(ranked.rows[-1]["score"]), 50, 50)
        read.append(sum(t.df for t in ordered[ranked.skipped:]))  # skipped is 0 when every posting was read
        oracle.append(sum(t.df for t in ordered[fits:]))
        ratios += [float(r["top"]) / (retriever.k1 + 1) for r in tops]
    return {"bm25_essential_postings_mean": round(float(np.mean(read))),
            "bm25_essential_postings_known_theta_mean": round(float(np.mean(oracle))),
            "bm25_largest_tf_part_over_bound": {"p50": round(percentile(ratios, 50), 3),
                                                "p05": round(percentile(ratios, 5), 3)}}


def percentile(values: list[float], p: float) -> float:
    return float(np.percentile(np.array(values), p))


def ndcg_at_10(ranked: list[str], relevant: dict[str, int]) -> float:
    gains = [relevant.get(chunk, 0) / np.log2(i + 2) for i, chunk in enumerate(ranked[:10])]
    ideal = [g / np.log2(i + 2) for i, g in enumerate(sorted(relevant.values(), reverse=True)[:10])]
    return float(sum(gains) / sum(ideal))


def scifact_qrels(qrels: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """SciFact's graded qrels in chunk ids: chunk d<i> is the i-th abstract by id in both corpora (build())."""
    url = bench_database("bench_scifact", fresh=False)
    with db.connect(url) as conn:
        chunk_of = {r["id"]: f"d{i}" for i, r in enumerate(conn.execute("SELECT id FROM chunks ORDER BY id"))}
    return {q: {chunk_of[d]: g for d, g in rel.items() if d in chunk_of} for q, rel in qrels.items()}


def compare_bm25(database, retriever: Retriever, questions: list[str], tenant: Tenant = TENANT,
                 relevant: list[dict[str, int] | None] | None = None, every_way: bool = True) -> dict:
    """The shipped BM25 top 50 (`bm25_sql`: for questions with many postings, candidates from the sparse HNSW index
    and the rarest words' postings, scored exactly) against the exact ways: MaxScore (the rarer words' postings, then
    the common words' read whole or probed), the same statement reading every posting, probing every common word
    (`bm25_probed`, as before ec178b5) and the statement before migration 0011 (a join per posting, df counted from
    postings), SQL alone, in turns: p50/p95 of each, ratios, whether the exact ways rank the same top 50 with the same
    scores, how much of the exact top 50 and top 10 the shipped one keeps, and SciFact's nDCG@10 for both. Mode
    `bm25_kept` (every_way false) runs MaxScore alone as the truth: at 1M chunks the other exact ways take seconds."""

    from rag_serving.search import bm25
    from rag_serving.search.hits import Filters

    joined = sql.SQL((Path(__file__).parent / "sql" / "bm25_joined.sql").read_text()).format(
        filters=sql.SQL(sql_text("filters")))
    names = ("bm25_sql", "bm25_maxscore", "bm25_every_posting", "bm25_probed", "bm25_joined")[:None if every_way else 2]
    exact = names[1:]
    timings: dict[str, list[float]] = {name: [] for name in names}
    same, worst, attempts, kept50, kept10, identical = 0, 0.0, [], [], [], 0
    ndcg: dict[str, list[float]] = {"bm25_sql": [], "bm25_maxscore": []}
    for i, question in enumerate(questions):
        ranked = {}
        for name in names:
            with database.session(tenant) as session:
                if name == "bm25_joined":  # as MaxScore runs (bm25.top): no sort for the postings' sums
                    session.execute("SET LOCAL enable_sort = off")
                t0 = time.perf_counter()
                if name == "bm25_joined":
                    params = {**Filters().params(), "question": question, "k1": retriever.k1, "b": retriever.b,
                              "limit": 50}
                    ranked[name] = session.execute(joined, params).fetchall()
                else:
                    found = bm25.top(session, Query(question, retriever.embedder), Filters(), k1=retriever.k1,
                                     b=retriever.b, limit=50, prune=name != "bm25_every_posting",
                                     ann=name == "bm25_sql",
                                     scan_ratio=0.0 if name == "bm25_probed" else bm25.SCAN_RATIO)
                    ranked[name] = found.rows
                    if name == "bm25_maxscore":
                        attempts.append(found.statements)
                timings[name].append((time.perf_counter() - t0) * 1000)
        lists = {name: [r["id"] for r in ranked[name]] for name in names}
        same += all(lists[name] == lists[exact[0]] for name in exact[1:])
        worst = max([worst, *(abs(a["score"] - b["score"]) for other in exact[1:]
                              for a, b in zip(ranked[exact[0]], ranked[other]))])
        truth = lists["bm25_maxscore"]
        kept50.append(len(set(lists["bm25_sql"]) & set(truth)) / max(len(truth), 1))
        kept10.append(len(set(lists["bm25_sql"][:10]) & set(truth[:10])) / max(len(truth[:10]), 1))
        identical += lists["bm25_sql"] == truth
        # The shipped scores are exact for the chunks it returns.
        scores = {r["id"]: r["score"] for r in ranked["bm25_maxscore"]}
        worst = max([worst, *(abs(r["score"] - scores[r["id"]]) for r in ranked["bm25_sql"] if r["id"] in scores)])
        if relevant and relevant[i]:
            for name in ndcg:
                ndcg[name].append(ndcg_at_10(lists[name], relevant[i]))
    out = {name: {"p50_ms": round(percentile(t, 50), 1), "p95_ms": round(percentile(t, 95), 1)}
           for name, t in timings.items()}
    for other in names[1:]:
        out[f"{other}_over_bm25_sql_p95"] = round(out[other]["p95_ms"] / max(out["bm25_sql"]["p95_ms"], 1e-9), 1)
    if len(exact) > 1:
        out["bm25_exact_ways_same_top50"] = round(same / len(questions), 4)
    out["bm25_max_score_difference"] = worst
    out["bm25_sql_kept_of_exact_top50"] = round(float(np.mean(kept50)), 4)
    out["bm25_sql_kept_of_exact_top10"] = round(float(np.mean(kept10)), 4)
    out["bm25_sql_same_top50"] = round(identical / len(questions), 4)
    if ndcg["bm25_sql"]:
        out["scifact_ndcg_at_10"] = {name: round(float(np.mean(v)), 4) for name, v in ndcg.items()}
        out["scifact_ndcg_at_10"]["questions"] = len(ndcg["bm25_sql"])
        out["scifact_ndcg_at_10_loss"] = round(float(np.mean(ndcg["bm25_maxscore"]) - np.mean(ndcg["bm25_sql"])), 4)
    out["bm25_maxscore_statements_mean"] = round(float(np.mean(attempts)), 2)
    out["bm25_maxscore_statements_max"] = max(attempts)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--modes", default="dense_hnsw,dense_exact,bm25,ts_rank_cd,hybrid,bm25_sql")
    parser.add_argument("--ef-search", type=int, default=0, help="0: the Retriever's default (2 x LIMIT, at least 100)")
    parser.add_argument("--tenants", type=int, default=1, help="organizations sharing the corpus; queries run as one")
    parser.add_argument("--corpus", choices=sorted(CORPORA), default="copies",
                        help="copies: SciFact and near-duplicate copies, one chunk per document; realistic: distinct "
                             f"chunks, {PER_DOCUMENT} per document, each tenant its own text")
    parser.add_argument("--build-memory", default="1GB",
                        help="maintenance_work_mem for building the graphs (1M chunks: their graphs outgrow 1 GB)")
    args = parser.parse_args()
    _, queries, qrels = load_beir(BENCH_DATA / "scifact", "test")
    qrels = {**load_beir(BENCH_DATA / "scifact", "train")[2], **qrels}  # the first claims are train claims
    qids = list(queries)[: args.queries]
    questions = [queries[q] for q in qids]
    by_chunk = scifact_qrels(qrels)
    relevant = [by_chunk.get(q) for q in qids]
    embedder = get_embedder("minilm")
    report = {"commit": git_commit(), "queries": len(questions), "model": embedder.model, "tenants": args.tenants,
              "corpus": args.corpus, "sizes": {}}
    tenant = tenant_of(0, 1, args.tenants)
    for size in [int(s) for s in args.sizes.split(",")]:
        name = f"bench_latency_{size}" + (f"_t{args.tenants}" if args.tenants > 1 else "") + \
            ("" if args.corpus == "copies" else f"_{args.corpus}")
        url = bench_database(name, fresh=False)
        built = build(url, embedder, size, args.tenants, args.corpus, args.build_memory)
        database = serving(url)
        retriever = Retriever(embedder, candidates=50, ef_search=args.ef_search)
        # Query embedding is the same cost in every mode; measure it once and keep it out of the SQL timings.
        t0 = time.perf_counter()
        queries = [Query(q, embedder) for q in questions]
        for q in queries:
            q.vector  # noqa: B018 - computed here, reused by every mode
        embed_ms = (time.perf_counter() - t0) / len(questions) * 1000
        row = {"embed_query_ms": round(embed_ms, 2)}
        if built is not None:
            row["build_s"] = round(built)
        timings, results = time_searches(database, retriever, queries, tenant, args.modes.split(","))
        for label, values in timings.items():
            row[label] = {"p50_ms": round(percentile(values, 50), 1), "p95_ms": round(percentile(values, 95), 1)}
        if "bm25_sql" in args.modes.split(",") or "bm25_kept" in args.modes.split(","):
            row.update(compare_bm25(database, retriever, questions, tenant, relevant,
                                    every_way="bm25_sql" in args.modes.split(",")))
        if "bm25_bounds" in args.modes.split(","):
            row.update(bm25_bounds(database, retriever, questions, tenant))
        if "retrieve" in args.modes.split(","):
            copy_token_vectors(url, size)
            row["retrieve_http"] = time_retrieve(url, questions, tenant)
        if "dense_hnsw" in results and "dense_exact" in results:
            recall = [len(set(a) & set(b)) / max(len(b), 1) for a, b in zip(results["dense_hnsw"], results["dense_exact"])]
            row["hnsw_recall_at_50_vs_exact"] = round(float(np.mean(recall)), 4)
        row["ef_search"] = args.ef_search or "auto"
        report["sizes"][size] = row
        database.close()
        print(json.dumps({size: row}), flush=True)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    with recorded("latency"):
        main()
