"""The ablation on public sets (retrieval rows, no answers): SciFact test or MMLongBench-Doc's text-evidence questions, one row per component, paired intervals, latency."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from psycopg.conninfo import make_conninfo

from rag_assets.ablation import ablate, ablation_configs, markdown
from rag_assets.pipeline import backfill_token_vectors
from rag_assets.provenance import git_commit
from rag_assets.public_sets import beir_cases, load_beir, load_mmlongbench
from rag_serving import db
from rag_serving.database import APP_ROLE, Database
from rag_serving.embedders import get_embedder
from rag_serving.retrieval import Retriever

from .common import BENCH_DATA, bench_database
from .mmlongbench import ensure_ingested
from .scifact import build as build_scifact


def scifact(embedder):
    folder = BENCH_DATA / "scifact"
    corpus, _, _ = load_beir(folder, "test")
    url = bench_database("bench_scifact", fresh=False)
    build_scifact(url, embedder, list(corpus.values()))
    return url, beir_cases(folder, "test")


def mmlongbench(embedder):
    url = bench_database("bench_mmlongbench", fresh=False)
    ensure_ingested(url)
    # The strict text subset of benchmarks.mmlongbench: evidence only in text, tables or layout.
    cases = [c for c in load_mmlongbench(BENCH_DATA / "mmlongbench") if c.answerable and c.relevant
             and set(c.tags) & {"text", "table", "layout"} and not set(c.tags) & {"chart", "figure"}]
    return url, cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--set", choices=["scifact", "mmlongbench"], required=True)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--limit", type=int, default=0, help="first N questions only (0: all)")
    args = parser.parse_args()
    embedder = get_embedder("minilm")
    url, cases = (scifact if args.set == "scifact" else mmlongbench)(embedder)
    cases = cases[: args.limit] if args.limit else cases
    with db.connect(url, autocommit=True) as conn:
        report = backfill_token_vectors(conn, embedder)
    if report.counts.get("encoded"):
        print(f"token vectors: {report.counts['encoded']} chunks in {report.seconds:.0f} s, "
              f"{report.counts['bytes'] // report.counts['encoded']} bytes per chunk")
    database = Database(make_conninfo(url, user=APP_ROLE), max_size=2)
    try:
        retriever = Retriever(database, embedder, candidates=50)
        result = ablate(retriever, cases, ablation_configs(10, 50, answer=False, synonyms=False))
    finally:
        database.close()
    result.update({"commit": git_commit(), "set": args.set, "embedder": embedder.model})
    print(f"\n{args.set}: {len(cases)} questions, commit {result['commit']}, k = 10 for every row")
    print(markdown(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1, default=str))


if __name__ == "__main__":
    main()
