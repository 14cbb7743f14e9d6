"""Query expansion: domain synonyms from a YAML file (no model), multi-query and HyDE through the generator."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import yaml

from rag_serving.answer.generators import Generator, GeneratorError

log = logging.getLogger("rag.expansion")

MULTI_QUERY_PROMPT = (
    "Write three different search queries for the user's question, each using different words than the question "
    "(synonyms, formal and informal terms). Keep names, numbers and codes exactly. One query per line, nothing else."
)
HYDE_PROMPT = (
    "Write a short passage, two or three sentences, that could appear in a company document and answers the "
    "user's question. Write the passage only."
)


class SynonymsError(ValueError):
    pass


class Expander(Protocol):
    name: str

    def variants(self, question: str) -> list[str]:
        """Extra query texts to search besides the question (may be empty)."""


@dataclass(frozen=True)
class _Term:
    text: str
    pattern: re.Pattern


class Synonyms:
    """Groups of interchangeable terms; a question mentioning one term is also searched with the group's others
    appended. All-caps entries (acronyms) match only in capitals, so "IT" does not fire on "it"."""

    name = "synonyms"

    def __init__(self, groups: Sequence[Sequence[str]], source: str = "synonyms"):
        self.source = source
        self.groups: list[list[_Term]] = []
        for i, group in enumerate(groups):
            terms = [str(t).strip() for t in group if str(t).strip()]
            if len(terms) < 2:
                raise SynonymsError(f"{source}: group {i + 1} needs at least two terms, got {list(group)!r}")
            self.groups.append([_Term(t, re.compile(rf"(?<!\w){re.escape(t)}(?!\w)",
                                                    0 if t.isupper() else re.IGNORECASE)) for t in terms])

    @classmethod
    def load(cls, path: Path) -> "Synonyms":
        try:
            raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise SynonymsError(f"{path}: cannot read synonyms: {exc}") from exc
        if not isinstance(raw, list) or not all(isinstance(g, list) for g in raw):
            raise SynonymsError(f"{path}: expected a YAML list of lists of terms")
        return cls(raw, source=str(path))

    def variants(self, question: str) -> list[str]:
        extra: list[str] = []
        for group in self.groups:
            if any(t.pattern.search(question) for t in group):
                extra += [t.text for t in group if not t.pattern.search(question)]
        return [f"{question} {' '.join(extra)}"] if extra else []


class MultiQuery:
    """Alternative phrasings from the generator (at most two, so the question makes three variants)."""

    name = "multi-query"

    def __init__(self, generator: Generator, limit: int = 2):
        self.generator, self.limit = generator, limit

    def variants(self, question: str) -> list[str]:
        try:
            text = self.generator.complete(MULTI_QUERY_PROMPT, question)
        except GeneratorError as exc:
            log.warning("multi-query expansion skipped: %s", exc)
            return []
        lines = [re.sub(r"^\s*(?:[-*•]|\d+[.)])\s*", "", line).strip().strip('"') for line in text.splitlines()]
        seen = {question.strip().lower()}
        out = []
        for line in lines:
            if line and line.lower() not in seen:
                seen.add(line.lower())
                out.append(line)
        return out[: self.limit]


class Hyde:
    """A hypothetical answer passage from the generator, searched instead of (and fused with) the question."""

    name = "hyde"

    def __init__(self, generator: Generator):
        self.generator = generator

    def variants(self, question: str) -> list[str]:
        try:
            text = self.generator.complete(HYDE_PROMPT, question).strip()
        except GeneratorError as exc:
            log.warning("HyDE expansion skipped: %s", exc)
            return []
        return [text] if text else []
