"""Search over the ingested sample corpus through the serving role: legs, fusion, filters, citations."""

import datetime as dt
import math

import pytest

from rag_serving.models.embedders import HashedTfidf
from rag_serving.search.fusion import rrf
from rag_serving.search.hits import Filters
from rag_serving.search.legs import IndexModelMismatch
from rag_serving.store import bootstrap as db
from rag_serving.store.sessions import Tenant
from tests.searching import legs

ACME_HQ = Tenant("acme", ("hq",))


@pytest.fixture(scope="module")
def search(corpus_app_db, minilm):
    return legs(corpus_app_db, minilm)


def test_part_number_is_found_by_the_bm25_leg(search):
    hits = search(ACME_HQ, "X200-PSU-04", mode="sparse", k=5)
    assert hits[0].source_path == "product-manual-x200.pdf"
    assert "X200-PSU-04" in hits[0].body


def test_paraphrase_without_shared_words_is_found_by_the_dense_leg(search):
    hits = search(ACME_HQ, "How much time off do new mothers and fathers get?", mode="dense", k=5)
    assert any("parental leave" in h.body.lower() for h in hits)


def test_ts_rank_cd_is_available_as_the_second_sparse_option(search):
    hits = search(ACME_HQ, "condenser fan replacement interval", mode="sparse", sparse="tsrank", k=5)
    assert hits and hits[0].source_path == "product-manual-x200.pdf"


def test_hits_cite_printed_page_labels_and_link_the_physical_page(search, corpus_db):
    hits = search(ACME_HQ, "parental leave weeks full-time staff", k=3,
                            filters=Filters(documents=["employee-handbook-2025.pdf"]))
    top = hits[0]
    assert "16 weeks" in top.body
    with db.connect(corpus_db) as conn:
        label = conn.execute("SELECT page_label FROM pages WHERE document_id = %s AND page_index = %s",
                             (top.document_id, top.page_start)).fetchone()["page_label"]
    assert top.page_label_start == label and label != str(top.page_start)  # roman front matter shifts labels
    assert top.link == f"employee-handbook-2025.pdf#page={top.page_start}"
    assert top.pages in (f"p. {label}", f"pp. {label}–{top.page_label_end}")


def test_hybrid_in_sql_equals_python_rrf_of_the_two_legs(search):
    question = "expense approval threshold for directors"
    dense = search(ACME_HQ, question, mode="dense", k=50)
    sparse = search(ACME_HQ, question, mode="sparse", k=50)
    legs = [[h.chunk_id for h in dense], [h.chunk_id for h in sparse]]
    ranks = [[h.dense_rank for h in dense], [h.sparse_rank for h in sparse]]
    hybrid = search(ACME_HQ, question, mode="hybrid", k=10)
    # A full tie (an unchanged paragraph of two editions, one rank in each leg) goes to the newer edition in SQL;
    # `rrf` knows no dates and breaks it by id, so the expected order adds the date before the id.
    dense_rank = {h.chunk_id: h.dense_rank for h in dense}
    sparse_rank = {h.chunk_id: h.sparse_rank for h in sparse}
    published = {h.chunk_id: h.published_on.toordinal() for h in dense + sparse}

    def order(item):
        chunk, score = item
        first, other = dense_rank.get(chunk, math.inf), sparse_rank.get(chunk, math.inf)
        return -score, min(first, other), first, -published[chunk], chunk

    fused = sorted(rrf(legs, ranks=ranks), key=order)
    expected = [doc for doc, _ in fused[:10]]
    assert [h.chunk_id for h in hybrid] == expected
    assert hybrid[0].score == pytest.approx(dict(rrf(legs, ranks=ranks))[expected[0]])


def test_kind_filter_applies_inside_both_legs(search):
    hits = search(ACME_HQ, "password length", k=10, filters=Filters(kinds=["handbook"]))
    assert hits and all(h.kind == "handbook" for h in hits)


def test_year_filter_keeps_only_that_edition(search):
    hits = search(ACME_HQ, "parental leave", k=10, filters=Filters(year=2024))
    assert hits and all(h.published_on.year == 2024 for h in hits)
    assert all(h.source_path != "employee-handbook-2025.pdf" for h in hits)


def test_published_range_filter(search):
    hits = search(ACME_HQ, "parental leave", k=10,
                            filters=Filters(published_from=dt.date(2025, 1, 1), published_to=dt.date(2025, 12, 31)))
    assert hits and {h.source_path for h in hits} == {"employee-handbook-2025.pdf"}


def test_section_filter_is_a_heading_path_prefix(search):
    hits = search(ACME_HQ, "insurance", k=10, filters=Filters(section="3 Benefits"))
    assert hits and all(h.heading_path.startswith("3 Benefits") for h in hits)


def test_index_built_with_another_model_is_refused(corpus_app_db):
    other = legs(corpus_app_db, HashedTfidf())
    with pytest.raises(IndexModelMismatch, match="index was built with all-MiniLM-L6-v2/onnx-int8/.* but queries embed with hashed-tfidf"):
        other(ACME_HQ, "parental leave", mode="dense")


def test_sparse_only_search_does_not_need_the_index_model(corpus_app_db):
    assert legs(corpus_app_db, HashedTfidf())(ACME_HQ, "X200-PSU-04", mode="sparse", k=1)


def test_inverted_date_range_is_rejected():
    with pytest.raises(ValueError, match="published_from is after published_to"):
        Filters(published_from=dt.date(2025, 1, 1), published_to=dt.date(2024, 1, 1))


def test_identical_passages_of_two_editions_share_each_legs_rank(search):
    # An unchanged paragraph of the 2024 and 2025 handbooks: neither leg may tell the two apart by their ids.
    hits = search(ACME_HQ, "how do I report an accident or a near miss at work", mode="hybrid", k=30)
    by_body: dict[str, list] = {}
    for h in hits:
        by_body.setdefault(h.body, []).append(h)
    pairs = [same for same in by_body.values() if len(same) == 2]
    assert pairs
    for a, b in pairs:
        assert {a.title, b.title} == {"Employee Handbook 2024", "Employee Handbook 2025"}
        assert (a.dense_rank, a.sparse_rank, a.score) == (b.dense_rank, b.sparse_rank, b.score)
