"""Runs a killed `rag ingest` left STARTED are marked failed by the next one; a live process's runs are left alone."""

import subprocess
import sys
import time

from dagster import DagsterInstance, DagsterRunStatus, RunsFilter

from rag_assets.ingest.stale import fail_stale_runs

SLOW_RUN = """
import sys, time
from dagster import DagsterInstance, asset, materialize
from rag_assets.ingest.stale import owner_tags

@asset
def slow():
    time.sleep(600)

materialize([slow], instance=DagsterInstance.local_temp(sys.argv[1]), tags=owner_tags())
"""


def test_only_the_runs_of_a_dead_ingest_process_are_marked_failed(tmp_path):
    instance = DagsterInstance.local_temp(str(tmp_path))
    worker = subprocess.Popen([sys.executable, "-c", SLOW_RUN, str(tmp_path)])
    try:
        deadline, started = time.monotonic() + 120, []
        while not started and time.monotonic() < deadline:
            started = instance.get_runs(RunsFilter(statuses=[DagsterRunStatus.STARTED]))
            time.sleep(0.5)
        assert started, "the run never started"
        assert fail_stale_runs(instance) == []  # its process is alive: still running, not stale
    finally:
        worker.kill()
        worker.wait(30)
    assert fail_stale_runs(instance) == [started[0].run_id]
    run = instance.get_run_by_id(started[0].run_id)
    assert run.status == DagsterRunStatus.FAILURE
