"""Query rewriting through the OpenAI-compatible adapter: fixed replies in the chat-completions wire format, then a real
llama.cpp model."""

import logging

import pytest
from fastapi import FastAPI

from rag_serving.answer.generators import ExtractiveGenerator, OpenAICompatibleGenerator
from rag_serving.answer.vectors import SentenceVectors
from rag_serving.search.rewriting import REWRITE_PROMPT, Rewriter
from tests.servers import serve


def scripted(reply: str, seen: list):
    app = FastAPI()

    @app.post("/v1/chat/completions")
    def completions(body: dict) -> dict:
        seen.append(body["messages"])
        return {"id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": reply}}]}

    return app


HISTORY = [f"turn {i}" for i in range(1, 9)]


def test_rewrite_sends_the_prompt_and_only_the_last_six_turns_as_messages_and_keeps_the_reply():
    seen: list = []
    with serve(scripted("How many weeks of parental leave do part-time staff get?", seen), "/docs") as base:
        result = Rewriter(OpenAICompatibleGenerator("m", base_url=f"{base}/v1")).rewrite("and part-time?", HISTORY)
    system, *users = seen[0]
    assert system == {"role": "system", "content": REWRITE_PROMPT}
    assert users == [{"role": "user", "content": f"turn {i}"} for i in range(3, 9)] + [
        {"role": "user", "content": "and part-time?"}]
    assert result.question == "How many weeks of parental leave do part-time staff get?" and result.changed
    assert result.clarify is None


def test_a_clarify_reply_becomes_the_question_to_ask_back():
    seen: list = []
    with serve(scripted("CLARIFY: Do you mean the 2024 or the 2025 handbook?", seen), "/docs") as base:
        result = Rewriter(OpenAICompatibleGenerator("m", base_url=f"{base}/v1")).rewrite("the limit?", HISTORY[:1])
    assert result.clarify == "Do you mean the 2024 or the 2025 handbook?"


def test_a_generator_that_cannot_write_keeps_the_history_prepended_search(minilm, caplog):
    caplog.set_level(logging.INFO, logger="rag.rewrite")
    result = Rewriter(ExtractiveGenerator(SentenceVectors(minilm))).rewrite("and part-time?", ["parental leave weeks?"])
    assert result.question == "parental leave weeks? and part-time?" and result.error
    # The original and the rewrite travel in one log record.
    record = next(r for r in caplog.records if r.name == "rag.rewrite")
    assert record.original == "and part-time?" and record.rewrite == result.question


@pytest.fixture(scope="module")
def llama():
    from tests.rag_serving.answer.test_generators import llama as fixture

    yield from fixture.__wrapped__()


def test_a_real_local_model_returns_a_non_empty_standalone_question(llama):
    result = Rewriter(OpenAICompatibleGenerator("smollm2", base_url=llama, max_tokens=60)).rewrite(
        "and for part-time staff?", ["How many weeks of parental leave do full-time staff get?"])
    assert result.error is None
    assert result.question.strip() or result.clarify
