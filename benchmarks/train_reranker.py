"""Train the learned reranker on SciFact train and the golden dev split (never test or held-out), cross-validate it, write the artefact."""

from __future__ import annotations

import argparse
import hashlib
import json
import tempfile
import time
from pathlib import Path

from dagster import DagsterInstance
from psycopg.conninfo import make_conninfo

from rag_assets.evaluation import training as rt
from rag_assets.evaluation.golden import load_golden
from rag_assets.evaluation.provenance import git_commit
from rag_assets.evaluation.public_sets import beir_cases
from rag_assets.ingest.runner import ingest_targets
from rag_assets.ingest.targets import tenant_folder_targets
from rag_assets.ingest.vectors import backfill_sentence_vectors, backfill_token_vectors
from rag_assets.resources import ChunkerResource, EmbedderResource, OcrResource, PostgresResource, TokenizerResource
from rag_assets.samples import generate
from rag_serving.models.embedders import get_embedder
from rag_serving.search.features import FeatureExtractor
from rag_serving.search.late_interaction import MaxSimReranker
from rag_serving.search.learned import default_artefact
from rag_serving.spec import PipelineSpec
from rag_serving.store import bootstrap as db
from rag_serving.store.sessions import APP_ROLE, Database
from rag_serving.wiring import Wiring

from .common import BENCH_DATA, bench_database, recorded
from .scifact import build as build_scifact

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def golden_database(embedder) -> str:
    """The sample corpus ingested at the default window (kept between runs; unchanged files are skipped)."""
    url = bench_database("bench_golden", fresh=False)
    corpus = Path(tempfile.mkdtemp(prefix="rag-golden-"))
    generate(corpus)
    resources = {"database": PostgresResource(url=url), "tokenizer": TokenizerResource(), "chunker": ChunkerResource(),
                 "ocr": OcrResource(enabled=True), "embedder": EmbedderResource(name="minilm")}
    batch = ingest_targets(tenant_folder_targets(corpus), url=url, resources=resources, instance=DagsterInstance.ephemeral())
    print(f"golden corpus: {batch.ingested} files ingested, {batch.count('unchanged')} unchanged")
    with db.connect(url, autocommit=True) as conn:
        backfill_sentence_vectors(conn, embedder)  # files ingested before sentence vectors were stored
    return url


def with_token_vectors(url: str, embedder) -> None:
    with db.connect(url, autocommit=True) as conn:
        report = backfill_token_vectors(conn, embedder)
    if report.counts.get("encoded"):
        print(f"  token vectors: {report.counts['encoded']} chunks encoded in {report.seconds:.0f} s, "
              f"{report.counts['bytes'] // report.counts['encoded']} bytes per chunk")


def gather(url: str, embedder, cases, source: str) -> list[rt.TrainingQuery]:
    database = Database(make_conninfo(url, user=APP_ROLE), max_size=1)
    # Candidates are what the shipped spec reranks: its hybrid legs without a reranker.
    spec = PipelineSpec(reranker="none")
    pipeline = Wiring(database, embedder).pipeline(spec)
    extractor = FeatureExtractor(MaxSimReranker(embedder), k1=spec.bm25_k1, b=spec.bm25_b)
    t0 = time.perf_counter()
    try:
        queries = rt.collect(pipeline, extractor, cases, source, depth=spec.rerank_depth)
    finally:
        database.close()
    print(f"  {source}: {len(queries)} questions, {sum(len(q.hits) for q in queries)} pairs, "
          f"{sum(int(q.labels.sum()) for q in queries)} relevant, {time.perf_counter() - t0:.0f} s")
    return queries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=default_artefact())
    parser.add_argument("--report-only", action="store_true",
                        help="cross-validation and leave-one-collection-out only; the shipped model is left as it is")
    args = parser.parse_args()
    embedder = get_embedder("minilm")

    scifact = BENCH_DATA / "scifact"
    scifact_url = bench_database("bench_scifact", fresh=False)
    build_scifact(scifact_url, embedder, split="train")
    with_token_vectors(scifact_url, embedder)
    golden_url = golden_database(embedder)
    with_token_vectors(golden_url, embedder)

    queries = gather(scifact_url, embedder, beir_cases(scifact, "train"), "scifact-train")
    queries += gather(golden_url, embedder, load_golden(GOLDEN, "dev"), "golden-dev")

    metrics = {"cross_validation": {"folds": rt.FOLDS, "logistic": rt.cross_validate(queries, rt.logistic),
                                    "boosted_trees": rt.cross_validate(queries, rt.boosted)},
               "leave_one_collection_out": rt.leave_one_source_out(queries, rt.boosted)}
    print(json.dumps(metrics, indent=1))
    if args.report_only:
        return
    model = rt.fit(queries)
    blob = rt.dump(model)
    data = rt.artefact(model, queries, embedder.model, metrics, git_commit(), hashlib.sha256(blob).hexdigest())
    rt.write(data, blob, args.out)
    print(f"wrote {args.out} and its .onnx model ({len(blob):,} bytes; training digest {data['digest'][:12]})")


if __name__ == "__main__":
    with recorded("train_reranker"):
        main()
