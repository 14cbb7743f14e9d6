"""Ranking features of (question, candidate chunk) pairs for the learned reranker, computed from the tables the legs read."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import psycopg
from pgvector.psycopg import register_vector

from .evidence import unit_vectors
from .late_interaction import MaxSimReranker
from .retrieval import Hit, sql_text

# Bump when a feature's definition changes: a model trained on other features must not be used.
FEATURE_VERSION = "1"
FEATURES = (
    "bm25",  # Okapi BM25 of the chunk (k1, b of the retriever), the sparse leg's score
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


@dataclass(frozen=True)
class Term:
    lexeme: str
    idf: float


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


def bm25(tf: Sequence[int], idf: Sequence[float], length: float, avgdl: float, k1: float, b: float) -> float:
    norm = k1 * (1 - b + b * length / avgdl)
    return float(sum(i * t * (k1 + 1) / (t + norm) for t, i in zip(tf, idf)))


def _relative(values: np.ndarray, how: str) -> np.ndarray:
    if len(values) == 0:
        return values
    top = values.max()
    if how == "ratio":
        return values / top if top > 0 else np.zeros_like(values)
    return values - top


class FeatureExtractor:
    """Builds the FEATURES matrix for a question's candidates in two SQL reads plus the token-vector read."""

    def __init__(self, embedder, maxsim: MaxSimReranker, *, k1: float = 1.2, b: float = 0.75):
        self.embedder, self.maxsim, self.k1, self.b = embedder, maxsim, k1, b

    def terms(self, conn: psycopg.Connection, question: str) -> tuple[list[Term], float]:
        rows = conn.execute(sql_text("candidate_terms"), {"question": question}).fetchall()
        avgdl = float(rows[0]["avgdl"]) if rows and rows[0]["avgdl"] else 1.0
        return [Term(r["term"], float(r["idf"])) for r in rows], avgdl

    def matrix(self, conn: psycopg.Connection, question: str, hits: Sequence[Hit]) -> np.ndarray:
        if not hits:
            return np.zeros((0, len(FEATURES)))
        register_vector(conn)
        terms, avgdl = self.terms(conn, question)
        idf = {t.lexeme: t.idf for t in terms}
        total_idf = sum(idf.values())
        rows = {r["id"]: r for r in conn.execute(
            sql_text("candidate_features"), {"terms": list(idf), "ids": [h.chunk_id for h in hits]}).fetchall()}
        # Through the LRU the evidence check reads too, so a question is embedded once for both.
        qvec = unit_vectors(self.embedder, [question])[0]
        raw = np.zeros((len(hits), len(FEATURES)))
        for i, h in enumerate(hits):
            row = rows[h.chunk_id]
            found = {lex: pos for lex, pos in (row["positions"] or {}).items() if pos}
            vec = row["embedding"]
            vec = np.asarray(vec.to_numpy() if hasattr(vec, "to_numpy") else vec, dtype=np.float32) if vec is not None else None
            length = float(row["bm25_length"] or 0)
            span = shortest_span(list(found.values())) if found else 0
            raw[i] = [
                bm25([len(p) for p in found.values()], [idf[lex] for lex in found], length, avgdl, self.k1, self.b),
                0.0,
                float(qvec @ vec) if vec is not None else 0.0,
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
        raw[:, col["maxsim"]] = self.maxsim.score(conn, question, hits)
        raw[:, col["bm25_rel"]] = _relative(raw[:, col["bm25"]], "ratio")
        raw[:, col["cosine_gap"]] = _relative(raw[:, col["cosine"]], "gap")
        raw[:, col["maxsim_gap"]] = _relative(raw[:, col["maxsim"]], "gap")
        return raw
