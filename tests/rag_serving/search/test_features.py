"""Ranking features: hand-worked span and BM25, and agreement with the sparse leg on the ingested sample corpus."""

import pytest

from rag_serving.search.features import FEATURES, FeatureExtractor, shortest_span
from rag_serving.search.late_interaction import MaxSimReranker
from rag_serving.search.query import Query
from rag_serving.store.sessions import Tenant
from tests.searching import legs

ACME_HQ = Tenant("acme", ("hq",))


def test_shortest_span_holds_one_position_of_every_term():
    # {1, 4, 6} spans 6 positions; {4, 6, 10} spans 7; nothing shorter holds all three.
    assert shortest_span([[1, 10], [4], [6, 20]]) == 6


def test_shortest_span_of_a_single_term_is_one_position():
    assert shortest_span([[3, 9]]) == 1


@pytest.fixture(scope="module")
def extractor(minilm):
    return FeatureExtractor(MaxSimReranker(minilm))


def test_bm25_feature_equals_the_sparse_legs_score_for_the_same_chunks(corpus_app_db, minilm, extractor):
    question = "condenser fan replacement interval"
    hits = legs(corpus_app_db, minilm)(ACME_HQ, question, mode="sparse", k=8)
    with corpus_app_db.session(ACME_HQ) as session:
        x = extractor.matrix(session, Query(question, minilm), hits)
    column = FEATURES.index("bm25")
    assert [round(v, 6) for v in x[:, column]] == [round(h.sparse_score, 6) for h in hits]


def test_relative_features_put_the_best_candidate_at_the_top(corpus_app_db, minilm, extractor):
    hits = legs(corpus_app_db, minilm)(ACME_HQ, "parental leave weeks", k=10)
    with corpus_app_db.session(ACME_HQ) as session:
        x = extractor.matrix(session, Query("parental leave weeks", minilm), hits)
    assert x.shape == (10, len(FEATURES))
    assert x[:, FEATURES.index("bm25_rel")].max() == pytest.approx(1.0)
    assert x[:, FEATURES.index("cosine_gap")].max() == pytest.approx(0.0)
    assert x[:, FEATURES.index("fused_rank")].tolist()[:2] == [1.0, 0.5]
    assert ((x[:, FEATURES.index("idf_coverage")] >= 0) & (x[:, FEATURES.index("idf_coverage")] <= 1)).all()


def test_features_of_another_tenants_question_see_only_that_tenants_statistics(corpus_app_db, minilm):
    # IDF comes from bm25_stats and postings under row-level security: a tenant with no chunks sees N = 0.
    with corpus_app_db.session(Tenant("nobody", ("none",))) as session:
        terms = Query("parental leave", minilm).terms(session)
    assert terms.n == 0 and set(terms.idf) == {"parent", "leav"}
