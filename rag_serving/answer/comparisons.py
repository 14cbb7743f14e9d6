"""Comparisons: each side's passages weighed on their own, so a question naming two editions is answered from both
or says which side the documents lack."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rag_serving.answer.evidence import Evidence, assess
from rag_serving.answer.kinds import QUANTITY, AnswerKind
from rag_serving.answer.parts import naming
from rag_serving.answer.vectors import SentenceVectors
from rag_serving.search.hits import Hit
from rag_serving.search.query import Query


@dataclass(frozen=True)
class Sides:
    confidence: float  # the weakest side's, over the sides some passage holds
    scores: dict[str, float]
    lacking: tuple[str, ...]  # sides no retrieved passage is about


# A comparison asking whether something went up or down, or naming a quantity ("did the remote work limit change"),
# is answered on each side by a value.
_AMOUNT = re.compile(rf"\b(?:go(?:ne|es)? (?:up|down)|went (?:up|down)|increase[ds]?|decrease[ds]?|rise|rose|risen|"
                     rf"fall|fell|fallen|more|less|fewer|higher|lower|longer|shorter|({QUANTITY})s?)\b", re.I)


def side_kind(question: str) -> AnswerKind | None:
    """The kind of answer each side's quote must hold: a number when the comparison is about an amount."""
    return "number" if _AMOUNT.search(question) else None


_VALUE = re.compile(r"\d+(?:[.,]\d+)*")


def shape(text: str, years: Sequence[str]) -> tuple[str, str]:
    """A sentence with the editions' own years masked, and the same with every number masked: two editions' versions
    of one sentence share the second (`changed`)."""
    plain = re.sub(rf"\b({'|'.join(map(re.escape, years))})\b", "YEAR", text) if years else text
    return plain, _VALUE.sub("#", plain)


def changed(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """Whether two editions' sentences, as `shape` gives them, are one sentence whose values differ ("up to 2 days per
    week" in 2024, "up to 3 days per week" in 2025): the same words around the numbers, other numbers than the
    editions' own years."""
    return a[0] != b[0] and a[1] == b[1]


def side_hits(side: str, hits: Sequence[Hit]) -> list[Hit]:
    """The hits of that side's edition (its title or file name names the year), else the hits mentioning it."""
    named = [h for h in hits if side in f"{h.title} {h.source_path}".lower()]
    return named or [h for h in hits if side in h.body]


def one_side(question: str, side: str, compared: Sequence[str]) -> str:
    """The question asked of one side: the other sides taken out, a year as written, a document by the words that
    name it ("Do the handbook and the IT helpdesk sheet agree …" asks the handbook without "IT helpdesk", whose words
    its passages lack)."""
    for other in compared:
        if other != side:
            question = re.sub(rf"\b{re.escape(other)}\b", " ", question)
            for word in set(naming(question, other)) - set(naming(question, side)):
                question = re.sub(rf"(?<![\w'’-]){re.escape(word)}(?![\w'’-])", " ", question)
    return " ".join(question.split())


def weigh(question: str, compared: Sequence[str], hits: Sequence[Hit], vectors: SentenceVectors,
          confidence: Callable[[Evidence], float], owner: str = "") -> Sides:
    """Each side's question against that side's passages, scored as any question is."""
    scores, lacking = {}, []
    for side in compared:
        mine = side_hits(side, hits)
        if not mine:
            lacking.append(side)
            continue
        query = Query(one_side(question, side, compared), vectors.embedder)
        scores[side] = confidence(assess(query, mine, vectors, owner=owner))
    return Sides(min(scores.values(), default=0.0), scores, tuple(lacking))
