"""Embeddings through a PostgreSQL cache keyed by model id and the SHA-256 of the normalized text."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import psycopg
from pgvector.psycopg import register_vector

from rag_assets.ingest.queries import sql_text
from rag_serving.models.embedders import Embedder, normalize_text


@dataclass
class CacheStats:
    hits: int = 0
    misses: int = 0
    embed_seconds: float = 0.0

    @property
    def hit_rate(self) -> float:
        total = self.hits + self.misses
        return self.hits / total if total else 0.0


def as_array(value) -> np.ndarray:
    # pgvector hands back a Vector object for the dimensionless column.
    return np.asarray(value.to_numpy() if hasattr(value, "to_numpy") else value, dtype=np.float32)


def text_key(text: str) -> str:
    return hashlib.sha256(normalize_text(text).encode()).hexdigest()


def embed_cached(conn: psycopg.Connection, embedder: Embedder, texts: Sequence[str], *,
                 encode: Callable[[Sequence[str]], np.ndarray] | None = None) -> tuple[np.ndarray, CacheStats]:
    """Vectors for texts, reading what the cache has and embedding (then storing) only the rest, with encode when
    given (a caller that wants more from the same forward pass) or the embedder's embed."""
    register_vector(conn)
    stats = CacheStats()
    keys = [text_key(t) for t in texts]
    rows = conn.execute(sql_text("cache_lookup"), (embedder.model, list(set(keys)))).fetchall()
    found = {r["text_sha256"]: as_array(r["embedding"]) for r in rows}
    missing = sorted({k: t for k, t in zip(keys, texts) if k not in found}.items())
    stats.hits = sum(k in found for k in keys)
    stats.misses = len(keys) - stats.hits
    if missing:
        started = time.perf_counter()
        vectors = (encode or embedder.embed)([t for _, t in missing])
        stats.embed_seconds = time.perf_counter() - started
        with conn.transaction(), conn.cursor() as cur:
            cur.executemany(sql_text("cache_store"), [(embedder.model, k, v) for (k, _), v in zip(missing, vectors)])
        found.update({k: v for (k, _), v in zip(missing, vectors)})
    out = np.vstack([found[k] for k in keys]) if keys else np.zeros((0, embedder.dim), dtype=np.float32)
    return out, stats
