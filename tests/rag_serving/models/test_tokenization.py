"""The process-wide tokenizer and the embedder that holds it, used by many request threads at once."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from rag_serving.models.tokenization import load_tokenizer, split_counted

TEXTS = [f"Section {i}: employees with {i % 9 + 1} years of service get {i % 5 + 20} days of annual leave, "
         f"and the X200-FAN-{i:02d} fan is replaced every {i % 4 + 2} years." * (1 + i % 6) for i in range(64)]


def test_the_tokenizer_counts_every_token_without_truncation():
    long = "word " * 600
    assert len(load_tokenizer().encode(long, add_special_tokens=False).ids) == 600


def test_the_shared_tokenizer_gives_each_thread_its_own_encoding():
    tokenizer = load_tokenizer()
    expected = [tokenizer.encode(t).ids for t in TEXTS]
    with ThreadPoolExecutor(8) as pool:
        for _ in range(5):
            assert list(pool.map(lambda t: load_tokenizer().encode(t).ids, TEXTS)) == expected
            assert list(pool.map(lambda t: [n for _, n in split_counted(tokenizer, t, 100)], TEXTS)) == [
                [n for _, n in split_counted(tokenizer, t, 100)] for t in TEXTS]


def test_the_embedder_gives_each_thread_the_vectors_of_its_own_texts(minilm):
    expected = [minilm.embed([t])[0] for t in TEXTS]
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda t: minilm.embed([t])[0], TEXTS))
    assert all(np.allclose(g, e, atol=1e-6) for g, e in zip(got, expected))
