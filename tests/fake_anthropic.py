"""A local stand-in for the Anthropic Messages API (POST /v1/messages), answering in its documented response format.

The real API cannot be reached from this machine. This server is driven by the official `anthropic` SDK pointed at it
(`base_url`), and quotes its citations from the document blocks it receives, as the citations feature does.
Behaviour is chosen by a keyword in the question: REFUSE (stop_reason "refusal"), OVERLOAD (HTTP 529 error body),
FORGE (a citation whose cited_text is not in the document), NOIDEA ("I don't know."), CUT (stop_reason "max_tokens").
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse


def make_app(received: list[dict]) -> FastAPI:
    app = FastAPI()

    @app.post("/v1/messages")
    async def messages(request: Request):
        body = await request.json()
        received.append(body)
        content = body["messages"][-1]["content"]
        content = content if isinstance(content, list) else [{"type": "text", "text": content}]
        docs = [b for b in content if b["type"] == "document"]
        question = " ".join(b["text"] for b in content if b["type"] == "text")
        base = {"id": "msg_local_1", "type": "message", "role": "assistant", "model": body["model"],
                "stop_sequence": None, "usage": {"input_tokens": 321, "output_tokens": 42}}
        if "OVERLOAD" in question:
            return JSONResponse({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
                                status_code=529)
        if "REFUSE" in question:
            return {**base, "content": [], "stop_reason": "refusal"}
        if "NOIDEA" in question or not docs:
            return {**base, "content": [{"type": "text", "text": "I don't know."}], "stop_reason": "end_turn"}
        text = docs[0]["source"]["data"]
        sentence = text.split(". ")[0].strip() + "."
        cited = "Staff get 99 weeks of leave on the moon." if "FORGE" in question else sentence
        citation = {"type": "char_location", "cited_text": cited, "document_index": 0,
                    "document_title": docs[0].get("title"), "start_char_index": 0, "end_char_index": len(sentence)}
        blocks = [{"type": "text", "text": "According to the documents, "},
                  {"type": "text", "text": sentence, "citations": [citation]}]
        stop = "max_tokens" if "CUT" in question else "end_turn"
        return {**base, "content": blocks, "stop_reason": stop}

    return app
