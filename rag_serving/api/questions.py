"""POST /retrieve and POST /query (JSON, or Server-Sent Events as the answer takes shape)."""

# No `from __future__ import annotations`: FastAPI resolves the dependency annotations at definition time.

import asyncio
import contextvars
import time
from collections.abc import AsyncIterator

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.sse import EventSourceResponse, ServerSentEvent
from opentelemetry import trace

from rag_serving.answer.generators import GeneratorError
from rag_serving.answer.responses import Response, Source
from rag_serving.api.auth import caller
from rag_serving.api.errors import documented
from rag_serving.api.links import Caller, page_urls
from rag_serving.api.requestids import current_request_id
from rag_serving.api.schemas import (
    AnswerOut,
    Evidence,
    HitOut,
    QueryRequest,
    QueryResponse,
    RetrieveRequest,
    RetrieveResponse,
    SentenceOut,
    SourceOut,
)
from rag_serving.api.state import State, public_base, state
from rag_serving.api.telemetry import start_request
from rag_serving.search.legs import IndexModelMismatch

tracer = trace.get_tracer("rag_serving")
router = APIRouter(tags=["questions"])


def _check_length(app: State, body: QueryRequest) -> None:
    total = len(body.question) + sum(len(h) for h in body.history)
    if total > app.settings.max_question_chars:
        raise HTTPException(422, f"question and history are {total} characters; the limit is "
                                 f"{app.settings.max_question_chars}")


def source_out(src: Source, who: Caller, base: str, ttl_s: int) -> SourceOut:
    urls = page_urls(base, who, src.document_id, src.page_start, src.quote, ttl_s) if src.page_start else \
        {"link": "", "pdf": ""}
    return SourceOut(chunk_id=src.chunk_id, document_id=src.document_id, title=src.title, pages=src.pages,
                     page=src.page_start, page_end=src.page_end, quote=src.quote, file=src.link, **urls)


def response_out(r: Response, who: Caller, base: str, ttl_s: int, timings: dict[str, float]) -> QueryResponse:
    """The wire form of a response: the answer as text and sentences, sources with links that open their page."""
    def out(src: Source) -> SourceOut:
        return source_out(src, who, base, ttl_s)

    answer = None
    if r.answer is not None:
        answer = AnswerOut(text=r.text, sentences=[SentenceOut(text=s.text, sources=[out(x) for x in s.sources])
                                                   for s in r.answer])
    return QueryResponse(
        question=r.question, route=r.route, confidence=r.confidence, answer=answer, message=r.message,
        clarifying_question=r.clarifying_question, grounding=r.grounding, sources=[out(s) for s in r.sources],
        web_results=r.web_results, evidence=Evidence.model_validate(r.evidence) if r.evidence else None,
        generator=r.generator, model=r.model, pipeline=r.pipeline, took_ms=r.took_ms, timings_ms=dict(timings),
        request_id=current_request_id())


def _ask(app: State, who: Caller, body: QueryRequest, progress=None) -> Response:
    # Inside FastAPI's own server span ("POST /query"); this one carries what the answer step decided.
    with tracer.start_as_current_span("rag.answer") as span:
        span.set_attributes({"rag.tenant.organization": who.tenant.organization_id,
                             "rag.tenant.rooftops": list(who.tenant.rooftop_ids),
                             "rag.request_id": current_request_id() or ""})
        try:
            response = app.pipeline.ask(who.tenant, body.question, history=body.history, progress=progress)
        except IndexModelMismatch as exc:
            raise HTTPException(409, str(exc)) from exc
        except GeneratorError as exc:
            raise HTTPException(502, str(exc)) from exc
        span.set_attributes({"rag.route": response.route, "rag.confidence": response.confidence,
                             "rag.chunk_ids": [s.chunk_id for s in response.sources],
                             **({"rag.grounding.passed": response.grounding.passed} if response.grounding else {})})
    app.latencies.add(response.took_ms)
    app.metrics.response(response.route, response.grounding.passed if response.grounding else None,
                         response.grounding.failed_check if response.grounding else None)
    return response


@router.post("/retrieve", response_model=RetrieveResponse, responses=documented(401, 409, 422, 503),
             summary="Ranked passages for a question, with their pages (no answer)")
async def retrieve(body: RetrieveRequest, app: State = Depends(state), who: Caller = Depends(caller)) -> RetrieveResponse:
    if len(body.question) > app.settings.max_question_chars:
        raise HTTPException(422, f"question is {len(body.question)} characters; the limit is "
                                 f"{app.settings.max_question_chars}")
    started = time.perf_counter()
    start_request(app.metrics)
    try:
        hits = await run_in_threadpool(app.pipeline.search, who.tenant, body.question, k=body.k, filters=body.filters,
                                       rerank=body.rerank, mode=body.mode, sparse=body.sparse)
    except IndexModelMismatch as exc:
        raise HTTPException(409, str(exc)) from exc
    took = (time.perf_counter() - started) * 1000
    app.latencies.add(took)
    return RetrieveResponse(
        hits=[HitOut(**{**h.__dict__, "text": h.body, "pages": h.pages, "link": h.link}) for h in hits],
        mode=body.mode or app.pipeline.spec.mode, k=body.k, model=app.pipeline.embedder.model,
        pipeline=app.pipeline.spec.digest, took_ms=round(took, 2),
    )


@router.post("/query", response_model=QueryResponse, responses=documented(401, 409, 422, 502, 503),
             summary="A cited answer, or an abstention with the closest sources")
async def query(request: Request, body: QueryRequest, app: State = Depends(state),
                who: Caller = Depends(caller)) -> QueryResponse:
    """Every sentence of an answer carries its sources; `answer` is absent unless all of them passed the grounding
    check. POST /query/stream gives the same response as Server-Sent Events."""
    _check_length(app, body)
    timings = start_request(app.metrics)
    response = await run_in_threadpool(_ask, app, who, body)
    return response_out(response, who, public_base(request), app.settings.link_ttl_s, timings)


@router.post("/query/stream", response_class=EventSourceResponse, responses=documented(401, 409, 422, 502, 503),
             summary="The answer as Server-Sent Events: route, then each verified sentence, then the whole response")
async def query_stream(request: Request, body: QueryRequest, app: State = Depends(state),
                       who: Caller = Depends(caller)) -> AsyncIterator[ServerSentEvent]:
    """Events: `route` as soon as the answer step decides to answer (before generating), `sentence` for each sentence
    of a verified answer, then `done` with the full QueryResponse (sources, timings). An error after the stream has
    started is an `error` event with the problem body."""
    _check_length(app, body)
    timings = start_request(app.metrics)
    loop, events = asyncio.get_running_loop(), asyncio.Queue()

    def progress(event: str, data: dict) -> None:
        loop.call_soon_threadsafe(events.put_nowait, (event, data))

    context = contextvars.copy_context()
    work = loop.run_in_executor(None, context.run, _ask, app, who, body, progress)
    sent_route = False
    while not work.done() or not events.empty():
        getter = asyncio.ensure_future(events.get())
        await asyncio.wait({getter, work}, return_when=asyncio.FIRST_COMPLETED)
        if getter.done():
            event, data = getter.result()
            sent_route = sent_route or event == "route"
            yield ServerSentEvent(event=event, data=data)
        else:
            getter.cancel()
    try:
        response = work.result()
    except HTTPException as exc:
        yield ServerSentEvent(event="error", data={"status": exc.status_code, "detail": str(exc.detail),
                                                   "request_id": current_request_id()})
        return
    out = response_out(response, who, public_base(request), app.settings.link_ttl_s, timings)
    if not sent_route or out.route != "answer":
        yield ServerSentEvent(event="route", data={"route": out.route, "confidence": out.confidence})
    for sentence in out.answer.sentences if out.answer else []:
        yield ServerSentEvent(event="sentence", data=sentence)
    yield ServerSentEvent(event="done", data=out)
