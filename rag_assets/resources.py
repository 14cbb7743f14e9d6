"""Typed Dagster resources: the database, the tokenizer, the chunker settings and OCR; tests swap them."""

from __future__ import annotations

import psycopg
from dagster import ConfigurableResource, InitResourceContext
from pydantic import PrivateAttr
from tokenizers import Tokenizer

from rag_serving import db
from rag_serving.config import load_settings
from rag_serving.embedders import get_embedder
from rag_serving.generators import get_generator
from rag_serving.tokenization import load_tokenizer, model_max_tokens, tokenizer_digest, SPECIAL_TOKENS_PER_INPUT

from .chunking import ChunkerConfig, ChunkingConfigError
from .extraction import ocr_available
from .pipeline import pipeline_digest


class PostgresResource(ConfigurableResource):
    """The application database; empty url means the embedded server under RAG_HOME (or RAG_DATABASE_URL)."""

    url: str = ""
    _resolved: str = PrivateAttr(default="")

    def setup_for_execution(self, context: InitResourceContext) -> None:
        self._resolved = self.resolved_url()

    def resolved_url(self) -> str:
        if not self._resolved:
            url = self.url or db.server_url(load_settings())
            db.migrate(url)
            self._resolved = url
        return self._resolved

    def connect(self) -> psycopg.Connection:
        # Autocommit: every step opens explicit transactions, so an error record survives the
        # exception that follows it.
        return db.connect(self.resolved_url(), autocommit=True)


class TokenizerResource(ConfigurableResource):
    """The embedding model's tokenizer (tokenizer.json); empty path means the default model's."""

    path: str = ""

    def load(self) -> Tokenizer:
        return load_tokenizer(self.path or None)

    def max_input_tokens(self) -> int:
        return model_max_tokens() - SPECIAL_TOKENS_PER_INPUT


class ChunkerResource(ConfigurableResource):
    """Window size, overlap and snap distance in tokens, plus what to do with windows longer than the model's input.

    oversize = "pool": embed such a window in parts and mean-pool them (the default, documented in
    CHUNKING.md); "reject": refuse the configuration instead. Never truncate.
    """

    size: int = 500
    overlap: int = 50
    snap: int = 50
    oversize: str = "pool"

    def config(self, max_input_tokens: int | None = None) -> ChunkerConfig:
        cfg = ChunkerConfig(self.size, self.overlap, self.snap)
        if self.oversize not in ("pool", "reject"):
            raise ChunkingConfigError(f"oversize must be 'pool' or 'reject', got {self.oversize!r}")
        if self.oversize == "reject" and max_input_tokens is not None and cfg.max_window > max_input_tokens:
            raise ChunkingConfigError(
                f"chunk windows reach {cfg.max_window} tokens (size {cfg.size} + snap {cfg.snap}) but the embedder "
                f"reads {max_input_tokens}; lower the size or set oversize='pool'"
            )
        return cfg

    def digest(self, tokenizer: Tokenizer) -> str:
        return pipeline_digest(self.config(), tokenizer_digest(tokenizer))


class EmbedderResource(ConfigurableResource):
    """The embedding model (RAG_EMBEDDER): `minilm` (local ONNX), `hashed-tfidf`, or `tei` at tei_url."""

    name: str = "minilm"
    tei_url: str = ""
    threads: int = 0
    _embedder: object = PrivateAttr(default=None)

    def get(self):
        if self._embedder is None:
            self._embedder = get_embedder(self.name, tei_url=self.tei_url or None, threads=self.threads)
        return self._embedder


class GeneratorResource(ConfigurableResource):
    """The answer generator (RAG_GENERATOR): `extractive` (offline), `anthropic` or `openai` (any compatible endpoint)."""

    name: str = "extractive"
    model: str = ""
    base_url: str = ""
    api_key: str = ""
    max_tokens: int = 1024

    def get(self, embedder):
        return get_generator(self.name, embedder=embedder, model=self.model or None, base_url=self.base_url or None,
                             api_key=self.api_key or None, max_tokens=self.max_tokens)


class OcrResource(ConfigurableResource):
    """OCR for pages without a text layer (ocrmypdf + tesseract)."""

    enabled: bool = True

    def available(self) -> bool:
        return self.enabled and ocr_available()
