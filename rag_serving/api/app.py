"""The thin HTTP query endpoint: POST /query, POST /retrieve, GET /healthz, GET /stats; the tenant comes from the API key."""

# No `from __future__ import annotations`: FastAPI resolves the Depends(tenant) annotations at definition time.

import asyncio
import os
import statistics
import threading
import time
from collections import deque
from contextlib import asynccontextmanager
from typing import Annotated

import psycopg
from fastapi import Depends, FastAPI, Header, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from psycopg_pool import PoolTimeout

from rag_serving.answer.generators import GeneratorError
from rag_serving.answer.responses import Response
from rag_serving.api.admission import Admission
from rag_serving.api.errors import ServerErrors
from rag_serving.api.schemas import HitOut, QueryRequest, RetrieveRequest, RetrieveResponse
from rag_serving.models.embedders import Embedder
from rag_serving.search.legs import IndexModelMismatch
from rag_serving.settings import Settings, load_settings
from rag_serving.store.apikeys import tenant_for_key
from rag_serving.store.sessions import Database, Tenant
from rag_serving.store.sqlfiles import sql_text
from rag_serving.wiring import from_settings

HEALTH_TIMEOUT_S = 3.0  # well inside an orchestrator's usual probe timeout


class Latencies:
    """The last 1,000 request latencies and a request count, shared by request threads."""

    def __init__(self, size: int = 1000):
        self._values: deque[float] = deque(maxlen=size)
        self._served = 0
        self._lock = threading.Lock()

    def add(self, ms: float) -> None:
        with self._lock:
            self._values.append(ms)
            self._served += 1

    def snapshot(self) -> tuple[list[float], int]:
        with self._lock:
            return sorted(self._values), self._served


def _printable(part: object) -> object:
    return part if isinstance(part, int) else str(part).encode("utf-8", "backslashreplace").decode("utf-8")


def readable(error: dict) -> dict:
    """A validation error as JSON can always carry it: the field's location and the message, not the input."""
    return {"loc": [_printable(p) for p in error["loc"]], "msg": _printable(error["msg"]), "type": error["type"]}


def create_app(settings: Settings | None = None, *, database: Database | None = None,
               embedder: Embedder | None = None) -> FastAPI:
    """The app for the pipeline the settings describe. Everything is built here, before the server accepts a
    connection, so start-up either finishes or fails with the cause; nothing loads lazily under the first requests."""
    settings = settings or load_settings()
    owned = database is None  # a database handed in (tests) is closed by whoever opened it
    pipeline = from_settings(settings, database=database, embedder=embedder)
    latencies = Latencies()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        if owned:
            pipeline.database.close()

    app = FastAPI(
        title="RAG retrieval",
        version="0.1.0",
        description="Tenant-scoped hybrid retrieval over an organization's documents, with page citations.",
        lifespan=lifespan,
    )
    # One per core by default: at 200 clients on 2 cores, 8 in flight served p95 10.9 s and 2 served 4.0 s at the same
    # throughput (benchmarks/results/2026-12-03-load*.md); more threads only share the GIL and the cores.
    app.add_middleware(Admission, limit=settings.max_in_flight or os.cpu_count() or 2)
    app.add_middleware(ServerErrors)  # added last, so outermost: it also catches what fails in Admission

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's own 422 echoes the input back, and an input JSON cannot encode (NaN, a lone surrogate) turned
        # the client's mistake into a 500. Where and what, never the value.
        return JSONResponse(status_code=422, content={"detail": [readable(e) for e in exc.errors()]})

    @app.exception_handler(psycopg.OperationalError)
    @app.exception_handler(PoolTimeout)
    async def database_down(request: Request, exc: Exception) -> JSONResponse:
        # The database is down or restarting: the client's request was fine, so a 503 it may retry, not a 500.
        # Retry after the pool's own wait for a connection; a restart of the embedded server takes about as long.
        return JSONResponse(status_code=503, headers={"Retry-After": str(round(pipeline.database.pool.timeout))},
                            content={"detail": f"database unavailable ({type(exc).__name__}); retry shortly"})

    def tenant(authorization: Annotated[str | None, Header()] = None, x_api_key: Annotated[str | None, Header()] = None) -> Tenant:
        key = x_api_key or (authorization[7:].strip() if authorization and authorization.lower().startswith("bearer ") else None)
        if not key:
            raise HTTPException(401, "missing API key: send `Authorization: Bearer <key>` or `X-API-Key`")
        with pipeline.database.anonymous() as conn:
            found = tenant_for_key(conn, key)
        if found is None:
            raise HTTPException(401, "unknown or revoked API key")
        return found

    @app.post("/retrieve", response_model=RetrieveResponse)
    async def retrieve(body: RetrieveRequest, who: Annotated[Tenant, Depends(tenant)]) -> RetrieveResponse:
        if len(body.question) > settings.max_question_chars:
            raise HTTPException(422, f"question is {len(body.question)} characters; the limit is {settings.max_question_chars}")
        started = time.perf_counter()
        try:
            hits = await run_in_threadpool(pipeline.search, who, body.question, k=body.k, filters=body.filters,
                                           rerank=body.rerank, mode=body.mode, sparse=body.sparse)
        except IndexModelMismatch as exc:
            raise HTTPException(409, str(exc)) from exc
        took = (time.perf_counter() - started) * 1000
        latencies.add(took)
        return RetrieveResponse(
            hits=[HitOut(**{**h.__dict__, "text": h.body, "pages": h.pages, "link": h.link}) for h in hits],
            mode=body.mode or pipeline.spec.mode, k=body.k, model=pipeline.embedder.model,
            pipeline=pipeline.spec.digest, took_ms=round(took, 2),
        )

    @app.post("/query", response_model=Response)
    async def query(body: QueryRequest, who: Annotated[Tenant, Depends(tenant)]) -> Response:
        """An answer whose every sentence carries its sources, or an abstention, a clarifying question or web results."""
        total = len(body.question) + sum(len(h) for h in body.history)
        if total > settings.max_question_chars:
            raise HTTPException(422, f"question and history are {total} characters; the limit is {settings.max_question_chars}")
        try:
            response = await run_in_threadpool(pipeline.ask, who, body.question, history=body.history)
        except IndexModelMismatch as exc:
            raise HTTPException(409, str(exc)) from exc
        except GeneratorError as exc:
            raise HTTPException(502, str(exc)) from exc
        latencies.add(response.took_ms)
        return response

    @app.get("/healthz")
    async def healthz() -> dict:
        # Its own short-lived connection on the event loop: neither the request threads nor the pool's connections,
        # which a saturated server has all in use, so the answer reflects the database, not the queue.
        try:
            async with asyncio.timeout(HEALTH_TIMEOUT_S):
                async with await psycopg.AsyncConnection.connect(pipeline.database.url, autocommit=True) as conn:
                    await conn.execute("SELECT 1")
        except (TimeoutError, psycopg.Error) as exc:
            raise HTTPException(503, f"database unavailable: {type(exc).__name__}") from exc
        return {"status": "ok"}

    @app.get("/stats")
    def stats(who: Annotated[Tenant, Depends(tenant)]) -> dict:
        with pipeline.database.session(who) as session:
            row = session.execute(sql_text("tenant_stats")).fetchone()
        lat, served = latencies.snapshot()
        return {
            "organization_id": who.organization_id,
            "rooftop_ids": list(who.rooftop_ids),
            "documents": row["documents"], "pages": row["pages"], "chunks": row["chunks"],
            "index_models": row["models"] or [],
            "query_model": pipeline.embedder.model,
            "pipeline": pipeline.spec.digest,
            "requests_served": served,
            "latency_ms_p50": round(statistics.median(lat), 2) if lat else None,
            "latency_ms_p95": round(lat[int(0.95 * (len(lat) - 1))], 2) if lat else None,
        }

    return app
