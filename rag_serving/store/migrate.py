"""Numbered SQL migrations (store/migrations/NNNN_name.sql), applied in order, once, under an advisory lock."""

from __future__ import annotations

import hashlib
import logging
from importlib import resources
from pathlib import Path

import psycopg

log = logging.getLogger(__name__)

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


def migration_files() -> list[tuple[str, str]]:
    folder = resources.files("rag_serving.store") / "migrations"
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
