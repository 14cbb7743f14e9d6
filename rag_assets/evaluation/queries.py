"""The SQL evaluation runs (loading BEIR folders, storing eval runs), read from evaluation/sql/*.sql."""

from __future__ import annotations

from functools import partial

from rag_serving.store.sqlfiles import package_sql

sql_text = partial(package_sql, "rag_assets.evaluation")
