"""One question's state, built once per request and passed down: its text, unit vector and BM25 terms."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rag_serving.models.embedders import Embedder
from rag_serving.store.sessions import Session
from rag_serving.store.sqlfiles import sql_text


@dataclass(frozen=True)
class Terms:
    """The question's lexemes (PostgreSQL's english configuration, as the index) with their BM25 IDF over the live
    chunks the tenant may see, and the corpus figures BM25 needs."""

    idf: dict[str, float]
    n: float  # live chunks
    avgdl: float  # mean chunk length in lexeme occurrences
    qtf: dict[str, int]  # how often the question says each
    df: dict[str, float]  # live chunks holding each

    @property
    def total_idf(self) -> float:
        return sum(self.idf.values())


@dataclass
class Query:
    """A question as every stage sees it. The vector is computed at most once (the dense leg, the reranker's
    features and the evidence check share it), with the token vectors MaxSim needs when the embedder gives both; the
    terms are read at most once, in the request's session."""

    text: str
    embedder: Embedder
    _vector: np.ndarray | None = field(default=None, repr=False)
    _tokens: np.ndarray | None = field(default=None, repr=False)
    _terms: Terms | None = field(default=None, repr=False)

    @property
    def vector(self) -> np.ndarray:
        if self._vector is None:
            encode = getattr(self.embedder, "encode", None)  # a JointEncoder (late_interaction): one pass for both
            if encode is not None:
                vectors, tokens = encode([self.text])
                self._tokens = tokens[0]
            else:
                vectors = self.embedder.embed([self.text])
            # Every embedder returns L2-normalized vectors; normalizing again would move the dense leg's floats.
            self._vector = np.asarray(vectors[0], dtype=np.float32)
        return self._vector

    def token_vectors(self, encoder) -> np.ndarray:
        """The question's token vectors for MaxSim: from the forward pass that gave its vector when the encoder is the
        query's own embedder (one pass per question, not two), else the encoder's."""
        if encoder is not self.embedder or not hasattr(encoder, "encode"):
            return encoder.token_vectors([self.text])[0]
        self.vector  # noqa: B018 - computes both, once
        return self._tokens

    def terms(self, session: Session) -> Terms:
        if self._terms is None:
            rows = session.execute(sql_text("question_terms"), {"question": self.text}).fetchall()
            n = float(rows[0]["n"]) if rows else 0.0
            avgdl = float(rows[0]["avgdl"]) if rows else 1.0
            self._terms = Terms({r["term"]: float(r["idf"]) for r in rows}, n, avgdl,
                                {r["term"]: int(r["qtf"]) for r in rows}, {r["term"]: float(r["df"]) for r in rows})
        return self._terms
