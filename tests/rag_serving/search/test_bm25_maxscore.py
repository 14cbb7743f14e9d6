"""MaxScore BM25: common words' postings skipped, the top k exactly as scoring every posting ranks it."""

import math
import random

import pytest
from psycopg.conninfo import make_conninfo

from rag_assets.evaluation.beir import insert_entries
from rag_serving.models.embedders import HashedTfidf
from rag_serving.search import bm25
from rag_serving.search.hits import Filters
from rag_serving.search.query import Query
from rag_serving.store import bootstrap as db
from rag_serving.store.sessions import APP_ROLE, Database, Tenant

K1, B = 1.2, 0.75


def load(database_url, chunks, rooftop):
    embedder = HashedTfidf()
    with db.connect(database_url, autocommit=True) as conn:
        insert_entries(conn, chunks, embedder.embed([c[2] for c in chunks]), rooftop, embedder)
    return Database(make_conninfo(database_url, user=APP_ROLE), max_size=1)


def top(database, tenant, question, k, prune=True, every_posting_below=0, scan_ratio=bm25.SCAN_RATIO):
    """MaxScore on these small corpora too (below EVERY_POSTING_BELOW it would read every posting)."""
    with database.session(tenant) as session:
        return bm25.top(session, Query(question, HashedTfidf()), Filters(), k1=K1, b=B, limit=k, prune=prune,
                        every_posting_below=every_posting_below, scan_ratio=scan_ratio)


def test_a_common_word_is_probed_for_the_rare_words_chunks_only_and_still_scored(database_url):
    # N 6, every chunk two lexemes long (avgdl 2, tf part 1): "grow" is in 5 chunks, idf ln(1 + 1.5 / 5.5) = ln(14/11),
    # bound 2.2 · ln(14/11) = 0.53; "zebra" in 1, idf ln(1 + 5.5 / 1.5) = ln(14/3) = 1.54 > 0.53, so the first
    # statement proves the top 1 reading zebra's one posting, and probes "grow" for that chunk alone.
    chunks = [("z", "Z", "zebras grow"), ("a", "A", "apples grow"), ("c", "C", "cherries grow"),
              ("p", "P", "plums grow"), ("f", "F", "figs grow"), ("l", "L", "limes ripen")]
    database = load(database_url, chunks, "tiny")
    try:
        found = top(database, Tenant("bench", ("tiny",)), "do zebras grow?", 1)
    finally:
        database.close()
    assert (found.statements, found.skipped) == (1, 1)
    assert [r["id"] for r in found.rows] == ["z"]
    assert found.rows[0]["score"] == pytest.approx(math.log(14 / 3) + math.log(14 / 11))


def test_a_split_that_cannot_prove_its_top_moves_words_to_the_read_side():
    terms = [bm25.Term("cell", 0.5, 900), bm25.Term("effect", 0.8, 600), bm25.Term("snail", 4.0, 3)]
    # Bounds 1.1, 1.76, 8.8. The first split keeps reading postings until their df reaches the LIMIT (10): snail (3),
    # then effect (600): one word skipped.
    assert bm25.first_split(terms, 10) == 1
    # θ 2.0 from 10 candidates: 1.1 < 2.0 but 1.1 + 1.76 is not, so one word may stay skipped; from 2 skipped, one.
    assert bm25.next_split(terms, K1, 2, 2.0, 10, 10) == 1
    # Fewer candidates than the LIMIT say nothing about θ: one word fewer.
    assert bm25.next_split(terms, K1, 2, 50.0, 4, 10) == 1
    # θ below every bound: nothing may be skipped.
    assert bm25.next_split(terms, K1, 1, 1.0, 10, 10) == 0


def zipf_text(rng, vocabulary, weights, n):
    return " ".join(rng.choices(vocabulary, weights, k=n))


@pytest.fixture(scope="module")
def zipf_corpus(module_database_url):
    """600 chunks over a 400-word vocabulary drawn by Zipf's law (a few words everywhere, most words rare), in two
    rooftops of one organization, with lengths from 4 to 60 words; one per module, which its tests only read."""
    rng = random.Random(20261204)
    words = [f"w{i}x" for i in range(400)]
    weights = [1 / (i + 1) for i in range(400)]
    chunks = [(f"c{i:04d}", f"C{i}", zipf_text(rng, words, weights, rng.randint(4, 60))) for i in range(600)]
    database = load(module_database_url, chunks[:400], "one")
    load(module_database_url, chunks[400:], "two").close()
    questions = [zipf_text(rng, words, weights, rng.randint(2, 8)) for _ in range(60)]
    yield database, questions
    database.close()


@pytest.mark.parametrize("scan_ratio", [0.0, bm25.SCAN_RATIO, 1e9], ids=["probed", "shipped", "read-whole"])
def test_pruned_and_every_posting_rank_the_same_chunks_with_the_same_scores(zipf_corpus, scan_ratio):
    database, questions = zipf_corpus
    paths = set()
    for tenant in (Tenant("bench", ("one",)), Tenant("bench", ("one", "two"))):
        for question in questions:
            for k in (1, 10, 50):
                pruned = top(database, tenant, question, k, scan_ratio=scan_ratio)
                full = top(database, tenant, question, k, prune=False)
                assert [r["id"] for r in pruned.rows] == [r["id"] for r in full.rows], (question, k)
                assert [r["score"] for r in pruned.rows] == pytest.approx([r["score"] for r in full.rows], abs=1e-9)
                paths.add((pruned.skipped > 0, pruned.statements > 1))
    # Both ways through were taken: words skipped with the first split, and splits that had to be retried.
    assert (True, False) in paths and any(retried for _, retried in paths)


def test_a_question_with_few_postings_reads_them_all_in_one_statement(zipf_corpus):
    database, questions = zipf_corpus
    for question in questions[:10]:
        found = top(database, Tenant("bench", ("one",)), question, 10, every_posting_below=bm25.EVERY_POSTING_BELOW)
        assert (found.statements, found.skipped) == (1, 0)
