"""What a search returns (Hit) and what it may be restricted to (Filters)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


def plain_text(value: str) -> str:
    """A client's string as PostgreSQL and the tokenizer can take it: no NUL character, no lone surrogate (JSON's
    "\\ud800" decodes to a str that cannot be encoded as UTF-8)."""
    if "\x00" in value:
        raise ValueError("contains a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"is not valid Unicode (a lone surrogate at character {exc.start})") from None
    return value


class Filters(BaseModel):
    """Restrictions applied inside both legs' WHERE clauses, never after retrieval."""

    model_config = ConfigDict(extra="forbid")

    kinds: list[str] | None = Field(default=None, description="document kinds, e.g. handbook, policy")
    published_from: dt.date | None = None
    published_to: dt.date | None = None
    year: int | None = Field(default=None, ge=1900, le=2200, description="published in this calendar year")
    documents: list[str] | None = Field(default=None, description="document ids or source paths")
    section: str | None = Field(default=None, description="heading path prefix, e.g. '3 Benefits'")

    @field_validator("kinds", "documents", "section")
    @classmethod
    def _plain(cls, value: list[str] | str | None) -> list[str] | str | None:
        for item in [value] if isinstance(value, str) else value or []:
            plain_text(item)
        return value

    @model_validator(mode="after")
    def _range(self) -> "Filters":
        if self.published_from and self.published_to and self.published_from > self.published_to:
            raise ValueError("published_from is after published_to")
        return self

    def active(self) -> bool:
        """Whether any restriction is set."""
        return any(v is not None for v in self.params().values())

    def params(self) -> dict:
        start, end = self.published_from, self.published_to
        if self.year is not None:
            start = max(filter(None, [start, dt.date(self.year, 1, 1)]))
            end = min(filter(None, [end, dt.date(self.year, 12, 31)]))
        return {
            "kinds": self.kinds or None,
            "published_from": start,
            "published_to": end,
            "documents": self.documents or None,
            "section": self.section or None,
        }


@dataclass(frozen=True)
class Hit:
    chunk_id: str
    document_id: str
    title: str
    source_path: str
    kind: str | None
    published_on: dt.date | None
    page_start: int
    page_end: int
    page_label_start: str
    page_label_end: str
    heading_path: str | None
    body: str
    score: float
    dense_rank: int | None = None
    sparse_rank: int | None = None
    dense_score: float | None = None
    sparse_score: float | None = None
    rerank_score: float | None = None  # the reranker's score, when one ordered the hits
    section_id: str | None = None
    ordinal: int | None = None  # the chunk's position in its document

    @property
    def pages(self) -> str:
        """How a citation names the pages: "p. 12" or "pp. 12–13" (printed labels)."""
        if self.page_start == self.page_end:
            return f"p. {self.page_label_start}"
        return f"pp. {self.page_label_start}–{self.page_label_end}"

    @property
    def link(self) -> str:
        """The physical page in the source file, for viewers that honour #page=N."""
        return f"{self.source_path}#page={self.page_start}"
