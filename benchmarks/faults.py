"""Faults during ingest, end to end on a private embedded PostgreSQL: `rag ingest` killed mid-batch, then the
database stopped mid-batch, then both restarted and the same command re-run. Checks that every file of the sample
corpus ends up live exactly once, nothing is left building, and no Dagster run is left STARTED."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg
from psycopg.conninfo import make_conninfo

from rag_assets.ingest.targets import tenant_folder_targets
from rag_assets.samples import generate

from .common import recorded

RAG = str(Path(sys.executable).with_name("rag"))


def rag(env: dict, *args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run([RAG, *args], env=env, capture_output=True, text=True, timeout=timeout)


def ingest_until(env: dict, corpus: Path, lives: int, then) -> tuple[list[str], int]:
    """`rag ingest` until `lives` more files went live, then `then(process)`; its output lines and exit code."""
    proc = subprocess.Popen([RAG, "ingest", "--tenant-folders", str(corpus)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines, seen = [], 0
    for line in proc.stdout:
        lines.append(line.rstrip())
        seen += "live:" in line
        if seen == lives:
            then(proc)
            break
    lines += [line.rstrip() for line in proc.stdout]
    return lines, proc.wait(600)


def main() -> None:
    home = Path(tempfile.mkdtemp(prefix="rag-faults-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAG_DATABASE_URL", "DAGSTER_"))}
    env["RAG_HOME"] = str(home)
    corpus = home / "corpus"
    generate(corpus)
    targets = tenant_folder_targets(corpus)
    started = rag(env, "db", "start")
    assert started.returncode == 0, started.stderr
    url = rag(env, "db", "url").stdout.strip().splitlines()[-1]
    out: dict = {"files": len(targets)}
    t0 = time.perf_counter()

    lines, code = ingest_until(env, corpus, 2, lambda p: p.send_signal(signal.SIGKILL))
    out["1 ingest killed (SIGKILL) after 2 files"] = {"exit": code, "last": lines[-1]}

    def stop_database(_):
        stopped = rag(env, "db", "stop")
        assert stopped.returncode == 0, stopped.stderr

    lines, code = ingest_until(env, corpus, 2, stop_database)
    out["2 database stopped after 2 more files"] = {"exit": code, "last_lines": lines[-3:]}

    assert rag(env, "db", "start").returncode == 0
    rerun = rag(env, "ingest", "--tenant-folders", str(corpus))
    out["3 database started, same command again"] = {"exit": rerun.returncode,
                                                      "lines": [ln for ln in rerun.stdout.splitlines()
                                                                if "marked failed" in ln or "files:" in ln]}
    with psycopg.connect(url) as conn:
        live = {tuple(r) for r in conn.execute(
            "SELECT organization_id, rooftop_id, source_path FROM documents WHERE status = 'live'")}
        statuses = dict(conn.execute("SELECT status, count(*) FROM documents GROUP BY status").fetchall())
        duplicates = conn.execute("SELECT count(*) FROM (SELECT 1 FROM documents WHERE status = 'live' "
                                  "GROUP BY organization_id, rooftop_id, source_path HAVING count(*) > 1) d").fetchone()[0]
    with psycopg.connect(make_conninfo(url, dbname="dagster")) as conn:
        runs = dict(conn.execute("SELECT status, count(*) FROM runs GROUP BY status").fetchall())
    missing = [t.source_path for t in targets if (t.organization_id, t.rooftop_id, t.source_path) not in live]
    out["after"] = {"documents by status": statuses, "files not live": missing, "sources live twice": duplicates,
                    "dagster runs by status": runs, "seconds": round(time.perf_counter() - t0, 1)}
    print(json.dumps(out, indent=1))
    ok = rerun.returncode == 0 and not missing and not duplicates and "building" not in statuses and "STARTED" not in runs
    rag(env, "db", "stop")
    print("every file accounted for" if ok else "FAILED: see above")
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    with recorded("faults"):
        main()
