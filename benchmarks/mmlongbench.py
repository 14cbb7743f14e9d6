"""MMLongBench-Doc retrieval: hit@1/5/10 and MRR@10 within each question's PDF, text/table/layout evidence apart from chart/figure-only."""

from __future__ import annotations

import json
import time

import numpy as np
from dagster import DagsterInstance

from rag_assets.evaluation.provenance import git_commit
from rag_assets.evaluation.public_sets import load_mmlongbench
from rag_assets.evaluation.runs import run_case
from rag_assets.ingest.runner import ingest_targets
from rag_assets.ingest.targets import Target
from rag_assets.resources import ChunkerResource, EmbedderResource, OcrResource, PostgresResource, TokenizerResource
from rag_serving.models.embedders import get_embedder

from .common import BENCH_DATA, bench_database, legs, pipeline, recorded

# Naive baselines from ../shared/bench/README.md (~200-word pypdf windows, top 10 within the document).
BASELINE = {"dense": (0.353, 0.619, 0.746, 0.468), "bm25": (0.397, 0.639, 0.730, 0.498), "rrf": (0.425, 0.687, 0.782, 0.541)}


def ensure_ingested(url: str) -> None:
    """The 54 PDFs in url: the asset graph skips a file live as this pipeline version read it, and re-reads the rest."""
    docs = sorted((BENCH_DATA / "mmlongbench" / "documents").glob("*.pdf"))
    resources = {"database": PostgresResource(url=url), "tokenizer": TokenizerResource(), "chunker": ChunkerResource(),
                 "ocr": OcrResource(enabled=True), "embedder": EmbedderResource(name="minilm")}
    t0 = time.perf_counter()
    batch = ingest_targets([Target(p, "bench", "mmlongbench", p.name) for p in docs], url=url, resources=resources,
                           instance=DagsterInstance.ephemeral(), say=print)
    print(f"ingested {batch.ingested} of {len(docs)} PDFs ({batch.count('unchanged')} unchanged), {batch.pages} pages "
          f"in {time.perf_counter() - t0:.0f} s")


def main() -> None:
    url = bench_database("bench_mmlongbench", fresh=False)
    ensure_ingested(url)
    cases = load_mmlongbench(BENCH_DATA / "mmlongbench")
    answerable = [c for c in cases if c.answerable and c.relevant]
    print(f"{len(cases)} questions; {sum(c.answerable and not c.relevant for c in cases)} answerable ones without a "
          f"valid evidence page are left out; {sum('invalid-evidence-page' in c.tags for c in cases)} had page 0 dropped")
    text_cases = [c for c in answerable if "visual-only" not in c.tags]
    # The shared README's baseline used questions whose evidence is only text, table or layout.
    strict = [c for c in answerable if set(c.tags) & {"text", "table", "layout"}
              and not set(c.tags) & {"chart", "figure"}]
    visual = [c for c in answerable if "visual-only" in c.tags]
    embedder = get_embedder("minilm")
    report = {"commit": git_commit(), "text_cases": len(text_cases), "strict_text_cases": len(strict),
              "visual_only_cases": len(visual),
              "not_answerable": sum(not c.answerable for c in cases), "runs": {}}
    for name, mode in [("dense", "dense"), ("bm25", "sparse"), ("hybrid", "hybrid")]:
        for subset, subset_cases in [("any text evidence", text_cases), ("only text/table/layout", strict),
                                     ("chart/figure only", visual)]:
            with pipeline(url, embedder, legs(mode)) as p:
                rows = [run_case(p, c, answer=False) for c in subset_cases]
            report["runs"][f"{name} | {subset}"] = {m: round(float(np.mean([r[m] for r in rows])), 3)
                                                   for m in ("hit@1", "hit@5", "hit@10", "mrr@10")}
    print(json.dumps(report, indent=2))
    print(f"\n{'run':<40} {'hit@1':>6} {'hit@5':>6} {'hit@10':>6} {'MRR@10':>7}")
    for label, m in report["runs"].items():
        print(f"{label:<40} {m['hit@1']:>6.3f} {m['hit@5']:>6.3f} {m['hit@10']:>6.3f} {m['mrr@10']:>7.3f}")
    for label, (h1, h5, h10, mrr) in BASELINE.items():
        print(f"{'baseline ' + label + ' (shared README, 252 q)':<40} {h1:>6.3f} {h5:>6.3f} {h10:>6.3f} {mrr:>7.3f}")


if __name__ == "__main__":
    with recorded("mmlongbench"):
        main()
