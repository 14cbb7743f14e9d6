"""Question to response in one tenant session: retrieve, weigh the evidence, route, generate, check, fall back to the web only where allowed."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from opentelemetry import trace
from tokenizers import Tokenizer

from rag_serving.answer import comparisons
from rag_serving.answer.answerability import LearnedAnswerability
from rag_serving.answer.citations import cite_pages
from rag_serving.answer.context import balanced
from rag_serving.answer.edges import whole_sentences
from rag_serving.answer.evidence import Evidence, assess, profile
from rag_serving.answer.generators import SYSTEM_PROMPT, Generator
from rag_serving.answer.grounding import SupportCheck, check
from rag_serving.answer.parents import ParentPlan, parents
from rag_serving.answer.parts import compares, parts, sides, standalone, topic
from rag_serving.answer.responses import ABSTAIN_MESSAGE, UNVERIFIED_MESSAGE, Response, Source
from rag_serving.answer.routing import INJECTION_MESSAGE, decide
from rag_serving.answer.vectors import SentenceVectors, stored_sentence_vectors
from rag_serving.answer.websearch import WebSearch, WebSearchError, allowed_for, internal_reason, log_fallback
from rag_serving.search.hits import Filters, Hit
from rag_serving.search.pipeline import Searcher
from rag_serving.search.query import Query
from rag_serving.search.rewriting import Rewrite, Rewriter
from rag_serving.store.sessions import Session

tracer = trace.get_tracer("rag_serving")
Progress = Callable[[str, dict], None]  # (event, data) as the answer takes shape: "route" before generating

WEB_MESSAGE = "The documents don't cover this. These web results may help; they are not from your documents."


def search_text(question: str, history: Sequence[str]) -> str:
    """Without a rewriter, a follow-up is searched with its history prepended."""
    return " ".join([*history, question]) if history else question


class Answerer:
    """The answer half of a pipeline; built by rag_serving.wiring from a spec, never by hand in serving code."""

    def __init__(self, searcher: Searcher, generator: Generator, vectors: SentenceVectors, *, threshold: float,
                 context_chunks: int, routing: bool = True, web: WebSearch | None = None,
                 support: SupportCheck | None = None, rewriter: Rewriter | None = None,
                 parent_plan: ParentPlan | None = None, tokenizer: Tokenizer | None = None,
                 pipeline: str | None = None, answerability: LearnedAnswerability | None = None):
        self.searcher, self.generator, self.vectors = searcher, generator, vectors
        self.threshold, self.context_chunks, self.routing = threshold, context_chunks, routing
        self.web, self.support, self.rewriter = web, support, rewriter
        self.parent_plan, self.tokenizer = parent_plan, tokenizer  # no plan: the generator reads the hit chunks
        self.pipeline = pipeline  # the spec digest every response carries
        self.answerability = answerability  # None: the confidence is the hand-set evidence score

    def prepare(self, question: str, history: Sequence[str] = ()) -> tuple[Query, Rewrite | None]:
        """What to search for: the rewritten follow-up, or the question with its history prepended (no database)."""
        rewrite = self.rewriter.rewrite(question, history) if self.rewriter and history else None
        return self.searcher.query(rewrite.question if rewrite else search_text(question, history)), rewrite

    def ask(self, session: Session, question: str, *, history: Sequence[str] = (),
            filters: Filters | None = None, progress: Progress | None = None) -> Response:
        started = time.perf_counter()
        query, rewrite = self.prepare(question, history)
        with tracer.start_as_current_span("rag.search"):
            hits = [] if rewrite and rewrite.clarify else self.retrieve(session, question, query, filters=filters,
                                                                        history=history)
        return self.respond(session, question, query, hits, history=history, started=started, rewrite=rewrite,
                            progress=progress)

    def retrieve(self, session: Session, question: str, query: Query, *, filters: Filters | None = None,
                 history: Sequence[str] = (), k: int = 0) -> list[Hit]:
        """The hits to answer from, best first (at least `depth`, or k): the query's; for a question in parts or
        comparing editions, each part's (each edition's) own best passages among the first context_chunks
        (`context.balanced`), so a second part about another section is not left without a passage."""
        hits = self.searcher.search(session, query, k=max(k, self.depth(question)), filters=filters)
        if history:
            return hits  # a follow-up is searched whole, with the turns before it
        if years := sides(question):
            # The topic searched alone: "go up or down between … handbooks" ranks contents pages and forewords,
            # which mention every topic, above the section that answers; without its years, each edition's section
            # ranks (respond() then gives each edition its share).
            pieces = [topic(question, years)]
        elif len(pieces := parts(question)) < 2:
            return hits
        else:
            pieces = standalone(pieces)
        own = [self.searcher.search(session, self.searcher.query(piece), k=self.context_chunks, filters=filters)
               for piece in pieces]
        chosen = balanced(hits, own, self.context_chunks)
        ids = {h.chunk_id for h in chosen}
        return chosen + [h for h in hits if h.chunk_id not in ids]

    def respond(self, session: Session, question: str, query: Query, hits: Sequence[Hit], *,
                history: Sequence[str] = (), started: float | None = None, rewrite: Rewrite | None = None,
                progress: Progress | None = None) -> Response:
        """The response to question given its retrieved chunks (best first; `depth` of them are read, context_chunks
        used). Evidence is weighed against the searched query (a rewrite stands alone); a CLARIFY reply is asked back."""
        started = time.perf_counter() if started is None else started
        compared = sides(question, [h.title for h in hits[: self.depth(question)]])
        if compared:
            ranked = hits[: self.depth(question)]
            hits = balanced(ranked, [comparisons.side_hits(side, ranked) for side in compared], self.context_chunks)
        else:
            hits = list(hits[: self.context_chunks])
        hits = whole_sentences(session, hits)
        # The passages' sentence vectors as ingest stored them: embedding them here was most of the answer step's time.
        with tracer.start_as_current_span("rag.evidence"):
            self.vectors.remember(stored_sentence_vectors(session, self.vectors.embedder.model,
                                                          [h.chunk_id for h in hits]))
            owner = session.tenant.organization_id
            evidence = assess(query, hits, self.vectors, owner=owner)
            evidence.asked = question
            confidence = self._confidence(evidence) if hits else evidence.confidence
            weighed = comparisons.weigh(query.text, compared, hits, self.vectors, self._confidence, owner) \
                if compared and hits else None
        if weighed and weighed.scores and sides(question):
            # No passage holds both editions: each side is weighed against its own passages, the same question
            # asked of each, and the weakest side's confidence routes.
            confidence = weighed.confidence
        elif weighed and weighed.scores:
            # Documents compared ("do the handbook and the helpdesk sheet agree on …?"): the whole evidence, which
            # reads the comparison as asked, or every side's own (each asked without the words naming the others,
            # `comparisons.one_side`), whichever supports it better. The whole alone rose and fell with whether a
            # superseded edition's copy of a passage was in the context to be counted twice.
            confidence = max(confidence, weighed.confidence)
        closest = [Source.of(h, h.body[:300]) for h in hits[:3]]
        base = {"question": question, "confidence": confidence, "sources": closest,
                "evidence": {**evidence.features(), "confidence": confidence, "formula": evidence.confidence},
                "generator": self.generator.name, "model": self.generator.model, "pipeline": self.pipeline}
        if weighed:
            base["evidence"]["sides"] = {"scores": weighed.scores, "lacking": list(weighed.lacking)}
        if rewrite:
            base["evidence"]["rewrite"] = {"question": rewrite.question, "clarify": rewrite.clarify,
                                           "error": rewrite.error}

        def done(**fields) -> Response:
            return Response(**{**base, **fields}, took_ms=round((time.perf_counter() - started) * 1000, 1))

        if rewrite and rewrite.clarify and self.routing:
            return done(route="clarify", clarifying_question=rewrite.clarify, message=rewrite.clarify)
        # A rewritten question stands alone: referring words in it no longer point at the conversation.
        decision = decide(evidence, hits, confidence=confidence, threshold=self.threshold if self.routing else 0.0,
                          has_history=bool(history) and not (rewrite and rewrite.changed))
        base["evidence"]["reason"] = decision.reason
        if decision.route == "clarify" and self.routing:
            return done(route="clarify", clarifying_question=decision.clarifying_question,
                        message=decision.clarifying_question)
        if decision.route == "abstain" and evidence.question.injection:
            return done(route="abstain", message=INJECTION_MESSAGE)
        if decision.route == "abstain" and self.routing:
            return self._fallback(session, question, evidence, done)
        if progress is not None:
            progress("route", {"route": "answer", "confidence": confidence})
        context = self._context(session, hits)
        with tracer.start_as_current_span("rag.generate") as span:
            span.set_attributes({"gen_ai.operation.name": "chat", "gen_ai.system": self.generator.name,
                                 "gen_ai.request.model": self.generator.model or "",
                                 "rag.context_chunks": len(context)})
            if context is hits:
                draft = self.generator.answer(query.text, hits, evidence=evidence)
            else:
                # Evidence was weighed on the chunks; with parent sections the generator picks from the larger context.
                wider = assess(query, context, self.vectors, owner=owner) if self.generator.reads_evidence else None
                if wider is not None:
                    wider.asked = question
                draft = self.generator.answer(query.text, context, evidence=wider)
            span.set_attributes({"gen_ai.response.model": draft.model or "",
                                 **{f"gen_ai.usage.{k}": v for k, v in draft.usage.items()
                                    if k in ("input_tokens", "output_tokens") and isinstance(v, int)},
                                 **({"gen_ai.response.finish_reasons": [draft.stop_reason]} if draft.stop_reason else {})})
        with tracer.start_as_current_span("rag.cite"):
            draft = cite_pages(session, draft, hits, [] if context is hits else context)
        base.update(generator=draft.generator, model=draft.model)
        if draft.refused:
            return done(route="abstain", message="The model declined to answer this question.")
        if draft.abstained or not draft.sentences:
            return done(route="abstain", message=ABSTAIN_MESSAGE)
        # Every retrieved chunk stays citable: a hit whose section another hit already brought is not in context.
        shown = {h.chunk_id for h in context}
        citable = [*context, *(h for h in hits if h.chunk_id not in shown)]
        # The kind of answer and the strict terms are the user's question's, not the history searched with it.
        with tracer.start_as_current_span("rag.ground") as span:
            grounding = check(draft, citable, system_prompt=SYSTEM_PROMPT, support=self.support,
                              question=profile(question, owner) if history else evidence.question)
            span.set_attributes({"rag.grounding.passed": grounding.passed,
                                 "rag.grounding.failed_check": grounding.failed_check or ""})
        if grounding.passed or not self.routing:
            lacking = f"The documents don't cover {' or '.join(weighed.lacking)}." if weighed and weighed.lacking else ""
            return done(route="answer", answer=draft.sentences, grounding=grounding, message=lacking,
                        sources=cited(draft.sentences))
        return done(route="answer", grounding=grounding, message=UNVERIFIED_MESSAGE)

    def depth(self, question: str) -> int:
        """How many hits the answer step reads: context_chunks, or twice that for a comparison, so each side's best
        passages are there to choose from (`context.balanced`) and each document named is among the titles."""
        return self.context_chunks * (2 if compares(question) else 1)

    def _confidence(self, evidence: Evidence) -> float:
        """The learned probability that the passages answer, else the hand-set evidence score."""
        return self.answerability.probability(evidence) if self.answerability else evidence.confidence

    def _context(self, session: Session, hits: list[Hit]) -> list[Hit]:
        if self.parent_plan is None or not hits or self.tokenizer is None:
            return hits
        return parents(session, hits, self.tokenizer, self.parent_plan)

    def _fallback(self, session: Session, question: str, evidence: Evidence, done) -> Response:
        if self.web is None or not allowed_for(session):
            return done(route="abstain", message=ABSTAIN_MESSAGE)
        reason = internal_reason(question, evidence, session.tenant)
        if reason:
            return done(route="abstain", message=ABSTAIN_MESSAGE, evidence={**evidence.features(), "web_withheld": reason})
        try:
            results, error = self.web.search(question), None
        except WebSearchError as exc:
            results, error = [], str(exc)
        log_fallback(session, question, self.web.name, len(results), error)
        if not results:
            return done(route="abstain", message=ABSTAIN_MESSAGE)
        return done(route="web", web_results=results, message=WEB_MESSAGE)


def cited(sentences) -> list[Source]:
    """The sources an answer cites, each once, in the order they are first cited, with the quote and its own pages."""
    seen: dict[tuple, Source] = {}
    for sentence in sentences:
        for src in sentence.sources:
            seen.setdefault((src.chunk_id, src.quote), src)
    return list(seen.values())
