"""Per-organization web fallback rules (admin side): off unless an operator allows it, optionally per rooftop."""

from __future__ import annotations

import psycopg

from rag_serving.store.sqlfiles import sql_text


def set_rule(conn: psycopg.Connection, organization_id: str, rooftop_id: str | None, allowed: bool,
             note: str = "") -> None:
    conn.execute(sql_text("upsert_web_rule"), (organization_id, rooftop_id, allowed, note))


def rules(conn: psycopg.Connection) -> list[dict]:
    return conn.execute(sql_text("list_web_rules")).fetchall()
