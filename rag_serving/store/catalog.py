"""What is indexed: live documents, per-tenant totals and recent ingest errors (operator views)."""

from __future__ import annotations

import psycopg

LIST_DOCUMENTS = """
SELECT d.organization_id, d.rooftop_id, d.source_path, d.title, d.kind, d.published_on, d.page_count,
       d.sha256, d.status, d.ingested_at,
       (SELECT count(*) FROM sections s WHERE s.document_id = d.id) AS sections,
       (SELECT count(*) FROM chunks c WHERE c.document_id = d.id) AS chunks,
       (SELECT count(*) FROM pages p WHERE p.document_id = d.id AND p.ocr) AS ocr_pages,
       (SELECT count(*) FROM pages p WHERE p.document_id = d.id AND p.unreadable) AS unreadable_pages
FROM documents d
WHERE d.status = 'live'
  AND (%(org)s::text IS NULL OR d.organization_id = %(org)s)
  AND (%(rooftop)s::text IS NULL OR d.rooftop_id = %(rooftop)s)
ORDER BY d.organization_id, d.rooftop_id, d.source_path"""

TENANT_SUMMARY = """
SELECT d.organization_id, d.rooftop_id,
       count(*) AS documents,
       coalesce(sum(d.page_count), 0) AS pages,
       coalesce(sum((SELECT count(*) FROM sections s WHERE s.document_id = d.id)), 0) AS sections,
       coalesce(sum((SELECT count(*) FROM chunks c WHERE c.document_id = d.id)), 0) AS chunks
FROM documents d
WHERE d.status = 'live'
GROUP BY d.organization_id, d.rooftop_id
ORDER BY d.organization_id, d.rooftop_id"""

RECENT_ERRORS = """
SELECT occurred_at, organization_id, rooftop_id, source_path, stage, severity, error_class, message, page_index
FROM ingest_errors
WHERE (%(document_id)s::text IS NULL OR document_id = %(document_id)s)
ORDER BY id DESC
LIMIT %(limit)s"""


def list_documents(conn: psycopg.Connection, org: str | None = None, rooftop: str | None = None) -> list[dict]:
    return conn.execute(LIST_DOCUMENTS, {"org": org, "rooftop": rooftop}).fetchall()


def tenant_summary(conn: psycopg.Connection) -> list[dict]:
    return conn.execute(TENANT_SUMMARY).fetchall()


def recent_errors(conn: psycopg.Connection, limit: int = 20, document_id: str | None = None) -> list[dict]:
    return conn.execute(RECENT_ERRORS, {"limit": limit, "document_id": document_id}).fetchall()
