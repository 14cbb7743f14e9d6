"""The TEI reranker adapter against the project's TEI-compatible server on 127.0.0.1."""

import pytest

from rag_serving.search.rerankers import RerankerError, TeiReranker
from rag_serving.models.tei_server import create_tei_app
from tests.servers import serve

TEXTS = [
    "Forklift keys are kept in the Yard Office next to Gate B.",
    "Full-time employees are entitled to 16 weeks of parental leave at full pay.",
    "The canteen opens at 8 in the morning.",
]


@pytest.fixture(scope="module")
def tei(minilm):
    with serve(create_tei_app(minilm), "/health") as base:
        yield base


def test_scores_come_back_in_input_order_within_zero_and_one(tei):
    reranker = TeiReranker(tei, batch_size=2)  # two requests: offsets must be restored across batches
    scores = reranker.rerank("How long is parental leave?", TEXTS)
    assert len(scores) == 3 and all(0.0 <= s <= 1.0 for s in scores)
    assert scores[1] == max(scores)
    assert reranker.model.startswith("tei:all-MiniLM-L6-v2")


def test_server_error_names_the_server(tei):
    with pytest.raises(RerankerError, match="/rerank returned 413"):
        TeiReranker(tei).rerank("q", ["word " * 400])  # over the model's 256 word pieces: TEI refuses


def test_no_texts_need_no_request():
    assert TeiReranker("http://127.0.0.1:9").rerank("q", []) == []


def test_unreachable_server_is_a_reranker_error():
    with pytest.raises(RerankerError, match="cannot read /info"):
        TeiReranker("http://127.0.0.1:9", timeout=2).model
