"""The answer reader applied to a question's evidence: each candidate sentence read with the question once, the
probabilities kept on the candidates for the quote's choice and the routing confidence."""

from __future__ import annotations

import dataclasses

from rag_serving.answer.evidence import Candidate, Evidence
from rag_serving.models.reader import AnswerReader


def read(evidence: Evidence, reader: AnswerReader) -> Evidence:
    """Sets `reading` on each candidate not read yet; the evidence belongs to one request, so nothing is shared."""
    todo = [c for c in evidence.candidates if c.reading is None]
    if todo:
        question = evidence.asked or evidence.question.text
        for c, p in zip(todo, reader.scores(question, [c.text for c in todo])):
            c.reading = round(p, 4)
    return evidence


def readiness(evidence: Evidence, reader: AnswerReader) -> float:
    """The routing confidence: the reader's best probability over the candidates of passages that name every year
    and identifier the question does (0 when none does, or nothing was retrieved)."""
    read(evidence, reader)
    usable = {p.rank for p in evidence.passages if not p.missing_strict}
    return round(max((c.reading for c in evidence.candidates if c.rank in usable), default=0.0), 4)


class ReaderSelection:
    """Quotes ranked by the hand-set sentence score weighted by the answer reader's probability (`blend`): alone,
    the reader chose worse quotes than the formula on golden dev it never saw (docs/decisions.md)."""

    def __init__(self, reader: AnswerReader, weight: float = 1.0):
        self.reader, self.weight = reader, weight
        self.name = f"{reader.name}*formula"

    def ranked(self, evidence: Evidence) -> list[Candidate]:
        read(evidence, self.reader)
        scored = [dataclasses.replace(c, score=blend(c.score, c.reading, self.weight)) for c in evidence.candidates]
        return sorted(scored, key=lambda c: (-c.score, c.rank, c.index))


class ReaderAnswerability:
    """The routing confidence from the answer reader (`readiness`)."""

    def __init__(self, reader: AnswerReader):
        self.reader = reader
        self.name = reader.name

    def probability(self, evidence: Evidence) -> float:
        return readiness(evidence, self.reader)


def blend(formula: float, reading: float, weight: float) -> float:
    """The hand-set sentence score weighted by the reader's probability: weight 0 is the formula alone, 1 their
    product (`make train-reader` reports each weight on golden dev with a reader that never saw it)."""
    return formula * (1.0 - weight + weight * reading)
