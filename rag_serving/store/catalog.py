"""What is indexed: live documents, per-tenant totals and recent ingest errors (operator views)."""

from __future__ import annotations

import psycopg

from rag_serving.store.sqlfiles import sql_text


def list_documents(conn: psycopg.Connection, org: str | None = None, rooftop: str | None = None) -> list[dict]:
    return conn.execute(sql_text("list_documents"), {"org": org, "rooftop": rooftop}).fetchall()


def tenant_summary(conn: psycopg.Connection) -> list[dict]:
    return conn.execute(sql_text("tenant_summary")).fetchall()


def recent_errors(conn: psycopg.Connection, limit: int = 20, document_id: str | None = None) -> list[dict]:
    return conn.execute(sql_text("recent_errors"), {"limit": limit, "document_id": document_id}).fetchall()
