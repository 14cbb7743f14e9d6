"""The sentence-vector cache shared by request threads: each sentence embedded once, safe from many threads."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from rag_serving.answer.vectors import SentenceVectors


class Counting:
    """The real MiniLM embedder, recording what it is asked to embed."""

    def __init__(self, minilm):
        self.minilm, self.seen = minilm, []
        self.model, self.dim = minilm.model, minilm.dim

    def embed(self, texts):
        self.seen.extend(texts)
        return self.minilm.embed(texts)


def test_each_sentence_is_embedded_once_and_comes_back_unit_length(minilm):
    embedder = Counting(minilm)
    vectors = SentenceVectors(embedder)
    first = vectors(["alpha unique sentence", "beta unique sentence"])
    again = vectors(["beta unique sentence", "gamma unique sentence", "alpha unique sentence"])
    assert embedder.seen == ["alpha unique sentence", "beta unique sentence", "gamma unique sentence"]
    assert abs(float(first[0] @ again[2]) - 1.0) < 1e-6
    assert np.allclose(np.linalg.norm(again, axis=1), 1.0, atol=1e-5)


def test_the_least_recently_used_sentence_is_evicted_at_the_bound(minilm):
    embedder = Counting(minilm)
    vectors = SentenceVectors(embedder, maxsize=2)
    vectors(["one"]), vectors(["two"]), vectors(["one"]), vectors(["three"])  # "two" is the least recently used
    vectors(["one", "two"])
    assert embedder.seen == ["one", "two", "three", "two"]


def test_many_threads_get_the_vectors_of_their_own_sentences(minilm):
    vectors = SentenceVectors(minilm, maxsize=64)
    texts = [f"sentence number {i} about topic {i % 7}" for i in range(200)]
    expected = {t: v for t, v in zip(texts, minilm.embed(texts))}

    def ask(i: int) -> bool:
        batch = [texts[(i * 13 + j) % len(texts)] for j in range(5)]
        got = vectors(batch)
        return all(float(g @ expected[t]) > 0.999 for g, t in zip(got, batch))

    with ThreadPoolExecutor(8) as pool:
        assert all(pool.map(ask, range(400)))


def test_remembered_vectors_are_returned_without_embedding(minilm):
    embedder = Counting(minilm)
    vectors = SentenceVectors(embedder)
    stored = {"a sentence ingest stored": np.eye(minilm.dim, dtype=np.float32)[3]}
    vectors.remember(stored)
    got = vectors(["a sentence ingest stored", "a sentence it did not"])
    assert embedder.seen == ["a sentence it did not"]
    assert np.array_equal(got[0], stored["a sentence ingest stored"])


def test_hits_and_misses_counted_from_many_threads_add_up_to_every_lookup(minilm):
    # /metrics reads these counts while requests run: each call counts its distinct sentences once, hit or miss.
    vectors = SentenceVectors(minilm, maxsize=64)
    texts = [f"counted sentence {i}" for i in range(40)]

    def ask(i: int) -> None:
        vectors([texts[(i * 7 + j) % len(texts)] for j in range(5)])

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(ask, range(200)))
    hits, misses = vectors.counts()
    assert hits + misses == 200 * 5 and misses >= len(texts)
