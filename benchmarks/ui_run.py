"""An ingest run as the Dagster UI launches one (`ingest_job` on a persistent instance): the shipped in-process
executor against Dagster's default, a subprocess per step, on the same sample-corpus file in fresh databases."""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

from dagster import AssetSelection, DagsterInstance, Definitions, define_asset_job, execute_job, multiprocess_executor
from dagster import reconstructable

from rag_assets.partitions import files_partitions

# Absolute: Dagster loads this file by path to rebuild the job in the run's processes.
from benchmarks.common import bench_database, drop_database, recorded

FILE = "acme/hq/employee-handbook-2025.pdf"


def shipped_job():
    from rag_assets.definitions import defs

    return defs.resolve_job_def("ingest_job")


def multiprocess_job():
    """The same job on Dagster's default executor."""
    from rag_assets.definitions import defs

    job = define_asset_job("ingest_job_multiprocess", selection=AssetSelection.groups("ingest"),
                           partitions_def=files_partitions, executor_def=multiprocess_executor)
    return Definitions(assets=defs.assets, jobs=[job], resources=defs.resources).resolve_job_def(job.name)


def one_run(name: str, job_fn, corpus: Path) -> dict:
    from rag_assets.definitions import build_resources
    from rag_assets.ingest.registration import register_file
    from rag_assets.resources import PostgresResource
    from rag_assets.settings import load_settings

    url = bench_database(f"bench_ui_run_{name}", fresh=True)
    server = os.environ.get("RAG_DATABASE_URL")
    os.environ["RAG_DATABASE_URL"] = url  # the run's processes read their settings from the environment
    try:
        resources = build_resources(load_settings())
        digest = resources["chunker"].digest(resources["tokenizer"].load())
        with PostgresResource(url=url).connect() as conn:
            reg = register_file(conn, corpus / FILE, organization_id="acme", rooftop_id="hq",
                                source_path=Path(FILE).name, digest=digest)
        with tempfile.TemporaryDirectory() as home:
            instance = DagsterInstance.local_temp(home)
            instance.add_dynamic_partitions(files_partitions.name, [reg.sha256])
            t0 = time.perf_counter()
            with execute_job(reconstructable(job_fn), instance=instance, tags={"dagster/partition": reg.sha256}) as result:
                ok = result.success
            seconds = time.perf_counter() - t0
        with PostgresResource(url=url).connect() as conn:
            status = conn.execute("SELECT status FROM documents WHERE id = %s", (reg.document_id,)).fetchone()["status"]
    finally:
        if server is None:
            os.environ.pop("RAG_DATABASE_URL")
        else:
            os.environ["RAG_DATABASE_URL"] = server
        drop_database(f"bench_ui_run_{name}")
    return {"executor": name, "success": ok, "status": status, "seconds": round(seconds, 1)}


def main() -> None:
    from rag_assets.samples import generate

    corpus = Path(tempfile.mkdtemp(prefix="rag-ui-run-"))
    generate(corpus)
    runs = [one_run("in_process", shipped_job, corpus), one_run("multiprocess", multiprocess_job, corpus)]
    for r in runs:
        print(json.dumps(r))
    fast, slow = runs
    print(f"one file's run: {fast['seconds']} s in process vs {slow['seconds']} s a subprocess per step "
          f"= {slow['seconds'] / fast['seconds']:.1f}x")


if __name__ == "__main__":
    with recorded("ui_run"):
        main()
