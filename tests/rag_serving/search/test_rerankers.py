"""The TEI reranker adapter against the project's TEI-compatible server on 127.0.0.1."""

import pytest

from rag_serving.models.tei_server import create_tei_app
from rag_serving.search.rerankers import RerankerError, TeiReranker
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


def test_a_chunk_longer_than_the_models_input_is_truncated_not_refused(tei):
    # 400 words are over the model's 256 word pieces; without truncate=true TEI answers 413 for a 500-token chunk.
    [score] = TeiReranker(tei).rerank("How long is parental leave?", ["word " * 400])
    assert 0.0 <= score <= 1.0


def test_server_error_names_the_server():
    from fastapi import FastAPI
    from fastapi.responses import JSONResponse

    app = FastAPI()

    @app.post("/rerank")
    def overloaded():
        return JSONResponse({"error": "Model is overloaded", "error_type": "Overloaded"}, status_code=503)

    with serve(app, "/docs") as base:
        with pytest.raises(RerankerError, match=rf"TEI at {base}: /rerank returned 503: .*overloaded"):
            TeiReranker(base).rerank("q", ["text"])


def test_no_texts_need_no_request():
    assert TeiReranker("http://127.0.0.1:9").rerank("q", []) == []


def test_unreachable_server_is_a_reranker_error():
    with pytest.raises(RerankerError, match="cannot read /info"):
        TeiReranker("http://127.0.0.1:9", timeout=2).model
