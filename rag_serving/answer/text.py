"""Words and Snowball stems, as PostgreSQL's english configuration sees them: what evidence and grounding compare."""

from __future__ import annotations

import re
import threading
from functools import cache, lru_cache

import snowballstemmer

_WORD = re.compile(r"[A-Za-z0-9]+(?:[-'’.][A-Za-z0-9]+)*")
# snowballstemmer's stemmer keeps its state on the instance: one shared by request threads returns wrong stems
# (and raises) under load, so each thread gets its own.
_local = threading.local()


def stemmer() -> snowballstemmer.stemmer:
    """This thread's Snowball English stemmer (the algorithm of PostgreSQL's english_stem)."""
    if not hasattr(_local, "stemmer"):
        _local.stemmer = snowballstemmer.stemmer("english")
    return _local.stemmer


_stop_words_read = threading.Lock()


@cache
def stop_words() -> frozenset[str]:
    """scikit-learn's English stop words (the Glasgow IR group's list), read from the one file that holds them:
    importing the sklearn package to reach it took 1.5 s (it imports scipy.stats), paid by every `rag ask` and server
    start, where only the list is needed. The file holds one frozenset literal and imports nothing."""
    import importlib.util
    from pathlib import Path

    package = importlib.util.find_spec("sklearn")  # found, not imported
    path = Path(package.submodule_search_locations[0]) / "feature_extraction" / "_stop_words.py"
    spec = importlib.util.spec_from_file_location("rag_serving._sklearn_stop_words", path)
    module = importlib.util.module_from_spec(spec)
    with _stop_words_read:  # a module's code is compiled and run once at a time, as an import would be
        spec.loader.exec_module(module)
    return module.ENGLISH_STOP_WORDS


def words(text: str) -> list[str]:
    return _WORD.findall(text)


# Snowball in pure Python costs ~0.1 ms a word, and a collection's vocabulary repeats: each word is stemmed once per
# process (bounded: ~15 MB at most). lru_cache is thread-safe; the stemmer it calls is this thread's.
@lru_cache(maxsize=100_000)
def stem(word: str) -> str:
    return stemmer().stemWord(word)


# Every question stems the same retrieved chunks and sentences again. Bounded (keys are sentences and whole chunk
# texts, ~3 KB at most with their stems: ~60 MB at worst) and frozen, so no caller can change what the next one reads.
@lru_cache(maxsize=20_000)
def stems(text: str) -> frozenset[str]:
    """Lower-cased Snowball stems of the non-stopwords in text, a hyphenated word as one."""
    tokens, stop = [w.lower() for w in words(text)], stop_words()
    return frozenset(stem(t) for t in tokens if t not in stop)


# The passages and sentences a question's words are looked for in; bounded and frozen as `stems` is. Stemmed here
# rather than through `stems`, which would cache every such text a second time.
@lru_cache(maxsize=20_000)
def lexemes(text: str) -> frozenset[str]:
    """What text can be found by: its stems, and a hyphenated word's parts as PostgreSQL's parser gives them
    ("big-endian": big-endian, big, endian), so a question's "little endian" finds "little-endian". A question or a
    draft's words are counted as `stems` (one a word); the text they are looked for in, as these."""
    tokens, stop = [w.lower() for w in words(text)], stop_words()
    parts = [p for t in tokens if "-" in t for p in t.split("-")]
    return frozenset(stem(t) for t in (*tokens, *parts) if t and t not in stop)
