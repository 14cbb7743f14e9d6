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


@cache
def stop_words() -> frozenset[str]:
    """scikit-learn's English stop words, imported on first use: importing sklearn takes ~1 s, and every `rag` command
    imports this module while most never compare words."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return ENGLISH_STOP_WORDS


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
    """Lower-cased Snowball stems of the non-stopwords in text."""
    tokens, stop = [w.lower() for w in words(text)], stop_words()
    return frozenset(stem(t) for t in tokens if t not in stop)
