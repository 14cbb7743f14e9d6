"""Web fallback: a search(query) protocol, the SearXNG JSON adapter, the per-organization rule and the fallback log."""

from __future__ import annotations

import logging
from typing import Protocol

import httpx
import psycopg

from .answers import WebResult
from .database import Tenant
from .evidence import Evidence

log = logging.getLogger(__name__)

# A rule for one of the tenant's rooftops beats the organization-wide rule; no row means not allowed.
RULES_SQL = """
SELECT rooftop_id, allowed FROM web_search_rules
WHERE organization_id = %(org)s AND (rooftop_id IS NULL OR rooftop_id = ANY(%(rooftops)s))"""
LOG_SQL = """
INSERT INTO web_fallbacks (organization_id, rooftop_id, query, provider, results, error)
VALUES (%s, %s, %s, %s, %s, %s)"""
UPSERT_RULE_SQL = """
INSERT INTO web_search_rules (organization_id, rooftop_id, allowed, note) VALUES (%s, %s, %s, %s)
ON CONFLICT (organization_id, rooftop_id) DO UPDATE SET allowed = EXCLUDED.allowed, note = EXCLUDED.note,
    updated_at = now()"""
# Above this share of the question's key terms, the tenant's own documents are about the question: it stays inside.
INTERNAL_COVERAGE = 0.5


class WebSearchError(RuntimeError):
    pass


class WebSearch(Protocol):
    name: str

    def search(self, query: str, k: int = 5) -> list[WebResult]:
        """Web results for query, best first."""


class SearxngSearch:
    """A SearXNG instance's JSON API: GET /search?q=…&format=json."""

    name = "searxng"

    def __init__(self, base_url: str, *, timeout: float = 10.0, client: httpx.Client | None = None):
        self.base_url = base_url.rstrip("/")
        self.client = client or httpx.Client(timeout=timeout)

    def search(self, query: str, k: int = 5) -> list[WebResult]:
        try:
            response = self.client.get(f"{self.base_url}/search", params={"q": query, "format": "json"})
            response.raise_for_status()
            payload = response.json()
        except (httpx.HTTPError, ValueError) as exc:
            raise WebSearchError(f"SearXNG at {self.base_url}: {exc}") from exc
        results = payload.get("results")
        if not isinstance(results, list):
            raise WebSearchError(f"SearXNG at {self.base_url}: response has no 'results' list")
        return [WebResult(title=r.get("title") or r["url"], url=r["url"], snippet=r.get("content") or "")
                for r in results if isinstance(r, dict) and r.get("url")][:k]


def allowed_for(conn: psycopg.Connection, tenant: Tenant) -> bool:
    """Allowed only by an explicit rule: every rooftop of the tenant must be allowed (its own rule, else the org's)."""
    rows = conn.execute(RULES_SQL, {"org": tenant.organization_id, "rooftops": list(tenant.rooftop_ids)}).fetchall()
    org_rule = next((r["allowed"] for r in rows if r["rooftop_id"] is None), False)
    own = {r["rooftop_id"]: r["allowed"] for r in rows if r["rooftop_id"] is not None}
    return all(own.get(rooftop, org_rule) for rooftop in tenant.rooftop_ids)


def internal_reason(question: str, evidence: Evidence, tenant: Tenant) -> str | None:
    """Why a question is about the tenant's own material and must not be sent to a search engine (None: it may go)."""
    lowered = question.lower()
    for name in (tenant.organization_id, *tenant.rooftop_ids):
        if name.lower().replace("-", " ") in lowered.replace("-", " "):
            return f"it names the tenant ({name})"
    if evidence.question.strict_terms:
        return f"it names internal identifiers or years ({', '.join(evidence.question.strict_terms)})"
    best = evidence.best
    if best and best.coverage >= INTERNAL_COVERAGE:
        return f"the tenant's documents cover {best.coverage:.0%} of its key terms"
    return None


def log_fallback(conn: psycopg.Connection, tenant: Tenant, query: str, provider: str, results: int,
                 error: str | None) -> None:
    conn.execute(LOG_SQL, (tenant.organization_id, ",".join(tenant.rooftop_ids), query, provider, results, error))
    log.warning("web fallback for %s: %d results from %s%s", tenant.organization_id, results, provider,
                f" (error: {error})" if error else "")
