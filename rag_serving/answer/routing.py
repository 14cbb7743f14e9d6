"""Chooses the route for a question from its evidence: answer, abstain, clarify or web."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rag_serving.answer.evidence import Evidence
from rag_serving.answer.parts import pointers
from rag_serving.answer.responses import Route
from rag_serving.answer.text import words
from rag_serving.search.hits import Hit

INJECTION_MESSAGE = ("I can't do that. Instructions inside questions or documents don't change how I work; "
                     "ask me about what the documents say.")


@dataclass(frozen=True)
class Decision:
    route: Route
    reason: str
    clarifying_question: str | None = None


def clarifying_question(question: str, hits: Sequence[Hit]) -> str:
    """One short question back, offering the distinct topics the retrieved passages are about."""
    topics: list[str] = []
    for h in hits:
        topic = (h.heading_path or "").split(" › ")[-1].strip() or h.title
        topic = topic.lstrip("0123456789. ").strip() or topic
        if topic and topic.lower() not in {t.lower() for t in topics}:
            topics.append(topic)
        if len(topics) == 3:
            break
    pointing = pointers(question)
    pronoun = next((w for w in words(question.lower())[:4] if w in pointing), None)
    opening = f"What does “{pronoun}” refer to" if pronoun else "Could you say a bit more about what you're looking for"
    if len(topics) >= 2:
        return f"{opening}? For example: {', '.join(topics[:-1])} or {topics[-1]}?"
    if topics:
        return f"{opening}? For example: {topics[0]}?"
    return f"{opening}?"


def decide(evidence: Evidence, hits: Sequence[Hit], *, threshold: float, has_history: bool,
           confidence: float | None = None) -> Decision:
    """The route; confidence is the learned probability when one is given, else the evidence's hand-set score."""
    confidence = evidence.confidence if confidence is None else confidence
    q = evidence.question
    if q.injection:
        return Decision("abstain", "the question asks to change or reveal the assistant's instructions")
    if not has_history and (q.referring or q.vague):
        why = "it refers to an earlier turn that isn't there" if q.referring else "it has fewer than two key terms"
        return Decision("clarify", f"ambiguous: {why}", clarifying_question(q.text, hits))
    if not hits:
        return Decision("abstain", "nothing retrieved")
    if confidence >= threshold:
        return Decision("answer", f"confidence {confidence:.2f} ≥ threshold {threshold:.2f}")
    best = evidence.best
    closest = evidence.passages[0] if evidence.passages else None  # the first-ranked, not the best-scored
    detail = ""
    if closest and closest.missing_strict:
        detail = f"; the closest passage lacks {', '.join(closest.missing_strict)}"
    elif best and not best.kind_ok:
        detail = f"; no passage holds a {q.kind}"
    return Decision("abstain", f"confidence {confidence:.2f} < threshold {threshold:.2f}{detail}")
