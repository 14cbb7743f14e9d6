"""Every environment variable the serving side reads, as one validated model (RAG_X sets field x)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from rag_serving.spec import ANSWERABILITY, EXPANSIONS, GENERATORS, RERANKERS, SELECTION, WEB_SEARCH, PipelineSpec
from rag_serving.spec import DEFAULT_SPEC as D


class SettingsError(ValueError):
    """A bad environment variable; the message is one line naming it, its value and what is allowed."""


def env_field(default, name: str, description: str, **constraints):
    return Field(default, alias=name, description=description, **constraints)


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="ignore")

    home: Path = env_field(Path(".rag"), "RAG_HOME", "state folder: embedded PostgreSQL, Dagster, sample corpus",
                           validate_default=True)  # absolute even when unset: Dagster refuses a relative home
    database_url: str | None = env_field(None, "RAG_DATABASE_URL",
                                         "an external PostgreSQL with pgvector (libpq URL); unset: the embedded one")
    app_database_url: str | None = env_field(None, "RAG_APP_DATABASE_URL",
                                             "the serving role's URL; unset: the same server as role rag_app")
    embedder: Literal["minilm", "hashed-tfidf", "tei"] = env_field("minilm", "RAG_EMBEDDER",
                                                                   "embedding model for chunks and questions")
    tei_url: str | None = env_field(None, "RAG_TEI_URL", "Text Embeddings Inference server (RAG_EMBEDDER=tei)")
    embed_threads: int = env_field(0, "RAG_EMBED_THREADS", "onnxruntime threads; 0: it picks", ge=0, le=64)
    max_question_chars: int = env_field(2000, "RAG_MAX_QUESTION_CHARS", "longest question plus history accepted",
                                        ge=1, le=100_000)
    max_in_flight: int = env_field(0, "RAG_MAX_IN_FLIGHT", "requests worked on at once by one server, beyond it a fast "
                                   "503 with Retry-After; 0: one per CPU core (answering is CPU-bound; raise it for a "
                                   "remote generator or embedder)", ge=0, le=1000)
    api_host: str = env_field("127.0.0.1", "RAG_API_HOST", "address `rag serve` binds")
    api_port: int = env_field(8000, "RAG_API_PORT", "port `rag serve` binds", ge=1, le=65535)
    cors_origins: tuple[str, ...] = env_field((), "RAG_CORS_ORIGINS", "comma-separated browser origins allowed to call "
                                              "the API (e.g. https://intranet.example.com); unset: no CORS")
    public_url: str | None = env_field(None, "RAG_PUBLIC_URL", "the address clients reach the API at, for the page "
                                       "links in answers (behind a proxy); unset: each request's own host")
    link_ttl_s: int = env_field(7 * 24 * 3600, "RAG_LINK_TTL_S", "seconds a signed page link in an answer stays valid",
                                ge=60, le=366 * 24 * 3600)
    log_format: Literal["json", "text"] = env_field("json", "RAG_LOG_FORMAT",
                                                    "server logs: one JSON object per line, or text")
    generator_api_key: str | None = env_field(None, "RAG_GENERATOR_API_KEY",
                                              "API key for the generator and helper endpoints (never logged)")
    # The pipeline a question goes through (rag_serving.spec.PipelineSpec); defaults are the shipped spec.
    mode: Literal["dense", "sparse", "hybrid"] = env_field(D.mode, "RAG_MODE", "retrieval legs")
    sparse: Literal["bm25", "tsrank"] = env_field(D.sparse, "RAG_SPARSE", "sparse leg: Okapi BM25 or ts_rank_cd")
    candidates: int = env_field(D.candidates, "RAG_CANDIDATES", "candidates per leg before fusion", ge=1, le=1000)
    bm25_k1: float = env_field(D.bm25_k1, "RAG_BM25_K1", "BM25 term-frequency saturation", ge=0.0, le=10.0)
    bm25_b: float = env_field(D.bm25_b, "RAG_BM25_B", "BM25 length normalization", ge=0.0, le=1.0)
    bm25_ann: bool = env_field(D.bm25_ann, "RAG_BM25_ANN",
                               "BM25 candidates from the sparse HNSW index for questions with many postings")
    reranker: Literal[RERANKERS] = env_field(D.reranker, "RAG_RERANKER", "what orders the fused candidates")
    rerank_depth: int = env_field(D.rerank_depth, "RAG_RERANK_DEPTH", "fused candidates the reranker orders",
                                  ge=1, le=1000)
    reranker_url: str | None = env_field(None, "RAG_RERANKER_URL", "TEI server with a reranker (RAG_RERANKER=tei)")
    reranker_path: str | None = env_field(None, "RAG_RERANKER_PATH",
                                          "local sentence-transformers cross-encoder (RAG_RERANKER=cross-encoder)")
    expand: tuple[Literal[EXPANSIONS], ...] = env_field(D.expand, "RAG_EXPAND",
                                                        "comma-separated query expansions: synonyms, multi-query, hyde")
    synonyms: Path | None = env_field(None, "RAG_SYNONYMS", "YAML list of synonym groups (RAG_EXPAND=synonyms)")
    mmr_lambda: float | None = env_field(D.mmr_lambda, "RAG_MMR_LAMBDA", "maximal marginal relevance; unset: off",
                                         ge=0.0, le=1.0)
    editions: bool = env_field(D.editions, "RAG_EDITIONS",
                               "rank the edition a question names, else the newest, above other editions of its title")
    contents_last: bool = env_field(D.contents_last, "RAG_CONTENTS_LAST",
                                    "rank contents pages (titles and page numbers) below every other hit")
    rewrite: bool = env_field(D.rewrite, "RAG_REWRITE", "rewrite follow-ups into standalone questions (helper model)")
    parents: bool = env_field(D.parents, "RAG_PARENTS", "give the generator each hit's section, not the chunk")
    generator: Literal[GENERATORS] = env_field(D.generator, "RAG_GENERATOR", "what writes the answer")
    selection: Literal[SELECTION] = env_field(D.selection, "RAG_SELECTION",
                                              "how the extractive generator picks its quote: learned or formula")
    model: str | None = env_field(D.model, "RAG_MODEL", "the generator's model id")
    generator_url: str | None = env_field(None, "RAG_GENERATOR_URL",
                                          "base URL of the generator's API (Anthropic or OpenAI-compatible)")
    max_answer_tokens: int = env_field(D.max_answer_tokens, "RAG_MAX_ANSWER_TOKENS", "generator output limit",
                                       ge=16, le=100_000)
    helper_url: str | None = env_field(None, "RAG_HELPER_URL",
                                       "OpenAI-compatible model for rewriting and expansion (e.g. `rag models llm`)")
    helper_model: str | None = env_field(None, "RAG_HELPER_MODEL", "the helper's model id")
    answerability: Literal[ANSWERABILITY] = env_field(D.answerability, "RAG_ANSWERABILITY",
                                                      "what the confidence is: the learned model or the hand-set formula")
    answer_threshold: float = env_field(D.threshold, "RAG_ANSWER_THRESHOLD", "evidence confidence needed to answer",
                                        ge=0.0, le=1.0)
    context_chunks: int = env_field(D.k, "RAG_CONTEXT_CHUNKS", "chunks handed to the generator", ge=1, le=100)
    web_search: Literal[WEB_SEARCH] = env_field(D.web_search, "RAG_WEB_SEARCH", "web fallback provider")
    searxng_url: str | None = env_field(None, "RAG_SEARXNG_URL", "SearXNG instance (RAG_WEB_SEARCH=searxng)")

    @field_validator("home", "synonyms", mode="after")
    @classmethod
    def _absolute(cls, value: Path | None) -> Path | None:
        return value.expanduser().resolve() if value is not None else None

    @field_validator("expand", mode="before")
    @classmethod
    def _comma_list(cls, value):
        if isinstance(value, str):
            return tuple(part.strip().lower() for part in value.split(",") if part.strip())
        return value

    @field_validator("public_url", mode="after")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"https?://[^\s]+", value):
            raise ValueError(f"{value!r} is not an http(s) URL")
        return value.rstrip("/") + "/" if value else value

    @field_validator("cors_origins", mode="before")
    @classmethod
    def _origins(cls, value):
        if isinstance(value, str):
            value = tuple(part.strip().rstrip("/") for part in value.split(",") if part.strip())
        for origin in value:
            if origin != "*" and not re.fullmatch(r"https?://[^/\s]+", origin):
                raise ValueError(f"{origin!r} is not an origin: scheme://host[:port], or *")
        return value

    @field_validator("embedder", "reranker", "generator", "web_search", "mode", "sparse", "answerability", "selection",
                     "log_format", mode="before")
    @classmethod
    def _lower(cls, value):
        return value.strip().lower() if isinstance(value, str) else value

    @property
    def pgdata(self) -> Path:
        return self.home / "pgdata"

    def pipeline(self) -> PipelineSpec:
        """The pipeline these settings describe: what `rag ask`, POST /query, `rag eval` and the nightly run use."""
        return PipelineSpec(
            mode=self.mode, sparse=self.sparse, candidates=self.candidates, bm25_k1=self.bm25_k1, bm25_b=self.bm25_b,
            bm25_ann=self.bm25_ann,
            reranker=self.reranker, rerank_depth=self.rerank_depth, reranker_url=self.reranker_url,
            reranker_path=self.reranker_path, expand=self.expand,
            synonyms=str(self.synonyms) if self.synonyms else None, mmr_lambda=self.mmr_lambda, editions=self.editions,
            contents_last=self.contents_last,
            rewrite=self.rewrite,
            parents=self.parents, generator=self.generator, selection=self.selection, model=self.model, generator_url=self.generator_url,
            max_answer_tokens=self.max_answer_tokens, helper_url=self.helper_url, helper_model=self.helper_model,
            answerability=self.answerability, threshold=self.answer_threshold, k=self.context_chunks, web_search=self.web_search,
            searxng_url=self.searxng_url,
        )


def env_names(model: type[BaseModel]) -> dict[str, str]:
    """Field name → environment variable."""
    return {name: f.alias or name for name, f in model.model_fields.items()}


def validate_env(model: type[BaseModel], env: Mapping[str, str] | None = None):
    """The model from env (default: the process environment); empty values count as unset. A bad value raises
    SettingsError with one line per problem: the variable, the value given and what is allowed."""
    env = os.environ if env is None else env
    names = set(env_names(model).values())
    values = {k: v for k, v in env.items() if k in names and v is not None and str(v).strip() != ""}
    try:
        return model.model_validate(values)
    except ValidationError as exc:
        aliases = env_names(model)
        lines = []
        for err in exc.errors():
            field = str(err["loc"][0]) if err["loc"] else ""
            name = aliases.get(field, field)
            given = values.get(name, err.get("input"))
            lines.append(f"{name}={given!r}: {err['msg']}")
        raise SettingsError("; ".join(lines)) from None


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    return validate_env(Settings, env)


def markdown(model: type[BaseModel]) -> str:
    """The configuration reference (docs/configuration.md) generated from a settings model."""
    lines = ["| variable | default | allowed | what it sets |", "|---|---|---|---|"]
    for name, f in model.model_fields.items():
        default = f.default
        if default is None or default == ():
            shown = "unset"
        elif isinstance(default, bool):
            shown = str(default).lower()
        else:
            shown = ",".join(default) if isinstance(default, tuple) else default
        lines.append(f"| `{f.alias}` | `{shown}` | {allowed(f)} | {f.description} |")
    return "\n".join(lines)


def allowed(f) -> str:
    """What a field accepts, for the reference table."""
    import types
    import typing

    annotation = f.annotation
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        annotation = next(a for a in typing.get_args(annotation) if a is not type(None))
    listed = typing.get_origin(annotation) is tuple
    if listed:
        annotation = typing.get_args(annotation)[0]
    if typing.get_origin(annotation) is Literal:
        choices = ", ".join(f"`{v}`" for v in typing.get_args(annotation))
        return f"comma-separated: {choices}" if listed else choices
    kind = {int: "integer", float: "number", bool: "true / false", Path: "path"}.get(annotation, "text")
    low = next((m.ge for m in f.metadata if hasattr(m, "ge")), None)
    high = next((m.le for m in f.metadata if hasattr(m, "le")), None)
    return f"{kind} {low} to {high}" if low is not None and high is not None else kind
