"""The HTTP endpoint: the answer page at /, POST /query and /retrieve, the cited pages, /healthz, /stats, /metrics."""

from __future__ import annotations

import os
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from rag_serving.api import errors, pages, questions, status
from rag_serving.api.admission import Admission
from rag_serving.api.metrics import Metrics, RequestMetrics
from rag_serving.api.requestids import HEADER, RequestIds
from rag_serving.api.state import Latencies, State
from rag_serving.api.telemetry import install_tracing
from rag_serving.models.embedders import Embedder
from rag_serving.settings import Settings, load_settings
from rag_serving.store.sessions import Database
from rag_serving.wiring import from_settings

STATIC = Path(__file__).parent / "static"
DESCRIPTION = """Cited answers from an organization's own documents, or an honest "the documents don't say".

Authorize with an API key from `rag keys create` (as `Authorization: Bearer <key>` or `X-API-Key`); the key decides
the tenant. Every error has one body, `application/problem+json` (RFC 9457), with the request's `X-Request-ID`."""


def create_app(settings: Settings | None = None, *, database: Database | None = None,
               embedder: Embedder | None = None) -> FastAPI:
    """The app for the pipeline the settings describe. Everything is built here, before the server accepts a
    connection, so start-up either finishes or fails with the cause; nothing loads lazily under the first requests."""
    settings = settings or load_settings()
    owned = database is None  # a database handed in (tests) is closed by whoever opened it
    install_tracing()
    pipeline = from_settings(settings, database=database, embedder=embedder)
    metrics = Metrics(cache_counts=pipeline.answerer.vectors.counts)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        if owned:
            pipeline.database.close()

    # FastAPIOffline: Swagger UI and ReDoc from files in the wheel, not a CDN (blank pages offline otherwise).
    app = FastAPIOffline(title="RAG answers", version="0.1.0", description=DESCRIPTION, lifespan=lifespan,
                         swagger_ui_parameters={"persistAuthorization": True})
    app.state.rag = State(pipeline=pipeline, settings=settings, latencies=Latencies(), metrics=metrics)
    errors.install(app, retry_after_s=pipeline.database.pool.timeout)
    for router in (questions.router, pages.router, status.router):
        app.include_router(router)
    app.mount("/ui", StaticFiles(directory=STATIC), name="ui")

    @app.get("/", include_in_schema=False)
    async def answer_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    # Middleware runs outermost-last-added. Order, from the outside in: request ids (every response carries one),
    # metrics (every request counted, 503s included), last-resort 500s, CORS (preflights answered before admission),
    # admission (load shedding).
    # One per core by default: at 200 clients on 2 cores, 8 in flight served p95 10.9 s and 2 served 4.0 s at the same
    # throughput (benchmarks/results/2026-12-03-load*.md); more threads only share the GIL and the cores.
    app.add_middleware(Admission, limit=settings.max_in_flight or os.cpu_count() or 2)
    if settings.cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=list(settings.cors_origins), allow_methods=["GET", "POST"],
                           allow_headers=["Authorization", "X-API-Key", "Content-Type", HEADER],
                           expose_headers=[HEADER, "Retry-After"], max_age=600)
    app.add_middleware(errors.ServerErrors)
    app.add_middleware(RequestMetrics, metrics=metrics)
    app.add_middleware(RequestIds)
    return app
