"""POST /query/stream: the route first, then each verified sentence, then the whole response."""

import json

import httpx

from tests.rag_serving.api.conftest import ask


def events(base: str, key: str, question: str) -> list[tuple[str, object]]:
    out, event = [], None
    with httpx.stream("POST", f"{base}/query/stream", json={"question": question}, timeout=300,
                      headers={"Authorization": f"Bearer {key}"}) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        for line in r.iter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                out.append((event, json.loads(line[6:])))
    return out


def test_an_answer_streams_route_then_sentences_then_the_response(base, keys):
    question = "How many weeks of parental leave do full-time staff get?"
    got = events(base, keys["acme"], question)
    names = [name for name, _ in got]
    assert names[0] == "route" and got[0][1]["route"] == "answer"
    assert names[-1] == "done" and set(names[1:-1]) == {"sentence"}
    done = got[-1][1]
    assert [data["text"] for name, data in got if name == "sentence"] == [s["text"] for s in done["answer"]["sentences"]]
    # The same answer as the JSON endpoint gives.
    assert done["answer"]["text"] == ask(base, keys["acme"], question).json()["answer"]["text"]
    assert done["timings_ms"]["generate"] >= 0 and done["timings_ms"]["search"] > 0


def test_an_abstention_streams_its_route_and_the_closest_sources(base, keys):
    got = events(base, keys["acme"], "Why was the 2023 bonus cancelled?")
    assert [name for name, _ in got] == ["route", "done"]
    assert got[0][1]["route"] == "abstain" and got[1][1]["answer"] is None and got[1][1]["sources"]


def test_a_stream_without_a_key_is_a_plain_401(base):
    r = httpx.post(f"{base}/query/stream", json={"question": "leave"})
    assert r.status_code == 401 and r.json()["status"] == 401
