"""Query rewriting: a follow-up or vague message becomes one standalone question (or a clarifying question) via the generator."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from rag_serving.answer.generators import Generator, GeneratorError

log = logging.getLogger("rag.rewrite")

HISTORY_TURNS = 6
REWRITE_PROMPT = (
    "Rewrite the user's last message as one standalone search question, using the conversation for any missing "
    "context. Keep names, numbers and codes exactly. If it could reasonably mean two different things, reply with "
    "CLARIFY: followed by one short question to ask the user instead. Reply with the question only."
)
CLARIFY = "CLARIFY:"


@dataclass(frozen=True)
class Rewrite:
    original: str
    question: str  # what to search (the original when rewriting failed or was not needed)
    clarify: str | None = None  # a question to ask the user instead of answering
    error: str | None = None

    @property
    def changed(self) -> bool:
        return self.question != self.original


class Rewriter:
    def __init__(self, generator: Generator):
        self.generator = generator

    def rewrite(self, message: str, history: Sequence[str] = ()) -> Rewrite:
        """The standalone question for message given the last six turns; a generator error keeps the original
        (searched with its history prepended, the behaviour without a rewriter)."""
        fallback = " ".join([*history[-HISTORY_TURNS:], message]) if history else message
        try:
            # The earlier turns go as their own user messages: a 0.5B local model echoed the first question when
            # they were lines of one prompt, and rewrote 2 of 4 golden follow-ups well as separate messages.
            text = self.generator.complete(REWRITE_PROMPT, message, turns=history[-HISTORY_TURNS:]).strip()
        except GeneratorError as exc:
            result = Rewrite(message, fallback, error=str(exc))
        else:
            line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
            if line.upper().startswith(CLARIFY):
                result = Rewrite(message, fallback, clarify=line[len(CLARIFY):].strip() or None)
            elif line:
                result = Rewrite(message, line.strip('"').strip())
            else:
                result = Rewrite(message, fallback, error="empty rewrite")
        # The original and the rewrite in one record: when an answer goes wrong, the rewrite is checked first.
        log.info("rewrite", extra={"original": message, "history_turns": len(history), "rewrite": result.question,
                                   "clarify": result.clarify, "error": result.error})
        return result
