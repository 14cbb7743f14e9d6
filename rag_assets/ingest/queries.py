"""The SQL the ingest steps run, one parameterized statement per file in ingest/sql/."""

from __future__ import annotations

from functools import cache
from importlib import resources

# Serializes index creation between concurrent partition runs.
INDEX_LOCK_KEY = 0x52414731


@cache
def sql_text(name: str) -> str:
    return (resources.files("rag_assets.ingest") / "sql" / f"{name}.sql").read_text(encoding="utf-8")
