"""Web fallback: a search(query) protocol, the SearXNG JSON adapter, the per-organization rule and the fallback log."""

from __future__ import annotations

import logging
from typing import Protocol

import httpx

from rag_serving.answer.evidence import Evidence
from rag_serving.answer.responses import WebResult
from rag_serving.store.sessions import Session, Tenant
from rag_serving.store.sqlfiles import sql_text

log = logging.getLogger(__name__)

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


def allowed_for(session: Session) -> bool:
    """Allowed only by an explicit rule: every rooftop of the tenant must be allowed (its own rule, else the org's)."""
    tenant = session.tenant
    rows = session.execute(sql_text("web_rules"), {"org": tenant.organization_id,
                                                   "rooftops": list(tenant.rooftop_ids)}).fetchall()
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


def log_fallback(session: Session, query: str, provider: str, results: int, error: str | None) -> None:
    tenant = session.tenant
    session.execute(sql_text("log_web_fallback"), (tenant.organization_id, ",".join(tenant.rooftop_ids), query,
                                                   provider, results, error))
    log.warning("web fallback for %s: %d results from %s%s", tenant.organization_id, results, provider,
                f" (error: {error})" if error else "")
