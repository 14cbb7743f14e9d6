"""One real uvicorn server on 127.0.0.1 over the ingested sample corpus, shared by the API tests, and their keys."""

import httpx
import pytest

from rag_serving.api.app import create_app
from rag_serving.settings import load_settings
from rag_serving.store import apikeys
from rag_serving.store import bootstrap as db
from tests.servers import serve

SETTINGS = load_settings({"RAG_HOME": "/tmp/unused", "RAG_MAX_QUESTION_CHARS": "300", "RAG_LOG_FORMAT": "text",
                          "RAG_CORS_ORIGINS": "https://intranet.example.com"})


@pytest.fixture(scope="package")
def keys(corpus_db):
    with db.connect(corpus_db, autocommit=True) as conn:
        return {
            "acme": apikeys.create_key(conn, "acme", ["hq"], "test acme"),
            "globex": apikeys.create_key(conn, "globex", ["main"], "test globex"),
            "acme-yard": apikeys.create_key(conn, "acme", ["north-yard"], "test acme north yard"),
        }


@pytest.fixture(scope="package")
def base(corpus_app_db, minilm):
    with serve(create_app(SETTINGS, database=corpus_app_db, embedder=minilm), "/healthz") as url:
        yield url


def ask(base: str, key: str, question: str, **body) -> httpx.Response:
    return httpx.post(f"{base}/query", json={"question": question, **body},
                      headers={"Authorization": f"Bearer {key}"}, timeout=300)
