"""Test helper: a retrieval leg call in its own tenant session, as one request would make it."""

from __future__ import annotations

from rag_serving.search.legs import Retriever
from rag_serving.search.query import Query


def legs(database, embedder, **retriever_options):
    """search(tenant, question, **options) → hits of Retriever.search in a fresh tenant session."""
    retriever = Retriever(embedder, **retriever_options)

    def search(tenant, question, **options):
        with database.session(tenant) as session:
            return retriever.search(session, Query(question, embedder), **options)

    return search
