"""Ranking features of (question, candidate chunk) pairs for the learned reranker, computed from the tables the legs read."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from rag_serving.search.hits import Hit
from rag_serving.search.late_interaction import MaxSimReranker
from rag_serving.search.query import Query
from rag_serving.spec import DEFAULT_SPEC
from rag_serving.store.sessions import Session
from rag_serving.store.sqlfiles import sql_text

# Bump when a feature's definition changes: a model trained on other features must not be used.
FEATURE_VERSION = "1"
FEATURES = (
    "bm25",  # Okapi BM25 of the chunk (k1, b of the retriever) over the question's distinct lexemes
    "bm25_rel",  # bm25 / the best bm25 among the candidates
    "cosine",  # dense cosine of question and chunk vectors
    "cosine_gap",  # cosine − the best cosine among the candidates
    "maxsim",  # late interaction, mean over question word pieces of the best token cosine
    "maxsim_gap",  # maxsim − the best maxsim among the candidates
    "idf_coverage",  # IDF mass of the question's lexemes found in the chunk / IDF mass of all of them
    "proximity",  # matched lexemes / the shortest position span holding one of each (1 for a single match)
    "title_coverage",  # IDF mass of the question's lexemes in the document title or heading path
    "fused_rank",  # 1 / rank in the incoming (fused) candidate list
    "log_length",  # log(1 + lexemes in the chunk)
)


def shortest_span(positions: Sequence[Sequence[int]]) -> int:
    """Length (in positions, inclusive) of the shortest window holding at least one position from every list."""
    events = sorted((p, i) for i, plist in enumerate(positions) for p in plist)
    need, counts, have, best, left = len(positions), [0] * len(positions), 0, math.inf, 0
    for right, (pos, owner) in enumerate(events):
        counts[owner] += 1
        have += counts[owner] == 1
        while have == need:
            best = min(best, pos - events[left][0] + 1)
            counts[events[left][1]] -= 1
            have -= counts[events[left][1]] == 0
            left += 1
    return int(best) if best != math.inf else 0


def _relative(values: np.ndarray, how: str) -> np.ndarray:
    if len(values) == 0:
        return values
    top = values.max()
    if how == "ratio":
        return values / top if top > 0 else np.zeros_like(values)
    return values - top


class FeatureExtractor:
    """Builds the FEATURES matrix for a question's candidates in one SQL read plus the token-vector read."""

    def __init__(self, maxsim: MaxSimReranker, *, k1: float = DEFAULT_SPEC.bm25_k1,
                 b: float = DEFAULT_SPEC.bm25_b):
        self.maxsim, self.k1, self.b = maxsim, k1, b

    def matrix(self, session: Session, query: Query, hits: Sequence[Hit]) -> np.ndarray:
        if not hits:
            return np.zeros((0, len(FEATURES)))
        terms = query.terms(session)
        idf, total_idf = terms.idf, terms.total_idf
        rows = {r["id"]: r for r in session.execute(sql_text("candidate_features"), {
            "terms": list(idf), "idf": list(idf.values()), "ids": [h.chunk_id for h in hits], "avgdl": terms.avgdl,
            "k1": self.k1, "b": self.b}).fetchall()}
        raw = np.zeros((len(hits), len(FEATURES)))
        for i, h in enumerate(hits):
            row = rows[h.chunk_id]
            found = {lex: pos for lex, pos in (row["positions"] or {}).items() if pos}
            vec = row["embedding"]
            vec = np.asarray(vec.to_numpy() if hasattr(vec, "to_numpy") else vec, dtype=np.float32) if vec is not None else None
            length = float(row["bm25_length"] or 0)
            span = shortest_span(list(found.values())) if found else 0
            raw[i] = [
                float(row["bm25"]),
                0.0,
                float(query.vector @ vec) if vec is not None else 0.0,
                0.0,
                0.0,
                0.0,
                sum(idf[lex] for lex in found) / total_idf if total_idf else 0.0,
                len(found) / span if span else 0.0,
                sum(idf[lex] for lex in row["title_terms"] or []) / total_idf if total_idf else 0.0,
                1.0 / (i + 1),
                math.log1p(length),
            ]
        col = {name: j for j, name in enumerate(FEATURES)}
        raw[:, col["maxsim"]] = self.maxsim.score(session, query, hits)
        raw[:, col["bm25_rel"]] = _relative(raw[:, col["bm25"]], "ratio")
        raw[:, col["cosine_gap"]] = _relative(raw[:, col["cosine"]], "gap")
        raw[:, col["maxsim_gap"]] = _relative(raw[:, col["maxsim"]], "gap")
        return raw
