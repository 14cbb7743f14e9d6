"""Chunk-size sweep: re-ingest a corpus per window size (embedding cache shared) and score retrieval on the golden dev split or MMLongBench."""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np
from dagster import DagsterInstance

from rag_assets.evaluation.golden import GoldenCase, load_golden
from rag_assets.evaluation.provenance import git_commit
from rag_assets.evaluation.public_sets import load_mmlongbench
from rag_assets.evaluation.runs import run_case
from rag_assets.ingest.runner import ingest_targets
from rag_assets.ingest.targets import Target, tenant_folder_targets
from rag_assets.resources import ChunkerResource, EmbedderResource, OcrResource, PostgresResource, TokenizerResource
from rag_assets.samples import generate
from rag_serving.models.embedders import get_embedder
from rag_serving.store import bootstrap as db

from .common import BENCH_DATA, bench_database, legs, pipeline, recorded

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
WINDOWS = {256: 25, 500: 50, 1000: 100}


def golden_corpus() -> tuple[str, list[Target], list[GoldenCase]]:
    corpus = Path(tempfile.mkdtemp(prefix="rag-sweep-"))
    generate(corpus)
    return "bench_chunk_sweep", tenant_folder_targets(corpus), load_golden(GOLDEN, "dev")


def mmlongbench_corpus() -> tuple[str, list[Target], list[GoldenCase]]:
    folder = BENCH_DATA / "mmlongbench"
    targets = [Target(p, "bench", "mmlongbench", p.name) for p in sorted((folder / "documents").glob("*.pdf"))]
    # Same subset as benchmarks.mmlongbench's strict row: evidence only in text, tables or layout.
    cases = [c for c in load_mmlongbench(folder) if c.answerable and c.relevant
             and set(c.tags) & {"text", "table", "layout"} and not set(c.tags) & {"chart", "figure"}]
    # The MMLongBench benchmark's own database: it already holds the default window's embeddings in its cache,
    # and the sweep leaves it at the default window when run in the order below.
    return "bench_mmlongbench", targets, cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", choices=["golden", "mmlongbench"], default="golden")
    parser.add_argument("--sizes", default="256,1000,500", help="window sizes in tokens, in run order")
    args = parser.parse_args()
    name, targets, cases = golden_corpus() if args.corpus == "golden" else mmlongbench_corpus()
    url = bench_database(name, fresh=False)  # kept between runs: its embedding cache makes re-runs fast
    embedder = get_embedder("minilm")
    report = {"commit": git_commit(), "corpus": args.corpus, "cases": len(cases), "rows": []}
    for size in (int(s) for s in args.sizes.split(",")):
        overlap = WINDOWS.get(size, size // 10)
        resources = {"database": PostgresResource(url=url), "tokenizer": TokenizerResource(),
                     "chunker": ChunkerResource(size=size, overlap=overlap, snap=50),
                     "ocr": OcrResource(enabled=True), "embedder": EmbedderResource(name="minilm")}
        t0 = time.perf_counter()
        batch = ingest_targets(targets, url=url, resources=resources, instance=DagsterInstance.ephemeral())
        seconds = time.perf_counter() - t0
        steps = [o.steps.get("embeddings", {}) for o in batch.outcomes]
        hits, misses = sum(s.get("cache_hits", 0) for s in steps), sum(s.get("cache_misses", 0) for s in steps)
        with db.connect(url) as conn:
            stats = conn.execute("SELECT count(*) AS n, avg(token_count)::float8 AS tokens FROM chunks c "
                                 "JOIN documents d ON d.id = c.document_id WHERE d.status = 'live'").fetchone()
        row = {"size": size, "overlap": overlap, "chunks": stats["n"], "mean_tokens": round(stats["tokens"], 1),
               "failed_files": batch.count("failed"), "ingest_seconds": round(seconds, 1), "cache_hits": hits,
               "cache_misses": misses, "cache_hit_rate": round(hits / max(hits + misses, 1), 3)}
        for mode in ("dense", "hybrid"):
            with pipeline(url, embedder, legs(mode)) as p:
                rows = [run_case(p, c, answer=False) for c in cases]
            rows = [r for r in rows if r["expect"] == "answer"]
            for m in ("hit@10", "mrr@10", "ndcg@10"):
                row[f"{mode} {m}"] = round(float(np.mean([r[m] for r in rows])), 3)
        report["rows"].append(row)
        print(json.dumps(row), flush=True)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    with recorded("chunk_sweep"):
        main()
