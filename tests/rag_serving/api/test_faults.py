"""Faults under a running server: the database down or restarted (503 while down, served once back) and a failure
inside the server (a 500 that closes its connection, the client's next request served)."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from psycopg.conninfo import make_conninfo

from rag_serving.api.app import create_app
from rag_serving.settings import load_settings
from rag_serving.store import apikeys
from rag_serving.store import bootstrap as db
from rag_serving.store.sessions import APP_ROLE, Database
from tests.rag_serving.api.conftest import SETTINGS
from tests.servers import free_port, serve


@pytest.fixture(scope="module")
def key(corpus_db):
    with db.connect(corpus_db, autocommit=True) as conn:
        return apikeys.create_key(conn, "acme", ["hq"], "database down test")


def test_requests_while_the_database_is_unreachable_get_503_with_retry_after(key, minilm):
    nowhere = Database(f"postgresql://{APP_ROLE}@127.0.0.1:{free_port()}/rag", timeout=1.0)
    try:
        with serve(create_app(SETTINGS, database=nowhere, embedder=minilm), "/openapi.json") as base:
            for path in ("/retrieve", "/query"):
                r = httpx.post(f"{base}{path}", json={"question": "gate code"}, timeout=60,
                               headers={"Authorization": f"Bearer {key}"})
                # Retry after the pool's own wait for a connection: 1 s for this pool.
                assert r.status_code == 503 and r.headers["Retry-After"] == "1", (path, r.text)
                assert r.json()["status"] == 503 and "database unavailable" in r.json()["detail"]
            assert httpx.get(f"{base}/healthz", timeout=60).status_code == 503
    finally:
        nowhere.close()


def test_the_first_request_after_the_server_dropped_every_connection_is_served(corpus_db, key, minilm):
    database = Database(make_conninfo(corpus_db, user=APP_ROLE), min_size=2, max_size=2)
    try:
        with serve(create_app(SETTINGS, database=database, embedder=minilm), "/healthz") as base:
            ask = lambda: httpx.post(f"{base}/retrieve", json={"question": "gate code"}, timeout=60,  # noqa: E731
                                     headers={"Authorization": f"Bearer {key}"})
            assert ask().status_code == 200
            # What a restart or failover does to the pool: each of its connections closed by the server.
            with database.pool.connection() as one, database.pool.connection() as two:
                pids = [one.info.backend_pid, two.info.backend_pid]
            with db.connect(corpus_db, autocommit=True) as conn:
                killed = conn.execute("SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS n "
                                      "FROM unnest(%s::int[]) AS pid", (pids,)).fetchone()["n"]
            assert killed == 2
            assert ask().status_code == 200
    finally:
        database.close()


class Faulty:
    """The real embedder, failing on one question: a fault inside the server, not in what the client sent."""

    def __init__(self, embedder):
        self._embedder = embedder

    def __getattr__(self, name):
        return getattr(self._embedder, name)

    def embed(self, texts):
        if any("boom" in t for t in texts):
            raise RuntimeError("injected fault")
        return self._embedder.embed(texts)

    def encode(self, texts):  # how a question is embedded: its vector and token vectors in one pass
        if any("boom" in t for t in texts):
            raise RuntimeError("injected fault")
        return self._embedder.encode(texts)


def test_after_a_500_the_same_keep_alive_client_is_served(corpus_app_db, key, minilm):
    with serve(create_app(SETTINGS, database=corpus_app_db, embedder=Faulty(minilm)), "/healthz") as base:
        with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=60) as client:
            failed = client.post("/retrieve", json={"question": "boom"})
            assert failed.status_code == 500 and failed.headers["Connection"] == "close"
            assert failed.json()["detail"].startswith("internal error")
            assert client.post("/retrieve", json={"question": "gate code"}).status_code == 200


class Slow(Faulty):
    """The real embedder, holding one question until the test lets it go: the test knows the request holds its slot
    (a fixed sleep before the next request raced a busy machine's scheduler)."""

    def __init__(self, embedder):
        super().__init__(embedder)
        self.entered, self.release = threading.Event(), threading.Event()

    def _hold(self, texts):
        if any("slow" in t for t in texts):
            self.entered.set()
            self.release.wait(60)

    def embed(self, texts):
        self._hold(texts)
        return self._embedder.embed(texts)

    def encode(self, texts):
        self._hold(texts)
        return self._embedder.encode(texts)


def test_beyond_the_in_flight_limit_a_request_gets_a_fast_503_and_the_next_one_is_served(corpus_app_db, key, minilm):
    settings = load_settings({"RAG_HOME": "/tmp/unused", "RAG_MAX_IN_FLIGHT": "1"})
    slow = Slow(minilm)
    with serve(create_app(settings, database=corpus_app_db, embedder=slow), "/healthz") as base:
        def ask(question):
            r = httpx.post(f"{base}/retrieve", json={"question": question}, timeout=60,
                           headers={"Authorization": f"Bearer {key}"})
            return r, time.monotonic()

        with ThreadPoolExecutor(2) as pool:
            busy = pool.submit(ask, "slow gate code")
            assert slow.entered.wait(60)  # the slow request holds the one slot
            refused, refused_at = ask("gate code")
            slow.release.set()
            served, served_at = busy.result()
        assert served.status_code == 200
        assert refused.status_code == 503 and refused.headers["Retry-After"] == "1" and "busy" in refused.text
        assert refused.headers["content-type"] == "application/problem+json"  # the same body as every other error
        assert refused.json()["request_id"] == refused.headers["x-request-id"]
        assert refused_at < served_at  # refused at once, not queued behind the slow request
        assert ask("gate code")[0].status_code == 200


def test_healthz_answers_at_once_while_every_pooled_connection_is_in_use(corpus_db, minilm):
    database = Database(make_conninfo(corpus_db, user=APP_ROLE), min_size=1, max_size=1, timeout=5.0)
    try:
        with serve(create_app(SETTINGS, database=database, embedder=minilm), "/openapi.json") as base:
            with database.pool.connection():  # what a saturated server looks like: no connection to spare
                started = time.monotonic()
                r = httpx.get(f"{base}/healthz", timeout=60)
                took = time.monotonic() - started
            # Through the pool it would wait the pool's 5 s for a connection and then report the database down.
            assert r.status_code == 200 and took < 4, (r.status_code, took)
    finally:
        database.close()


def test_a_refused_request_is_refused_before_its_api_key_is_looked_up(corpus_app_db, key, minilm):
    settings = load_settings({"RAG_HOME": "/tmp/unused", "RAG_MAX_IN_FLIGHT": "1"})
    slow = Slow(minilm)
    with serve(create_app(settings, database=corpus_app_db, embedder=slow), "/healthz") as base:
        with ThreadPoolExecutor(1) as pool:
            busy = pool.submit(httpx.post, f"{base}/retrieve", json={"question": "slow gate code"}, timeout=60,
                               headers={"Authorization": f"Bearer {key}"})
            assert slow.entered.wait(60)
            # Shed at the door: 503, not the 401 that looking the key up (a database round trip) would give.
            refused = httpx.post(f"{base}/retrieve", json={"question": "gate"}, timeout=60,
                                 headers={"Authorization": "Bearer no-such-key"})
            slow.release.set()
            busy.result()
        assert refused.status_code == 503 and refused.headers["Retry-After"] == "1"


def test_models_load_before_serving_in_one_thread_and_never_under_requests(corpus_app_db, key, minilm, monkeypatch):
    import onnxruntime

    loads, real = [], onnxruntime.InferenceSession
    monkeypatch.setattr(onnxruntime, "InferenceSession",
                        lambda *a, **kw: loads.append(threading.get_ident()) or real(*a, **kw))
    settings = load_settings({"RAG_HOME": "/tmp/unused", "RAG_MAX_IN_FLIGHT": "8"})
    app = create_app(settings, database=corpus_app_db, embedder=minilm)
    at_start = list(loads)
    # Two threads parsing model files at once crashed start-up (#9: skops read files with CPython 3.11's AST builder,
    # which is not thread-safe); every model, the embedder's included, still loads once, before any request.
    assert len(at_start) >= 2 and set(at_start) == {threading.get_ident()}
    with serve(app, "/healthz") as base:
        with ThreadPoolExecutor(8) as pool:
            codes = list(pool.map(lambda q: httpx.post(f"{base}/query", json={"question": q}, timeout=120,
                                                       headers={"Authorization": f"Bearer {key}"}).status_code,
                                  ["gate code", "remote work days", "parental leave", "holidays"] * 2))
    assert codes == [200] * 8 and loads == at_start
