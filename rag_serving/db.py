"""Connections, database bootstrap (embedded or external) and numbered SQL migrations."""

from __future__ import annotations

import hashlib
import logging
from importlib import resources
from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.rows import dict_row

from . import embedded
from .config import Settings

log = logging.getLogger(__name__)

APP_DATABASE = "rag"
DAGSTER_DATABASE = "dagster"
# Any constant works; it only has to be the same for every process that migrates.
MIGRATION_LOCK_KEY = 0x52414730

CREATE_MIGRATIONS_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version     text PRIMARY KEY,
    checksum    text NOT NULL,
    applied_at  timestamptz NOT NULL DEFAULT now()
)"""
SELECT_APPLIED = "SELECT version, checksum FROM schema_migrations"
INSERT_APPLIED = "INSERT INTO schema_migrations (version, checksum) VALUES (%s, %s)"


class MigrationError(RuntimeError):
    pass


def server_url(settings: Settings) -> str:
    """URL of the application database, starting the embedded server when no external one is set."""
    if settings.database_url:
        if not settings.dagster_database_url:
            try:
                ensure_database(settings.database_url, DAGSTER_DATABASE)
            except psycopg.Error as exc:
                log.warning("could not create database %r for Dagster (%s); set DAGSTER_PG_URL", DAGSTER_DATABASE, exc)
        return settings.database_url
    base = embedded.start(settings.pgdata)
    for name in (APP_DATABASE, DAGSTER_DATABASE):
        ensure_database(base, name)
    return make_conninfo(base, dbname=APP_DATABASE)


def ensure_database(url: str, name: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def dagster_storage_url(settings: Settings, app_url: str) -> str:
    """SQLAlchemy URL for Dagster's run/event storage: same server, its own database.

    The explicit psycopg2 driver matters: SQLAlchemy 2.1 would otherwise hand the URL to
    psycopg 3, and Dagster's NOTIFY statements fail there (runs stay NOT_STARTED).
    """
    if settings.dagster_database_url:
        return settings.dagster_database_url
    from sqlalchemy.engine import URL

    params = conninfo_to_dict(app_url)
    query = {}
    host = params.get("host")
    if host and host.startswith("/"):
        query["host"] = host
        host = None
    return URL.create(
        "postgresql+psycopg2",
        username=params.get("user") or "postgres",
        password=params.get("password") or None,
        host=host,
        port=int(params["port"]) if params.get("port") else None,
        database=DAGSTER_DATABASE,
        query=query,
    ).render_as_string(hide_password=False)


def connect(url: str, **kwargs) -> psycopg.Connection:
    return psycopg.connect(url, row_factory=dict_row, **kwargs)


def migration_files() -> list[tuple[str, str]]:
    folder = resources.files("rag_serving") / "migrations"
    files = sorted(p for p in folder.iterdir() if p.name.endswith(".sql"))
    return [(Path(p.name).stem, p.read_text(encoding="utf-8")) for p in files]


def migrate(url: str) -> list[str]:
    """Apply pending migrations in order, each in its own transaction; returns the versions applied.

    An advisory lock serializes concurrent starters (several Dagster processes, serving replicas);
    a changed checksum on an applied migration is an error, never silently re-run.
    """
    applied_now: list[str] = []
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK_KEY,))
        try:
            conn.execute(CREATE_MIGRATIONS_TABLE)
            applied = dict(conn.execute(SELECT_APPLIED).fetchall())
            for version, text in migration_files():
                checksum = hashlib.sha256(text.encode()).hexdigest()
                if version in applied:
                    if applied[version] != checksum:
                        raise MigrationError(
                            f"migration {version} changed after it was applied "
                            f"(database {applied[version][:12]}, file {checksum[:12]}); add a new migration instead"
                        )
                    continue
                with conn.transaction():
                    conn.execute(text)
                    conn.execute(INSERT_APPLIED, (version, checksum))
                applied_now.append(version)
                log.info("applied migration %s", version)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK_KEY,))
    return applied_now


def bootstrap(settings: Settings) -> str:
    """Server up, databases present, schema migrated; returns the application database URL."""
    url = server_url(settings)
    migrate(url)
    return url
