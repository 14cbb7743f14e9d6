"""Seconds per ingest step and per asset check (the quality gates), from the Dagster event log of the sample corpus
ingested into a fresh database."""

from __future__ import annotations

import tempfile
import time
from collections import defaultdict
from pathlib import Path

from dagster import DagsterEventType, DagsterInstance

from rag_assets.evaluation.provenance import git_commit
from rag_assets.ingest.runner import ingest_targets
from rag_assets.ingest.targets import tenant_folder_targets
from rag_assets.resources import ChunkerResource, EmbedderResource, OcrResource, PostgresResource, TokenizerResource
from rag_assets.samples import generate

from .common import bench_database, recorded


def step_seconds(instance: DagsterInstance) -> dict[str, float]:
    """Each step's summed duration over every run the instance holds (STEP_START to STEP_SUCCESS)."""
    seconds, started = defaultdict(float), {}
    for run in instance.get_runs():
        for entry in instance.all_logs(run.run_id):
            event = entry.dagster_event
            if event and event.event_type == DagsterEventType.STEP_START:
                started[(run.run_id, event.step_key)] = entry.timestamp
            elif event and event.event_type == DagsterEventType.STEP_SUCCESS:
                seconds[event.step_key] += entry.timestamp - started[(run.run_id, event.step_key)]
    return seconds


def main() -> None:
    url = bench_database("bench_step_times", fresh=True)
    instance = DagsterInstance.ephemeral()
    resources = {"database": PostgresResource(url=url), "tokenizer": TokenizerResource(), "chunker": ChunkerResource(),
                 "ocr": OcrResource(), "embedder": EmbedderResource(name="minilm")}
    with tempfile.TemporaryDirectory(prefix="rag-steps-") as folder:
        generate(Path(folder))
        started = time.perf_counter()
        batch = ingest_targets(tenant_folder_targets(Path(folder)), url=url, resources=resources, instance=instance)
        total = time.perf_counter() - started
    seconds = step_seconds(instance)
    checks = sum(v for k, v in seconds.items() if k.startswith("published_documents_"))
    print(f"commit {git_commit()}; {len(batch.outcomes)} files, {batch.count('failed')} failed; {total:.1f} s in all, "
          f"asset checks {checks:.1f} s\n")
    print("| step | seconds |\n|---|---|")
    for step, value in sorted(seconds.items(), key=lambda kv: -kv[1]):
        print(f"| {step} | {value:.2f} |")


if __name__ == "__main__":
    with recorded("step_times"):
        main()
