"""Runs the ingest graph for a batch of files, one Dagster run per file partition, so a bad file fails alone."""

from __future__ import annotations

import time
from collections.abc import Callable

import psycopg
from dagster import DagsterInstance, materialize

from rag_assets.assets.ingest import ingest_assets
from rag_assets.assets.ingest_checks import ingest_checks
from rag_assets.ingest.extraction import IngestError
from rag_assets.ingest.queries import sql_text
from rag_assets.ingest.registration import RegistrationError, register_file
from rag_assets.ingest.stale import fail_stale_runs, owner_tags
from rag_assets.ingest.targets import BatchResult, FileOutcome, Target, unchanged_line
from rag_assets.ingest.targets import label as target_label
from rag_assets.partitions import file_partition_key, files_partitions
from rag_serving.store import bootstrap as db
from rag_serving.store import catalog

# The runner prints its own one-line outcome per file; Dagster's event log keeps the details. It registered the
# version it wants built, so a run that finds it already built (the same file twice in a batch) rebuilds nothing.
RUN_CONFIG = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}},
              "ops": {"source_documents": {"config": {"rebuild": False}}}}


def reachable(url: str) -> bool:
    try:
        with db.connect(url, connect_timeout=5):
            return True
    except psycopg.OperationalError:
        return False


def _step_metadata(result) -> dict[str, dict]:
    out = {}
    for event in result.get_asset_materialization_events():
        materialization = event.event_specific_data.materialization
        out[materialization.asset_key.path[-1]] = {k: v.value for k, v in materialization.metadata.items()}
    return out


def _step_failures(result) -> list[tuple[str, str]]:
    """(step key, the last line of its error) for each step of the run that failed."""
    return [(event.step_key, event.step_failure_data.error.message.strip().splitlines()[-1])
            for event in result.all_events
            if event.is_step_failure and event.step_failure_data and event.step_failure_data.error]


def _failure_message(result) -> str:
    failures = _step_failures(result)
    return failures[0][1] if failures else "run failed; see the Dagster UI"


def _ingest_one(conn, t: Target, label: str, pad: str, *, digest: str, instance: DagsterInstance, resources: dict,
                kind: str | None, published_on: str | None, say: Callable[[str], None]) -> FileOutcome:
    """One file registered and, unless unchanged, run through the asset graph; its outcome, said in a line."""
    try:
        reg = register_file(
            conn, t.path, organization_id=t.organization_id, rooftop_id=t.rooftop_id,
            source_path=t.source_path, digest=digest, kind=kind, published_on=published_on,
        )
    except (RegistrationError, IngestError, OSError) as exc:
        say(f"{label}: FAILED to register: {exc}")
        return FileOutcome(t, "failed", message=str(exc))
    if reg.state == "unchanged":
        say(unchanged_line(label, reg.sha256))
        return FileOutcome(t, "unchanged", reg.document_id, reg.sha256)
    say(f"{label}: {reg.state}, sha256 {reg.sha256[:12]}")
    key = file_partition_key(t.path.name, reg.sha256)
    if not instance.has_dynamic_partition(files_partitions.name, key):
        instance.add_dynamic_partitions(files_partitions.name, [key])
    t0 = time.perf_counter()
    result = materialize(
        [*ingest_assets, *ingest_checks],
        partition_key=key,
        instance=instance,
        resources=resources,
        run_config=RUN_CONFIG,
        tags={"rag/organization": t.organization_id, "rag/rooftop": t.rooftop_id, "rag/source": t.source_path,
              **owner_tags()},
        raise_on_error=False,
    )
    seconds = time.perf_counter() - t0
    row = conn.execute(sql_text("document_result"), (reg.document_id,)).fetchone()
    notes = catalog.recent_errors(conn, limit=50, document_id=reg.document_id)
    steps = _step_metadata(result)
    # Published is what counts: a quality gate that could not run (the serving role unreachable, say) is reported
    # under the file, not taken for a failed ingest of a file that is live.
    if "published_documents" in steps and row and row["status"] == "live":
        pages = row["page_count"] or 0
        cache = steps.get("embeddings", {})
        say(f"{pad}live: {pages} pages, {row['sections']} sections, {row['chunks']} chunks "
            f"in {seconds:.1f} s ({pages / seconds:.1f} pages/s); embedding cache "
            f"{cache.get('cache_hits', 0)} hits / {cache.get('cache_misses', 0)} misses")
        for n in notes:
            if n["severity"] == "warning":
                say(f"{pad}warning: {n['message']}")
        for check in result.get_asset_check_evaluations():
            if not check.passed and check.check_name != "ingest_errors":  # its rows are the warnings above
                say(f"{pad}check {check.check_name} failed: "
                    + ", ".join(f"{k} {v.value}" for k, v in check.metadata.items()))
        for step, message in _step_failures(result):
            say(f"{pad}check {step.removeprefix('published_documents_')} could not run: {message}")
        return FileOutcome(t, reg.state, reg.document_id, reg.sha256, pages=pages, seconds=seconds, steps=steps)
    errors = [n for n in notes if n["severity"] == "error"]
    message = errors[0]["message"] if errors else _failure_message(result)
    say(f"{pad}FAILED (run {result.run_id[:8]}): {message}")
    return FileOutcome(t, "failed", reg.document_id, reg.sha256, message, seconds=seconds)


def ingest_targets(
    targets: list[Target],
    *,
    url: str,
    resources: dict,
    instance: DagsterInstance,
    kind: str | None = None,
    published_on: str | None = None,
    say: Callable[[str], None] = lambda line: None,
) -> BatchResult:
    batch = BatchResult()
    stale = fail_stale_runs(instance)
    if stale:
        say(f"{len(stale)} run(s) left unfinished by an ingest that died were marked failed: "
            + ", ".join(r[:8] for r in stale))
    digest = resources["chunker"].digest(resources["tokenizer"].load())
    width = len(str(len(targets)))
    with db.connect(url, autocommit=True) as conn:
        for i, t in enumerate(targets, start=1):
            label = target_label(i, len(targets), t)
            try:
                batch.outcomes.append(_ingest_one(conn, t, label, " " * (2 * width + 4), digest=digest,
                                                  instance=instance, resources=resources, kind=kind,
                                                  published_on=published_on, say=say))
            except Exception as exc:
                if reachable(url):
                    raise
                # The database went away: one clear line and the summary, not a retry loop per remaining file.
                batch.stopped = f"the database is unreachable ({type(exc).__name__}: {str(exc).strip()[:200]})"
                batch.outcomes.append(FileOutcome(t, "failed", message=batch.stopped))
                say(f"{label}: STOPPED: {batch.stopped}; {i - 1} of {len(targets)} files were done; run the "
                    "same command when it is back (finished files are skipped)")
                break
    return batch
