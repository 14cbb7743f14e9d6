"""Learned answerability: per-question features of the evidence and the calibrated model that routes on them."""

from __future__ import annotations

import numpy as np

from rag_serving.answer.evidence import Evidence
from rag_serving.models.artefacts import ShippedModel

ARTEFACT_FORMAT = "rag-answerability/2"  # 2: the model file is ONNX (it was skops)
FEATURE_VERSION = 3  # 3: a sentence's coverage reads its document's title; 2: the sentence before it, strict terms as stems
KINDS = ("number", "date", "person", "reason", "any")
FEATURES = (
    "formula",  # the hand-set evidence score (evidence.assess), kept as one input
    "best_coverage", "best_semantic", "best_kind", "best_missing", "best_rank",
    "top_coverage", "top_cosine",  # the first-ranked passage
    "union_coverage",  # key terms found anywhere in the passages
    "sentence_cosine", "sentence_coverage", "sentence_kind",  # the best single sentence
    "sentence_gap",  # its cosine lead over the best sentence of another passage
    "mean_cosine", "passages_over_half", "passages",
    "key_terms", "strict_terms", "missing_everywhere",
    *(f"kind_{k}" for k in KINDS),
)


def features(evidence: Evidence) -> np.ndarray:
    """One row of FEATURES for a question and its weighed passages (zeros where nothing was retrieved)."""
    q = evidence.question
    row = dict.fromkeys(FEATURES, 0.0)
    # A place question is read as one of no particular kind: the models were trained before places had a kind.
    # Paths, names in code or of settings, and release numbers are counted as the models were trained, before they
    # were strict terms: "Must /usr be writable?" is no less answerable for naming one.
    untrained = {*q.paths, *q.code}
    row.update({"key_terms": len(q.key_terms), "strict_terms": len([t for t in q.strict_terms if t not in untrained]),
                f"kind_{q.kind if q.kind in KINDS else 'any'}": 1.0})
    passages = evidence.passages
    if passages:
        best = evidence.best
        top = passages[0]
        row.update({
            "formula": evidence.confidence, "best_coverage": best.coverage, "best_semantic": best.best_cosine,
            "best_kind": float(best.kind_ok), "best_missing": len(best.missing_strict), "best_rank": best.rank,
            "top_coverage": top.coverage, "top_cosine": top.best_cosine,
            "union_coverage": evidence.union_coverage,
            "mean_cosine": float(np.mean([p.best_cosine for p in passages])),
            "passages_over_half": sum(p.score >= 0.5 for p in passages), "passages": len(passages),
            "missing_everywhere": min(len(p.missing_strict) for p in passages),
        })
    if evidence.candidates:
        ranked = sorted(evidence.candidates, key=lambda c: -c.cosine)
        lead = ranked[0]
        other = next((c.cosine for c in ranked[1:] if c.hit.chunk_id != lead.hit.chunk_id), 0.0)
        row.update({"sentence_cosine": lead.cosine, "sentence_coverage": max(c.coverage for c in ranked),
                    "sentence_kind": float(lead.kind_ok), "sentence_gap": lead.cosine - other})
    return np.array([[float(row[f]) for f in FEATURES]])


class LearnedAnswerability(ShippedModel):
    """P(the retrieved passages answer the question) from FEATURES; trained on SQuAD 2.0 train and golden dev only."""

    stem, kind, label = "answerability", "answerability model", "learned-answerability"
    format, feature_version, features = ARTEFACT_FORMAT, FEATURE_VERSION, FEATURES

    def probability(self, evidence: Evidence) -> float:
        return round(float(self.trees.positive(features(evidence))[0]), 4)

