"""The SQL the serving side runs, read from `store/sql/*.sql`; `{filters}` and other fragments are composed in safely."""

from __future__ import annotations

from functools import cache
from importlib import resources

from psycopg import sql


@cache
def sql_text(name: str) -> str:
    """The text of store/sql/<name>.sql (read once; the files are part of the package)."""
    return (resources.files("rag_serving.store") / "sql" / f"{name}.sql").read_text(encoding="utf-8")


def composed(name: str, **parts: sql.Composable) -> sql.Composed:
    """store/sql/<name>.sql with its `{placeholders}` filled by SQL fragments or literals (never user input)."""
    return sql.SQL(sql_text(name)).format(**parts)
