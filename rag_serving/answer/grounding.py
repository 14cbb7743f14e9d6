"""The grounding check run on every answer before anyone sees it: real quotes, sourced factual sentences, supported claims, the kind of answer asked for, no leaked rules."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from rag_serving.answer.evidence import QuestionProfile, profile
from rag_serving.answer.kinds import has_kind
from rag_serving.answer.measures import NAMES
from rag_serving.answer.parts import missing_for, parts, sides
from rag_serving.answer.responses import Draft, Grounding
from rag_serving.answer.sentences import squish
from rag_serving.answer.terms import contains_term
from rag_serving.answer.text import lexemes, stems, words
from rag_serving.search.hits import Hit

_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
_NEGATION = re.compile(r"\b(no|not|never|none|nor|without|cannot|n't|neither)\b|n't\b", re.I)
_MONTH = re.compile(r"\b(january|february|march|april|may|june|july|august|september|october|november|december)\b", re.I)
_INSTRUCTION = re.compile(r"\b(must|should|shall|required|need to|have to|do not|don't|never|always|call|contact|"
                          r"submit|report|send|email|press|turn|replace|ask)\b", re.I)
LEAK_WINDOW = 40  # characters of the system prompt that, appearing in an answer, count as a leak


def factual(sentence: str) -> bool:
    """Numbers, dates, names or instructions make a sentence a claim that needs a source."""
    if _DIGITS.search(sentence) or _MONTH.search(sentence) or _INSTRUCTION.search(sentence):
        return True
    tokens = words(sentence)
    return any(t[:1].isupper() for t in tokens[1:] if t.lower() != "i")


class SupportCheck(Protocol):
    name: str

    def supports(self, sentence: str, quotes: Sequence[str]) -> tuple[bool, str]:
        """Whether the quotes back the sentence, and why not."""


class LexicalSupport:
    """Deterministic: the sentence's numbers and negations, and most of its content words, are in the quoted text."""

    name = "lexical"

    def __init__(self, min_content: float = 0.6):
        self.min_content = min_content

    def supports(self, sentence: str, quotes: Sequence[str]) -> tuple[bool, str]:
        source = " ".join(quotes)
        numbers = set(_DIGITS.findall(sentence)) - set(_DIGITS.findall(source))
        if numbers:
            return False, f"numbers not in the source: {', '.join(sorted(numbers))}"
        if _NEGATION.search(sentence) and not _NEGATION.search(source):
            return False, "the sentence negates; the source does not"
        mine = stems(sentence)
        if mine:
            share = len(mine & lexemes(source)) / len(mine)
            if share < self.min_content:
                return False, f"only {share:.0%} of its content words are in the source"
        return True, ""


def leaked(text: str, secret: str, window: int = LEAK_WINDOW) -> bool:
    """Whether any `window`-character stretch of secret appears in text."""
    t, s = squish(text).lower(), squish(secret).lower()
    return any(s[i : i + window] in t for i in range(0, max(len(s) - window, 0) + 1, 10))


def answers_the_kind(draft: Draft, question: QuestionProfile, retrieved: Sequence[Hit]) -> list[str]:
    """What the quotes lack for this question: the kind of answer asked for (a number for "how much", a date for
    "when", a reason for "why"; of a question in parts, any part's) in some quote, and each of its strict terms in
    some cited passage."""
    problems = []
    by_id = {h.chunk_id: f"{h.title} {h.heading_path or ''} {h.source_path} {h.body}".lower() for h in retrieved}
    sources = [src for s in draft.sentences for src in s.sources]
    cited = [by_id.get(src.chunk_id, "") for src in sources]
    # The quote holding the answer must come from a passage about what is asked: "How long is the Globex Summit?" is
    # not answered by the bereavement leave's "up to 15 days" quoted beside the sentence naming the Summit.
    about = [not question.strict_terms or any(contains_term(text, t) for t in question.strict_terms) for text in cited]
    # A question in parts asks each part's kind: "In which version, and on what date, was it renamed?" is answered by
    # a quote holding a version beside one holding a date, which no one quote need hold both of.
    pieces = parts(question.text)
    asked = [question] if len(pieces) < 2 else [profile(piece) for piece in pieces]
    needs = [q for q in asked if q.kind != "any" or q.measure or q.asks.bound]
    if needs and not any(ok and has_kind(src.quote, q.asks) for q in needs for src, ok in zip(sources, about)):
        first = needs[0]
        what = NAMES[first.measure] if first.measure else "a limit" if first.kind == "any" else f"a {first.kind}"
        problems.append(f"no quote holds {what}, which the question asks for")
    missing = missing_for([t for t in question.strict_terms if not any(contains_term(text, t) for text in cited)],
                          sides(question.text, [h.title for h in retrieved]) + question.either)
    if missing:
        problems.append(f"no cited passage names {', '.join(missing)}")
    return problems


def check(draft: Draft, retrieved: Sequence[Hit], *, system_prompt: str = "", support: SupportCheck | None = None,
          question: QuestionProfile | None = None) -> Grounding:
    """question: with it, the quotes must also hold the kind of answer it asks for and its strict terms."""
    support = support or LexicalSupport()
    by_id = {h.chunk_id: squish(h.body) for h in retrieved}
    # The claims are the factual sentences. An answer with none ("Public", "Check the door seals.") still claims
    # something: its sourced sentences are the claims, and one at least must be sourced (a small model's uncited
    # one-word answer had passed with nothing to check), while a pleasantry beside them needs none.
    claims = [s for s in draft.sentences if factual(s.text)] or [s for s in draft.sentences if s.sources]
    uncited = [s.text for s in draft.sentences] if not claims else [s.text for s in claims if not s.sources]
    ratio = 1 - len(uncited) / len(claims) if claims else 0.0

    def result(failed: str | None, problems: list[str]) -> Grounding:
        return Grounding(passed=failed is None, failed_check=failed, problems=problems, cited_ratio=round(ratio, 3),
                         judge=support.name, attributed=draft.attributed)

    if draft.stop_reason == "max_tokens":
        return result("incomplete", ["the generator stopped at its token limit; the answer is cut off"])
    if system_prompt and leaked(draft.text, system_prompt):
        return result("leak", ["the answer repeats the system prompt"])
    problems = []
    for s in draft.sentences:
        for src in s.sources:
            body = by_id.get(src.chunk_id)
            if body is None:
                problems.append(f"cites chunk {src.chunk_id}, which was not retrieved for this question")
            elif squish(src.quote) not in body:
                problems.append(f"quote not found verbatim in chunk {src.chunk_id}: {src.quote[:80]!r}")
    if problems:
        return result("quotes", problems)
    if uncited:
        return result("sourced", [f"no source for: {t[:100]!r}" for t in uncited])
    for s in claims:
        ok, why = support.supports(s.text, [src.quote for src in s.sources])
        if not ok:
            problems.append(f"{why}: {s.text[:100]!r}")
    if problems:
        return result("support", problems)
    if question is not None and draft.sentences:
        problems = answers_the_kind(draft, question, retrieved)
        if problems:
            return result("answers", problems)
    return result(None, [])
