"""Tenant-scoped search legs: dense (pgvector HNSW), sparse (BM25 or ts_rank_cd) and hybrid (RRF in one statement)."""

from __future__ import annotations

import numpy as np
from opentelemetry import trace
from psycopg import sql

from rag_serving.models.embedders import Embedder
from rag_serving.search import bm25
from rag_serving.search.fusion import RRF_K
from rag_serving.search.hits import Filters, Hit
from rag_serving.search.query import Query
from rag_serving.spec import DEFAULT_SPEC, Mode, Sparse
from rag_serving.store.sessions import Session
from rag_serving.store.sqlfiles import composed, sql_text

# pgvector accepts 1..1000. At 100k near-duplicate chunks recall@50 against exact search was 0.845 at 50, 0.937 at
# 100 and 0.968 at 200, for 5.4 and 6.1 ms at p50 (benchmarks.latency, docs/decisions.md).
tracer = trace.get_tracer("rag_serving")  # a proxy: spans go wherever the process's provider sends them
EF_SEARCH_MIN = 200
EF_SEARCH_MAX = 1000


class IndexModelMismatch(RuntimeError):
    pass


def _leg(name: str, dim: int | None = None) -> sql.Composed:
    parts = {"filters": sql.SQL(sql_text("filters"))}
    if dim is not None:
        parts["dim"] = sql.Literal(dim)
    return composed(name, **parts)


class Retriever:
    """The legs of one pipeline spec: its embedder, BM25 k1 and b, and candidates per leg before fusion."""

    def __init__(self, embedder: Embedder, *, k1: float = DEFAULT_SPEC.bm25_k1, b: float = DEFAULT_SPEC.bm25_b,
                 candidates: int = DEFAULT_SPEC.candidates, ef_search: int = 0, ann: bool = DEFAULT_SPEC.bm25_ann):
        self.embedder = embedder
        self.k1, self.b, self.candidates, self.ann = k1, b, candidates, ann
        self.ef_search = ef_search  # 0: twice the LIMIT, at least EF_SEARCH_MIN

    def check_index_model(self, session: Session) -> None:
        others = [r["embedding_model"] for r in
                  session.execute(sql_text("other_live_models"), {"model": self.embedder.model}).fetchall()]
        if others:
            raise IndexModelMismatch(
                f"the index was built with {', '.join(others)} but queries embed with {self.embedder.model}; "
                "set RAG_EMBEDDER to the index's model or re-ingest with the new one"
            )

    def search(self, session: Session, query: Query, *, k: int = 10, mode: Mode = "hybrid", sparse: Sparse = "bm25",
               filters: Filters | None = None, exact: bool = False) -> list[Hit]:
        """Top-k chunks for the query. exact=True scans every vector instead of the HNSW index (for measuring recall)."""
        filters = filters or Filters()
        limit = max(k, self.candidates) if mode == "hybrid" else k
        params = {**filters.params(), "question": query.text, "model": self.embedder.model, "k1": self.k1,
                  "b": self.b, "limit": limit, "k": k, "rrf_k": RRF_K}
        sparse_leg = _leg("tsrank")
        if mode != "dense" and sparse == "bm25":
            with tracer.start_as_current_span("rag.retrieve.bm25"):
                sparse_rows = bm25.top(session, query, filters, k1=self.k1, b=self.b, limit=limit,
                                       ann=self.ann).rows
            sparse_leg = sql.SQL(sql_text("sparse_rows"))
            params["sparse_ids"] = [r["id"] for r in sparse_rows]
            params["sparse_scores"] = [r["score"] for r in sparse_rows]
            params["sparse_ranks"] = [r["rank"] for r in sparse_rows]
        if mode in ("dense", "hybrid"):
            self.check_index_model(session)
            with tracer.start_as_current_span("rag.embed"):
                params["qvec"] = np.asarray(query.vector, dtype=np.float32)
            # ef_search bounds how many candidates HNSW keeps; it must cover the LIMIT.
            ef = max(self.ef_search or max(EF_SEARCH_MIN, 2 * limit), limit)
            session.set_local({"hnsw.ef_search": str(min(ef, EF_SEARCH_MAX)), "hnsw.iterative_scan": "relaxed_order",
                               **({"enable_indexscan": "off"} if exact else {})})
        if mode == "dense":
            statement = _leg("dense", self.embedder.dim)
        elif mode == "sparse":
            statement = sparse_leg
        else:
            statement = composed("hybrid", dense=_leg("dense", self.embedder.dim), sparse=sparse_leg)
        if mode == "sparse" and sparse == "bm25":
            ranked = sparse_rows
        else:
            # One statement: the dense leg and, for hybrid, its fusion with the sparse rows (RRF in SQL).
            with tracer.start_as_current_span(f"rag.retrieve.{mode}"):
                ranked = session.execute(statement, params).fetchall()
        if exact:  # later statements of this request's session use the index again
            session.execute("SET LOCAL enable_indexscan = on")
        return hydrate(session, ranked, mode)[:k]


def hydrate(session: Session, ranked: list[dict], mode: Mode) -> list[Hit]:
    """Hits for ranked rows of a leg: what a caller needs to show and cite each chunk."""
    rows = {r["id"]: r for r in session.execute(sql_text("hydrate"), {"ids": [r["id"] for r in ranked]}).fetchall()}
    hits = []
    for r in ranked:
        row = rows[r["id"]]
        if mode == "hybrid":
            extra = {key: r[key] for key in ("dense_rank", "sparse_rank", "dense_score", "sparse_score")}
        elif mode == "dense":
            extra = {"dense_rank": r["rank"], "dense_score": r["score"]}
        else:
            extra = {"sparse_rank": r["rank"], "sparse_score": r["score"]}
        hits.append(Hit(
            chunk_id=row["id"], document_id=row["document_id"], title=row["title"], source_path=row["source_path"],
            kind=row["kind"], published_on=row["published_on"], page_start=row["page_start"], page_end=row["page_end"],
            page_label_start=row["page_label_start"], page_label_end=row["page_label_end"],
            heading_path=row["heading_path"], body=row["body"], score=float(r["score"]), section_id=row["section_id"],
            ordinal=row["ordinal"], **extra))
    return hits
