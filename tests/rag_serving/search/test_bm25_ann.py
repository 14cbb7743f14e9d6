"""BM25's approximate top k for big tenants: stored tf parts under HNSW, the rare words' chunks, exact scores."""

import pytest

from rag_assets.evaluation.beir import insert_entries
from rag_serving.models.embedders import HashedTfidf
from rag_serving.search import bm25
from rag_serving.search.hits import Filters
from rag_serving.search.query import Query
from rag_serving.store import bootstrap as db
from rag_serving.store.sessions import Tenant
from tests.rag_serving.search.test_bm25_maxscore import K1, B, load, zipf_corpus  # noqa: F401 - a fixture

GROW = [("z", "Z", "zebras grow"), ("a", "A", "apples grow"), ("c", "C", "cherries grow"),
        ("p", "P", "plums grow"), ("f", "F", "figs grow"), ("l", "L", "limes ripen")]
TINY = Tenant("bench", ("tiny",))


def ann(database, tenant, question, k, filters=None, near=bm25.NEAR):
    """The approximate path on these small corpora too (below EVERY_POSTING_BELOW every posting is read)."""
    with database.session(tenant) as session:
        return bm25.top(session, Query(question, HashedTfidf()), filters or Filters(), k1=K1, b=B, limit=k,
                        ann=True, every_posting_below=0, near=near).rows


def exact(database, tenant, question, k):
    with database.session(tenant) as session:
        return bm25.top(session, Query(question, HashedTfidf()), Filters(), k1=K1, b=B, limit=k, prune=False).rows


def test_a_chunks_stored_vector_holds_its_tf_parts_at_the_average_length(database_url):
    # Nothing of organization "vec" is live yet, so the average length is the chunks' own: (2 + 3) / 2 = 2.5.
    # "zebras grow": tf 1, length 2: 1 · 2.2 / (1 + 1.2 · (0.25 + 0.75 · 2 / 2.5)) = 2.2 / 2.02;
    # "grow grow apples": grow tf 2, length 3: 2 · 2.2 / (2 + 1.2 · (0.25 + 0.75 · 3 / 2.5)) = 4.4 / 3.38.
    embedder = HashedTfidf()
    chunks = [("z", "Z", "zebras grow"), ("g", "G", "grow grow apples")]
    with db.connect(database_url, autocommit=True) as conn:
        insert_entries(conn, chunks, embedder.embed([c[2] for c in chunks]), "r", embedder, "vec")
        ids = {r["term"]: r["id"] for r in conn.execute(
            "SELECT term, bm25_term_id(term) AS id FROM unnest(ARRAY['zebra', 'grow', 'appl']) AS term")}
        rows = {r["id"]: r["v"] for r in conn.execute("SELECT id, bm25_vector::text AS v FROM chunks")}
    def parse(text):
        body, dim = text.split("/")
        assert dim == "1000000000"
        return {int(i): float(w) for i, w in (p.split(":") for p in body.strip("{}").split(","))}
    assert parse(rows["z"]) == pytest.approx({ids["zebra"]: 2.2 / 2.02, ids["grow"]: 2.2 / 2.02}, rel=1e-6)
    assert parse(rows["g"]) == pytest.approx({ids["grow"]: 4.4 / 3.38, ids["appl"]: 2.2 / 2.38}, rel=1e-6)


def test_the_approximate_top_is_the_exact_top_with_exact_scores_on_a_small_corpus(zipf_corpus):  # noqa: F811
    database, questions = zipf_corpus
    for tenant in (Tenant("bench", ("one",)), Tenant("bench", ("one", "two"))):
        for question in questions:
            for k in (1, 10):
                got, want = ann(database, tenant, question, k), exact(database, tenant, question, k)
                assert [r["id"] for r in got] == [r["id"] for r in want], (question, k)
                assert [r["score"] for r in got] == pytest.approx([r["score"] for r in want], abs=1e-9)


def test_a_chunk_holding_a_rare_word_is_a_candidate_without_the_index(database_url, monkeypatch):
    # near = 0 leaves the HNSW index out: the candidates are the chunks of the rare words alone. "zebra" has one
    # posting, "grow" five; a budget of 2,000 postings takes both, a budget of 1 only zebra's, 0 neither.
    database = load(database_url, GROW, "tiny")
    try:
        both = ann(database, TINY, "do zebras grow?", 10, near=0)
        monkeypatch.setattr(bm25, "RARE_POSTINGS", 1)
        zebra = ann(database, TINY, "do zebras grow?", 10, near=0)
        monkeypatch.setattr(bm25, "RARE_POSTINGS", 0)
        neither = ann(database, TINY, "do zebras grow?", 10, near=0)
        want = exact(database, TINY, "do zebras grow?", 10)
    finally:
        database.close()
    assert [(r["id"], r["score"]) for r in both] == [(r["id"], pytest.approx(r["score"])) for r in want]
    assert [(r["id"], r["score"]) for r in zebra] == [(want[0]["id"], pytest.approx(want[0]["score"]))]
    assert neither == []


def test_the_rare_words_chunks_taken_are_those_scoring_best_on_them(database_url, monkeypatch):
    # near = 0 and a budget of 1 posting short of "grow"'s: the candidates are zebra's chunks alone. At equal length
    # the chunk with zebra three times outscores the one with it twice, which outscores the one with it once, so a
    # rare head of 1 (RARE_HEAD 1 × LIMIT 1) takes z3 although its id sorts last.
    chunks = [("z1", "Z", "zebras grow tall"), ("z2", "Z", "zebras zebras grow"), ("z3", "Z", "zebras zebras zebras"),
              ("g1", "G", "grow grow grow"), ("g2", "G", "apples grow"), ("g3", "G", "plums grow")]
    database = load(database_url, chunks, "zoo")
    monkeypatch.setattr(bm25, "RARE_POSTINGS", 3)
    try:
        monkeypatch.setattr(bm25, "RARE_HEAD", 1)
        one = ann(database, Tenant("bench", ("zoo",)), "zebras", 1, near=0)
        monkeypatch.setattr(bm25, "RARE_HEAD", 3)
        three = ann(database, Tenant("bench", ("zoo",)), "zebras", 3, near=0)
    finally:
        database.close()
    assert [r["id"] for r in one] == ["z3"]
    assert [r["id"] for r in three] == ["z3", "z2", "z1"]


def test_the_rarest_words_are_read_while_their_postings_fit_the_budget():
    terms = [bm25.Term("cell", 0.5, 900), bm25.Term("effect", 0.8, 600), bm25.Term("snail", 4.0, 3)]
    assert bm25.rare_terms(terms, 2_000) == ["snail", "effect", "cell"]
    assert bm25.rare_terms(terms, 1_000) == ["snail", "effect"]  # 3 + 600 + 900 > 1,000
    assert bm25.rare_terms(terms, 2) == []


def test_filters_restrict_the_approximate_top(database_url):
    database = load(database_url, GROW, "tiny")
    try:
        found = ann(database, TINY, "do zebras grow?", 5, Filters(documents=["a", "c"]))
    finally:
        database.close()
    assert sorted(r["id"] for r in found) == ["a", "c"]


def test_another_organizations_chunks_never_enter_the_approximate_top(database_url):
    embedder = HashedTfidf()
    with db.connect(database_url, autocommit=True) as conn:
        other = [(f"o{i}", "O", text) for i, (_, _, text) in enumerate(GROW)]
        insert_entries(conn, other, embedder.embed([c[2] for c in other]), "tiny", embedder, "other")
    database = load(database_url, GROW, "tiny")
    try:
        found = ann(database, TINY, "do zebras grow?", 10)
    finally:
        database.close()
    assert sorted(r["id"] for r in found) == ["a", "c", "f", "p", "z"]


def test_the_walk_is_ef_search_deep_up_to_100k_chunks_then_one_more_per_tenfold():
    assert [bm25.walk_depth(n) for n in (0, 6, 10_000, 100_000)] == [100, 100, 100, 100]
    # 100 · (1 + log10(10^5.5 / 10^5)) = 150; 100 · (1 + log10(10)) = 200; 100 · (1 + log10(100)) = 300.
    assert [bm25.walk_depth(n) for n in (10 ** 5.5, 1_000_000, 10_000_000)] == [150, 200, 300]


def test_the_request_walks_as_deep_as_its_tenants_live_chunks_need(database_url, monkeypatch):
    # Six live chunks, the walk growing from 2: 100 · (1 + log10(6 / 2)) = 147.7, so 148 (NEAR 50 is below it).
    database = load(database_url, GROW, "tiny")
    monkeypatch.setattr(bm25, "EF_GROWS_FROM", 2)
    try:
        with database.session(TINY) as session:
            bm25.top(session, Query("do zebras grow?", HashedTfidf()), Filters(), k1=K1, b=B, limit=5, ann=True,
                     every_posting_below=0)
            depth = session.execute("SHOW hnsw.ef_search").fetchone()
    finally:
        database.close()
    assert list(depth.values()) == ["148"]
