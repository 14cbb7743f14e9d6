"""Rerankers behind one protocol: scores in [0, 1] for (question, text) pairs (TEI /rerank, a local cross-encoder), and the hit-level CandidateScorer."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import Protocol

import httpx

from rag_serving.models.embedders import tei_info, tei_model_id
from rag_serving.search.hits import Hit
from rag_serving.search.query import Query
from rag_serving.store.sessions import Session


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
                response = self._client.post("/rerank", json={"query": question, "texts": batch, "raw_scores": False,
                                                                   "truncate": True})
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
    """What the search pipeline calls: scores for retrieved hits, read in the request's session by rerankers that use
    stored features (token vectors, term statistics)."""

    name: str

    def score(self, session: Session, query: Query, hits: Sequence[Hit]) -> list[float]: ...


class TextScorer:
    """A text-pair Reranker (TEI, cross-encoder) as a CandidateScorer over the hits' bodies."""

    def __init__(self, reranker: Reranker):
        self.reranker = reranker
        self.name = reranker.model

    def score(self, session: Session, query: Query, hits: Sequence[Hit]) -> list[float]:
        return self.reranker.rerank(query.text, [h.body for h in hits]) if hits else []


class CrossEncoderReranker:
    """A sentence-transformers CrossEncoder from a local directory, for users who have weights (bge-reranker,
    ms-marco MiniLM, mxbai-rerank, ...): nothing is downloaded. Scores go through the model's activation
    (sigmoid for one-label rerankers), so they are in [0, 1]."""

    def __init__(self, path: str | Path, *, batch_size: int = 32, max_length: int = 512):
        path = Path(path).expanduser()
        if not (path / "config.json").is_file():
            raise RerankerError(f"cross-encoder {path}: no config.json there; point RAG_RERANKER_PATH at a saved model")
        try:
            from sentence_transformers import CrossEncoder
        except ImportError as exc:
            raise RerankerError("the cross-encoder reranker needs sentence-transformers and torch "
                                "(pip install -e '.[crossencoder]')") from exc
        weights = sorted(path.glob("*.safetensors")) or sorted(path.glob("*.bin"))
        digest = hashlib.sha256(b"".join(w.read_bytes() for w in weights)).hexdigest()[:12] if weights else "unknown"
        self.model = f"cross-encoder:{path.name}@{digest}"
        self.batch_size = batch_size
        self._encoder = CrossEncoder(str(path), local_files_only=True, max_length=max_length)

    def rerank(self, question: str, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        scores = self._encoder.predict([(question, t) for t in texts], batch_size=self.batch_size,
                                       show_progress_bar=False, convert_to_numpy=True)
        out = [float(s) for s in scores]
        if any(not 0.0 <= s <= 1.0 for s in out):
            raise RerankerError(f"{self.model}: scores outside [0, 1]; the model has no sigmoid activation")
        return out
