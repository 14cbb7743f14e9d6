"""Answering on public data: false-answer and over-abstention rates, and whether the confidence separates answerable
from unanswerable questions better than the top retrieval score or the learned reranker's top probability (ROC AUC),
on MMLongBench-Doc and SQuAD 2.0."""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from sklearn.metrics import roc_auc_score

from rag_assets.evaluation import thresholds
from rag_assets.evaluation.golden import GoldenCase
from rag_assets.evaluation.provenance import git_commit
from rag_assets.evaluation.public_sets import load_mmlongbench
from rag_assets.evaluation.runs import Row, run_row
from rag_assets.evaluation.scoring import bootstrap_interval
from rag_assets.ingest.vectors import backfill_sentence_vectors, backfill_token_vectors
from rag_assets.settings import load_settings
from rag_serving.answer.answerer import search_text
from rag_serving.models.embedders import get_embedder
from rag_serving.spec import with_overrides
from rag_serving.search.hits import Filters
from rag_serving.store import bootstrap as db
from rag_serving.store.sessions import Tenant
from rag_serving.wiring import Wiring

from .common import BENCH_DATA, bench_database, pipeline, recorded
from . import mmlongbench, squad2


def evaluate(name: str, url: str, embedder, cases: list[GoldenCase], shipped) -> dict:
    """The shipped pipeline at threshold 0 (every case's confidence), against two single-number baselines: the top-1
    dense cosine (../shared/bench/README.md) and the learned reranker's top probability."""
    t0 = time.perf_counter()
    with pipeline(url, embedder, shipped.replace(threshold=0.0)) as p:
        run = run_row(Wiring(p.database, embedder), cases, Row("shipped, threshold 0", p.spec))
        baseline, reranker = [], []
        for case in cases:
            tenant = Tenant(case.tenant.organization, tuple(case.tenant.rooftops))
            filters = Filters(documents=case.documents) if case.documents else None
            text = search_text(case.question, case.history)
            dense = p.search(tenant, text, k=1, filters=filters, rerank=False, mode="dense")
            baseline.append(dense[0].score if dense else 0.0)
            reranked = p.search(tenant, text, k=1, filters=filters)
            reranker.append(reranked[0].rerank_score if reranked and reranked[0].rerank_score is not None else 0.0)
    labels = [c.answerable for c in cases]
    table = thresholds.sweep(run.cases)
    out = {
        "set": name, "questions": len(cases), "answerable": sum(labels), "no_answer": len(cases) - sum(labels),
        "pipeline": shipped.digest,
        "auc_confidence": round(float(roc_auc_score(labels, [r["confidence"] for r in run.cases])), 3),
        "auc_top1_cosine": round(float(roc_auc_score(labels, baseline)), 3),
        "auc_top1_reranker": round(float(roc_auc_score(labels, reranker)), 3),
        "sweep": table, "seconds": round(time.perf_counter() - t0, 1),
        "p50_ms": round(float(np.median(run.latencies_ms)), 1),
    }
    for t in sorted({shipped.threshold, 0.5}):
        no_answer = [thresholds.shown_at(r, t) for r in run.cases if r["expect"] == "abstain"]
        abstained = [not thresholds.shown_at(r, t) for r in run.cases if r["expect"] == "answer"]
        correct = [thresholds.shown_at(r, t) and bool(r["correct"]) for r in run.cases
                   if r["expect"] == "answer" and r["correct"] is not None]
        out[f"at {t:g}"] = {
            "false_answer_rate": round(float(np.mean(no_answer)), 3), "false_answer_ci": [round(v, 3) for v in bootstrap_interval(no_answer)],
            "over_abstention_rate": round(float(np.mean(abstained)), 3), "over_abstention_ci": [round(v, 3) for v in bootstrap_interval(abstained)],
            "contains_gold_answer": round(float(np.mean(correct)), 3) if correct else None,
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sets", default="mmlongbench,squad2")
    parser.add_argument("--with", dest="overrides", action="append", default=[], metavar="FIELD=VALUE",
                        help="a variant of the shipped spec, e.g. --with answerability=formula --with threshold=0.8")
    args = parser.parse_args()
    shipped = with_overrides(load_settings().pipeline(), args.overrides)
    embedder = get_embedder("minilm")
    report = {"commit": git_commit(), "threshold": shipped.threshold, "results": []}
    for name in args.sets.split(","):
        if name == "mmlongbench":
            url = bench_database("bench_mmlongbench", fresh=False)
            mmlongbench.ensure_ingested(url)
            # Chart- and figure-only questions need the image, which a text pipeline does not read.
            cases = [c for c in load_mmlongbench(BENCH_DATA / "mmlongbench") if "visual-only" not in c.tags
                     and (c.relevant or not c.answerable)]
        else:
            url = bench_database("bench_squad2", fresh=False)
            _, cases = squad2.ensure_ingested(url)  # on a fresh machine too: scored on an empty corpus, AUC is 0.5
        with db.connect(url) as conn:
            if not conn.execute("SELECT 1 FROM documents WHERE status = 'live' LIMIT 1").fetchone():
                raise SystemExit(f"{name}: no live documents in {url}; nothing to measure")
        with db.connect(url, autocommit=True) as conn:
            backfill_token_vectors(conn, embedder)
            backfill_sentence_vectors(conn, embedder)
        result = evaluate(name, url, embedder, cases, shipped)
        report["results"].append(result)
        print(json.dumps(result), flush=True)
    print(f"\n{'set':<12} {'questions':>9} {'no-answer':>9} {'AUC conf':>9} {'AUC top-1 cos':>13} {'AUC reranker':>12}")
    for r in report["results"]:
        print(f"{r['set']:<12} {r['questions']:>9} {r['no_answer']:>9} {r['auc_confidence']:>9.3f} "
              f"{r['auc_top1_cosine']:>13.3f} {r['auc_top1_reranker']:>12.3f}")
    for r in report["results"]:
        print(f"\n{r['set']}: threshold sweep (pipeline {r['pipeline']})")
        print(thresholds.markdown(r["sweep"]))
        for key in [k for k in r if k.startswith("at ")]:
            v = r[key]
            print(f"{key}: false-answer {v['false_answer_rate']:.3f} {v['false_answer_ci']}, over-abstention "
                  f"{v['over_abstention_rate']:.3f} {v['over_abstention_ci']}, answer contains the gold string "
                  f"{v['contains_gold_answer']}")


if __name__ == "__main__":
    with recorded("abstention"):
        main()
