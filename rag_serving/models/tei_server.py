"""A local server speaking Text Embeddings Inference's wire format (/info, /health, /embed, /rerank), backed by the local models."""


import numpy as np
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from rag_serving.models.embedders import Embedder, OnnxMiniLM


class EmbedRequest(BaseModel):
    inputs: str | list[str]
    normalize: bool = True
    truncate: bool = False


class RerankRequest(BaseModel):
    query: str
    texts: list[str]
    raw_scores: bool = False
    return_text: bool = False
    truncate: bool = False


def _error(status: int, message: str, kind: str = "Validation") -> JSONResponse:
    # TEI's error body: {"error": ..., "error_type": ...}
    return JSONResponse(status_code=status, content={"error": message, "error_type": kind})


def create_tei_app(embedder: Embedder | None = None) -> FastAPI:
    """TEI-compatible service. /rerank scores with the bi-encoder's cosine mapped to [0, 1] (no
    cross-encoder installs offline here); the learned reranker can replace it behind the same route."""
    model = embedder or OnnxMiniLM()
    app = FastAPI(title="Local Text Embeddings Inference", version="0.1.0")

    def too_long(texts: list[str]) -> str | None:
        tok = model.tokenizer
        if tok is None:
            return None
        for text in texts:
            n = len(tok.encode(text).ids)
            if n > model.max_tokens:
                return f"Input validation error: `inputs` must have less than {model.max_tokens} tokens. Given: {n}"
        return None

    @app.get("/info")
    def info() -> dict:
        return {
            "model_id": model.model,
            "model_sha": None,
            "model_dtype": "int8" if "int8" in model.model else "float32",
            "model_type": {"embedding": {"pooling": "mean"}},
            "max_input_length": model.max_tokens,
            "max_client_batch_size": 64,
            "version": "rag-local-tei-1",
        }

    @app.get("/health")
    def health() -> dict:
        return {}

    @app.post("/embed")
    def embed(body: EmbedRequest):
        texts = [body.inputs] if isinstance(body.inputs, str) else body.inputs
        if not texts:
            return _error(422, "Input validation error: `inputs` cannot be empty")
        if len(texts) > 64:
            return _error(413, f"Input validation error: batch size {len(texts)} > maximum allowed batch size 64")
        if not body.truncate and (message := too_long(texts)):
            return _error(413, message)
        # `normalize` is accepted for compatibility; the local models always return unit vectors.
        return model.embed(texts).tolist()

    @app.post("/rerank")
    def rerank(body: RerankRequest):
        if not body.texts:
            return _error(422, "Input validation error: `texts` cannot be empty")
        if not body.truncate and (message := too_long([body.query, *body.texts])):
            return _error(413, message)
        vectors = model.embed([body.query, *body.texts])
        cosine = vectors[1:] @ vectors[0]
        scores = cosine if body.raw_scores else (cosine + 1.0) / 2.0
        order = np.argsort(-scores, kind="stable")
        out = []
        for i in order:
            item = {"index": int(i), "score": float(scores[i])}
            if body.return_text:
                item["text"] = body.texts[i]
            out.append(item)
        return out

    return app
