"""Ingest throughput on MMLongBench-Doc's PDFs, against bare pypdf text extraction of the same files and the bare
embedder on the same chunks, in the same run."""

from __future__ import annotations

import argparse
import io
import json
import logging
import time
from pathlib import Path

import psycopg
from dagster import DagsterInstance
from pypdf import PdfReader

from rag_assets.assets.ingest import ingest_assets
from rag_assets.evaluation.provenance import git_commit
from rag_assets.ingest.runner import ingest_targets
from rag_assets.ingest.targets import Target
from rag_assets.resources import ChunkerResource, EmbedderResource, OcrResource, PostgresResource, TokenizerResource

from .common import BENCH_DATA, bench_database, drop_database, recorded

DEFAULT_DOCS = BENCH_DATA / "mmlongbench" / "documents"


def baseline_pages_per_second(paths: list[Path]) -> tuple[int, float]:
    """Naive extraction: pypdf plain text of every page, nothing else."""
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    pages, t0 = 0, time.perf_counter()
    for path in paths:
        try:
            reader = PdfReader(io.BytesIO(path.read_bytes()), strict=False)
            if reader.is_encrypted:
                reader.decrypt("")
            for page in reader.pages:
                page.extract_text()
                pages += 1
        except Exception:  # noqa: BLE001 - the baseline only counts what it can read
            continue
    return pages, time.perf_counter() - t0


def asset_seconds(instance: DagsterInstance) -> dict[str, float]:
    """Seconds each ingest asset reported, summed over the files (the rest of the wall time is Dagster's own)."""
    out = {}
    for spec in ingest_assets:
        total, cursor, more = 0.0, None, True
        while more:
            page = instance.fetch_materializations(spec.key, limit=10_000, cursor=cursor)  # Dagster's most per call
            total += sum(float(r.asset_materialization.metadata["seconds"].value) for r in page.records
                         if "seconds" in r.asset_materialization.metadata)
            cursor, more = page.cursor, page.has_more
        out[spec.key.path[-1]] = round(total, 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--docs", type=Path, default=DEFAULT_DOCS)
    parser.add_argument("--limit", type=int, default=0, help="only the first N PDFs (0 = all)")
    parser.add_argument("--no-ocr", action="store_true")
    parser.add_argument("--embedder", default="minilm", help="RAG_EMBEDDER value; hashed-tfidf isolates extraction speed")
    args = parser.parse_args()

    paths = sorted(args.docs.glob("*.pdf"))[: args.limit or None]
    if not paths:
        raise SystemExit(f"no PDFs in {args.docs}; set RAG_BENCH_DATA or pass --docs")
    url = bench_database("bench_ingest_speed", fresh=True)
    resources = {
        "database": PostgresResource(url=url),
        "tokenizer": TokenizerResource(),
        "chunker": ChunkerResource(),
        "ocr": OcrResource(enabled=not args.no_ocr),
        "embedder": EmbedderResource(name=args.embedder),
    }
    instance = DagsterInstance.ephemeral()
    try:
        t0 = time.perf_counter()
        batch = ingest_targets(
            [Target(p, "bench", "mmlongbench", p.name) for p in paths],
            url=url, resources=resources, instance=instance, say=print,
        )
        seconds = time.perf_counter() - t0
        with psycopg.connect(url) as conn:
            ocr_pages, chunks = conn.execute(
                "SELECT (SELECT count(*) FROM pages WHERE ocr), (SELECT count(*) FROM chunks)"
            ).fetchone()
            bodies = [r[0] for r in conn.execute("SELECT body FROM chunks ORDER BY id")]
        base_pages, base_seconds = baseline_pages_per_second(paths)
        # The embedder alone on the same chunk texts: what ingest would take if embedding were all it did.
        t0 = time.perf_counter()
        resources["embedder"].get().embed(bodies)
        bare_seconds = time.perf_counter() - t0
    finally:
        drop_database("bench_ingest_speed")
    result = {
        "commit": git_commit(),
        "embedder": args.embedder,
        "files": len(paths),
        "ingested": batch.ingested,
        "failed": batch.count("failed"),
        "failures": {o.target.source_path: o.message for o in batch.outcomes if o.state == "failed"},
        "pages": batch.pages,
        "ocr_pages": ocr_pages,
        "chunks": chunks,
        "seconds": round(seconds, 1),
        "pages_per_second": round(batch.pages / seconds, 2),
        "baseline_pypdf_plain_pages_per_second": round(base_pages / base_seconds, 2),
        "ratio_to_baseline": round((batch.pages / seconds) / (base_pages / base_seconds), 3),
        "chunks_per_second": round(chunks / seconds, 2),
        "bare_embedder_chunks_per_second": round(len(bodies) / bare_seconds, 2),
        "chunks_per_second_over_bare_embedder": round((chunks / seconds) / (len(bodies) / bare_seconds), 3),
        "asset_seconds": asset_seconds(instance),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    with recorded("ingest_speed"):
        main()
