"""The BM25 leg on a three-chunk corpus whose scores are worked by hand (k1 1.2, b 0.75)."""

import math

import pytest
from psycopg.conninfo import make_conninfo

from rag_assets.evaluation.beir import insert_entries
from rag_serving.models.embedders import HashedTfidf
from rag_serving.search.features import FEATURES, FeatureExtractor
from rag_serving.search.late_interaction import MaxSimReranker
from rag_serving.search.query import Query
from rag_serving.store import bootstrap as db
from rag_serving.store.sessions import APP_ROLE, Database, Tenant
from tests.searching import legs

TENANT = Tenant("bench", ("tiny",))
CHUNKS = [("a", "A", "apples grow"), ("b", "B", "cherries grow"), ("c", "C", "plums ripen")]
# N 3, every chunk 2 lexemes long (avgdl 2), each lexeme once per chunk: the tf part is 1 · 2.2 / (1 + 1.2) = 1.
# appl and cherri occur in one chunk each: idf = ln(1 + (3 − 1 + 0.5) / (1 + 0.5)) = ln(8 / 3).
IDF_ONCE = math.log(8 / 3)


@pytest.fixture
def tiny(database_url):
    embedder = HashedTfidf()
    with db.connect(database_url, autocommit=True) as conn:
        insert_entries(conn, CHUNKS, embedder.embed([c[2] for c in CHUNKS]), "tiny", embedder)
    database = Database(make_conninfo(database_url, user=APP_ROLE), max_size=1)
    yield database, embedder
    database.close()


def test_a_word_the_question_repeats_counts_once_per_occurrence(tiny):
    database, embedder = tiny
    hits = legs(database, embedder)(TENANT, "cherries, cherries or apples?", mode="sparse", k=3)
    assert [h.chunk_id for h in hits] == ["b", "a"]
    assert hits[0].score == pytest.approx(2 * IDF_ONCE) and hits[1].score == pytest.approx(IDF_ONCE)


def test_the_rerankers_bm25_feature_takes_each_word_once_as_its_model_was_trained(tiny, minilm):
    database, embedder = tiny
    question = "cherries, cherries or apples?"
    hits = legs(database, embedder)(TENANT, question, mode="sparse", k=3)
    with database.session(TENANT) as session:
        matrix = FeatureExtractor(MaxSimReranker(minilm)).matrix(session, Query(question, embedder), hits)
    assert list(matrix[:, FEATURES.index("bm25")]) == pytest.approx([IDF_ONCE, IDF_ONCE])


def test_chunks_tied_at_the_cut_go_to_the_smaller_id(database_url):
    embedder = HashedTfidf()
    chunks = [*CHUNKS, ("0", "Copy", "apples grow")]  # the same text as "a", stored last, with the smaller id
    with db.connect(database_url, autocommit=True) as conn:
        insert_entries(conn, chunks, embedder.embed([c[2] for c in chunks]), "tiny", embedder)
    database = Database(make_conninfo(database_url, user=APP_ROLE), max_size=1)
    try:
        hits = legs(database, embedder)(TENANT, "apples", mode="sparse", k=1)
    finally:
        database.close()
    assert [h.chunk_id for h in hits] == ["0"]
