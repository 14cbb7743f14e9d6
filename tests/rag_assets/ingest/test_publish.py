"""Publishing helpers: the sparse index's drop and rebuild around a bulk load."""

import pytest

from rag_assets.ingest.publish import bm25_index_deferred

INDEX = "SELECT to_regclass('chunks_bm25_hnsw')::oid AS oid"


def test_a_deferred_index_needs_an_open_transaction(conn):
    before = conn.execute(INDEX).fetchone()
    with pytest.raises(RuntimeError, match="open transaction"):
        with bm25_index_deferred(conn, 1):
            pass
    assert conn.execute(INDEX).fetchone() == before


def test_a_failed_load_keeps_the_index(conn):
    before = conn.execute(INDEX).fetchone()
    with pytest.raises(ValueError):
        with conn.transaction(), bm25_index_deferred(conn, 1):
            assert conn.execute(INDEX).fetchone()["oid"] is None
            raise ValueError("the load failed")
    assert conn.execute(INDEX).fetchone() == before
