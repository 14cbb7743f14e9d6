"""Shared set-up for benchmarks: where the shared data is, a scratch database, the commit."""

from __future__ import annotations

import os
from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from rag_serving import db
from rag_serving.config import load_settings

BENCH_DATA = Path(os.environ.get("RAG_BENCH_DATA", Path(__file__).resolve().parents[2] / "shared" / "bench"))


def bench_database(name: str, *, fresh: bool) -> str:
    """URL of a migrated database `name` on the configured server (embedded unless RAG_DATABASE_URL)."""
    server = db.server_url(load_settings())
    with psycopg.connect(server, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if exists and fresh:
            conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
        if not exists or fresh:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = make_conninfo(server, dbname=name)
    db.migrate(url)
    return url


def drop_database(name: str) -> None:
    server = db.server_url(load_settings())
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
