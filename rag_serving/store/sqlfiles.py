"""SQL statements kept as package files (one parameterized statement per .sql file), read once; `{filters}` and other fragments are composed in safely."""

from __future__ import annotations

from functools import cache
from importlib import resources

from psycopg import sql


@cache
def package_sql(package: str, name: str) -> str:
    """The text of <package>/sql/<name>.sql. Cached: the files are immutable package data, and a string is safe to
    share between request threads (two threads may read the same file once each)."""
    return (resources.files(package) / "sql" / f"{name}.sql").read_text(encoding="utf-8")


def sql_text(name: str) -> str:
    """The serving side's store/sql/<name>.sql."""
    return package_sql("rag_serving.store", name)


def composed(name: str, **parts: sql.Composable) -> sql.Composed:
    """store/sql/<name>.sql with its `{placeholders}` filled by SQL fragments or literals (never user input)."""
    return sql.SQL(sql_text(name)).format(**parts)
