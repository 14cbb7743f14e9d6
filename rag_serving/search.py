"""The query-time search pipeline: hybrid candidates (per query variant, fused), then a reranker, then top k."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from .database import Tenant
from .expansion import Expander
from .fusion import rrf
from .rerankers import CandidateScorer
from .retrieval import Filters, Hit, Mode, Retriever, Sparse

MAX_VARIANTS = 3


@dataclass(frozen=True)
class SearchPlan:
    mode: Mode = "hybrid"
    sparse: Sparse = "bm25"
    depth: int = 50  # candidates the reranker orders
    reranker: CandidateScorer | None = None
    expanders: tuple[Expander, ...] = ()  # extra query variants, fused with the question's results by RRF


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
        depth = max(k, plan.depth) if plan.reranker else k
        variants = [*variants, *self.expansions(question)]
        hits = self.candidates(tenant, [question, *variants], k=depth, filters=filters)
        if plan.reranker and hits:
            with self.retriever.db.tenant(tenant) as conn:
                scores = plan.reranker.score(conn, question, hits)
            # Stable sort: equal scores keep the fused order.
            order = sorted(range(len(hits)), key=lambda i: -scores[i])
            hits = [dataclasses.replace(hits[i], rerank_score=float(scores[i])) for i in order]
        return hits[:k]


RERANKERS = ("none", "learned", "maxsim", "tei")


def reranker_from_name(name: str, retriever: Retriever, *, tei_url: str | None = None) -> CandidateScorer | None:
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
    raise ValueError(f"RAG_RERANKER={name!r} is not one of: {', '.join(RERANKERS)}")
