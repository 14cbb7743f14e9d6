"""Plain `dagster dev` (and `dagster-webserver -w workspace.yaml`) in the repository, with no Dagster variable set,
serves the project's definitions."""

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.servers import free_port, stop_group

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
COMMANDS = {"dagster dev": [str(BIN / "dagster"), "dev", "-p"],
            "dagster-webserver": [str(BIN / "dagster-webserver"), "-w", "workspace.yaml", "-p"]}


@pytest.mark.parametrize("command", COMMANDS)
def test_plain_dagster_from_the_repository_serves_the_assets_jobs_and_checks(tmp_path, command):
    # A user's shell: nothing of ours set but RAG_HOME (kept out of the checkout); the embedded server starts on demand.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAG_", "DAGSTER_"))}
    env["RAG_HOME"] = str(tmp_path / "h")
    port = free_port()
    proc = subprocess.Popen([*COMMANDS[command], str(port)], env=env, cwd=REPO, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline, ready = time.time() + 300, False
        while time.time() < deadline and not ready and proc.poll() is None:  # an instance it cannot load ends it
            try:
                ready = httpx.get(f"http://127.0.0.1:{port}/server_info", timeout=2).status_code == 200
            except httpx.HTTPError:
                time.sleep(1)
        assert ready, f"{command} did not come up"
        query = "{ repositoriesOrError { ... on RepositoryConnection { nodes { jobs { name } } } } " \
                "assetNodes { assetKey { path } assetChecksOrError { ... on AssetChecks { checks { name } } } } }"
        data = {}
        while time.time() < deadline and not data.get("assetNodes"):  # the code server may still be loading
            data = httpx.post(f"http://127.0.0.1:{port}/graphql", json={"query": query}, timeout=60).json()["data"]
            time.sleep(1)
        jobs = {j["name"] for r in data["repositoriesOrError"]["nodes"] for j in r["jobs"]}
        assert {"ingest_job", "golden_eval_job", "chunk_sweep_job"} <= jobs
        checks = {c["name"] for n in data["assetNodes"] for c in n["assetChecksOrError"].get("checks", [])}
        assert {"cross_tenant_probe", "hnsw_recall", "over_abstention_rate_within_limit"} <= checks
        # Its runs are stored in PostgreSQL under RAG_HOME: the embedded server was started there.
        assert (tmp_path / "h" / "pgdata" / "PG_VERSION").exists()
    finally:
        stop_group(proc)
        subprocess.run([sys.executable, "-m", "rag_assets.cli", "db", "stop"], env=env, cwd=REPO,
                       capture_output=True, timeout=600)
