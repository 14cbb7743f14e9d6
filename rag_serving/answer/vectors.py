"""Unit vectors of answer-candidate sentences, shared by every request: the same chunks come back for many questions."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
from cachetools import LRUCache

from rag_serving.models.embedders import Embedder

# ~1.6 KB per sentence at 384 dimensions: 80 MB at most.
MAX_SENTENCES = 50_000


class SentenceVectors:
    """An LRU of L2-normalized sentence vectors for one embedder, safe to share between request threads: lookups and
    inserts hold a lock, embedding the misses runs outside it (two threads may embed the same new sentence once
    each; both store the same vector)."""

    def __init__(self, embedder: Embedder, maxsize: int = MAX_SENTENCES):
        self.embedder = embedder
        self._cache: LRUCache = LRUCache(maxsize=maxsize)
        self._lock = threading.Lock()

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.embedder.dim), np.float32)
        with self._lock:
            found = {t: self._cache[t] for t in dict.fromkeys(texts) if t in self._cache}
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing:
            fresh = np.asarray(self.embedder.embed(missing), dtype=np.float32)
            fresh /= np.maximum(np.linalg.norm(fresh, axis=1, keepdims=True), 1e-12)
            with self._lock:
                for text, vector in zip(missing, fresh):
                    self._cache[text] = vector
            found.update(zip(missing, fresh))
        return np.stack([found[t] for t in texts])
