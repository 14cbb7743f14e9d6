"""The one place a pipeline spec becomes the running stack: the API, every CLI command, the Dagster assets and the benchmarks build through here."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rag_serving.answer.answerability import LearnedAnswerability
from rag_serving.answer.answerer import Answerer, Progress
from rag_serving.answer.generators import AnthropicGenerator, ExtractiveGenerator, Generator, OpenAICompatibleGenerator
from rag_serving.answer.parents import ParentPlan
from rag_serving.answer.responses import Response
from rag_serving.answer.selection import LearnedSelection
from rag_serving.answer.vectors import SentenceVectors
from rag_serving.answer.websearch import SearxngSearch, WebSearch
from rag_serving.models.artefacts import ArtefactError
from rag_serving.models.embedders import Embedder, get_embedder
from rag_serving.models.tokenization import load_tokenizer
from rag_serving.search.expansion import Expander, Hyde, MultiQuery, Synonyms
from rag_serving.search.hits import Filters, Hit
from rag_serving.search.legs import Retriever
from rag_serving.search.pipeline import Searcher, SearchPlan
from rag_serving.search.rerankers import CandidateScorer
from rag_serving.search.rewriting import Rewriter
from rag_serving.spec import Mode, PipelineSpec, Sparse, WiringError
from rag_serving.store.bootstrap import bootstrap
from rag_serving.store.sessions import Database, Tenant, app_url

DEFAULT_CLAUDE = "claude-opus-5-5"
HELPER_MAX_TOKENS = 200


@dataclass
class Pipeline:
    """A spec, running: what callers ask. Each call opens one tenant session and passes it down."""

    spec: PipelineSpec
    database: Database
    searcher: Searcher
    answerer: Answerer

    @property
    def embedder(self) -> Embedder:
        return self.searcher.embedder

    @property
    def retriever(self) -> Retriever:
        return self.searcher.retriever

    def ask(self, tenant: Tenant, question: str, *, history: Sequence[str] = (),
            filters: Filters | None = None, progress: Progress | None = None) -> Response:
        """progress, if given, hears the route before the answer is generated (streamed by the API)."""
        with self.database.session(tenant) as session:
            return self.answerer.ask(session, question, history=history, filters=filters, progress=progress)

    def search(self, tenant: Tenant, question: str, *, k: int = 10, filters: Filters | None = None,
               rerank: bool = True, mode: Mode | None = None, sparse: Sparse | None = None) -> list[Hit]:
        """The spec's search (expansion, reranker, MMR); with rerank=False, or another mode or sparse leg than the
        spec's, the legs alone."""
        mode, sparse = mode or self.spec.mode, sparse or self.spec.sparse
        query = self.searcher.query(question)
        with self.database.session(tenant) as session:
            if rerank and (mode, sparse) == (self.spec.mode, self.spec.sparse):
                return self.searcher.search(session, query, k=k, filters=filters)
            return self.retriever.search(session, query, k=k, mode=mode, sparse=sparse, filters=filters)


def learned(model: type, embedder_model: str, fallback: str):
    """A shipped model, or one line saying why it cannot serve these queries and which setting does without it."""
    try:
        return model(embedder_model)
    except ArtefactError as exc:
        raise WiringError(f"{exc}; set {fallback} to do without it") from exc


class Wiring:
    """Builds pipelines over one database and one embedder. Adapters that several specs share (a reranker model, the
    synonyms file, the helper model, the sentence-vector cache) are built once, so an ablation's rows differ only in
    what their specs say. Wiring happens at start-up, before requests run."""

    def __init__(self, database: Database, embedder: Embedder, *, api_key: str | None = None):
        self.database, self.embedder, self.api_key = database, embedder, api_key
        self.vectors = SentenceVectors(embedder)
        self._shared: dict[tuple, object] = {}

    def _once(self, key: tuple, build: Callable[[], object]):
        if key not in self._shared:
            self._shared[key] = build()
        return self._shared[key]

    def pipeline(self, spec: PipelineSpec) -> Pipeline:
        retriever = Retriever(self.embedder, k1=spec.bm25_k1, b=spec.bm25_b, candidates=spec.candidates,
                              ann=spec.bm25_ann)
        generator = self.generator(spec)
        helper = self.helper(spec, generator)
        searcher = Searcher(retriever, SearchPlan(mode=spec.mode, sparse=spec.sparse, depth=spec.rerank_depth,
                                                  reranker=self.reranker(spec), expanders=self.expanders(spec, helper),
                                                  mmr_lambda=spec.mmr_lambda, editions=spec.editions,
                                                  contents_last=spec.contents_last))
        if spec.rewrite and helper is None:
            raise WiringError("rewriting needs a helper model: set RAG_HELPER_URL or a generative RAG_GENERATOR")
        answerer = Answerer(
            searcher, generator, self.vectors, threshold=spec.threshold, context_chunks=spec.k, routing=spec.routing,
            web=self.web(spec), rewriter=Rewriter(helper) if spec.rewrite else None,
            parent_plan=ParentPlan() if spec.parents else None,
            tokenizer=(self.embedder.tokenizer or load_tokenizer()) if spec.parents else None, pipeline=spec.digest,
            answerability=self.answerability(spec))
        return Pipeline(spec, self.database, searcher, answerer)

    def answerability(self, spec: PipelineSpec) -> LearnedAnswerability | None:
        if spec.answerability == "formula":
            return None
        return self._once(("answerability",), lambda: learned(LearnedAnswerability, self.embedder.model,
                                                              "RAG_ANSWERABILITY=formula"))

    def reranker(self, spec: PipelineSpec) -> CandidateScorer | None:
        name = spec.reranker
        if name == "none":
            return None
        if name == "learned":
            from rag_serving.search.learned import LearnedReranker

            return self._once(("learned", spec.bm25_k1, spec.bm25_b),
                              lambda: LearnedReranker(self.embedder, k1=spec.bm25_k1, b=spec.bm25_b))
        if name == "maxsim":
            from rag_serving.search.late_interaction import MaxSimReranker

            return self._once(("maxsim",), lambda: MaxSimReranker(self.embedder))
        from rag_serving.search.rerankers import CrossEncoderReranker, TeiReranker, TextScorer

        if name == "tei":
            return self._once(("tei", spec.reranker_url), lambda: TextScorer(TeiReranker(spec.reranker_url)))
        return self._once(("cross-encoder", spec.reranker_path),
                          lambda: TextScorer(CrossEncoderReranker(spec.reranker_path)))

    def generator(self, spec: PipelineSpec) -> Generator:
        if spec.generator == "extractive":
            chooser = self._once(("selection",), lambda: learned(LearnedSelection, self.embedder.model,
                                                                 "RAG_SELECTION=formula")) \
                if spec.selection == "learned" else None
            return self._once(("extractive", spec.selection), lambda: ExtractiveGenerator(self.vectors, selection=chooser))
        if spec.generator == "anthropic":
            return self._once(("anthropic", spec.model, spec.generator_url, spec.max_answer_tokens),
                              lambda: AnthropicGenerator(spec.model or DEFAULT_CLAUDE, base_url=spec.generator_url,
                                                         api_key=self.api_key, max_tokens=spec.max_answer_tokens))
        return self._once(("openai", spec.model, spec.generator_url, spec.max_answer_tokens),
                          lambda: OpenAICompatibleGenerator(spec.model or "local", base_url=spec.generator_url,
                                                            api_key=self.api_key, max_tokens=spec.max_answer_tokens))

    def helper(self, spec: PipelineSpec, generator: Generator) -> Generator | None:
        """The model that rewrites and expands questions: RAG_HELPER_URL (OpenAI-compatible) if set, else the answer
        generator when it writes free text, else None."""
        if spec.helper_url:
            return self._once(("helper", spec.helper_url, spec.helper_model),
                              lambda: OpenAICompatibleGenerator(spec.helper_model or "local", base_url=spec.helper_url,
                                                                api_key=self.api_key, max_tokens=HELPER_MAX_TOKENS))
        return None if generator.name == "extractive" else generator

    def expanders(self, spec: PipelineSpec, helper: Generator | None) -> tuple[Expander, ...]:
        out: list[Expander] = []
        for name in spec.expand:
            if name == "synonyms":
                out.append(self._once(("synonyms", spec.synonyms), lambda: Synonyms.load(Path(spec.synonyms))))
            elif helper is None:
                raise WiringError(f"the {name} expansion needs a helper model: set RAG_HELPER_URL or a generative "
                                  "RAG_GENERATOR")
            else:
                out.append(MultiQuery(helper) if name == "multi-query" else Hyde(helper))
        return tuple(out)

    def web(self, spec: PipelineSpec) -> WebSearch | None:
        if spec.web_search == "off":
            return None
        return self._once(("searxng", spec.searxng_url), lambda: SearxngSearch(spec.searxng_url))


def embedder_for(settings) -> Embedder:
    return get_embedder(settings.embedder, tei_url=settings.tei_url, threads=settings.embed_threads)


def serving_database(settings, *, max_size: int = 8, server_url: str | None = None) -> Database:
    """The serving role's pool. With RAG_APP_DATABASE_URL it connects there and nothing else: a serving replica needs
    no owner credentials (migrations are the owner's job). Without it, the configured server is started if embedded,
    created and migrated, and the pool connects to it as rag_app."""
    if settings.app_database_url and server_url is None:
        return Database(settings.app_database_url, max_size=max_size)
    return Database(app_url(settings.app_database_url, server_url or bootstrap(settings)), max_size=max_size)


def from_settings(settings, *, database: Database | None = None, embedder: Embedder | None = None,
                  spec: PipelineSpec | None = None) -> Pipeline:
    """The pipeline the settings describe (or spec, a variant of it) on their database and embedder."""
    wiring = Wiring(database or serving_database(settings), embedder or embedder_for(settings),
                    api_key=settings.generator_api_key)
    return wiring.pipeline(spec or settings.pipeline())
