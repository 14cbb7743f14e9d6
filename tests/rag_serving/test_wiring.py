"""The one wiring module: a spec becomes its stack; specs share adapters; what a spec needs and cannot have is refused."""

import pytest

from rag_serving.models.tei_server import create_tei_app
from rag_serving.search.learned import LearnedReranker
from rag_serving.search.rerankers import TeiReranker, TextScorer
from rag_serving.settings import load_settings
from rag_serving.spec import DEFAULT_SPEC, PipelineSpec
from rag_serving.wiring import Wiring, WiringError, from_settings
from tests.servers import serve


def test_the_stack_carries_what_the_spec_says(corpus_app_db, minilm):
    spec = PipelineSpec(mode="hybrid", candidates=40, bm25_k1=1.4, bm25_b=0.6, rerank_depth=30, k=4, threshold=0.7,
                        mmr_lambda=0.5, parents=True)
    p = Wiring(corpus_app_db, minilm).pipeline(spec)
    r, plan, a = p.retriever, p.searcher.plan, p.answerer
    assert (r.candidates, r.k1, r.b) == (40, 1.4, 0.6)
    assert (plan.mode, plan.depth, plan.mmr_lambda) == ("hybrid", 30, 0.5)
    assert isinstance(plan.reranker, LearnedReranker) and (plan.reranker.features.k1, plan.reranker.features.b) == (1.4, 0.6)
    assert (a.context_chunks, a.threshold, a.routing, a.pipeline) == (4, 0.7, True, spec.digest)
    assert a.parent_plan is not None and a.tokenizer is not None


def test_settings_build_the_spec_they_describe_and_each_response_names_it(corpus_app_db, minilm):
    from rag_serving.store.sessions import Tenant

    settings = load_settings({"RAG_CANDIDATES": "60", "RAG_ANSWER_THRESHOLD": "0.5"})
    p = from_settings(settings, database=corpus_app_db, embedder=minilm)
    assert p.spec == settings.pipeline() and p.spec.candidates == 60
    response = p.ask(Tenant("acme", ("hq",)), "How many weeks of parental leave do full-time staff get?")
    assert response.pipeline == settings.pipeline().digest


def test_specs_share_the_adapters_they_have_in_common(corpus_app_db, minilm):
    wiring = Wiring(corpus_app_db, minilm)
    a = wiring.pipeline(DEFAULT_SPEC)
    b = wiring.pipeline(DEFAULT_SPEC.replace(mmr_lambda=0.7, routing=False))
    c = wiring.pipeline(DEFAULT_SPEC.replace(bm25_k1=1.5))
    assert a.searcher.plan.reranker is b.searcher.plan.reranker
    assert c.searcher.plan.reranker is not a.searcher.plan.reranker  # its BM25 feature uses other parameters
    assert a.answerer.generator is b.answerer.generator and a.answerer.vectors is b.answerer.vectors


@pytest.mark.parametrize("changes, message", [({"expand": ("multi-query",)}, "the multi-query expansion needs a helper"),
                                              ({"rewrite": True}, "rewriting needs a helper model")])
def test_a_spec_needing_a_helper_model_is_refused_without_one(corpus_app_db, minilm, changes, message):
    with pytest.raises(WiringError, match=message):
        Wiring(corpus_app_db, minilm).pipeline(DEFAULT_SPEC.replace(**changes))


def test_a_tei_reranker_is_a_row_like_any_other(corpus_app_db, minilm):
    from rag_serving.store.sessions import Tenant

    with serve(create_tei_app(minilm), "/info") as base:
        p = Wiring(corpus_app_db, minilm).pipeline(DEFAULT_SPEC.replace(reranker="tei", reranker_url=base, rerank_depth=10,
                                                                          editions=False))
        assert isinstance(p.searcher.plan.reranker, TextScorer)
        assert isinstance(p.searcher.plan.reranker.reranker, TeiReranker)
        hits = p.search(Tenant("acme", ("hq",)), "condenser fan replacement interval", k=5)
    scores = [h.rerank_score for h in hits]
    assert all(0 <= s <= 1 for s in scores) and scores == sorted(scores, reverse=True)


def test_a_serving_replica_with_only_the_app_url_starts_no_server_and_migrates_nothing(corpus_db, tmp_path):
    from psycopg.conninfo import make_conninfo

    from rag_serving.store.sessions import APP_ROLE
    from rag_serving.wiring import serving_database

    settings = load_settings({"RAG_HOME": str(tmp_path / "home"),
                              "RAG_APP_DATABASE_URL": make_conninfo(corpus_db, user=APP_ROLE)})
    database = serving_database(settings, max_size=1)
    try:
        with database.anonymous() as conn:
            assert conn.execute("SELECT current_user AS u").fetchone()["u"] == APP_ROLE
    finally:
        database.close()
    assert not (tmp_path / "home").exists()  # no embedded server was started


def test_a_learned_model_trained_on_another_embedder_stops_the_wiring_naming_the_way_out(corpus_app_db):
    from rag_serving.models.embedders import HashedTfidf

    with pytest.raises(WiringError, match="trained with embedder .* set RAG_ANSWERABILITY=formula"):
        Wiring(corpus_app_db, HashedTfidf()).pipeline(DEFAULT_SPEC.replace(reranker="none"))
