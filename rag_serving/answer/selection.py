"""Learned answer selection: which retrieved sentence to quote, from features of each candidate and its passage."""

from __future__ import annotations

import dataclasses

import numpy as np

from rag_serving.answer.evidence import Candidate, Evidence
from rag_serving.answer.terms import contains_term
from rag_serving.answer.text import words
from rag_serving.models.artefacts import ShippedModel

ARTEFACT_FORMAT = "rag-answer-selection/2"  # 2: the model file is ONNX (it was skops)
FEATURE_VERSION = 3  # 3: a sentence's coverage reads its document's title; 2: the sentence before it, strict terms as stems
FEATURES = (
    "score",  # the hand-set sentence score, kept as one input
    "cosine", "cosine_rank", "cosine_behind",  # its meaning against the question, and against the best sentence's
    "coverage", "coverage_behind", "kind",
    "passage_rank", "passage_score", "passage_coverage", "passage_kind",
    "index", "first", "last", "opens_lower", "ends_open",  # where it sits: chunk edges cut sentences
    "words", "digits", "strict_present", "strict_missing",
)


def matrix(evidence: Evidence) -> np.ndarray:
    """One row of FEATURES per candidate sentence of the evidence, in its order."""
    candidates = evidence.candidates
    if not candidates:
        return np.zeros((0, len(FEATURES)))
    q = evidence.question
    by_rank = {p.rank: p for p in evidence.passages}
    cosines = np.array([c.cosine for c in candidates])
    order = np.argsort(-cosines, kind="stable")
    cosine_rank = np.empty(len(candidates))
    cosine_rank[order] = np.arange(1, len(candidates) + 1)
    best_cov = max(c.coverage for c in candidates)
    last_index: dict[int, int] = {}
    for c in candidates:
        last_index[c.rank] = max(last_index.get(c.rank, 0), c.index)
    rows = []
    for i, c in enumerate(candidates):
        p = by_rank.get(c.rank)
        lowered = c.text.lower()
        present = sum(contains_term(lowered, t) for t in q.strict_terms)
        rows.append([
            c.score, c.cosine, cosine_rank[i], cosines[order[0]] - c.cosine,
            c.coverage, best_cov - c.coverage, float(c.kind_ok),
            c.rank, p.score if p else 0.0, p.coverage if p else 0.0, float(p.kind_ok) if p else 0.0,
            c.index, float(c.index == 0), float(c.index == last_index[c.rank]),
            float(c.text[:1].islower()), float(not c.text.rstrip().endswith((".", "?", "!", ":", ")", '"', "”"))),
            len(words(c.text)), sum(ch.isdigit() for ch in c.text), present, len(q.strict_terms) - present,
        ])
    return np.asarray(rows, dtype=float)


class LearnedSelection(ShippedModel):
    """P(a sentence holds the answer) for each candidate; trained on SQuAD 2.0 train and golden dev only."""

    stem, kind, label = "answer_selection", "answer selection model", "learned-selection"
    format, feature_version, features = ARTEFACT_FORMAT, FEATURE_VERSION, FEATURES

    def scores(self, evidence: Evidence) -> list[float]:
        x = matrix(evidence)
        return self.trees.positive(x).tolist() if len(x) else []

    def ranked(self, evidence: Evidence) -> list[Candidate]:
        """The candidates best first, each with its probability as its score."""
        scored = [dataclasses.replace(c, score=p) for p, c in zip(self.scores(evidence), evidence.candidates)]
        return sorted(scored, key=lambda c: (-c.score, c.rank, c.index))
