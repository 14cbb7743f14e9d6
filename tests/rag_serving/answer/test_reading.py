"""The answer reader over a question's evidence: read once, the routing confidence, and the quote it ranks first."""

import pytest

from rag_serving.answer.evidence import assess
from rag_serving.answer.reading import ReaderSelection, read, readiness
from rag_serving.answer.vectors import SentenceVectors
from rag_serving.models.reader import AnswerReader
from rag_serving.search.query import Query
from tests.rag_serving.answer.test_evidence import hit

BODY = ("Partners get four weeks of paid leave. Full-time employees get sixteen weeks of parental leave at full pay. "
        "Requests go to HR eight weeks ahead.")


@pytest.fixture(scope="module")
def reader():
    return AnswerReader()


class Counting:
    """The real reader, counting the sentences it is asked to read."""

    def __init__(self, reader):
        self.reader, self.read = reader, 0

    def scores(self, question, sentences):
        self.read += len(sentences)
        return self.reader.scores(question, sentences)


def evidence(minilm, question, body=BODY):
    return assess(Query(question, minilm), [hit(body)], SentenceVectors(minilm))


def test_each_candidate_is_read_once(minilm, reader):
    found, counting = evidence(minilm, "How many weeks of parental leave do full-time employees get?"), Counting(reader)
    read(found, counting)
    read(found, counting)
    assert counting.read == len(found.candidates) == 3
    assert all(0.0 <= c.reading <= 1.0 for c in found.candidates)


def test_the_reader_quotes_the_answering_sentence(minilm, reader):
    best = ReaderSelection(reader).ranked(evidence(minilm, "How long is parental leave for full-time staff?"))[0]
    assert best.text.startswith("Full-time employees get sixteen weeks")


def test_the_confidence_is_the_best_reading_of_a_passage_naming_the_question_s_years(minilm, reader):
    answered = evidence(minilm, "How many weeks of parental leave do full-time employees get?")
    assert readiness(answered, reader) == max(c.reading for c in answered.candidates) > 0.5
    other_year = evidence(minilm, "How many weeks of parental leave did full-time employees get in 2019?")
    assert readiness(other_year, reader) == 0.0  # no passage names 2019
