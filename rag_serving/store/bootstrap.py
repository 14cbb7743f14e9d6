"""The database a process talks to: an external server (RAG_DATABASE_URL) or the embedded one, created and migrated."""

from __future__ import annotations

from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo
from psycopg.rows import dict_row

from rag_serving.store import embedded
from rag_serving.store.migrate import migrate

APP_DATABASE = "rag"


def server_url(database_url: str | None, pgdata: Path) -> str:
    """URL of the application database: RAG_DATABASE_URL as given, else the embedded server under pgdata (started
    if it is not running) and its `rag` database (created if missing)."""
    if database_url:
        return database_url
    base = embedded.start(pgdata)
    ensure_database(base, APP_DATABASE)
    return make_conninfo(base, dbname=APP_DATABASE)


def ensure_database(url: str, name: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def connect(url: str, **kwargs) -> psycopg.Connection:
    """An owner connection (migrations, ingest, admin commands); serving uses the rag_app pool instead."""
    return psycopg.connect(url, row_factory=dict_row, **kwargs)


def bootstrap(settings) -> str:
    """Server up, database present, schema migrated; returns the application database URL (owner role)."""
    url = server_url(settings.database_url, settings.pgdata)
    migrate(url)
    return url
