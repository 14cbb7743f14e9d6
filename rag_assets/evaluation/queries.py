"""The SQL evaluation runs (loading BEIR folders, storing eval runs), read from evaluation/sql/*.sql."""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def sql_text(name: str) -> str:
    return (resources.files("rag_assets.evaluation") / "sql" / f"{name}.sql").read_text(encoding="utf-8")
