"""Stems and sentences from many request threads at once equal the single-threaded result (a shared Snowball stemmer
or pysbd segmenter returned wrong output and raised under concurrent requests)."""

from concurrent.futures import ThreadPoolExecutor

from rag_serving.answer.sentences import split_sentences
from rag_serving.answer.text import stems

TEXTS = [
    "Full-time employees are entitled to sixteen weeks of parental leave at full pay.",
    "Replace the condenser fan assembly every three years, or about 20,000 operating hours.",
    "Invoices are paid within 45 days of receipt. Early payment earns a discount. Call ext. 2200, e.g. on Mondays.",
    "The organization's relocation policies were harmonized during restructuring negotiations.",
] * 25


def test_stems_are_the_snowball_stems_of_content_words():
    assert stems("Employees were entitled to weeks of leave") == {"employe", "entitl", "week", "leav"}


def test_stems_from_many_threads_equal_the_single_threaded_result():
    # The uncached function: the cache would answer every call after the first without stemming.
    uncached = stems.__wrapped__
    expected = [uncached(t) for t in TEXTS]
    with ThreadPoolExecutor(8) as pool:
        for _ in range(5):
            assert list(pool.map(uncached, TEXTS)) == expected


def test_sentences_from_many_threads_equal_the_single_threaded_result():
    # The uncached function: the cache would answer every call after the first without segmenting.
    split = split_sentences.__wrapped__
    expected = [split(t) for t in TEXTS]
    with ThreadPoolExecutor(8) as pool:
        for _ in range(5):
            assert list(pool.map(split, TEXTS)) == expected
