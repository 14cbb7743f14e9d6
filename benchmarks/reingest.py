"""An unchanged re-ingest against the first ingest of the sample corpus, as a user runs it: `rag ingest` on a private
embedded PostgreSQL, twice. Wall time of each command (interpreter start and imports included) and the time the
command itself reports for the batch, with the ratios."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rag_assets.samples import generate

from .common import recorded

RAG = str(Path(sys.executable).with_name("rag"))


def ingest(env: dict, corpus: Path) -> dict:
    t0 = time.perf_counter()
    done = subprocess.run([RAG, "ingest", "--tenant-folders", str(corpus)], env=env, capture_output=True, text=True,
                          timeout=1800)
    wall = time.perf_counter() - t0
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    summary = next(line for line in done.stdout.splitlines() if " files: " in line)
    reported = float(re.search(r"in ([0-9.]+) s", summary).group(1))
    return {"wall_s": round(wall, 2), "reported_s": reported, "summary": summary.strip()}


def main() -> None:
    home = Path(tempfile.mkdtemp(prefix="rag-reingest-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAG_DATABASE_URL", "RAG_APP_", "DAGSTER_"))}
    env["RAG_HOME"] = str(home)
    corpus = home / "corpus"
    generate(corpus)
    started = subprocess.run([RAG, "db", "start"], env=env, capture_output=True, text=True, timeout=600)
    assert started.returncode == 0, started.stderr
    try:
        first = ingest(env, corpus)
        unchanged = ingest(env, corpus)
    finally:
        subprocess.run([RAG, "db", "stop"], env=env, capture_output=True, text=True, timeout=120)
    print(json.dumps({"first": first, "unchanged": unchanged,
                      "first_over_unchanged_wall": round(first["wall_s"] / unchanged["wall_s"], 1),
                      "first_over_unchanged_reported": round(first["reported_s"] / max(unchanged["reported_s"], 0.05), 1)},
                     indent=2))


if __name__ == "__main__":
    with recorded("reingest"):
        main()
