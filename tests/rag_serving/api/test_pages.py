"""The pages behind every citation, over HTTP: text and the quote's place on it, the page as PDF and PNG, a viewer,
signed links, and another tenant's pages never shown."""

import io
import time

import httpx
import pytest
from PIL import Image
from pypdf import PdfReader

from rag_serving.api import links
from rag_serving.store import apikeys
from rag_serving.store import bootstrap as db
from rag_serving.store.apikeys import key_hash
from tests.rag_serving.api.conftest import ask

QUESTION = "How many weeks of parental leave do full-time staff get?"


@pytest.fixture(scope="module")
def cited(base, keys) -> dict:
    body = ask(base, keys["acme"], QUESTION).json()
    assert body["route"] == "answer"
    return body["answer"]["sentences"][0]["sources"][0]


def test_the_cited_page_holds_the_quote_and_says_where(base, keys, cited):
    r = httpx.get(f"{base}/documents/{cited['document_id']}/pages/{cited['page']}",
                  params={"quote": cited["quote"]}, headers={"X-API-Key": keys["acme"]})
    page = r.json()
    assert r.status_code == 200 and page["quote_found"] is True
    assert " ".join(cited["quote"].split()[:6]) in " ".join(page["text"].split())
    assert page["label"] == cited["pages"].removeprefix("p. ")
    # One box per line of the quote, inside the page, top-left origin.
    assert page["highlights"] and all(0 <= b[0] < b[2] <= 1 and 0 <= b[1] < b[3] <= 1 for b in page["highlights"])


def test_the_pdf_link_opens_without_a_key_and_is_that_one_page(cited):
    r = httpx.get(cited["pdf"])
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(r.content))
    assert len(reader.pages) == 1
    assert "16 weeks" in " ".join(reader.pages[0].extract_text().split())


def test_the_image_is_a_png_of_the_asked_width(base, keys, cited):
    r = httpx.get(f"{base}/documents/{cited['document_id']}/pages/{cited['page']}/image", params={"width": 300},
                  headers={"X-API-Key": keys["acme"]})
    assert r.status_code == 200 and r.headers["content-type"] == "image/png"
    assert Image.open(io.BytesIO(r.content)).size[0] == 300


def test_the_viewer_link_marks_the_quote_in_the_page_text(cited):
    r = httpx.get(cited["link"])
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    marked = r.text.split('<mark id="quote">')[1].split("</mark>")[0]
    assert " ".join(marked.split()) == cited["quote"]
    assert 'class="box"' in r.text


def test_a_link_token_opens_no_other_page(base, cited):
    token = cited["pdf"].split("token=")[1]
    r = httpx.get(f"{base}/documents/{cited['document_id']}/pages/{cited['page'] + 1}/pdf", params={"token": token})
    assert r.status_code == 401 and r.json()["detail"] == "the link token is not for this page"


def test_an_expired_link_is_refused(base, corpus_db, cited):
    with db.connect(corpus_db, autocommit=True) as conn:
        key = apikeys.create_key(conn, "acme", ["hq"], "expiring link")
    token = links.sign(key_hash(key), cited["document_id"], cited["page"], ttl_s=60, now=time.time() - 120)
    r = httpx.get(f"{base}/documents/{cited['document_id']}/pages/{cited['page']}/pdf", params={"token": token})
    assert r.status_code == 401 and "expired" in r.json()["detail"]


def test_revoking_the_key_kills_its_links(base, corpus_db, cited):
    with db.connect(corpus_db, autocommit=True) as conn:
        key = apikeys.create_key(conn, "acme", ["hq"], "revoked link")
        token = links.sign(key_hash(key), cited["document_id"], cited["page"], ttl_s=600)
        url = f"{base}/documents/{cited['document_id']}/pages/{cited['page']}/pdf"
        assert httpx.get(url, params={"token": token}).status_code == 200
        apikeys.revoke_key(conn, key)
    assert httpx.get(url, params={"token": token}).status_code == 401


def test_another_tenants_page_is_404_with_its_key_and_with_its_signed_links(base, keys, cited):
    url = f"{base}/documents/{cited['document_id']}/pages/{cited['page']}"
    assert httpx.get(url, headers={"X-API-Key": keys["globex"]}).status_code == 404
    # A link globex's key signed for acme's page is valid as a signature, and still shows globex only its own rows.
    token = links.sign(key_hash(keys["globex"]), cited["document_id"], cited["page"], ttl_s=600)
    assert httpx.get(f"{url}/pdf", params={"token": token}).status_code == 404


def test_a_text_document_has_no_pdf_page(base, keys, corpus_app_db):
    from rag_serving.store.sessions import Tenant

    with corpus_app_db.session(Tenant("acme", ("hq",))) as s:
        doc = s.execute("SELECT id FROM documents WHERE media_type <> 'application/pdf' AND status = 'live'").fetchone()
    r = httpx.get(f"{base}/documents/{doc['id']}/pages/1/pdf", headers={"X-API-Key": keys["acme"]})
    assert r.status_code == 404 and "no PDF pages" in r.json()["detail"]
    assert httpx.get(f"{base}/documents/{doc['id']}/pages/1", headers={"X-API-Key": keys["acme"]}).status_code == 200


def test_pages_render_the_same_from_many_threads_at_once(corpus_app_db, cited):
    from concurrent.futures import ThreadPoolExecutor

    from rag_serving.api.pages import find_and_render
    from rag_serving.store.sessions import Tenant

    # PDFium is process-wide and not thread-safe: the renderer holds one lock, so eight threads at once still find the
    # same boxes and draw the same page (called directly: the server's admission limit would let only two in).
    with corpus_app_db.session(Tenant("acme", ("hq",))) as s:
        content = bytes(s.execute("SELECT f.content FROM files f JOIN documents d ON d.sha256 = f.sha256 "
                                  "WHERE d.id = %s", (cited["document_id"],)).fetchone()["content"])
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: find_and_render(content, cited["page"], cited["quote"], 200), range(32)))
    assert all(r == results[0] for r in results) and results[0][0] and results[0][1]


def test_behind_a_proxy_links_use_the_public_url_and_still_open(corpus_app_db, minilm, keys):
    from rag_serving.api.app import create_app
    from rag_serving.settings import load_settings
    from tests.servers import serve

    settings = load_settings({"RAG_HOME": "/tmp/unused", "RAG_PUBLIC_URL": "https://rag.example.com/answers"})
    with serve(create_app(settings, database=corpus_app_db, embedder=minilm), "/healthz") as base:
        source = ask(base, keys["acme"], QUESTION).json()["sources"][0]
        assert source["link"].startswith("https://rag.example.com/answers/documents/")
        assert source["pdf"].startswith("https://rag.example.com/answers/documents/")
        # The proxy strips the prefix; the signature holds whatever host the link was given under.
        assert httpx.get(source["pdf"].replace("https://rag.example.com/answers", base)).status_code == 200


def test_a_quote_is_located_across_line_breaks_and_case():
    from rag_serving.api.pages import locate

    text = "Leave:\r\n16 weeks  of\nparental leave. 16 WEEKS of parental leave."
    assert locate(text, "16 weeks of parental leave.") == (8, 36)  # the exact-case match, spanning the line break
    assert locate(text, "16 Weeks Of Parental Leave") == (8, 35)  # any case when no exact match
    assert locate(text, "17 weeks") is None and locate(text, "  ") is None
