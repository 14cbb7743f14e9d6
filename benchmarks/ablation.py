"""The ablation on public sets (retrieval rows, no answers): SciFact test, the SQuAD 2.0 dev subset's answerable questions or MMLongBench-Doc's text-evidence questions, one row per component, paired intervals, latency."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rag_assets.evaluation.public_sets import beir_cases, load_mmlongbench
from rag_assets.evaluation.report import markdown
from rag_assets.evaluation.sources import Source, run_ablation
from rag_assets.ingest.vectors import backfill_sentence_vectors, backfill_token_vectors
from rag_assets.settings import load_settings
from rag_serving.models.embedders import get_embedder
from rag_serving.store import bootstrap as db

from .common import BENCH_DATA, bench_database, recorded, serving
from .mmlongbench import ensure_ingested
from .scifact import build as build_scifact
from .squad2 import ensure_ingested as ensure_squad2


def scifact(embedder):
    url = bench_database("bench_scifact", fresh=False)
    build_scifact(url, embedder)
    return url, beir_cases(BENCH_DATA / "scifact", "test")


def squad2(embedder):
    # A collection none of the learned models saw (they train on SQuAD 2.0 *train* articles, SciFact and golden dev).
    url = bench_database("bench_squad2", fresh=False)
    _, cases = ensure_squad2(url)
    return url, [c for c in cases if c.answerable and c.relevant]


def mmlongbench(embedder):
    url = bench_database("bench_mmlongbench", fresh=False)
    ensure_ingested(url)
    # The strict text subset of benchmarks.mmlongbench: evidence only in text, tables or layout.
    cases = [c for c in load_mmlongbench(BENCH_DATA / "mmlongbench") if c.answerable and c.relevant
             and set(c.tags) & {"text", "table", "layout"} and not set(c.tags) & {"chart", "figure"}]
    return url, cases


SETS = {"scifact": scifact, "squad2": squad2, "mmlongbench": mmlongbench}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--set", choices=list(SETS), required=True)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--limit", type=int, default=0, help="first N questions only (0: all)")
    args = parser.parse_args()
    settings = load_settings()
    embedder = get_embedder("minilm")
    url, cases = SETS[args.set](embedder)
    cases = cases[: args.limit] if args.limit else cases
    with db.connect(url, autocommit=True) as conn:
        report = backfill_token_vectors(conn, embedder)
        backfill_sentence_vectors(conn, embedder)
    if report.counts.get("encoded"):
        print(f"token vectors: {report.counts['encoded']} chunks in {report.seconds:.0f} s, "
              f"{report.counts['bytes'] // report.counts['encoded']} bytes per chunk")
    source = Source(args.set, cases, serving(url, max_size=2), answer=False)
    try:
        result = run_ablation(settings, source, settings.pipeline(), embedder=embedder)
    finally:
        source.close()
    print(f"\n{args.set}: {len(cases)} questions, commit {result['commit']}, k = 10 for every row")
    print(markdown(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1, default=str))


if __name__ == "__main__":
    with recorded("ablation"):
        main()
