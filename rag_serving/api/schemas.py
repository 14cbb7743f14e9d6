"""Request and response bodies of the HTTP endpoint."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

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
