"""Learned answer selection: the sentence features, and the shipped model quoting the sentence that answers."""

import pytest

from rag_serving.answer.evidence import assess
from rag_serving.answer.selection import FEATURES, LearnedSelection, matrix
from rag_serving.answer.vectors import SentenceVectors
from rag_serving.search.query import Query
from tests.rag_serving.answer.test_evidence import hit

BODY = ("of the previous year. Partners get four weeks of paid leave. Full-time employees get sixteen weeks of "
        "parental leave at full pay. Requests go to HR eight weeks ahead and")
QUESTION = "How many weeks of parental leave do full-time employees get?"


def evidence(minilm, body=BODY):
    return assess(Query(QUESTION, minilm), [hit(body)], SentenceVectors(minilm))


def column(rows, name):
    return [float(v) for v in rows[:, FEATURES.index(name)]]


def test_chunk_edges_and_cut_sentences_are_features(minilm):
    rows = matrix(evidence(minilm))
    assert column(rows, "first") == [1, 0, 0, 0] and column(rows, "last") == [0, 0, 0, 1]
    assert column(rows, "opens_lower") == [1, 0, 0, 0] and column(rows, "ends_open") == [0, 0, 0, 1]


def test_the_sentence_closest_in_meaning_ranks_first_by_cosine(minilm):
    rows = matrix(evidence(minilm))
    assert column(rows, "cosine_rank")[2] == 1 and column(rows, "cosine_behind")[2] == 0


@pytest.fixture(scope="module")
def selector(minilm):
    return LearnedSelection(minilm.model)


def test_the_shipped_selector_quotes_the_answering_sentence(selector, minilm):
    best = selector.ranked(evidence(minilm))[0]
    assert best.text.startswith("Full-time employees get sixteen weeks") and 0 <= best.score <= 1


def test_the_shipped_selector_records_where_it_was_trained(selector):
    assert set(selector.artefact["training"]["sources"]) <= {"squad2-train", "golden-dev"}
    assert "top1_boosted_trees" in selector.artefact["metrics"]["leave_one_collection_out"]
