"""Rerankers behind one protocol: scores in [0, 1] for (question, text) pairs; Text Embeddings Inference's /rerank first."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Protocol

import httpx
import psycopg

from .embedders import tei_info, tei_model_id
from .retrieval import Hit


class RerankerError(RuntimeError):
    pass


class Reranker(Protocol):
    model: str

    def rerank(self, question: str, texts: Sequence[str]) -> list[float]:
        """One score in [0, 1] per text, in the order given (higher: more likely to answer the question)."""


class TeiReranker:
    """A TEI server's `POST /rerank` (bge-reranker-v2-m3, mxbai-rerank, … in production); TEI returns
    sigmoid scores in [0, 1] unless raw scores are asked for, and sorts them, so they are put back in input order."""

    def __init__(self, base_url: str, *, timeout: float = 60.0, batch_size: int = 64):
        self.base_url = base_url.rstrip("/")
        self.timeout, self.batch_size = timeout, batch_size

    @cached_property
    def _client(self) -> httpx.Client:
        return httpx.Client(base_url=self.base_url, timeout=self.timeout)

    @cached_property
    def model(self) -> str:
        return tei_model_id(tei_info(self._client, self.base_url, RerankerError))

    def rerank(self, question: str, texts: Sequence[str]) -> list[float]:
        scores: list[float] = [0.0] * len(texts)
        for offset in range(0, len(texts), self.batch_size):
            batch = list(texts[offset : offset + self.batch_size])
            try:
                response = self._client.post("/rerank", json={"query": question, "texts": batch, "raw_scores": False})
            except httpx.HTTPError as exc:
                raise RerankerError(f"TEI at {self.base_url}: /rerank failed: {exc}") from exc
            if response.status_code != 200:
                raise RerankerError(f"TEI at {self.base_url}: /rerank returned {response.status_code}: {response.text[:200]}")
            for item in response.json():
                scores[offset + int(item["index"])] = float(item["score"])
        if any(not 0.0 <= s <= 1.0 for s in scores):
            raise RerankerError(f"TEI at {self.base_url}: /rerank scores outside [0, 1]; is raw_scores forced on?")
        return scores


class CandidateScorer(Protocol):
    """What the search pipeline calls: scores for retrieved hits, with a tenant-scoped connection for rerankers that
    read stored features (token vectors, term statistics). calibrated: the scores are probabilities of relevance."""

    name: str
    calibrated: bool

    def score(self, conn: psycopg.Connection, question: str, hits: Sequence[Hit]) -> list[float]: ...


class TextScorer:
    """A text-pair Reranker (TEI, cross-encoder) as a CandidateScorer over the hits' bodies."""

    calibrated = True

    def __init__(self, reranker: Reranker):
        self.reranker = reranker
        self.name = reranker.model

    def score(self, conn: psycopg.Connection, question: str, hits: Sequence[Hit]) -> list[float]:
        return self.reranker.rerank(question, [h.body for h in hits]) if hits else []
