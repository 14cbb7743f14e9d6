"""Signed page links, worked by hand: a token opens its one page until it expires, and nothing else."""

import base64
import hashlib
import hmac

from rag_serving.api import links

KEY_HASH = hashlib.sha256(b"rag_example-key").hexdigest()


def test_a_token_is_key_id_expiry_and_the_hmac_of_document_page_and_expiry():
    token = links.sign(KEY_HASH, "doc1", 7, ttl_s=60, now=1_000)
    expected = base64.urlsafe_b64encode(hmac.new(bytes.fromhex(KEY_HASH), b"doc1\n7\n1060", hashlib.sha256).digest())
    assert token == f"{KEY_HASH[:16]}.1060.{expected.rstrip(b'=').decode()}"
    assert links.key_id(token) == KEY_HASH[:16]


def test_a_token_opens_its_page_until_it_expires():
    token = links.sign(KEY_HASH, "doc1", 7, ttl_s=60, now=1_000)
    assert links.verify(token, KEY_HASH, "doc1", 7, now=1_060) is None
    assert "expired" in links.verify(token, KEY_HASH, "doc1", 7, now=1_061)


def test_a_token_opens_no_other_page_document_or_key():
    token = links.sign(KEY_HASH, "doc1", 7, ttl_s=60, now=1_000)
    other_key = hashlib.sha256(b"rag_other").hexdigest()
    for args in [(KEY_HASH, "doc1", 8), (KEY_HASH, "doc2", 7), (other_key, "doc1", 7)]:
        assert links.verify(token, *args, now=1_000) == "the link token is not for this page"


def test_a_changed_expiry_breaks_the_signature():
    key_id, _, mac = links.sign(KEY_HASH, "doc1", 7, ttl_s=60, now=1_000).split(".")
    assert links.verify(f"{key_id}.9999999999.{mac}", KEY_HASH, "doc1", 7, now=1_000) is not None
    assert links.verify("garbage", KEY_HASH, "doc1", 7) == "malformed link token"
