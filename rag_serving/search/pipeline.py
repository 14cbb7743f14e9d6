"""The query-time search pipeline: hybrid candidates (per query variant, fused), a reranker, optional MMR, then top k."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from opentelemetry import trace

from rag_serving.search.contents import contents_last
from rag_serving.search.editions import current_first, named
from rag_serving.search.expansion import Expander
from rag_serving.search.fusion import rrf
from rag_serving.search.hits import Filters, Hit
from rag_serving.search.legs import Retriever
from rag_serving.search.mmr import mmr
from rag_serving.search.query import Query
from rag_serving.search.rerankers import CandidateScorer
from rag_serving.spec import Mode, Sparse
from rag_serving.store.sessions import Session
from rag_serving.store.sqlfiles import sql_text

MAX_VARIANTS = 3
tracer = trace.get_tracer("rag_serving")


@dataclass(frozen=True)
class SearchPlan:
    mode: Mode = "hybrid"
    sparse: Sparse = "bm25"
    depth: int = 50  # candidates the reranker orders
    reranker: CandidateScorer | None = None
    expanders: tuple[Expander, ...] = ()  # extra query variants, fused with the question's results by RRF
    mmr_lambda: float | None = None  # None: no maximal marginal relevance (off unless it measures a gain)
    editions: bool = False  # superseded editions just below their newer edition unless the question names their year
    contents_last: bool = False  # contents pages below every other hit


class Searcher:
    def __init__(self, retriever: Retriever, plan: SearchPlan | None = None):
        self.retriever = retriever
        self.plan = plan or SearchPlan()

    @property
    def embedder(self):
        return self.retriever.embedder

    def query(self, text: str) -> Query:
        return Query(text, self.retriever.embedder)

    def candidates(self, session: Session, queries: Sequence[Query], *, k: int, filters: Filters | None) -> list[Hit]:
        """Hits for each query variant (at most MAX_VARIANTS), fused with RRF when there are several."""
        plan = self.plan
        unique = list({q.text: q for q in queries}.values())[:MAX_VARIANTS]
        lists = [self.retriever.search(session, q, k=k, mode=plan.mode, sparse=plan.sparse, filters=filters)
                 for q in unique]
        if len(lists) == 1:
            return lists[0]
        by_id = {}
        for hits in lists:
            for h in hits:
                by_id.setdefault(h.chunk_id, h)
        with tracer.start_as_current_span("rag.fuse"):
            fused = rrf([[h.chunk_id for h in hits] for hits in lists])
        return [dataclasses.replace(by_id[cid], score=score) for cid, score in fused[:k]]

    def expansions(self, question: str) -> list[str]:
        out: list[str] = []
        for expander in self.plan.expanders:
            if len(out) >= MAX_VARIANTS - 1:
                break
            out += expander.variants(question)
        return out[: MAX_VARIANTS - 1]

    def search(self, session: Session, query: Query, *, k: int = 10, filters: Filters | None = None,
               variants: Sequence[str] = ()) -> list[Hit]:
        """Top k hits for the query; variants (rewrites, expansions) join the candidate search, the reranker
        always scores against the query itself."""
        plan = self.plan
        depth = max(k, plan.depth) if plan.reranker or plan.mmr_lambda is not None else k
        others = [self.query(v) for v in [*variants, *self.expansions(query.text)]]
        hits = self.candidates(session, [query, *others], k=depth, filters=filters)
        if plan.reranker and hits:
            with tracer.start_as_current_span("rag.rerank") as span:
                span.set_attribute("rag.candidates", len(hits))
                scores = plan.reranker.score(session, query, hits)
            # Stable sort: equal scores keep the fused order.
            order = sorted(range(len(hits)), key=lambda i: -scores[i])
            hits = [dataclasses.replace(hits[i], rerank_score=float(scores[i])) for i in order]
        if plan.mmr_lambda is not None and hits:
            with tracer.start_as_current_span("rag.mmr"):
                hits = diversify(session, hits, k, plan.mmr_lambda)
        if plan.contents_last:
            hits = contents_last(hits)
        if plan.editions:
            hits = current_first(hits, named(query.text))
        return hits[:k]


def diversify(session: Session, hits: list[Hit], k: int, lam: float) -> list[Hit]:
    """MMR over the candidates' stored vectors, relevance from the reranker when there is one."""
    rows = {r["id"]: r["embedding"] for r in session.execute(sql_text("chunk_vectors"),
                                                           {"ids": [h.chunk_id for h in hits]}).fetchall()}
    vectors = np.vstack([np.asarray(rows[h.chunk_id].to_numpy() if hasattr(rows[h.chunk_id], "to_numpy")
                                    else rows[h.chunk_id], dtype=np.float32) for h in hits])
    relevance = [h.rerank_score if h.rerank_score is not None else h.score for h in hits]
    return [hits[i] for i in mmr(relevance, vectors, k, lam)]
