"""Serving from a read replica, end to end on this machine: a private embedded PostgreSQL as the primary and a hot
standby of it (its own data dir and port). `rag ingest` of the sample corpus runs on the primary while the
replication lag is sampled from pg_stat_replication; then the golden dev questions are answered by the shipped
pipeline on the primary and on the replica, in turns: latency of each and whether the answers are the same."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import psycopg
from psycopg.conninfo import make_conninfo

from rag_assets.evaluation.golden import load_golden
from rag_assets.samples import generate
from rag_assets.settings import load_settings
from rag_serving.models.embedders import get_embedder
from rag_serving.store import embedded
from rag_serving.store.sessions import APP_ROLE, Database, Tenant
from rag_serving.wiring import Wiring

from .common import recorded

RAG = str(Path(sys.executable).with_name("rag"))
GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def sample_lag(primary: str, stop: threading.Event, samples: list[tuple[float, int]]) -> None:
    """Every 100 ms: the standby's replay lag (seconds, 0 when idle) and how many WAL bytes it is behind."""
    with psycopg.connect(primary, autocommit=True) as conn:
        while not stop.is_set():
            row = conn.execute("SELECT coalesce(extract(epoch FROM replay_lag), 0), "
                               "pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn) FROM pg_stat_replication").fetchone()
            if row is not None:
                samples.append((float(row[0]), int(row[1])))
            time.sleep(0.1)


def catch_up_seconds(primary: str, replica: str) -> float:
    """From the primary's current WAL position to the standby having replayed it."""
    t0 = time.perf_counter()
    with psycopg.connect(primary) as conn:
        target = conn.execute("SELECT pg_current_wal_lsn()").fetchone()[0]
    with psycopg.connect(replica, autocommit=True) as conn:
        while not conn.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", (target,)).fetchone()[0]:
            time.sleep(0.005)
    return time.perf_counter() - t0


def ms(values: list[float], p: float) -> float:
    return round(float(np.percentile(values, p)) * 1000, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--questions", type=int, default=40, help="golden dev questions asked on each server")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="rag-replica-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAG_DATABASE_URL", "RAG_APP_", "DAGSTER_"))}
    env["RAG_HOME"] = str(home)
    settings = load_settings({"RAG_HOME": str(home)})
    corpus = home / "corpus"
    generate(corpus)
    started = subprocess.run([RAG, "db", "start"], env=env, capture_output=True, text=True, timeout=600)
    assert started.returncode == 0, started.stderr
    primary = subprocess.run([RAG, "db", "url"], env=env, capture_output=True, text=True).stdout.strip().splitlines()[-1]
    t0 = time.perf_counter()
    standby_server = embedded.start_standby(settings.pgdata, home / "standby", port=5433)
    replica = make_conninfo(standby_server, dbname=psycopg.conninfo.conninfo_to_dict(primary)["dbname"])
    out: dict = {"standby_start_s": round(time.perf_counter() - t0, 1)}
    try:
        samples: list[tuple[float, int]] = []
        stop = threading.Event()
        sampler = threading.Thread(target=sample_lag, args=(primary, stop, samples))
        sampler.start()
        t0 = time.perf_counter()
        ingest = subprocess.run([RAG, "ingest", "--tenant-folders", str(corpus)], env=env, capture_output=True,
                                text=True, timeout=1800)
        out["ingest_on_primary_s"] = round(time.perf_counter() - t0, 1)
        assert ingest.returncode == 0, ingest.stdout[-2000:] + ingest.stderr[-2000:]
        out["caught_up_after_ingest_ms"] = round(catch_up_seconds(primary, replica) * 1000, 1)
        stop.set()
        sampler.join()
        lags = [s for s, _ in samples]
        behind = [b for _, b in samples]
        out["replay_lag_during_ingest"] = {"samples": len(samples), "p50_ms": ms(lags, 50), "p95_ms": ms(lags, 95),
                                           "max_ms": round(max(lags) * 1000, 1),
                                           "wal_behind_p95_kib": round(float(np.percentile(behind, 95)) / 1024, 1)}
        out["queries"] = answer_on_both(settings, primary, replica, args.questions)
    finally:
        embedded.stop(home / "standby")
        subprocess.run([RAG, "db", "stop"], env=env, capture_output=True, text=True, timeout=120)
    print(json.dumps(out, indent=2))


def answer_on_both(settings, primary: str, replica: str, n: int) -> dict:
    """The shipped pipeline over each server as rag_app, the same questions in turns; p50/p95 and agreement."""
    cases = [c for c in load_golden(GOLDEN, "dev")][:n]
    embedder = get_embedder("minilm")
    servers = {"primary": primary, "replica": replica}
    databases = {name: Database(make_conninfo(url, user=APP_ROLE), max_size=1) for name, url in servers.items()}
    try:
        pipelines = {name: Wiring(db, embedder).pipeline(settings.pipeline()) for name, db in databases.items()}
        timings: dict[str, list[float]] = {name: [] for name in servers}
        same = 0
        for case in cases:
            tenant = Tenant(case.tenant.organization, tuple(case.tenant.rooftops))
            answers = {}
            for name, pipeline in pipelines.items():
                t0 = time.perf_counter()
                response = pipeline.ask(tenant, case.question, history=case.history)
                timings[name].append(time.perf_counter() - t0)
                answers[name] = (response.route, [s.model_dump() for s in response.answer or []],
                                 [s.chunk_id for s in response.sources])
            same += answers["primary"] == answers["replica"]
        report = {name: {"p50_ms": ms(t, 50), "p95_ms": ms(t, 95)} for name, t in timings.items()}
        report["replica_over_primary_p95"] = round(report["replica"]["p95_ms"] / report["primary"]["p95_ms"], 2)
        report["same_answers"] = f"{same} of {len(cases)}"
        return report
    finally:
        for database in databases.values():
            database.close()


if __name__ == "__main__":
    with recorded("replica"):
        main()
