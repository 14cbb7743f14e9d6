"""The pipeline description: every choice a question goes through, frozen; ablation rows are variants of it."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import TypeAdapter, ValidationError

Mode = Literal["dense", "sparse", "hybrid"]
Sparse = Literal["bm25", "tsrank"]
RERANKERS = ("none", "learned", "maxsim", "tei", "cross-encoder")
EXPANSIONS = ("synonyms", "multi-query", "hyde")
GENERATORS = ("extractive", "anthropic", "openai")
ANSWERABILITY = ("formula", "learned")
SELECTION = ("formula", "learned")
WEB_SEARCH = ("off", "searxng")


class WiringError(ValueError):
    """A spec asks for something this deployment cannot build (a helper model that is not configured, ...)."""


@dataclass(frozen=True)
class PipelineSpec:
    """What a question goes through, in order. The defaults are the shipped pipeline: each is the ablation row that
    earned it (docs/decisions.md). Build the running stack with `rag_serving.wiring.Wiring(...).pipeline(spec)`."""

    # Retrieval: both legs over the tenant's live chunks, fused by RRF.
    mode: Mode = "hybrid"
    sparse: Sparse = "bm25"
    candidates: int = 50  # per leg before fusion
    bm25_k1: float = 1.2
    bm25_b: float = 0.75
    # A tenant's question with 20,000 postings or more: candidates from an HNSW index over stored tf parts and the
    # rarest words' postings, scored exactly (False: MaxScore, exact over every chunk, about 5x slower at 100k chunks).
    bm25_ann: bool = True
    # Reranking: the learned reranker is the one component that won on data it was not trained on (SciFact test).
    reranker: str = "learned"  # one of RERANKERS
    rerank_depth: int = 50  # fused candidates the reranker orders
    reranker_url: str | None = None  # TEI /rerank (reranker="tei")
    reranker_path: str | None = None  # a local cross-encoder (reranker="cross-encoder")
    # Query side: off by default, none measured a gain here.
    expand: tuple[str, ...] = ()  # at most three query variants in all
    synonyms: str | None = None  # YAML groups for expand=("synonyms",)
    mmr_lambda: float | None = None
    # An edition replaced by a newer one with the same title ranks just below it unless the question names its year.
    editions: bool = True
    # A contents page lists the titles a question's words match, and answers none of them: it goes below the rest.
    contents_last: bool = True
    rewrite: bool = False  # follow-ups rewritten into a standalone question by the helper model
    # Answer: the generator, its context and the gate in front of the user.
    parents: bool = False  # hand the generator each hit's section instead of the chunk
    generator: str = "extractive"  # one of GENERATORS
    # How the extractive generator picks its quote: the hand-set sentence score; the learned selector won on SQuAD
    # articles it never saw but lost on golden held-out (docs/decisions.md).
    selection: str = "formula"  # one of SELECTION
    model: str | None = None
    generator_url: str | None = None
    max_answer_tokens: int = 1024
    helper_url: str | None = None  # OpenAI-compatible model that rewrites and expands questions
    helper_model: str | None = None
    routing: bool = True  # confidence routing and the grounding check decide what is shown
    # The confidence: the learned model's probability that the passages answer (it won on golden held-out and SQuAD
    # 2.0 dev, neither trained on), or the hand-set evidence score ("formula", threshold 0.8).
    answerability: str = "learned"  # one of ANSWERABILITY
    threshold: float = 0.5  # a probability's even odds; `rag sweep` on golden dev finds 0.4 to 0.7 equal
    k: int = 5  # chunks handed to the generator
    web_search: str = "off"  # one of WEB_SEARCH
    searxng_url: str | None = None

    def __post_init__(self) -> None:
        problems = []
        if self.reranker not in RERANKERS:
            problems.append(f"reranker {self.reranker!r} is not one of {', '.join(RERANKERS)}")
        if self.reranker == "tei" and not self.reranker_url:
            problems.append("reranker 'tei' needs reranker_url (RAG_RERANKER_URL)")
        if self.reranker == "cross-encoder" and not self.reranker_path:
            problems.append("reranker 'cross-encoder' needs reranker_path (RAG_RERANKER_PATH)")
        unknown = [e for e in self.expand if e not in EXPANSIONS]
        if unknown:
            problems.append(f"expansions {unknown} are not among {', '.join(EXPANSIONS)}")
        if "synonyms" in self.expand and not self.synonyms:
            problems.append("the synonyms expansion needs a synonyms file (RAG_SYNONYMS)")
        if self.generator not in GENERATORS:
            problems.append(f"generator {self.generator!r} is not one of {', '.join(GENERATORS)}")
        if self.selection not in SELECTION:
            problems.append(f"selection {self.selection!r} is not one of {', '.join(SELECTION)}")
        if self.answerability not in ANSWERABILITY:
            problems.append(f"answerability {self.answerability!r} is not one of {', '.join(ANSWERABILITY)}")
        if self.web_search not in WEB_SEARCH:
            problems.append(f"web search {self.web_search!r} is not one of {', '.join(WEB_SEARCH)}")
        if self.web_search == "searxng" and not self.searxng_url:
            problems.append("web search 'searxng' needs searxng_url (RAG_SEARXNG_URL)")
        if self.mmr_lambda is not None and not 0.0 <= self.mmr_lambda <= 1.0:
            problems.append(f"MMR lambda {self.mmr_lambda} is outside [0, 1]")
        if problems:
            raise ValueError("pipeline: " + "; ".join(problems))

    def replace(self, **changes) -> "PipelineSpec":
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)

    @property
    def digest(self) -> str:
        """12 hex digits naming this exact pipeline: printed by `rag ask`, returned by /query, stored with eval runs."""
        payload = json.dumps(self.as_dict(), sort_keys=True, default=str)
        return hashlib.sha256(payload.encode()).hexdigest()[:12]

    def summary(self) -> str:
        """One line a person can read: the stages in order, only the ones that run."""
        sparse = f"{self.sparse} (exact)" if self.sparse == "bm25" and not self.bm25_ann else self.sparse
        legs = {"dense": "dense", "sparse": sparse, "hybrid": f"dense + {sparse} (RRF)"}[self.mode]
        parts = [f"{legs}, {self.candidates} per leg"]
        if self.expand:
            parts.insert(0, "expand " + "+".join(self.expand))
        if self.rewrite:
            parts.insert(0, "rewrite")
        if self.reranker != "none":
            parts.append(f"{self.reranker} reranker over {self.rerank_depth}")
        if self.mmr_lambda is not None:
            parts.append(f"MMR {self.mmr_lambda:g}")
        if self.contents_last:
            parts.append("contents pages last")
        if self.editions:
            parts.append("current editions first")
        chooser = f" ({self.selection} selection)" if self.generator == "extractive" else ""
        parts.append(f"top {self.k}{' → sections' if self.parents else ''} → {self.generator}{chooser}")
        parts.append(f"{self.answerability} routing ≥ {self.threshold:g}" if self.routing else "every draft shown")
        if self.web_search != "off":
            parts.append(f"web fallback ({self.web_search})")
        return " → ".join(parts)


DEFAULT_SPEC = PipelineSpec()


def with_overrides(spec: PipelineSpec, pairs: Sequence[str]) -> PipelineSpec:
    """spec with FIELD=VALUE pairs applied (`rag eval --with reranker=none`), each value checked against the field's
    type; expand takes a comma-separated list, an optional field takes `none` for unset."""
    hints = typing.get_type_hints(PipelineSpec)
    changes = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in hints:
            raise ValueError(f"{pair!r}: expected FIELD=VALUE with FIELD one of {', '.join(hints)}")
        hint = hints[name]
        value: object = raw.strip()
        if name == "expand":
            value = tuple(v.strip() for v in raw.split(",") if v.strip())
        elif type(None) in typing.get_args(hint) and raw.strip().lower() in ("", "none", "null"):
            value = None
        try:
            changes[name] = TypeAdapter(hint).validate_python(value)
        except ValidationError as exc:
            raise ValueError(f"{pair!r}: {exc.errors()[0]['msg']}") from None
    return spec.replace(**changes)
