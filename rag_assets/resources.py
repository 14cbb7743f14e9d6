"""Typed Dagster resources: the database, the tokenizer, the chunker settings and OCR; tests swap them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import psycopg
from dagster import ConfigurableResource, InitResourceContext
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from pydantic import PrivateAttr
from tokenizers import Tokenizer

from rag_assets.ingest.chunking import ChunkerConfig, ChunkingConfigError
from rag_assets.ingest.extraction import ocr_available
from rag_assets.ingest.registration import chunking_digest
from rag_serving.models.embedders import get_embedder
from rag_serving.models.tokenization import SPECIAL_TOKENS_PER_INPUT, load_tokenizer, model_max_tokens, tokenizer_digest
from rag_serving.spec import DEFAULT_SPEC as D
from rag_serving.spec import PipelineSpec
from rag_serving.store.bootstrap import connect, ensure_database, server_url
from rag_serving.store.migrate import migrate
from rag_serving.store.sessions import Database, app_url


class PostgresResource(ConfigurableResource):
    """The application database (owner role, for ingest): url, or when empty the embedded server in pgdata.
    app_url is the serving role's URL (empty: the same server as rag_app), for evaluation runs that must see what
    serving sees."""

    url: str = ""
    pgdata: str = ".rag/pgdata"
    app_url: str = ""
    _resolved: str = PrivateAttr(default="")

    def setup_for_execution(self, context: InitResourceContext) -> None:
        self._resolved = self.resolved_url()

    def resolved_url(self) -> str:
        if not self._resolved:
            url = server_url(self.url or None, Path(self.pgdata))
            migrate(url)
            self._resolved = url
        return self._resolved

    def connect(self) -> psycopg.Connection:
        # Autocommit: every step opens explicit transactions, so an error record survives the
        # exception that follows it.
        return connect(self.resolved_url(), autocommit=True)

    def scratch(self, suffix: str) -> "PostgresResource":
        """A migrated database beside this one (<name>_<suffix>: same server, same roles) for builds that must not
        touch the live index, such as the chunk sweep's; kept between runs for its embedding cache."""
        url = self.resolved_url()
        name = f"{conninfo_to_dict(url)['dbname']}_{suffix}"
        ensure_database(url, name)
        return PostgresResource(url=make_conninfo(url, dbname=name), pgdata=self.pgdata,
                                app_url=make_conninfo(self.app_url, dbname=name) if self.app_url else "")

    def serving(self, max_size: int = 1) -> Database:
        """A pool as the serving role (row-level security applies): evaluation reads exactly what users would."""
        return Database(app_url(self.app_url or None, self.resolved_url()), max_size=max_size)


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
        self.config()  # refuses a bad setting before anything is keyed by it
        return chunking_digest(self.size, self.overlap, self.snap, tokenizer_digest(tokenizer))


class EmbedderResource(ConfigurableResource):
    """The embedding model (RAG_EMBEDDER): `minilm` (local ONNX), `hashed-tfidf`, or `tei` at tei_url."""

    name: str = "minilm"
    tei_url: str = ""
    threads: int = 0
    _embedder: object = PrivateAttr(default=None)

    def get(self):
        if self._embedder is None:
            # Ingest and evaluation runs are batch jobs that end: they keep onnxruntime's arena (the server does not).
            self._embedder = get_embedder(self.name, tei_url=self.tei_url or None, threads=self.threads, arena=True)
        return self._embedder


class PipelineResource(ConfigurableResource):
    """The pipeline spec evaluation assets run (rag_serving.spec.PipelineSpec, field for field): definitions.py fills
    it from the settings, so the nightly benchmark runs what `rag ask` and POST /query serve; the launchpad can
    override any field for a sweep."""

    mode: str = D.mode
    sparse: str = D.sparse
    candidates: int = D.candidates
    bm25_k1: float = D.bm25_k1
    bm25_b: float = D.bm25_b
    bm25_ann: bool = D.bm25_ann
    reranker: str = D.reranker
    rerank_depth: int = D.rerank_depth
    reranker_url: str | None = D.reranker_url
    reranker_path: str | None = D.reranker_path
    expand: list[str] = []
    synonyms: str | None = D.synonyms
    mmr_lambda: float | None = D.mmr_lambda
    editions: bool = D.editions
    contents_last: bool = D.contents_last
    rewrite: bool = D.rewrite
    parents: bool = D.parents
    generator: str = D.generator
    selection: str = D.selection
    model: str | None = D.model
    generator_url: str | None = D.generator_url
    max_answer_tokens: int = D.max_answer_tokens
    helper_url: str | None = D.helper_url
    helper_model: str | None = D.helper_model
    routing: bool = D.routing
    answerability: str = D.answerability
    threshold: float = D.threshold
    k: int = D.k
    web_search: str = D.web_search
    searxng_url: str | None = D.searxng_url
    api_key: str = ""  # the generator's and helper's API key; not part of the spec

    @classmethod
    def of(cls, spec: PipelineSpec, api_key: str | None = None) -> "PipelineResource":
        return cls(**{**dataclasses.asdict(spec), "expand": list(spec.expand)}, api_key=api_key or "")

    def spec(self) -> PipelineSpec:
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(PipelineSpec)}
        return PipelineSpec(**{**values, "expand": tuple(values["expand"])})


class OcrResource(ConfigurableResource):
    """OCR for pages without a text layer (ocrmypdf + tesseract)."""

    enabled: bool = True
    jobs: int = 0  # pages OCRed at once; 0: one per CPU

    def available(self) -> bool:
        return self.enabled and ocr_available()


class InboxResource(ConfigurableResource):
    """The folder the inbox sensor watches: <folder>/<organization>/<rooftop>/..."""

    folder: str = ".rag/inbox"
