"""Late interaction: per-token vectors packed as int8, and MaxSim, score(q, d) = Σ_i max_j q_i · d_j, vectorized."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from rag_serving.search.hits import Hit
from rag_serving.search.query import Query
from rag_serving.store.sessions import Session
from rag_serving.store.sqlfiles import sql_text


@runtime_checkable
class TokenEncoder(Protocol):
    model: str
    dim: int

    def token_vectors(self, texts: Sequence[str]) -> list[np.ndarray]:
        """One (tokens × dim) array of L2-normalized vectors per text."""


@runtime_checkable
class JointEncoder(TokenEncoder, Protocol):
    def encode(self, texts: Sequence[str]) -> tuple[np.ndarray, list[np.ndarray]]:
        """The texts' pooled unit vectors and their token vectors, from one forward pass."""


@dataclass(frozen=True)
class Packed:
    tokens: int
    dim: int
    vectors: bytes  # int8, tokens × dim
    scales: bytes  # float16, one per token

    @property
    def nbytes(self) -> int:
        return len(self.vectors) + len(self.scales)


def pack(vectors: np.ndarray) -> Packed:
    """Max-abs int8 quantization per token: each row is scaled so its largest component maps to ±127."""
    vectors = np.asarray(vectors, dtype=np.float32)
    tokens, dim = vectors.shape
    peak = np.abs(vectors).max(axis=1) if tokens else np.zeros(0, dtype=np.float32)
    scale = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float16)
    q = np.clip(np.rint(vectors / scale.astype(np.float32)[:, None]), -127, 127).astype(np.int8)
    return Packed(tokens, dim, q.tobytes(), scale.tobytes())


def unpack(tokens: int, dim: int, vectors: bytes, scales: bytes) -> np.ndarray:
    q = np.frombuffer(vectors, dtype=np.int8).reshape(tokens, dim)
    # One float32 array: the int8 values are cast as they are multiplied (the same floats as casting first).
    return np.multiply(q, np.frombuffer(scales, dtype=np.float16).astype(np.float32)[:, None], dtype=np.float32)


def maxsim(query: np.ndarray, documents: Sequence[np.ndarray]) -> np.ndarray:
    """Σ over query tokens of the best dot product with any document token, divided by the number of query
    tokens (so scores compare across questions); 0 for a document without tokens. One matrix product for all."""
    scores = np.zeros(len(documents), dtype=np.float32)
    if len(query) == 0:
        return scores
    lengths = np.array([len(d) for d in documents])
    present = np.flatnonzero(lengths)
    if len(present) == 0:
        return scores
    stacked = np.vstack([documents[i] for i in present]).astype(np.float32, copy=False)
    sims = query.astype(np.float32) @ stacked.T  # query tokens × all document tokens
    starts = np.concatenate([[0], np.cumsum(lengths[present])[:-1]])
    best = np.maximum.reduceat(sims, starts, axis=1)  # query tokens × present documents
    scores[present] = best.sum(axis=0) / len(query)
    return scores


def stored_token_vectors(session: Session, model: str, ids: Sequence[str]) -> dict[str, np.ndarray]:
    # ~130 KB per chunk at 336 tokens: hex text would double what crosses the wire and what the client decodes.
    rows = session.execute(sql_text("token_vectors"), {"model": model, "ids": list(ids)}, binary=True).fetchall()
    return {r["chunk_id"]: unpack(r["tokens"], r["dim"], bytes(r["vectors"]), bytes(r["scales"])) for r in rows}


class MaxSimReranker:
    """Orders candidates by MaxSim between the question's and each chunk's token vectors (read from
    chunk_token_vectors; a chunk without stored vectors is encoded on the spot). Scores are mean cosines,
    not probabilities."""

    def __init__(self, encoder: TokenEncoder):
        self.encoder = encoder
        self.name = f"maxsim:{encoder.model}"
        self.encoded_on_the_fly = 0  # chunks without stored vectors, encoded at query time (counted for tests)
        self._count = threading.Lock()

    def document_vectors(self, session: Session, hits: Sequence[Hit]) -> list[np.ndarray]:
        stored = stored_token_vectors(session, self.encoder.model, [h.chunk_id for h in hits])
        missing = [h for h in hits if h.chunk_id not in stored]
        if missing:
            with self._count:
                self.encoded_on_the_fly += len(missing)
            stored.update(zip([h.chunk_id for h in missing], self.encoder.token_vectors([h.body for h in missing])))
        return [stored[h.chunk_id] for h in hits]

    def score(self, session: Session, query: Query, hits: Sequence[Hit]) -> list[float]:
        if not hits:
            return []
        return maxsim(query.token_vectors(self.encoder), self.document_vectors(session, hits)).tolist()
