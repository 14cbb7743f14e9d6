"""Files built side by side in worker processes, each file whole in one worker as its own Dagster run."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass

from rag_assets.ingest.targets import FileOutcome, Target

# What a worker process builds once and keeps for every file it is given: a Dagster instance, the resources (the
# embedder loaded once) and one connection. A pool initializer's state lives in its own process, never a request's.
_worker: dict = {}


@dataclass(frozen=True)
class Job:
    """Files built one after another in one worker: the same content twice goes to one worker, so two registrations
    of one SHA-256 never race."""

    files: tuple[tuple[str, Target], ...]  # (label, target)


def jobs_for(targets: list[Target], labels: list[str]) -> list[Job]:
    groups: dict[str, list[tuple[str, Target]]] = {}
    for label, t in zip(labels, targets, strict=True):
        try:
            key = hashlib.sha256(t.path.read_bytes()).hexdigest()
        except OSError:
            key = f"unreadable:{t.path}"  # registration names the problem; alone, it holds up nothing
        groups.setdefault(key, []).append((label, t))
    return [Job(tuple(files)) for files in groups.values()]


def embed_threads(requested: int, workers: int) -> int:
    """onnxruntime threads per worker: the cores shared out, since workers each running as many threads as there are
    cores, spinning as onnxruntime's threads do, made two side by side slower than one alone (docs/decisions.md)."""
    return requested or max(1, (os.cpu_count() or 1) // workers)


def _start(url: str, resources: dict, instance_ref, threads: int) -> None:
    from dagster import DagsterInstance

    from rag_serving.store import bootstrap as db

    built = {k: cls(**fields) for k, (cls, fields) in resources.items()}
    built["embedder"] = built["embedder"].model_copy(update={"threads": threads})
    _worker.update(resources=built, instance=DagsterInstance.from_ref(instance_ref),
                   conn=db.connect(url, autocommit=True))


def _build(job: Job, pad: str, digest: str, kind: str | None, published_on: str | None
           ) -> list[tuple[FileOutcome | None, list[str], str | None]]:
    """Each file's outcome and the lines said for it; an exception as its text (the parent decides what it means)."""
    from rag_assets.ingest.runner import ingest_one

    out = []
    for label, t in job.files:
        lines: list[str] = []
        try:
            outcome = ingest_one(_worker["conn"], t, label, pad, digest=digest, instance=_worker["instance"],
                                 resources=_worker["resources"], kind=kind, published_on=published_on,
                                 say=lines.append)
            out.append((outcome, lines, None))
        except Exception as exc:  # noqa: BLE001 - crossed back to the parent, which checks the database
            out.append((None, lines, f"{type(exc).__name__}: {str(exc).strip()[:200]}"))
            break
    return out


def build_side_by_side(jobs: list[Job], workers: int, *, url: str, resources: dict, instance_ref, threads: int,
                       pad: str, digest: str, kind: str | None, published_on: str | None,
                       ) -> Iterator[tuple[Target, str, FileOutcome | None, list[str], str | None]]:
    """(target, label, outcome, lines, error) per file as workers finish them; stops giving work after an error."""
    specs = {k: (type(v), v.model_dump()) for k, v in resources.items()}
    # Spawned, not forked: the parent holds a Dagster instance, threads and connections a fork would copy half-alive.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start,
                             initargs=(url, specs, instance_ref, threads)) as pool:
        pending: dict[Future, Job] = {pool.submit(_build, j, pad, digest, kind, published_on): j for j in jobs}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                job = pending.pop(future)
                results = future.result()
                for (label, t), (outcome, lines, error) in zip(job.files, results):
                    yield t, label, outcome, lines, error
                    if error:
                        for f in pending:
                            f.cancel()
                        return
