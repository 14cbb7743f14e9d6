"""An ingest run as the Dagster UI launches one (a run worker process executing `ingest_job` on a persistent
instance): the shipped in-process executor against Dagster's default, a subprocess per step, on the same
sample-corpus file in fresh databases."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dagster import AssetSelection, DagsterInstance, Definitions, define_asset_job, execute_job, multiprocess_executor
from dagster import reconstructable

# Absolute: Dagster loads this file by path to rebuild the job in the run's processes.
from benchmarks.common import bench_database, drop_database, recorded
from rag_assets.partitions import files_partitions

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


JOBS = {"in_process": shipped_job, "multiprocess": multiprocess_job}


def execute(name: str, partition: str, home: str) -> None:
    """The run worker: what the UI's run launcher starts for one run (settings from the environment)."""
    instance = DagsterInstance.local_temp(home)
    instance.add_dynamic_partitions(files_partitions.name, [partition])
    with execute_job(reconstructable(JOBS[name]), instance=instance, tags={"dagster/partition": partition}) as result:
        if not result.success:
            raise SystemExit(f"{name}: the run failed")


def one_run(name: str, corpus: Path) -> dict:
    from rag_assets.definitions import build_resources
    from rag_assets.ingest.registration import register_file
    from rag_assets.resources import PostgresResource
    from rag_assets.settings import load_settings

    database = f"bench_ui_run_{name}"
    url = bench_database(database, fresh=True)
    try:
        resources = build_resources(load_settings())
        digest = resources["chunker"].digest(resources["tokenizer"].load())
        with PostgresResource(url=url).connect() as conn:
            reg = register_file(conn, corpus / FILE, organization_id="acme", rooftop_id="hq",
                                source_path=Path(FILE).name, digest=digest)
        with tempfile.TemporaryDirectory() as home:
            t0 = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "benchmarks.ui_run", "--execute", name, "--partition",
                                   reg.sha256, "--home", home], env={**os.environ, "RAG_DATABASE_URL": url},
                                  capture_output=True, text=True)
            seconds = time.perf_counter() - t0
        if done.returncode:
            raise SystemExit(f"{name}: run worker exited {done.returncode}: {done.stderr[-2000:]}")
        with PostgresResource(url=url).connect() as conn:
            status = conn.execute("SELECT status FROM documents WHERE id = %s", (reg.document_id,)).fetchone()["status"]
    finally:
        drop_database(database)
    return {"executor": name, "status": status, "seconds": round(seconds, 1)}


def main() -> None:
    from rag_assets.samples import generate

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--execute", choices=list(JOBS), help=argparse.SUPPRESS)
    parser.add_argument("--partition", help=argparse.SUPPRESS)
    parser.add_argument("--home", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.execute:
        execute(args.execute, args.partition, args.home)
        return
    corpus = Path(tempfile.mkdtemp(prefix="rag-ui-run-"))
    generate(corpus)
    with recorded("ui_run"):
        runs = [one_run(name, corpus) for name in JOBS]
        for r in runs:
            print(json.dumps(r))
        fast, slow = runs
        if fast["status"] != "live" or slow["status"] != "live":
            raise SystemExit("a run did not publish its document")
        print(f"one file's run, worker process included: {fast['seconds']} s in process vs {slow['seconds']} s with a "
              f"subprocess per step = {slow['seconds'] / fast['seconds']:.1f}x")


if __name__ == "__main__":
    main()
