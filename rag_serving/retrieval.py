"""Tenant-scoped search: dense (pgvector HNSW), sparse (BM25 or ts_rank_cd) and hybrid (RRF in one SQL statement)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Literal

import numpy as np
import psycopg
from psycopg import sql
from pydantic import BaseModel, ConfigDict, Field, model_validator

from .database import Database, Tenant
from .embedders import Embedder
from .fusion import RRF_K

Mode = Literal["dense", "sparse", "hybrid"]
Sparse = Literal["bm25", "tsrank"]

# pgvector accepts 1..1000; at 100k near-duplicate chunks, ef_search 50 kept recall@50 at 0.845.
EF_SEARCH_MIN = 100
EF_SEARCH_MAX = 1000
LIVE_MODELS = "SELECT DISTINCT embedding_model FROM documents WHERE status = 'live' AND embedding_model IS NOT NULL"


class IndexModelMismatch(RuntimeError):
    pass


class Filters(BaseModel):
    """Restrictions applied inside both legs' WHERE clauses, never after retrieval."""

    model_config = ConfigDict(extra="forbid")

    kinds: list[str] | None = Field(default=None, description="document kinds, e.g. handbook, policy")
    published_from: dt.date | None = None
    published_to: dt.date | None = None
    year: int | None = Field(default=None, ge=1900, le=2200, description="published in this calendar year")
    documents: list[str] | None = Field(default=None, description="document ids or source paths")
    section: str | None = Field(default=None, description="heading path prefix, e.g. '3 Benefits'")

    @model_validator(mode="after")
    def _range(self) -> "Filters":
        if self.published_from and self.published_to and self.published_from > self.published_to:
            raise ValueError("published_from is after published_to")
        return self

    def params(self) -> dict:
        start, end = self.published_from, self.published_to
        if self.year is not None:
            start = max(filter(None, [start, dt.date(self.year, 1, 1)]))
            end = min(filter(None, [end, dt.date(self.year, 12, 31)]))
        return {
            "kinds": self.kinds or None,
            "published_from": start,
            "published_to": end,
            "documents": self.documents or None,
            "section": self.section or None,
        }


@dataclass(frozen=True)
class Hit:
    chunk_id: str
    document_id: str
    title: str
    source_path: str
    kind: str | None
    published_on: dt.date | None
    page_start: int
    page_end: int
    page_label_start: str
    page_label_end: str
    heading_path: str | None
    body: str
    score: float
    dense_rank: int | None = None
    sparse_rank: int | None = None
    dense_score: float | None = None
    sparse_score: float | None = None
    rerank_score: float | None = None  # the reranker's score, when one ordered the hits
    section_id: str | None = None
    ordinal: int | None = None  # the chunk's position in its document

    @property
    def pages(self) -> str:
        """How a citation names the pages: "p. 12" or "pp. 12–13" (printed labels)."""
        if self.page_start == self.page_end:
            return f"p. {self.page_label_start}"
        return f"pp. {self.page_label_start}–{self.page_label_end}"

    @property
    def link(self) -> str:
        """The physical page in the source file, for viewers that honour #page=N."""
        return f"{self.source_path}#page={self.page_start}"


@lru_cache(maxsize=None)
def sql_text(name: str) -> str:
    return (resources.files("rag_serving") / "sql" / f"{name}.sql").read_text(encoding="utf-8")


def _leg(name: str, dim: int | None = None) -> sql.Composable:
    parts = {"filters": sql.SQL(sql_text("filters"))}
    if dim is not None:
        parts["dim"] = sql.Literal(dim)
    return sql.SQL(sql_text(name)).format(**parts)


class Retriever:
    def __init__(self, db: Database, embedder: Embedder, *, k1: float = 1.2, b: float = 0.75, candidates: int = 50,
                 ef_search: int = 0):
        self.db = db
        self.embedder = embedder
        self.k1, self.b, self.candidates = k1, b, candidates
        self.ef_search = ef_search  # 0: twice the LIMIT, at least EF_SEARCH_MIN

    def check_index_model(self, conn: psycopg.Connection) -> None:
        models = [r["embedding_model"] for r in conn.execute(LIVE_MODELS).fetchall()]
        others = [m for m in models if m != self.embedder.model]
        if others:
            raise IndexModelMismatch(
                f"the index was built with {', '.join(others)} but queries embed with {self.embedder.model}; "
                "set RAG_EMBEDDER to the index's model or re-ingest with the new one"
            )

    def search(
        self,
        tenant: Tenant,
        question: str,
        *,
        k: int = 10,
        mode: Mode = "hybrid",
        sparse: Sparse = "bm25",
        filters: Filters | None = None,
        exact: bool = False,
    ) -> list[Hit]:
        """Top-k chunks for the question. exact=True scans every vector instead of the HNSW index (for measuring recall)."""
        filters = filters or Filters()
        limit = max(k, self.candidates) if mode == "hybrid" else k
        params = {
            **filters.params(),
            "question": question,
            "model": self.embedder.model,
            "k1": self.k1,
            "b": self.b,
            "limit": limit,
            "k": k,
            "rrf_k": RRF_K,
        }
        if mode in ("dense", "hybrid"):
            params["qvec"] = np.asarray(self.embedder.embed([question])[0], dtype=np.float32)
        sparse_leg = _leg("bm25" if sparse == "bm25" else "tsrank")
        with self.db.tenant(tenant) as conn:
            if mode in ("dense", "hybrid"):
                self.check_index_model(conn)
                # ef_search bounds how many candidates HNSW keeps; it must cover the LIMIT.
                ef = max(self.ef_search or max(EF_SEARCH_MIN, 2 * limit), limit)
                conn.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(sql.Literal(min(ef, EF_SEARCH_MAX))))
                conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
                if exact:
                    conn.execute("SET LOCAL enable_indexscan = off")
            if mode == "dense":
                query = _leg("dense", self.embedder.dim)
            elif mode == "sparse":
                query = sparse_leg
            else:
                query = sql.SQL(sql_text("hybrid")).format(dense=_leg("dense", self.embedder.dim), sparse=sparse_leg)
            ranked = conn.execute(query, params).fetchall()
            rows = {r["id"]: r for r in conn.execute(sql_text("hydrate"), {"ids": [r["id"] for r in ranked]}).fetchall()}
        hits = []
        for r in ranked:
            row = rows[r["id"]]
            extra = {}
            if mode == "hybrid":
                extra = {key: r[key] for key in ("dense_rank", "sparse_rank", "dense_score", "sparse_score")}
            elif mode == "dense":
                extra = {"dense_rank": r["rank"], "dense_score": r["score"]}
            else:
                extra = {"sparse_rank": r["rank"], "sparse_score": r["score"]}
            hits.append(
                Hit(
                    chunk_id=row["id"], document_id=row["document_id"], title=row["title"], source_path=row["source_path"],
                    kind=row["kind"], published_on=row["published_on"], page_start=row["page_start"], page_end=row["page_end"],
                    page_label_start=row["page_label_start"], page_label_end=row["page_label_end"],
                    heading_path=row["heading_path"], body=row["body"], score=float(r["score"]),
                    section_id=row["section_id"], ordinal=row["ordinal"], **extra,
                )
            )
        return hits[:k]
