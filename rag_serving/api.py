"""The thin HTTP query endpoint: POST /query, POST /retrieve, GET /healthz, GET /stats; the tenant comes from the API key."""


import datetime as dt
import statistics
import time
from collections import deque
from contextlib import asynccontextmanager
from typing import Annotated

from fastapi import Depends, FastAPI, Header, HTTPException
from fastapi.concurrency import run_in_threadpool
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from .answering import Answerer, answerer_from_settings
from .answers import Response
from .apikeys import tenant_for_key
from .config import Settings, load_settings
from .database import Database, Tenant
from .embedders import Embedder
from .generators import GeneratorError
from .retrieval import Filters, IndexModelMismatch, Mode, Retriever, Sparse

STATS_SQL = """
SELECT (SELECT count(*) FROM documents WHERE status = 'live') AS documents,
       (SELECT count(*) FROM pages p JOIN documents d ON d.id = p.document_id WHERE d.status = 'live') AS pages,
       (SELECT count(*) FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.status = 'live') AS chunks,
       (SELECT array_agg(DISTINCT embedding_model) FROM documents WHERE status = 'live') AS models"""


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("question is empty")
    return value.strip()


Question = Annotated[str, AfterValidator(_not_blank), Field(description="the user's question")]


class RetrieveRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: Question
    k: int = Field(default=10, ge=1, le=100)
    mode: Mode = "hybrid"
    sparse: Sparse = Field(default="bm25", description="sparse leg: Okapi BM25 or PostgreSQL ts_rank_cd")
    filters: Filters | None = None
    rerank: bool = Field(default=True, description="hybrid mode: run the configured pipeline (expansion, reranker); "
                                                   "false returns the fused legs as they are")


class QueryRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: Question
    history: list[str] = Field(default=[], max_length=20, description="earlier user turns, oldest first")


class HitOut(BaseModel):
    chunk_id: str
    document_id: str
    title: str
    source_path: str
    kind: str | None
    published_on: dt.date | None
    pages: str = Field(description='printed page labels for citing, e.g. "p. 12" or "pp. 12–13"')
    page_start: int = Field(description="physical 1-based page")
    page_end: int
    page_label_start: str
    page_label_end: str
    link: str = Field(description="source file with #page=N of the physical page")
    heading_path: str | None
    text: str
    score: float
    dense_rank: int | None
    sparse_rank: int | None
    dense_score: float | None
    sparse_score: float | None
    rerank_score: float | None = Field(default=None, description="the reranker's probability of relevance, if one ran")


class RetrieveResponse(BaseModel):
    hits: list[HitOut]
    mode: Mode
    k: int
    model: str
    took_ms: float


def create_app(
    settings: Settings | None = None,
    *,
    database: Database | None = None,
    embedder: Embedder | None = None,
    server_url: str | None = None,
    answerer: Answerer | None = None,
) -> FastAPI:
    settings = settings or load_settings()
    state: dict = {"latencies": deque(maxlen=1000), "requests": 0}

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        from . import db
        from .database import app_url
        from .embedders import get_embedder

        own_db = database is None
        state["db"] = database or Database(app_url(settings, server_url or db.bootstrap(settings)))
        model = embedder or get_embedder(settings.embedder, tei_url=settings.tei_url, threads=settings.embed_threads)
        state["retriever"] = Retriever(state["db"], model, k1=settings.bm25_k1, b=settings.bm25_b, candidates=settings.candidates)
        state["answerer"] = answerer or answerer_from_settings(settings, state["retriever"])
        yield
        if own_db:
            state["db"].close()

    app = FastAPI(
        title="RAG retrieval",
        version="0.1.0",
        description="Tenant-scoped hybrid retrieval over an organization's documents, with page citations.",
        lifespan=lifespan,
    )

    def tenant(authorization: Annotated[str | None, Header()] = None, x_api_key: Annotated[str | None, Header()] = None) -> Tenant:
        key = x_api_key or (authorization[7:].strip() if authorization and authorization.lower().startswith("bearer ") else None)
        if not key:
            raise HTTPException(401, "missing API key: send `Authorization: Bearer <key>` or `X-API-Key`")
        with state["db"].anonymous() as conn:
            found = tenant_for_key(conn, key)
        if found is None:
            raise HTTPException(401, "unknown or revoked API key")
        return found

    @app.post("/retrieve", response_model=RetrieveResponse)
    async def retrieve(body: RetrieveRequest, who: Annotated[Tenant, Depends(tenant)]) -> RetrieveResponse:
        if len(body.question) > settings.max_question_chars:
            raise HTTPException(422, f"question is {len(body.question)} characters; the limit is {settings.max_question_chars}")
        started = time.perf_counter()
        retriever: Retriever = state["retriever"]
        searcher = state["answerer"].searcher
        pipeline = body.rerank and body.mode == "hybrid" and body.sparse == searcher.plan.sparse
        try:
            if pipeline:
                hits = await run_in_threadpool(searcher.search, who, body.question, k=body.k, filters=body.filters)
            else:
                hits = await run_in_threadpool(retriever.search, who, body.question, k=body.k, mode=body.mode,
                                               sparse=body.sparse, filters=body.filters)
        except IndexModelMismatch as exc:
            raise HTTPException(409, str(exc)) from exc
        took = (time.perf_counter() - started) * 1000
        state["latencies"].append(took)
        state["requests"] += 1
        return RetrieveResponse(
            hits=[HitOut(**{**h.__dict__, "text": h.body, "pages": h.pages, "link": h.link}) for h in hits],
            mode=body.mode, k=body.k, model=retriever.embedder.model, took_ms=round(took, 2),
        )

    @app.post("/query", response_model=Response)
    async def query(body: QueryRequest, who: Annotated[Tenant, Depends(tenant)]) -> Response:
        """An answer whose every sentence carries its sources, or an abstention, a clarifying question or web results."""
        total = len(body.question) + sum(len(h) for h in body.history)
        if total > settings.max_question_chars:
            raise HTTPException(422, f"question and history are {total} characters; the limit is {settings.max_question_chars}")
        try:
            response = await run_in_threadpool(state["answerer"].ask, who, body.question, history=body.history)
        except IndexModelMismatch as exc:
            raise HTTPException(409, str(exc)) from exc
        except GeneratorError as exc:
            raise HTTPException(502, str(exc)) from exc
        state["latencies"].append(response.took_ms)
        state["requests"] += 1
        return response

    @app.get("/healthz")
    def healthz() -> dict:
        try:
            with state["db"].anonymous() as conn:
                conn.execute("SELECT 1")
        except Exception as exc:  # noqa: BLE001 - any failure means not healthy
            raise HTTPException(503, f"database unavailable: {type(exc).__name__}") from exc
        return {"status": "ok"}

    @app.get("/stats")
    def stats(who: Annotated[Tenant, Depends(tenant)]) -> dict:
        with state["db"].tenant(who) as conn:
            row = conn.execute(STATS_SQL).fetchone()
        lat = sorted(state["latencies"])
        return {
            "organization_id": who.organization_id,
            "rooftop_ids": list(who.rooftop_ids),
            "documents": row["documents"], "pages": row["pages"], "chunks": row["chunks"],
            "index_models": row["models"] or [],
            "query_model": state["retriever"].embedder.model,
            "requests_served": state["requests"],
            "latency_ms_p50": round(statistics.median(lat), 2) if lat else None,
            "latency_ms_p95": round(lat[int(0.95 * (len(lat) - 1))], 2) if lat else None,
        }

    return app
