"""Embedding cache on the sample corpus: a cold ingest, a re-ingest of the same files, and a re-chunk, with hit rates and embedding time."""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from dagster import DagsterInstance

from rag_assets.evaluation.provenance import git_commit
from rag_assets.ingest.runner import ingest_targets
from rag_assets.ingest.targets import tenant_folder_targets
from rag_assets.resources import ChunkerResource, EmbedderResource, OcrResource, PostgresResource, TokenizerResource
from rag_assets.samples import generate
from rag_serving.store import bootstrap as db

from .common import bench_database, recorded


def run(url: str, corpus: Path, chunker: ChunkerResource) -> dict:
    resources = {"database": PostgresResource(url=url), "tokenizer": TokenizerResource(), "chunker": chunker,
                 "ocr": OcrResource(enabled=True), "embedder": EmbedderResource(name="minilm")}
    t0 = time.perf_counter()
    batch = ingest_targets(tenant_folder_targets(corpus), url=url, resources=resources, instance=DagsterInstance.ephemeral())
    seconds = time.perf_counter() - t0
    steps = [o.steps.get("embeddings", {}) for o in batch.outcomes]
    hits = sum(s.get("cache_hits", 0) for s in steps)
    misses = sum(s.get("cache_misses", 0) for s in steps)
    return {"files": batch.ingested, "vectors": hits + misses, "hits": hits, "misses": misses,
            "hit_rate": round(hits / max(hits + misses, 1), 4),
            "embedding_seconds": round(sum(s.get("seconds", 0) for s in steps), 2),
            "ingest_seconds": round(seconds, 1)}


def main() -> None:
    corpus = Path(tempfile.mkdtemp(prefix="rag-corpus-"))
    generate(corpus)
    url = bench_database("bench_cache", fresh=True)
    default = ChunkerResource()
    report = {"commit": git_commit(), "cold": run(url, corpus, default)}
    # Re-ingest: the same files again after their versions were deleted (the cache survives).
    with db.connect(url, autocommit=True) as conn:
        conn.execute("TRUNCATE documents CASCADE")
    report["reingest"] = run(url, corpus, default)
    # Re-chunk: a different snap distance moves some window edges; unchanged windows hit the cache.
    report["rechunk_snap_40"] = run(url, corpus, ChunkerResource(snap=40))
    cold, warm = report["cold"]["embedding_seconds"], report["reingest"]["embedding_seconds"]
    report["embedding_time_saved_on_reingest"] = f"{cold - warm:.2f} s of {cold:.2f} s ({(cold - warm) / cold:.0%})"
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    with recorded("embedding_cache"):
        main()
