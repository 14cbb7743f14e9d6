"""Stems and sentences from many request threads at once equal the single-threaded result (a shared Snowball stemmer
or pysbd segmenter returned wrong output and raised under concurrent requests)."""

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from rag_assets.evaluation.provenance import REPO_ROOT
from rag_serving.answer.sentences import split_sentences
from rag_serving.answer.text import lexemes, stem, stems, stop_words

TEXTS = [
    "Full-time employees are entitled to sixteen weeks of parental leave at full pay.",
    "Replace the condenser fan assembly every three years, or about 20,000 operating hours.",
    "Invoices are paid within 45 days of receipt. Early payment earns a discount. Call ext. 2200, e.g. on Mondays.",
    "The organization's relocation policies were harmonized during restructuring negotiations.",
] * 25


def test_stems_are_the_snowball_stems_of_content_words():
    assert stems("Employees were entitled to weeks of leave") == {"employe", "entitl", "week", "leav"}


def test_a_hyphenated_word_is_found_by_its_parts_and_counted_as_one_word():
    # to_tsvector('english', 'big-endian machines') is 'big' 'big-endian' 'endian' 'machin'
    assert lexemes("big-endian machines") == {"big-endian", "big", "endian", "machin"}
    assert stems("big-endian machines") == {"big-endian", "machin"}


def test_hyphenated_words_give_the_lexemes_postgresql_indexes(conn):
    text = "little-endian byte-swapped follow-up state-of-the-art"
    indexed = conn.execute("SELECT tsvector_to_array(to_tsvector('english', %s)) AS a", (text,)).fetchone()["a"]
    assert lexemes(text) == set(indexed)


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


def test_the_shared_caches_answer_many_threads_as_the_uncached_functions_do():
    # Distinct texts, caches emptied first: misses and hits for the same keys race between threads.
    texts = [f"{t} Item {i}." for i, t in enumerate(TEXTS)]
    expected = [(lexemes.__wrapped__(t), split_sentences.__wrapped__(t)) for t in texts]
    lexemes.cache_clear()
    stems.cache_clear()
    stem.cache_clear()
    stop_words.cache_clear()
    split_sentences.cache_clear()
    with ThreadPoolExecutor(8) as pool:
        for _ in range(3):
            assert list(pool.map(lambda t: (lexemes(t), split_sentences(t)), texts)) == expected
    # What the caches hand out cannot be changed by one request under another's feet.
    assert isinstance(lexemes(texts[0]), frozenset) and isinstance(stems(texts[0]), frozenset)
    assert isinstance(split_sentences(texts[0]), tuple)


def test_the_stop_word_list_loaded_first_by_many_threads_is_one_frozen_set():
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    stop_words.cache_clear()
    with ThreadPoolExecutor(8) as pool:
        lists = list(pool.map(lambda _: stop_words(), range(32)))
    assert all(words == ENGLISH_STOP_WORDS for words in lists) and isinstance(lists[0], frozenset)


def test_the_stop_word_list_loads_without_importing_scikit_learn():
    # Importing sklearn (and the scipy.stats it imports) took 1.5 s of every `rag ask` for a list of 318 words.
    probe = ("import sys; from rag_serving.answer.text import stems, stop_words; stems('the gate opens at seven'); "
             "print(len(stop_words()), 'sklearn' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["318", "False"]
