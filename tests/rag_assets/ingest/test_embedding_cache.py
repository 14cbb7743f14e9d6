"""The PostgreSQL embedding cache: second time is all hits, keys normalize text, vectors come back intact."""

import numpy as np

from rag_assets.ingest.embedding_cache import embed_cached, text_key
from rag_serving.models.embedders import HashedTfidf


class CountingEmbedder(HashedTfidf):
    def __init__(self):
        super().__init__(dim=64)
        self.calls = 0

    def embed(self, texts):
        self.calls += len(texts)
        return super().embed(texts)


def test_second_request_for_the_same_texts_is_all_hits(conn):
    e = CountingEmbedder()
    first, s1 = embed_cached(conn, e, ["alpha beta", "gamma delta"])
    second, s2 = embed_cached(conn, e, ["gamma delta", "alpha beta"])
    assert (s1.hits, s1.misses) == (0, 2) and (s2.hits, s2.misses) == (2, 0)
    assert e.calls == 2
    assert np.allclose(second[0], first[1]) and np.allclose(second[1], first[0])


def test_text_differing_only_in_unicode_form_and_whitespace_is_one_entry(conn):
    e = CountingEmbedder()
    embed_cached(conn, e, ["\ufb01le cabinet"])
    _, stats = embed_cached(conn, e, ["  file cabinet \n"])
    assert stats.hits == 1 and text_key("\ufb01le cabinet") == text_key(" file cabinet")


def test_entries_are_per_model(conn):
    embed_cached(conn, HashedTfidf(dim=64), ["same text"])
    _, stats = embed_cached(conn, HashedTfidf(dim=32), ["same text"])
    assert stats.misses == 1
