"""Unit vectors of answer-candidate sentences: stored at ingest per chunk, and an LRU shared by every request for
the rest (the same chunks come back for many questions)."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence

import numpy as np
from cachetools import LRUCache

from rag_serving.models.embedders import Embedder
from rag_serving.store.sessions import Session
from rag_serving.store.sqlfiles import sql_text

# ~1.6 KB per sentence at 384 dimensions: 80 MB at most.
MAX_SENTENCES = 50_000


def unit_vectors(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """L2-normalized float32 vectors of texts: what ingest stores and the answer step computes, the same way."""
    fresh = np.asarray(embedder.embed(list(texts)), dtype=np.float32).reshape(len(texts), embedder.dim)
    return fresh / np.maximum(np.linalg.norm(fresh, axis=1, keepdims=True), 1e-12)


def pack(vectors: np.ndarray) -> bytes:
    return np.ascontiguousarray(vectors, dtype="<f4").tobytes()


def stored_sentence_vectors(session: Session, model: str, ids: Sequence[str]) -> dict[str, np.ndarray]:
    """Sentence → vector for the given chunks, as ingest stored them for this model (the tenant's rows only)."""
    out: dict[str, np.ndarray] = {}
    if not ids:
        return out
    for r in session.execute(sql_text("sentence_vectors"), {"model": model, "ids": list(ids)}).fetchall():
        rows = np.frombuffer(bytes(r["vectors"]), dtype="<f4").reshape(len(r["sentences"]), r["dim"])
        out.update(zip(r["sentences"], rows))
    return out


class SentenceVectors:
    """An LRU of L2-normalized sentence vectors for one embedder, safe to share between request threads: lookups and
    inserts hold a lock, embedding the misses runs outside it (two threads may embed the same new sentence once
    each; both store the same vector)."""

    def __init__(self, embedder: Embedder, maxsize: int = MAX_SENTENCES):
        self.embedder = embedder
        self._cache: LRUCache = LRUCache(maxsize=maxsize)
        self._lock = threading.Lock()
        self._hits = self._misses = 0

    def remember(self, known: Mapping[str, np.ndarray]) -> None:
        """Vectors read from the database, so the request that read them embeds none of those sentences. A vector is
        a function of its sentence alone, so sharing it across tenants reveals nothing a tenant does not hold."""
        with self._lock:
            for text, vector in known.items():
                self._cache[text] = vector

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.embedder.dim), np.float32)
        with self._lock:
            found = {t: self._cache[t] for t in dict.fromkeys(texts) if t in self._cache}
            missing = [t for t in dict.fromkeys(texts) if t not in found]
            self._hits += len(found)
            self._misses += len(missing)
        if missing:
            fresh = unit_vectors(self.embedder, missing)
            with self._lock:
                for text, vector in zip(missing, fresh):
                    self._cache[text] = vector
            found.update(zip(missing, fresh))
        return np.stack([found[t] for t in texts])

    def counts(self) -> tuple[int, int]:
        """Distinct sentences asked for so far that the cache held (hits) and that were embedded (misses)."""
        with self._lock:
            return self._hits, self._misses
