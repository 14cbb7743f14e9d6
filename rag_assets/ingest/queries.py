"""The SQL the ingest steps run, one parameterized statement per file in ingest/sql/."""

from __future__ import annotations

from functools import partial

from rag_serving.store.sqlfiles import package_sql

# Serializes index creation between concurrent partition runs.
INDEX_LOCK_KEY = 0x52414731

sql_text = partial(package_sql, "rag_assets.ingest")
