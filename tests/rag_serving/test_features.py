"""Ranking features: hand-worked span and BM25, and agreement with the sparse leg on the ingested sample corpus."""

import pytest

from rag_serving.database import Tenant
from rag_serving.features import FEATURES, FeatureExtractor, bm25, shortest_span
from rag_serving.late_interaction import MaxSimReranker
from rag_serving.retrieval import Retriever

ACME_HQ = Tenant("acme", ("hq",))


def test_shortest_span_holds_one_position_of_every_term():
    # {1, 4, 6} spans 6 positions; {4, 6, 10} spans 7; nothing shorter holds all three.
    assert shortest_span([[1, 10], [4], [6, 20]]) == 6


def test_shortest_span_of_a_single_term_is_one_position():
    assert shortest_span([[3, 9]]) == 1


def test_bm25_matches_the_okapi_formula_worked_by_hand():
    # tf 2, idf 1, length = avgdl: norm = 1.2 · (0.25 + 0.75) = 1.2; 1 · 2 · 2.2 / (2 + 1.2) = 1.375
    assert bm25([2], [1.0], 10, 10, 1.2, 0.75) == pytest.approx(1.375)


@pytest.fixture(scope="module")
def extractor(minilm):
    return FeatureExtractor(minilm, MaxSimReranker(minilm))


def test_bm25_feature_equals_the_sparse_legs_score_for_the_same_chunks(corpus_app_db, minilm, extractor):
    retriever = Retriever(corpus_app_db, minilm)
    question = "condenser fan replacement interval"
    hits = retriever.search(ACME_HQ, question, mode="sparse", k=8)
    with corpus_app_db.tenant(ACME_HQ) as conn:
        x = extractor.matrix(conn, question, hits)
    column = FEATURES.index("bm25")
    assert [round(v, 6) for v in x[:, column]] == [round(h.sparse_score, 6) for h in hits]


def test_relative_features_put_the_best_candidate_at_the_top(corpus_app_db, minilm, extractor):
    hits = Retriever(corpus_app_db, minilm).search(ACME_HQ, "parental leave weeks", k=10)
    with corpus_app_db.tenant(ACME_HQ) as conn:
        x = extractor.matrix(conn, "parental leave weeks", hits)
    assert x.shape == (10, len(FEATURES))
    assert x[:, FEATURES.index("bm25_rel")].max() == pytest.approx(1.0)
    assert x[:, FEATURES.index("cosine_gap")].max() == pytest.approx(0.0)
    assert x[:, FEATURES.index("fused_rank")].tolist()[:2] == [1.0, 0.5]
    assert ((x[:, FEATURES.index("idf_coverage")] >= 0) & (x[:, FEATURES.index("idf_coverage")] <= 1)).all()


def test_features_of_another_tenants_question_see_only_that_tenants_statistics(corpus_app_db, extractor):
    # IDF comes from bm25_stats and postings under row-level security: a tenant with no chunks sees N = 0.
    with corpus_app_db.tenant(Tenant("nobody", ("none",))) as conn:
        terms, _ = extractor.terms(conn, "parental leave")
        n = conn.execute("SELECT coalesce(sum(chunks), 0) AS n FROM bm25_stats").fetchone()["n"]
    assert n == 0 and {t.lexeme for t in terms} == {"parent", "leav"}
