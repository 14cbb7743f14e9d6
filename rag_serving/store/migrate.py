"""Numbered SQL migrations (store/migrations/NNNN_name.sql), applied in order, once, under an advisory lock."""

from __future__ import annotations

import hashlib
import logging
from importlib import resources
from pathlib import Path

import psycopg

from rag_serving.store.sqlfiles import sql_text

log = logging.getLogger(__name__)

# Any constant works; it only has to be the same for every process that migrates.
MIGRATION_LOCK_KEY = 0x52414730


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
            conn.execute(sql_text("create_migrations_table"))
            applied = dict(conn.execute(sql_text("select_applied")).fetchall())
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
                    conn.execute(sql_text("insert_applied"), (version, checksum))
                applied_now.append(version)
                log.info("applied migration %s", version)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK_KEY,))
    return applied_now
