"""The shapes an answer takes on its way out: sources, cited sentences, grounding results, web results and the response."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from rag_serving.search.hits import Hit

Route = Literal["answer", "abstain", "clarify", "web"]

ABSTAIN_MESSAGE = "The documents don't cover this."
UNVERIFIED_MESSAGE = "An answer was drafted but couldn't be verified against the sources, so it isn't shown."


class Source(BaseModel):
    chunk_id: str
    document_id: str
    title: str
    pages: str = Field(description='printed page labels, "p. 12" or "pp. 12–13"')
    link: str = Field(description="source file with #page=N of the physical page")
    quote: str = Field(description="the cited text, verbatim from the chunk (whitespace normalized)")
    page_start: int = Field(default=0, description="first physical 1-based page holding the quote; 0: none")
    page_end: int = Field(default=0, description="last physical page holding the quote")

    @classmethod
    def of(cls, hit: Hit, quote: str) -> "Source":
        return cls(chunk_id=hit.chunk_id, document_id=hit.document_id, title=hit.title, pages=hit.pages, link=hit.link,
                   quote=quote, page_start=hit.page_start, page_end=hit.page_end)


class Sentence(BaseModel):
    text: str
    sources: list[Source] = []


class Draft(BaseModel):
    """What a generator returns before anything is checked."""

    sentences: list[Sentence]
    generator: str
    model: str
    abstained: bool = False  # the generator itself said the documents don't answer
    refused: bool = False
    stop_reason: str | None = None
    usage: dict = {}
    attributed: bool = False  # the generator cited nothing; each sentence's source was matched to it afterwards

    @property
    def text(self) -> str:
        return " ".join(s.text.strip() for s in self.sentences).strip()


class Grounding(BaseModel):
    passed: bool
    failed_check: Literal["quotes", "sourced", "support", "answers", "leak", "incomplete"] | None = None
    problems: list[str] = []
    cited_ratio: float = Field(description="share of the claims with at least one source: the factual sentences, "
                                           "or with none, the sourced ones (0 when nothing is sourced)")
    judge: str = Field(description="which support check ran")
    attributed: bool = Field(False, description="the generator cited no source; each sentence was matched afterwards "
                                                "to the retrieved sentence sharing most of its words, then checked")


class WebResult(BaseModel):
    title: str
    url: str
    snippet: str = ""


class Response(BaseModel):
    question: str
    route: Route
    confidence: float = Field(description="evidence score in [0, 1] (docs/search-pipeline.md, routing)")
    answer: list[Sentence] | None = Field(default=None, description="shown only when the grounding check passed")
    message: str = ""
    clarifying_question: str | None = None
    grounding: Grounding | None = None
    sources: list[Source] = Field(default=[], description="closest sources (for abstentions and unverified answers too)")
    web_results: list[WebResult] = Field(default=[], description="web results, never mixed into document sources")
    evidence: dict = {}
    generator: str | None = None
    model: str | None = None
    pipeline: str | None = Field(default=None, description="digest of the pipeline spec that produced this response")
    took_ms: float = 0.0

    @property
    def shown(self) -> bool:
        return self.answer is not None

    @property
    def text(self) -> str:
        return " ".join(s.text for s in self.answer or []).strip()
