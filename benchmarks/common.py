"""Shared set-up for benchmarks: where the shared data is, a scratch database on the configured server, the pipeline over it."""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from rag_assets.evaluation.beir import scratch_database
from rag_assets.settings import load_settings
from rag_serving.spec import PipelineSpec
from rag_serving.store.bootstrap import bootstrap
from rag_serving.store.sessions import APP_ROLE, Database
from rag_serving.wiring import Wiring

BENCH_DATA = Path(os.environ.get("RAG_BENCH_DATA", Path(__file__).resolve().parents[2] / "shared" / "bench"))


def bench_database(name: str, *, fresh: bool) -> str:
    """URL of a migrated database `name` on the configured server (embedded unless RAG_DATABASE_URL)."""
    return scratch_database(bootstrap(load_settings()), name, fresh=fresh)


def drop_database(name: str) -> None:
    with psycopg.connect(bootstrap(load_settings()), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def serving(url: str, max_size: int = 1) -> Database:
    """The serving role's pool on a benchmark database (row-level security applies, as in production)."""
    return Database(make_conninfo(url, user=APP_ROLE), max_size=max_size)


def legs(mode: str, k: int = 10) -> PipelineSpec:
    """The shipped spec's retrieval legs alone (no reranker, expansion or routing) in one mode, at k."""
    from rag_assets.evaluation.ablation import naive

    return naive(load_settings().pipeline()).replace(mode=mode, k=k)


@contextmanager
def pipeline(url: str, embedder, spec: PipelineSpec | None = None):
    """A pipeline (default: the shipped spec) over a benchmark database, closed afterwards."""
    database = serving(url)
    try:
        yield Wiring(database, embedder).pipeline(spec or load_settings().pipeline())
    finally:
        database.close()


@contextmanager
def recorded(name: str):
    """Everything the benchmark prints, also written to benchmarks/results/<date>-<name>.md with the command,
    date and commit (rag_assets.evaluation.report.save_result)."""
    import io
    import sys

    from rag_assets.evaluation.provenance import git_commit
    from rag_assets.evaluation.report import save_result

    started_at = git_commit()
    buffer = io.StringIO()

    class Tee(io.TextIOBase):
        def write(self, text):
            buffer.write(text)
            return sys.__stdout__.write(text)

        def flush(self):
            sys.__stdout__.flush()

    previous, sys.stdout = sys.stdout, Tee()
    try:
        yield
    finally:
        sys.stdout = previous
    command = " ".join(["python -m", f"benchmarks.{name}", *sys.argv[1:]])
    # The file is named by the benchmark and its settings, not by where a --json copy went.
    args = [a for i, a in enumerate(sys.argv[1:]) if a != "--json" and (i == 0 or sys.argv[i] != "--json")]
    body = "```\n" + buffer.getvalue().rstrip() + "\n```"
    print(f"saved {save_result(' '.join([name, *args]), body, command, commit=started_at)}")
