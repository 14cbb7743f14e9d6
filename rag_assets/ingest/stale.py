"""Runs a dead `rag ingest` process left STARTED are marked failed, so the run list tells the truth."""

from __future__ import annotations

import os
import socket

from dagster import DagsterInstance, DagsterRunStatus, RunsFilter

PID_TAG, HOST_TAG = "rag/pid", "rag/host"


def owner_tags() -> dict[str, str]:
    """Tags naming the process that runs an in-process ingest, checked by the next ingest on this host."""
    return {PID_TAG: str(os.getpid()), HOST_TAG: socket.gethostname()}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's live process
    return True


def fail_stale_runs(instance: DagsterInstance) -> list[str]:
    """Mark failed each STARTED run whose owning process, on this host, is gone (killed, or its machine's database
    connection lost mid-run); return their ids. Runs launched by the daemon carry no owner tag: Dagster's own run
    monitoring (dagster.yaml) watches those."""
    host, failed = socket.gethostname(), []
    for run in instance.get_runs(RunsFilter(statuses=[DagsterRunStatus.STARTED], tags={HOST_TAG: host})):
        pid = int(run.tags.get(PID_TAG, "0"))
        if pid and pid != os.getpid() and not _alive(pid):
            instance.report_run_failed(run, f"the rag ingest process (pid {pid}) ended before this run finished; "
                                            "`rag ingest` again resumes it (finished files are skipped)")
            failed.append(run.run_id)
    return failed
