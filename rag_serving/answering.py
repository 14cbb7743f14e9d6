"""Question to response: retrieve, weigh the evidence, route, generate, run the grounding check, and fall back to the web only where allowed."""

from __future__ import annotations

import time
from collections.abc import Sequence

from .answers import ABSTAIN_MESSAGE, UNVERIFIED_MESSAGE, Response, Source
from .config import DEFAULT_ANSWER_THRESHOLD
from .database import Tenant
from .embedders import Embedder
from .evidence import assess
from .expansion import Hyde, MultiQuery, Synonyms
from .generators import SYSTEM_PROMPT, Generator, generator_from_settings
from .grounding import SupportCheck, check
from .retrieval import Filters, Hit, Mode, Retriever
from .parents import ParentPlan, parents, pin_pages
from .rewriting import Rewrite, Rewriter
from .routing import INJECTION_MESSAGE, decide
from .search import SearchPlan, Searcher, reranker_from_name
from .tokenization import load_tokenizer
from .websearch import SearxngSearch, WebSearch, WebSearchError, allowed_for, internal_reason, log_fallback

WEB_MESSAGE = "The documents don't cover this. These web results may help; they are not from your documents."


def search_text(question: str, history: Sequence[str]) -> str:
    """Without a rewriter, a follow-up is searched with its history prepended."""
    return " ".join([*history, question]) if history else question


class Answerer:
    def __init__(self, retriever: Retriever, generator: Generator, embedder: Embedder, *,
                 threshold: float = DEFAULT_ANSWER_THRESHOLD, context_chunks: int = 5, mode: Mode = "hybrid",
                 abstain: bool = True, web: WebSearch | None = None, support: SupportCheck | None = None,
                 searcher: Searcher | None = None, rewriter: Rewriter | None = None,
                 parent_plan: ParentPlan | None = None):
        self.retriever, self.generator, self.embedder = retriever, generator, embedder
        self.threshold, self.context_chunks, self.mode = threshold, context_chunks, mode
        self.abstain, self.web, self.support = abstain, web, support
        self.searcher = searcher or Searcher(retriever, SearchPlan(mode=mode))
        self.rewriter = rewriter
        self.parent_plan = parent_plan  # None: the generator reads the hit chunks themselves

    def ask(self, tenant: Tenant, question: str, *, history: Sequence[str] = (), filters: Filters | None = None) -> Response:
        started = time.perf_counter()
        rewrite = self.rewriter.rewrite(question, history) if self.rewriter and history else None
        query = rewrite.question if rewrite else search_text(question, history)
        hits = [] if rewrite and rewrite.clarify else self.searcher.search(tenant, query, k=self.context_chunks,
                                                                           filters=filters)
        return self.respond(tenant, question, hits, history=history, started=started, rewrite=rewrite)

    def respond(self, tenant: Tenant, question: str, hits: Sequence[Hit], *, history: Sequence[str] = (),
                started: float | None = None, rewrite: Rewrite | None = None) -> Response:
        """The response to question given its retrieved chunks (best first; the first context_chunks are used).
        With a rewrite, evidence is weighed against the standalone question, and a CLARIFY reply is asked back."""
        started = time.perf_counter() if started is None else started
        text = rewrite.question if rewrite else search_text(question, history)
        hits = list(hits[: self.context_chunks])
        evidence = assess(text, hits, self.embedder)
        closest = [Source.of(h, h.body[:300]) for h in hits[:3]]
        base = {"question": question, "confidence": evidence.confidence, "sources": closest,
                "evidence": evidence.features(), "generator": self.generator.name, "model": self.generator.model}
        if rewrite:
            base["evidence"]["rewrite"] = {"question": rewrite.question, "clarify": rewrite.clarify,
                                           "error": rewrite.error}

        def done(**fields) -> Response:
            return Response(**{**base, **fields}, took_ms=round((time.perf_counter() - started) * 1000, 1))

        if rewrite and rewrite.clarify and self.abstain:
            return done(route="clarify", clarifying_question=rewrite.clarify, message=rewrite.clarify)
        # A rewritten question stands alone: referring words in it no longer point at the conversation.
        decision = decide(evidence, hits, threshold=self.threshold if self.abstain else 0.0,
                          has_history=bool(history) and not (rewrite and rewrite.changed))
        base["evidence"]["reason"] = decision.reason
        if decision.route == "clarify" and self.abstain:
            return done(route="clarify", clarifying_question=decision.clarifying_question,
                        message=decision.clarifying_question)
        if decision.route == "abstain" and evidence.question.injection:
            return done(route="abstain", message=INJECTION_MESSAGE)
        if decision.route == "abstain" and self.abstain:
            return self._fallback(tenant, question, evidence, done)
        context = self._context(tenant, hits)
        # Evidence was weighed on the chunks; with parent sections the generator picks from the larger context.
        draft = self.generator.answer(text, context, evidence=None if context is not hits else evidence)
        if context is not hits:
            with self.retriever.db.tenant(tenant) as conn:
                draft = pin_pages(conn, draft, hits, context)
        base.update(generator=draft.generator, model=draft.model)
        if draft.refused:
            return done(route="abstain", message="The model declined to answer this question.")
        if draft.abstained or not draft.sentences:
            return done(route="abstain", message=ABSTAIN_MESSAGE)
        # Every retrieved chunk stays citable: a hit whose section another hit already brought is not in context.
        shown = {h.chunk_id for h in context}
        citable = [*context, *(h for h in hits if h.chunk_id not in shown)]
        grounding = check(draft, citable, system_prompt=SYSTEM_PROMPT, support=self.support)
        if grounding.passed or not self.abstain:
            return done(route="answer", answer=draft.sentences, grounding=grounding)
        return done(route="answer", grounding=grounding, message=UNVERIFIED_MESSAGE)

    def _context(self, tenant: Tenant, hits: list[Hit]) -> list[Hit]:
        if self.parent_plan is None or not hits:
            return hits
        tokenizer = self.embedder.tokenizer or load_tokenizer()
        with self.retriever.db.tenant(tenant) as conn:
            return parents(conn, hits, tokenizer, self.parent_plan)

    def _fallback(self, tenant: Tenant, question: str, evidence, done) -> Response:
        if self.web is None:
            return done(route="abstain", message=ABSTAIN_MESSAGE)
        with self.retriever.db.tenant(tenant) as conn:
            if not allowed_for(conn, tenant):
                return done(route="abstain", message=ABSTAIN_MESSAGE)
            reason = internal_reason(question, evidence, tenant)
            if reason:
                evidence_notes = {**evidence.features(), "web_withheld": reason}
                return done(route="abstain", message=ABSTAIN_MESSAGE, evidence=evidence_notes)
            try:
                results, error = self.web.search(question), None
            except WebSearchError as exc:
                results, error = [], str(exc)
            log_fallback(conn, tenant, question, self.web.name, len(results), error)
        if not results:
            return done(route="abstain", message=ABSTAIN_MESSAGE)
        return done(route="web", web_results=results, message=WEB_MESSAGE)


def web_search_from_settings(settings) -> WebSearch | None:
    if settings.web_search in ("", "off"):
        return None
    if settings.web_search == "searxng":
        if not settings.searxng_url:
            raise ValueError("RAG_WEB_SEARCH=searxng needs RAG_SEARXNG_URL")
        return SearxngSearch(settings.searxng_url)
    raise ValueError(f"RAG_WEB_SEARCH={settings.web_search!r} is not one of: off, searxng")


def helper_from_settings(settings, generator: Generator) -> Generator | None:
    """The model that rewrites and expands questions: RAG_HELPER_URL (OpenAI-compatible) if set, else the answer
    generator when it can write free text, else None (rewriting and model-based expansion are then skipped)."""
    from .generators import OpenAICompatibleGenerator

    if settings.helper_url:
        return OpenAICompatibleGenerator(settings.helper_model or "local", base_url=settings.helper_url,
                                         api_key=settings.generator_api_key, max_tokens=200)
    return None if generator.name == "extractive" else generator


def searcher_from_settings(settings, retriever: Retriever, helper: Generator | None = None) -> Searcher:
    """The search pipeline the environment describes (RAG_RERANKER, RAG_EXPAND, RAG_SYNONYMS, RAG_MMR_LAMBDA)."""
    expanders = []
    for name in settings.expand:
        if name == "synonyms":
            if settings.synonyms:
                expanders.append(Synonyms.load(settings.synonyms))
        elif name in ("multi-query", "hyde"):
            if helper is not None:
                expanders.append(MultiQuery(helper) if name == "multi-query" else Hyde(helper))
        else:
            raise ValueError(f"RAG_EXPAND: unknown expansion {name!r}; choose from synonyms, multi-query, hyde")
    reranker = reranker_from_name(settings.reranker, retriever, tei_url=settings.reranker_url,
                                  path=settings.reranker_path)
    return Searcher(retriever, SearchPlan(depth=settings.rerank_depth, reranker=reranker, expanders=tuple(expanders),
                                          mmr_lambda=settings.mmr_lambda))


def answerer_from_settings(settings, retriever: Retriever) -> Answerer:
    """The Answerer the environment describes: search pipeline, generator, rewriting, parent sections, threshold,
    context size and web fallback."""
    generator = generator_from_settings(settings, retriever.embedder)
    helper = helper_from_settings(settings, generator)
    return Answerer(retriever, generator, retriever.embedder,
                    threshold=settings.answer_threshold, context_chunks=settings.context_chunks,
                    web=web_search_from_settings(settings), searcher=searcher_from_settings(settings, retriever, helper),
                    rewriter=Rewriter(helper) if settings.rewrite and helper is not None else None,
                    parent_plan=ParentPlan() if settings.parents else None)
