"""Request and response bodies of the HTTP endpoint."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from rag_serving.answer.responses import Grounding, Route, WebResult
from rag_serving.search.hits import Filters, plain_text
from rag_serving.spec import Mode, Sparse


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("question is empty")
    return value.strip()


Text = Annotated[str, AfterValidator(plain_text)]
Question = Annotated[str, AfterValidator(plain_text), AfterValidator(_not_blank), Field(description="the user's question")]


class RetrieveRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: Question
    k: int = Field(default=10, ge=1, le=100)
    mode: Mode | None = Field(default=None, description="retrieval legs; default: the served pipeline's")
    sparse: Sparse | None = Field(default=None, description="sparse leg: Okapi BM25 or PostgreSQL ts_rank_cd; "
                                                            "default: the served pipeline's")
    filters: Filters | None = None
    rerank: bool = Field(default=True, description="run the served pipeline (expansion, reranker); false returns the "
                                                   "fused legs as they are")


class QueryRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: Question
    history: list[Text] = Field(default=[], max_length=20, description="earlier user turns, oldest first")


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
    pipeline: str = Field(description="digest of the served pipeline spec")
    took_ms: float


class Health(BaseModel):
    status: Literal["ok"]


class Stats(BaseModel):
    organization_id: str
    rooftop_ids: list[str]
    documents: int
    pages: int
    chunks: int
    index_models: list[str] = Field(description="embedding models the tenant's live chunks are indexed with")
    query_model: str
    pipeline: str = Field(description="digest of the served pipeline spec")
    requests_served: int = Field(description="by this server process, every tenant")
    latency_ms_p50: float | None = Field(description="over this process's last 1,000 requests")
    latency_ms_p95: float | None


class SourceOut(BaseModel):
    chunk_id: str
    document_id: str
    title: str
    pages: str = Field(description='printed page labels of the pages holding the quote, "p. 12" or "pp. 12–13"')
    page: int = Field(description="physical 1-based page holding the quote (its first, across a page break)")
    page_end: int
    quote: str = Field(description="the cited passage, verbatim from the page text (whitespace normalized)")
    link: str = Field(description="opens the cited page with the quote highlighted; signed, no API key needed")
    pdf: str = Field(description="the cited page as a one-page PDF; signed like link")
    file: str = Field(description="the source file as ingested, with #page=N for viewers that honour it")


class SentenceOut(BaseModel):
    text: str
    sources: list[SourceOut] = []


class AnswerOut(BaseModel):
    text: str = Field(description="the whole answer as one string")
    sentences: list[SentenceOut] = Field(description="the same text sentence by sentence, each with its sources")


class Sides(BaseModel):
    scores: dict[str, float] = Field(description="confidence per compared edition or document")
    lacking: list[str] = Field(description="sides the documents say nothing about")


class Evidence(BaseModel):
    """Why the route was chosen (docs/search-pipeline.md, routing)."""

    model_config = ConfigDict(extra="allow")

    confidence: float = Field(description="the confidence routing used: learned probability or the formula's")
    formula: float | None = Field(default=None, description="the hand-set evidence score")
    coverage: float = Field(description="share of the question's terms the best passage holds")
    kind: str | None = Field(description="kind of answer the question asks for (number, date, person, ...)")
    kind_present: bool
    missing_terms: list[str] = Field(description="the question's strict terms (codes, numbers, names) no passage has")
    best_cosine: float
    passage_rank: int | None
    passages_over_half: int
    reason: str | None = Field(default=None, description="why this route")
    sides: Sides | None = None
    rewrite: dict | None = Field(default=None, description="the standalone question a follow-up was rewritten into")
    web_withheld: str | None = Field(default=None, description="why the web fallback was not asked")


class QueryResponse(BaseModel):
    question: str
    route: Route = Field(description="answer, abstain (the documents don't say), clarify, or web")
    confidence: float = Field(description="probability the documents answer, in [0, 1]")
    answer: AnswerOut | None = Field(default=None, description="only when every sentence passed the grounding check")
    message: str = Field(description="what to tell the user besides the answer (an abstention's reason, a gap)")
    clarifying_question: str | None = None
    grounding: Grounding | None = None
    sources: list[SourceOut] = Field(description="an answer's cited sources with their quotes; else the closest "
                                                 "passages (never shown as an answer)")
    web_results: list[WebResult] = Field(default=[], description="web results, never mixed into document sources")
    evidence: Evidence | None = None
    generator: str | None = None
    model: str | None = None
    pipeline: str | None = Field(default=None, description="digest of the pipeline spec that produced this response")
    took_ms: float
    timings_ms: dict[str, float] = Field(default={}, description="time per pipeline stage (one span each)")
    request_id: str | None = None


class PageOut(BaseModel):
    document_id: str
    title: str
    source_path: str
    page: int = Field(description="physical 1-based page")
    label: str = Field(description="printed page label")
    page_count: int | None
    text: str = Field(description="the page's text as ingested")
    quote_found: bool | None = Field(default=None, description="whether the quote asked for is on this page")
    highlights: list[list[float]] = Field(default=[], description="the quote's boxes on the page image as "
                                                                  "[left, top, right, bottom], fractions of its size")
    image: str = Field(description="the page as PNG (same authorization as this request)")
    pdf: str = Field(description="the page as a one-page PDF")
