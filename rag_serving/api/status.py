"""GET /healthz (the database answers), GET /stats (the caller's tenant) and GET /metrics (Prometheus)."""

# No `from __future__ import annotations`: FastAPI resolves the dependency annotations at definition time.

import asyncio

import psycopg
from fastapi import APIRouter, Depends, HTTPException
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from rag_serving.api.auth import caller
from rag_serving.api.errors import documented
from rag_serving.api.links import Caller
from rag_serving.api.schemas import Health, Stats
from rag_serving.api.state import State, state
from rag_serving.store.sqlfiles import sql_text

HEALTH_TIMEOUT_S = 3.0  # well inside an orchestrator's usual probe timeout
router = APIRouter(tags=["status"])


@router.get("/healthz", response_model=Health, responses=documented(503), summary="200 when the database answers")
async def healthz(app: State = Depends(state)) -> Health:
    # Its own short-lived connection on the event loop: neither the request threads nor the pool's connections,
    # which a saturated server has all in use, so the answer reflects the database, not the queue.
    try:
        async with asyncio.timeout(HEALTH_TIMEOUT_S):
            async with await psycopg.AsyncConnection.connect(app.pipeline.database.url, autocommit=True) as conn:
                await conn.execute("SELECT 1")
    except (TimeoutError, psycopg.Error) as exc:
        raise HTTPException(503, f"database unavailable: {type(exc).__name__}") from exc
    return Health(status="ok")


@router.get("/stats", response_model=Stats, responses=documented(401, 503), summary="The caller's corpus and this server")
def stats(app: State = Depends(state), who: Caller = Depends(caller)) -> Stats:
    with app.pipeline.database.session(who.tenant) as session:
        row = session.execute(sql_text("tenant_stats")).fetchone()
    p50, p95, served = app.latencies.summary()
    return Stats(organization_id=who.tenant.organization_id, rooftop_ids=list(who.tenant.rooftop_ids),
                 documents=row["documents"], pages=row["pages"], chunks=row["chunks"],
                 index_models=row["models"] or [], query_model=app.pipeline.embedder.model,
                 pipeline=app.pipeline.spec.digest, requests_served=served, latency_ms_p50=p50, latency_ms_p95=p95)


@router.get("/metrics", response_class=Response, summary="Prometheus metrics of this server process",
            responses={200: {"content": {CONTENT_TYPE_LATEST: {}}, "description": "text exposition format"}})
async def metrics(app: State = Depends(state)) -> Response:
    # No key: counts and latencies only, no tenant's content, as Prometheus scrapers expect; bind the server to a
    # private address or filter /metrics at the proxy where even that is too much.
    return Response(generate_latest(app.metrics.registry), media_type=CONTENT_TYPE_LATEST)
