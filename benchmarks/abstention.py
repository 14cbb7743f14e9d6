"""Answering on public data: false-answer and over-abstention rates, and whether the confidence separates answerable
from unanswerable questions better than the top retrieval score or the learned reranker's top probability (ROC AUC),
on MMLongBench-Doc and SQuAD 2.0."""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from psycopg.conninfo import make_conninfo
from sklearn.metrics import roc_auc_score

from rag_assets import thresholds
from rag_assets.ablation import run_config
from rag_assets.evaluation import EvalConfig, rate_interval
from rag_assets.golden import GoldenCase
from rag_assets.pipeline import backfill_token_vectors
from rag_assets.provenance import git_commit
from rag_assets.public_sets import load_mmlongbench, load_squad2
from rag_serving import db
from rag_serving.config import DEFAULT_ANSWER_THRESHOLD
from rag_serving.answering import search_text
from rag_serving.database import APP_ROLE, Database, Tenant
from rag_serving.embedders import get_embedder
from rag_serving.generators import ExtractiveGenerator
from rag_serving.learned_reranker import LearnedReranker
from rag_serving.retrieval import Filters, Retriever
from rag_serving.search import SearchPlan, Searcher

from .common import BENCH_DATA, bench_database
from .mmlongbench import ensure_ingested


def top_cosine(retriever: Retriever, case: GoldenCase) -> float:
    """The baseline signal from ../shared/bench/README.md: the top-1 dense cosine for the question."""
    filters = Filters(documents=case.documents) if case.documents else None
    hits = retriever.search(Tenant(case.tenant.organization, tuple(case.tenant.rooftops)),
                            search_text(case.question, case.history), k=1, mode="dense", filters=filters)
    return hits[0].score if hits else 0.0


def top_reranker_probability(searcher: Searcher, case: GoldenCase) -> float:
    """The learned reranker's probability for its best candidate: is it a better routing signal?"""
    filters = Filters(documents=case.documents) if case.documents else None
    hits = searcher.search(Tenant(case.tenant.organization, tuple(case.tenant.rooftops)),
                           search_text(case.question, case.history), k=1, filters=filters)
    return hits[0].rerank_score if hits else 0.0


def evaluate(name: str, retriever: Retriever, cases: list[GoldenCase]) -> dict:
    t0 = time.perf_counter()
    reranked = Searcher(retriever, SearchPlan(reranker=LearnedReranker(retriever.embedder)))
    run = run_config(retriever, cases, EvalConfig(name="hybrid, threshold 0", k=5, threshold=0.0),
                     ExtractiveGenerator(retriever.embedder))
    labels = [c.answerable for c in cases]
    baseline = [top_cosine(retriever, c) for c in cases]
    reranker = [top_reranker_probability(reranked, c) for c in cases]
    table = thresholds.sweep(run.rows)
    out = {
        "set": name, "questions": len(cases), "answerable": sum(labels), "no_answer": len(cases) - sum(labels),
        "auc_confidence": round(float(roc_auc_score(labels, [r["confidence"] for r in run.rows])), 3),
        "auc_top1_cosine": round(float(roc_auc_score(labels, baseline)), 3),
        "auc_top1_reranker": round(float(roc_auc_score(labels, reranker)), 3),
        "sweep": table, "seconds": round(time.perf_counter() - t0, 1), "p50_ms": round(float(np.median(run.latencies_ms)), 1),
    }
    for t in sorted({DEFAULT_ANSWER_THRESHOLD, 0.5}):
        no_answer = [thresholds.shown_at(r, t) for r in run.rows if r["expect"] == "abstain"]
        abstained = [not thresholds.shown_at(r, t) for r in run.rows if r["expect"] == "answer"]
        correct = [thresholds.shown_at(r, t) and bool(r["correct"]) for r in run.rows
                   if r["expect"] == "answer" and r["correct"] is not None]
        out[f"at {t:g}"] = {
            "false_answer_rate": round(float(np.mean(no_answer)), 3), "false_answer_ci": [round(v, 3) for v in rate_interval(no_answer)],
            "over_abstention_rate": round(float(np.mean(abstained)), 3), "over_abstention_ci": [round(v, 3) for v in rate_interval(abstained)],
            "contains_gold_answer": round(float(np.mean(correct)), 3) if correct else None,
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sets", default="mmlongbench,squad2")
    args = parser.parse_args()
    embedder = get_embedder("minilm")
    report = {"commit": git_commit(), "threshold": DEFAULT_ANSWER_THRESHOLD, "results": []}
    for name in args.sets.split(","):
        if name == "mmlongbench":
            url = bench_database("bench_mmlongbench", fresh=False)
            ensure_ingested(url)
            # Chart- and figure-only questions need the image, which a text pipeline does not read.
            cases = [c for c in load_mmlongbench(BENCH_DATA / "mmlongbench") if "visual-only" not in c.tags
                     and (c.relevant or not c.answerable)]
        else:
            url = bench_database("bench_squad2", fresh=False)
            _, cases = load_squad2(BENCH_DATA / "squad2-subset" / "dev-v2.0.subset.json")
        with db.connect(url, autocommit=True) as conn:
            backfill_token_vectors(conn, embedder)
        database = Database(make_conninfo(url, user=APP_ROLE), max_size=1)
        try:
            result = evaluate(name, Retriever(database, embedder), cases)
        finally:
            database.close()
        report["results"].append(result)
        print(json.dumps(result), flush=True)
    print(f"\n{'set':<12} {'questions':>9} {'no-answer':>9} {'AUC conf':>9} {'AUC top-1 cos':>13} {'AUC reranker':>12}")
    for r in report["results"]:
        print(f"{r['set']:<12} {r['questions']:>9} {r['no_answer']:>9} {r['auc_confidence']:>9.3f} "
              f"{r['auc_top1_cosine']:>13.3f} {r['auc_top1_reranker']:>12.3f}")
    for r in report["results"]:
        print(f"\n{r['set']}: threshold sweep (extractive generator, hybrid top 5)")
        print(thresholds.markdown(r["sweep"]))
        for key in [k for k in r if k.startswith("at ")]:
            v = r[key]
            print(f"{key}: false-answer {v['false_answer_rate']:.3f} {v['false_answer_ci']}, over-abstention "
                  f"{v['over_abstention_rate']:.3f} {v['over_abstention_ci']}, answer contains the gold string "
                  f"{v['contains_gold_answer']}")


if __name__ == "__main__":
    main()
