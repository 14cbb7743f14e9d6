"""The query-time search pipeline: hybrid candidates (per query variant, fused), a reranker, optional MMR, then top k."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from pgvector.psycopg import register_vector

from .database import Tenant
from .expansion import Expander
from .fusion import rrf
from .mmr import mmr
from .rerankers import CandidateScorer
from .retrieval import Filters, Hit, Mode, Retriever, Sparse, sql_text

MAX_VARIANTS = 3


@dataclass(frozen=True)
class SearchPlan:
    mode: Mode = "hybrid"
    sparse: Sparse = "bm25"
    depth: int = 50  # candidates the reranker orders
    reranker: CandidateScorer | None = None
    expanders: tuple[Expander, ...] = ()  # extra query variants, fused with the question's results by RRF
    mmr_lambda: float | None = None  # None: no maximal marginal relevance (off unless it measures a gain)


class Searcher:
    def __init__(self, retriever: Retriever, plan: SearchPlan | None = None):
        self.retriever = retriever
        self.plan = plan or SearchPlan()

    @property
    def embedder(self):
        return self.retriever.embedder

    def candidates(self, tenant: Tenant, queries: Sequence[str], *, k: int, filters: Filters | None) -> list[Hit]:
        """Hits for each query variant (at most MAX_VARIANTS), fused with RRF when there are several."""
        plan = self.plan
        lists = [self.retriever.search(tenant, q, k=k, mode=plan.mode, sparse=plan.sparse, filters=filters)
                 for q in list(dict.fromkeys(queries))[:MAX_VARIANTS]]
        if len(lists) == 1:
            return lists[0]
        by_id = {}
        for hits in lists:
            for h in hits:
                by_id.setdefault(h.chunk_id, h)
        fused = rrf([[h.chunk_id for h in hits] for hits in lists])
        return [dataclasses.replace(by_id[cid], score=score) for cid, score in fused[:k]]

    def expansions(self, question: str) -> list[str]:
        out: list[str] = []
        for expander in self.plan.expanders:
            if len(out) >= MAX_VARIANTS - 1:
                break
            out += expander.variants(question)
        return out[: MAX_VARIANTS - 1]

    def search(self, tenant: Tenant, question: str, *, k: int = 10, filters: Filters | None = None,
               variants: Sequence[str] = ()) -> list[Hit]:
        """Top k hits for question; variants (rewrites, expansions) join the candidate search, the reranker
        always scores against the question itself."""
        plan = self.plan
        depth = max(k, plan.depth) if plan.reranker or plan.mmr_lambda is not None else k
        variants = [*variants, *self.expansions(question)]
        hits = self.candidates(tenant, [question, *variants], k=depth, filters=filters)
        if plan.reranker and hits:
            with self.retriever.db.tenant(tenant) as conn:
                scores = plan.reranker.score(conn, question, hits)
            # Stable sort: equal scores keep the fused order.
            order = sorted(range(len(hits)), key=lambda i: -scores[i])
            hits = [dataclasses.replace(hits[i], rerank_score=float(scores[i])) for i in order]
        if plan.mmr_lambda is not None and hits:
            hits = self.diversify(tenant, hits, k, plan.mmr_lambda)
        return hits[:k]

    def diversify(self, tenant: Tenant, hits: list[Hit], k: int, lam: float) -> list[Hit]:
        """MMR over the candidates' stored vectors, relevance from the reranker when there is one."""
        with self.retriever.db.tenant(tenant) as conn:
            register_vector(conn)
            rows = {r["id"]: r["embedding"] for r in conn.execute(sql_text("chunk_vectors"),
                                                                 {"ids": [h.chunk_id for h in hits]}).fetchall()}
        vectors = np.vstack([np.asarray(rows[h.chunk_id].to_numpy() if hasattr(rows[h.chunk_id], "to_numpy")
                                        else rows[h.chunk_id], dtype=np.float32) for h in hits])
        relevance = [h.rerank_score if h.rerank_score is not None else h.score for h in hits]
        return [hits[i] for i in mmr(relevance, vectors, k, lam)]


RERANKERS = ("none", "learned", "maxsim", "tei", "cross-encoder")


def reranker_from_name(name: str, retriever: Retriever, *, tei_url: str | None = None,
                       path: str | None = None) -> CandidateScorer | None:
    """The CandidateScorer for a RAG_RERANKER value."""
    name = (name or "none").strip().lower()
    if name == "none":
        return None
    if name == "learned":
        from .learned_reranker import LearnedReranker

        return LearnedReranker(retriever.embedder, k1=retriever.k1, b=retriever.b)
    if name == "maxsim":
        from .late_interaction import MaxSimReranker

        return MaxSimReranker(retriever.embedder)
    if name == "tei":
        from .rerankers import TeiReranker, TextScorer

        if not tei_url:
            raise ValueError("RAG_RERANKER=tei needs RAG_RERANKER_URL (a TEI server running a reranker model)")
        return TextScorer(TeiReranker(tei_url))
    if name == "cross-encoder":
        from .rerankers import CrossEncoderReranker, TextScorer

        if not path:
            raise ValueError("RAG_RERANKER=cross-encoder needs RAG_RERANKER_PATH (a local sentence-transformers model)")
        return TextScorer(CrossEncoderReranker(path))
    raise ValueError(f"RAG_RERANKER={name!r} is not one of: {', '.join(RERANKERS)}")
