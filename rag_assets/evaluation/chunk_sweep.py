"""The chunk sweep: the live files rebuilt per chunk setting in a scratch database beside the live one, each build
scored on the golden cases with the pipeline spec, compared per question against the first setting."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import yaml
from dagster import DagsterInstance

from rag_assets.evaluation.ablation import table
from rag_assets.evaluation.golden import GoldenCase, require_live
from rag_assets.evaluation.queries import sql_text
from rag_assets.evaluation.runs import Row, run_row
from rag_assets.ingest.registration import SIDECAR_SUFFIX
from rag_assets.ingest.runner import ingest_targets
from rag_assets.ingest.targets import Target, tenant_folder_targets
from rag_assets.resources import ChunkerResource, PostgresResource
from rag_serving.spec import PipelineSpec
from rag_serving.wiring import Wiring

SCRATCH = "sweep"  # the scratch database is <application database>_sweep; its embedding cache makes re-runs fast


def export_live_files(database: PostgresResource, folder: Path, sources: Sequence[str]) -> list[Target]:
    """The live files as a tenant-folder tree with sidecars, so registration elsewhere gives them the same identity."""
    with database.connect() as conn:
        rows = conn.execute(sql_text("live_files"), {"sources": list(sources)}).fetchall()
    for r in rows:
        path = folder / r["organization_id"] / r["rooftop_id"] / r["source_path"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(bytes(r["content"]))
        meta = {"title": r["title"], "kind": r["kind"], "published_on": r["published_on"]}
        path.with_name(path.name + SIDECAR_SUFFIX).write_text(
            yaml.safe_dump({k: v for k, v in meta.items() if v is not None}), encoding="utf-8")
    return tenant_folder_targets(folder)


def swept_cases(cases: Sequence[GoldenCase], targets: Sequence[Target]) -> list[GoldenCase]:
    """The cases the swept files can answer: in their tenants, every relevant document among them."""
    have = {(t.organization_id, t.rooftop_id, t.source_path) for t in targets}
    tenants = {(org, rooftop) for org, rooftop, _ in have}

    def inside(case: GoldenCase) -> bool:
        rooftops = case.tenant.rooftops
        return (all((case.tenant.organization, r) in tenants for r in rooftops)
                and all(any((case.tenant.organization, r, rel.document) in have for r in rooftops)
                        for rel in case.relevant))

    return [c for c in cases if inside(c)]


def label(chunker: ChunkerResource) -> str:
    return f"chunks {chunker.size}/{chunker.overlap}/{chunker.snap}"


def sweep(database: PostgresResource, settings: Sequence[ChunkerResource], cases: Sequence[GoldenCase],
          spec: PipelineSpec, *, resources: dict, sources: Sequence[str] = (),
          say: Callable[[str], None] = lambda line: None, progress=None) -> dict:
    """Per setting: build the live files in the scratch database, then run the cases through the spec there.
    resources: the tokenizer, OCR and embedder the builds use. Rows are compared per question with the first."""
    scratch = database.scratch(SCRATCH)
    with tempfile.TemporaryDirectory(prefix="rag-sweep-") as tmp:
        targets = export_live_files(database, Path(tmp), sources)
        cases = swept_cases(cases, targets)
        say(f"{len(targets)} live file(s), {len(cases)} golden case(s), {len(settings)} setting(s)")
        runs, builds = [], []
        for chunker in settings:
            name = label(chunker)
            started = time.perf_counter()
            batch = ingest_targets(targets, url=scratch.resolved_url(), instance=DagsterInstance.ephemeral(),
                                   resources={**resources, "database": scratch, "chunker": chunker}, say=say)
            seconds = time.perf_counter() - started
            with scratch.connect() as conn:
                stats = conn.execute(sql_text("chunk_stats")).fetchone()
            embedded = [o.steps.get("embeddings", {}) for o in batch.outcomes]
            hits = sum(s.get("cache_hits", 0) for s in embedded)
            misses = sum(s.get("cache_misses", 0) for s in embedded)
            builds.append({"size": chunker.size, "overlap": chunker.overlap, "snap": chunker.snap,
                           "files": len(targets), "failed": batch.count("failed"), "chunks": stats["chunks"],
                           "mean_tokens": round(stats["mean_tokens"], 1), "ingest_seconds": round(seconds, 1),
                           "cache_hit_rate": round(hits / max(hits + misses, 1), 3)})
            say(f"{name}: {stats['chunks']} chunks in {seconds:.1f} s; scoring {len(cases)} cases")
            serving = scratch.serving()
            try:
                require_live(serving, cases)
                wiring = Wiring(serving, resources["embedder"].get())
                runs.append(run_row(wiring, cases, Row(name, spec, compare_to=label(settings[0]) if runs else None),
                                    progress=progress))
            finally:
                serving.close()
    result = table(runs)
    for row, build in zip(result["rows"], builds):
        row.update(build)
    return result
